#include "file/file_encryption.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "crypto/aes_cipher.h"
#include "crypto/module_aad.h"
#include "metadata/thrift_compact.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {
namespace {

constexpr size_t kAadFileUniqueBytes = 8;

}  // namespace

absl::StatusOr<FileEncryption> FileEncryption::Make(
    std::shared_ptr<const FileEncryptionProperties> properties, const Schema& schema) {
  FileEncryption encryption;
  if (absl::Status status = CheckAesKey(properties->footer_key); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("the footer key: ", status.message()));
  }
  for (const ColumnDescriptor& column : schema.columns()) {
    encryption.paths_.push_back(column.PathString());
  }
  const std::vector<std::string> unknown = UnknownEncryptionColumns(*properties, schema);
  if (!unknown.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("a key is given for column '", unknown[0],
                                                   "', which the schema does not have"));
  }
  for (const auto& [path, key] : properties->column_keys) {
    if (absl::Status status = CheckAesKey(key.key); !status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the key of column '", path, "': ", status.message()));
    }
  }
  PQPAGE_ASSIGN_OR_RETURN(encryption.aad_file_unique_, RandomBytes(kAadFileUniqueBytes));
  encryption.file_aad_ = properties->aad_prefix + encryption.aad_file_unique_;
  encryption.properties_ = std::move(properties);
  return encryption;
}

absl::StatusOr<std::shared_ptr<const ColumnChunkCipher>> FileEncryption::ChunkCipher(
    int64_t row_group, int column) const {
  const std::string& path = paths_[static_cast<size_t>(column)];
  const std::string* key = &properties_->footer_key;
  if (!properties_->column_keys.empty()) {
    const auto found = properties_->column_keys.find(path);
    if (found == properties_->column_keys.end()) return nullptr;
    key = &found->second.key;
  }
  PQPAGE_ASSIGN_OR_RETURN(AesCipher cipher, AesCipher::Make(*key));
  return std::make_shared<const ColumnChunkCipher>(std::move(cipher), properties_->algorithm,
                                                   file_aad_, row_group, column, false);
}

absl::StatusOr<ColumnChunkData> FileEncryption::EncryptPages(const ColumnChunkCipher& cipher,
                                                             int64_t offset,
                                                             const ColumnChunkData& chunk) {
  // Everything but the pages is copied; the pages are written anew below.
  ColumnChunkData encrypted;
  encrypted.metadata = chunk.metadata;
  encrypted.num_rows = chunk.num_rows;
  encrypted.page_index = chunk.page_index;
  ColumnMetaData& meta = encrypted.metadata;
  // Pages may cross the boundaries of a chunk in pieces: those are read from one copy.
  std::vector<uint8_t> joined;
  if (!chunk.more_bytes.empty()) {
    joined.reserve(static_cast<size_t>(chunk.stored_size()));
    joined = chunk.bytes;
    for (const std::vector<uint8_t>& piece : chunk.more_bytes) {
      joined.insert(joined.end(), piece.begin(), piece.end());
    }
  }
  const std::vector<uint8_t>& bytes = chunk.more_bytes.empty() ? chunk.bytes : joined;
  const int64_t old_start = meta.dictionary_page_offset.value_or(meta.data_page_offset);
  std::vector<IndexedPage>& indexed = encrypted.page_index.pages;
  std::vector<uint8_t>& out = encrypted.bytes;
  out.reserve(bytes.size() + bytes.size() / 64 + 256);
  std::vector<uint8_t> header_bytes;
  std::vector<uint8_t> page;
  size_t position = 0;
  size_t next_indexed = 0;
  int64_t data_pages = 0;
  std::optional<int64_t> first_data_page;
  while (position < bytes.size()) {
    format::PageHeader header;
    absl::StatusOr<size_t> parsed =
        DeserializeCompact(absl::MakeConstSpan(bytes).subspan(position), &header);
    if (!parsed.ok() || header.compressed_page_size < 0 ||
        static_cast<size_t>(header.compressed_page_size) > bytes.size() - position - *parsed) {
      return absl::DataLossError(
          absl::StrCat("cannot encrypt the chunk: no page at its byte ", position));
    }
    const size_t body = static_cast<size_t>(header.compressed_page_size);
    const bool dictionary = header.type == format::PageType::DICTIONARY_PAGE;
    const int64_t ordinal = dictionary ? 0 : data_pages;
    const int64_t page_offset = offset + static_cast<int64_t>(out.size());
    page.clear();
    PQPAGE_RETURN_IF_ERROR(
        cipher.Encrypt(dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage, ordinal,
                       absl::MakeConstSpan(bytes).subspan(position + *parsed, body), &page));
    header.__set_compressed_page_size(static_cast<int32_t>(page.size()));
    header_bytes.clear();
    PQPAGE_RETURN_IF_ERROR(SerializeCompact(header, &header_bytes));
    PQPAGE_RETURN_IF_ERROR(
        cipher.Encrypt(dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader,
                       ordinal, header_bytes, &out));
    out.insert(out.end(), page.begin(), page.end());
    if (!dictionary) {
      if (!first_data_page) first_data_page = page_offset;
      if (next_indexed < indexed.size() &&
          indexed[next_indexed].offset == old_start + static_cast<int64_t>(position)) {
        indexed[next_indexed].offset = page_offset;
        indexed[next_indexed].compressed_page_size =
            static_cast<int32_t>(offset + static_cast<int64_t>(out.size()) - page_offset);
        ++next_indexed;
      }
      ++data_pages;
    }
    position += *parsed + body;
  }
  if (next_indexed != indexed.size()) {
    return absl::DataLossError("cannot encrypt the chunk: its offset index names other pages");
  }
  if (meta.dictionary_page_offset) meta.dictionary_page_offset = offset;
  meta.data_page_offset = first_data_page.value_or(offset);
  meta.total_compressed_size = static_cast<int64_t>(out.size());
  return encrypted;
}

format::EncryptionAlgorithm FileEncryption::Algorithm() const {
  format::EncryptionAlgorithm algorithm;
  auto fill = [this](auto* fields) {
    fields->__set_aad_file_unique(aad_file_unique_);
    if (!properties_->aad_prefix.empty()) {
      if (properties_->store_aad_prefix) {
        fields->__set_aad_prefix(properties_->aad_prefix);
      } else {
        fields->__set_supply_aad_prefix(true);
      }
    }
  };
  if (properties_->algorithm == EncryptionAlgorithm::kAesGcmCtrV1) {
    format::AesGcmCtrV1 fields;
    fill(&fields);
    algorithm.__set_AES_GCM_CTR_V1(fields);
  } else {
    format::AesGcmV1 fields;
    fill(&fields);
    algorithm.__set_AES_GCM_V1(fields);
  }
  return algorithm;
}

absl::Status FileEncryption::EncryptColumnMetadata(int64_t row_group, int column,
                                                   format::ColumnChunk* chunk) const {
  PQPAGE_ASSIGN_OR_RETURN(const std::shared_ptr<const ColumnChunkCipher> cipher,
                          ChunkCipher(row_group, column));
  if (cipher == nullptr) return absl::OkStatus();
  const bool footer_key = properties_->column_keys.empty();
  format::ColumnCryptoMetaData crypto;
  if (footer_key) {
    crypto.__set_ENCRYPTION_WITH_FOOTER_KEY(format::EncryptionWithFooterKey());
  } else {
    format::EncryptionWithColumnKey with_key;
    with_key.__set_path_in_schema(chunk->meta_data.path_in_schema);
    const std::string& metadata =
        properties_->column_keys.at(paths_[static_cast<size_t>(column)]).key_metadata;
    if (!metadata.empty()) with_key.__set_key_metadata(metadata);
    crypto.__set_ENCRYPTION_WITH_COLUMN_KEY(with_key);
  }
  chunk->__set_crypto_metadata(crypto);
  // Under an encrypted footer, a column of the footer key needs no module of its own.
  if (footer_key && encrypted_footer()) return absl::OkStatus();
  std::vector<uint8_t> plain;
  PQPAGE_RETURN_IF_ERROR(SerializeCompact(chunk->meta_data, &plain));
  std::vector<uint8_t> module;
  PQPAGE_RETURN_IF_ERROR(cipher->Encrypt(ModuleType::kColumnMetaData, 0, plain, &module));
  chunk->__set_encrypted_column_metadata(std::string(module.begin(), module.end()));
  if (encrypted_footer()) {
    chunk->__isset.meta_data = false;
    chunk->meta_data = format::ColumnMetaData();
  } else {
    // Readers without the key still find the chunk, but not what its values are like.
    chunk->meta_data.__isset.statistics = false;
    chunk->meta_data.__isset.encoding_stats = false;
    chunk->meta_data.__isset.size_statistics = false;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint8_t>> FileEncryption::Footer(
    const format::FileMetaData& clear_footer) const {
  format::FileMetaData footer = clear_footer;
  PQPAGE_ASSIGN_OR_RETURN(AesCipher cipher, AesCipher::Make(properties_->footer_key));
  std::vector<uint8_t> bytes;
  if (encrypted_footer()) {
    format::FileCryptoMetaData crypto;
    crypto.__set_encryption_algorithm(Algorithm());
    if (!properties_->footer_key_metadata.empty()) {
      crypto.__set_key_metadata(properties_->footer_key_metadata);
    }
    PQPAGE_RETURN_IF_ERROR(SerializeCompact(crypto, &bytes));
    std::vector<uint8_t> plain;
    PQPAGE_RETURN_IF_ERROR(SerializeCompact(footer, &plain));
    PQPAGE_RETURN_IF_ERROR(cipher.EncryptGcm(plain, FooterAad(file_aad_), &bytes));
    return bytes;
  }
  footer.__set_encryption_algorithm(Algorithm());
  if (!properties_->footer_key_metadata.empty()) {
    footer.__set_footer_signing_key_metadata(properties_->footer_key_metadata);
  }
  PQPAGE_RETURN_IF_ERROR(SerializeCompact(footer, &bytes));
  // The signature is the nonce and tag of the footer's GCM encryption; the ciphertext is dropped.
  std::vector<uint8_t> module;
  PQPAGE_RETURN_IF_ERROR(cipher.EncryptGcm(bytes, FooterAad(file_aad_), &module));
  bytes.insert(bytes.end(), module.begin() + kModuleLengthBytes,
               module.begin() + kModuleLengthBytes + kNonceBytes);
  bytes.insert(bytes.end(), module.end() - kTagBytes, module.end());
  return bytes;
}

}  // namespace pqpage::internal

namespace pqpage {

std::vector<std::string> UnknownEncryptionColumns(const FileEncryptionProperties& encryption,
                                                  const Schema& schema) {
  std::vector<std::string> unknown;
  for (const auto& [path, key] : encryption.column_keys) {
    if (!schema.FindColumn(path)) unknown.push_back(path);
  }
  return unknown;
}

}  // namespace pqpage
