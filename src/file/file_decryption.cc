#include "file/file_decryption.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "crypto/module_aad.h"
#include "metadata/footer_metadata.h"
#include "metadata/thrift_compact.h"
#include "pqpage/value_text.h"

namespace pqpage::internal {
namespace {

std::string ShowKeyMetadata(const std::string& metadata) {
  return metadata.empty() ? "no key metadata"
                          : absl::StrCat("key metadata ", QuotedExcerpt(metadata));
}

}  // namespace

absl::StatusOr<FileDecryption> FileDecryption::Make(
    const format::EncryptionAlgorithm& algorithm, std::string footer_key_metadata,
    std::shared_ptr<const FileDecryptionProperties> properties) {
  FileDecryption decryption;
  decryption.properties_ = std::move(properties);
  decryption.footer_key_metadata_ = std::move(footer_key_metadata);
  const FileMetaData::Encryption stored =
      EncryptionFromThrift(algorithm, decryption.footer_key_metadata_, /*encrypted_footer=*/true);
  if (stored.algorithm == EncryptionAlgorithmName(EncryptionAlgorithm::kAesGcmV1)) {
    decryption.algorithm_ = EncryptionAlgorithm::kAesGcmV1;
  } else if (stored.algorithm == EncryptionAlgorithmName(EncryptionAlgorithm::kAesGcmCtrV1)) {
    decryption.algorithm_ = EncryptionAlgorithm::kAesGcmCtrV1;
  } else {
    return absl::UnimplementedError("the file is encrypted with an unknown algorithm");
  }
  const std::string& stored_prefix = stored.aad_prefix;
  const std::string given_prefix =
      decryption.properties_ != nullptr ? decryption.properties_->aad_prefix : std::string();
  std::string prefix = stored_prefix;
  if (!given_prefix.empty()) {
    if (!stored_prefix.empty() && stored_prefix != given_prefix) {
      return absl::DataLossError(
          "the AAD prefix given differs from the one the file stores: the file is not the one "
          "expected");
    }
    prefix = given_prefix;
  } else if (stored.supply_aad_prefix) {
    return absl::PermissionDeniedError(
        "the file's writer did not store its AAD prefix: the reader must supply it");
  }
  decryption.file_aad_ = prefix + stored.aad_file_unique;
  return decryption;
}

std::string FileDecryption::KeyName(bool footer, const std::string& path,
                                    const std::string& metadata) {
  return absl::StrCat(footer ? std::string() : path, "\n", metadata);
}

absl::StatusOr<AesCipher> FileDecryption::Key(bool footer, const std::string& path,
                                              const std::string& key_metadata) {
  const std::string name = KeyName(footer, path, key_metadata);
  auto found = keys_.find(name);
  if (found == keys_.end()) {
    absl::StatusOr<std::string> key = absl::PermissionDeniedError("no key");
    const FileDecryptionProperties* given = properties_.get();
    const std::string what = footer ? std::string("the footer key")
                                    : absl::StrCat("the key of column '", path, "' (",
                                                   ShowKeyMetadata(key_metadata), ")");
    if (given != nullptr && footer && !given->footer_key.empty()) {
      key = given->footer_key;
    } else if (given != nullptr && !footer && given->column_keys.count(path) != 0) {
      key = given->column_keys.at(path);
    } else if (given != nullptr && given->key_retriever) {
      key = given->key_retriever(key_metadata);
      if (!key.ok()) {
        key = absl::Status(key.status().code(),
                           absl::StrCat("cannot retrieve ", what, ": ", key.status().message()));
      }
    } else {
      key = absl::PermissionDeniedError(absl::StrCat(
          what, " is needed and was not given",
          footer ? absl::StrCat(" (", ShowKeyMetadata(key_metadata), ")") : std::string()));
    }
    if (key.ok()) {
      if (absl::Status status = CheckAesKey(*key); !status.ok()) {
        key = absl::InvalidArgumentError(absl::StrCat(what, ": ", status.message()));
      }
    }
    found = keys_.emplace(name, std::move(key)).first;
  }
  if (!found->second.ok()) return found->second.status();
  return AesCipher::Make(*found->second);
}

absl::StatusOr<std::vector<uint8_t>> FileDecryption::DecryptFooter(
    absl::Span<const uint8_t> module) {
  absl::StatusOr<AesCipher> key = Key(true, "", footer_key_metadata_);
  if (!key.ok()) {
    return absl::Status(key.status().code(),
                        absl::StrCat("the footer is encrypted: ", key.status().message()));
  }
  absl::StatusOr<size_t> size = ModuleSize(module, true);
  if (!size.ok()) return size.status();
  if (*size != module.size()) {
    return absl::DataLossError(absl::StrCat("the encrypted footer module takes ", *size,
                                            " bytes of the footer's ", module.size()));
  }
  std::vector<uint8_t> footer(module.size() - kGcmOverhead);
  if (absl::Status status = key->DecryptGcm(module, FooterAad(file_aad_), absl::MakeSpan(footer));
      !status.ok()) {
    return absl::DataLossError(absl::StrCat("the footer: ", status.message()));
  }
  return footer;
}

absl::Status FileDecryption::CheckFooterSignature(absl::Span<const uint8_t> footer,
                                                  absl::Span<const uint8_t> signature) {
  if (properties_ == nullptr || !properties_->check_footer_signature) return absl::OkStatus();
  absl::StatusOr<AesCipher> key = Key(true, "", footer_key_metadata_);
  if (!key.ok()) {
    // Without the footer key the footer is read unsigned: its plain columns are still readable.
    if (key.status().code() == absl::StatusCode::kPermissionDenied ||
        key.status().code() == absl::StatusCode::kNotFound) {
      return absl::OkStatus();
    }
    return key.status();
  }
  if (signature.size() != kNonceBytes + kTagBytes) {
    return absl::DataLossError("the plaintext footer's signature is not 28 bytes");
  }
  absl::StatusOr<std::array<uint8_t, kTagBytes>> tag =
      key->GcmTag(footer, FooterAad(file_aad_), signature.subspan(0, kNonceBytes));
  if (!tag.ok()) return tag.status();
  if (!std::equal(tag->begin(), tag->end(), signature.begin() + kNonceBytes)) {
    return absl::DataLossError(
        "the plaintext footer's signature does not match: a wrong footer key or AAD prefix, or "
        "a changed footer");
  }
  return absl::OkStatus();
}

absl::Status FileDecryption::DecryptColumnMetadata(const Schema& schema,
                                                   format::FileMetaData* footer) {
  for (size_t g = 0; g < footer->row_groups.size(); ++g) {
    std::vector<format::ColumnChunk>& chunks = footer->row_groups[g].columns;
    for (size_t c = 0; c < chunks.size() && c < schema.columns().size(); ++c) {
      format::ColumnChunk& chunk = chunks[c];
      if (!chunk.__isset.crypto_metadata) continue;
      const ColumnDescriptor& column = schema.columns()[c];
      const std::string path = column.PathString();
      const std::string where = absl::StrCat("row group ", g, ", column '", path, "': ");
      const format::ColumnCryptoMetaData& crypto = chunk.crypto_metadata;
      absl::StatusOr<AesCipher> key = absl::DataLossError("");
      if (crypto.__isset.ENCRYPTION_WITH_FOOTER_KEY) {
        key = Key(true, path, footer_key_metadata_);
      } else if (crypto.__isset.ENCRYPTION_WITH_COLUMN_KEY) {
        if (crypto.ENCRYPTION_WITH_COLUMN_KEY.path_in_schema != column.path) {
          return absl::DataLossError(
              absl::StrCat(where, "its encryption names another column's path"));
        }
        key = Key(false, path, crypto.ENCRYPTION_WITH_COLUMN_KEY.key_metadata);
      } else {
        return absl::DataLossError(absl::StrCat(where, "encrypted with no key named"));
      }
      if (!key.ok() || !chunk.__isset.encrypted_column_metadata) continue;
      absl::StatusOr<std::string> aad = ModuleAad(file_aad_, ModuleType::kColumnMetaData,
                                                  static_cast<int64_t>(g), static_cast<int64_t>(c));
      if (!aad.ok()) return absl::DataLossError(absl::StrCat(where, aad.status().message()));
      const auto* bytes = reinterpret_cast<const uint8_t*>(chunk.encrypted_column_metadata.data());
      const absl::Span<const uint8_t> module(bytes, chunk.encrypted_column_metadata.size());
      absl::StatusOr<size_t> size = ModuleSize(module, true);
      if (size.ok() && *size != module.size()) {
        size = absl::DataLossError("its length is not the module's");
      }
      // Metadata that does not authenticate or parse (a wrong column key, changed bytes) makes
      // its chunk unreadable, not the file.
      absl::Status status = size.status();
      std::vector<uint8_t> plain;
      if (status.ok()) {
        plain.resize(module.size() - kGcmOverhead);
        status = key->DecryptGcm(module, *aad, absl::MakeSpan(plain));
      }
      format::ColumnMetaData meta;
      if (status.ok()) status = DeserializeCompact(plain, &meta).status();
      if (!status.ok()) {
        chunk_errors_[{g, c}] =
            absl::DataLossError(absl::StrCat("its encrypted column metadata: ", status.message()));
        continue;
      }
      chunk.meta_data = meta;  // Thrift's generated classes copy
      chunk.__isset.meta_data = true;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<AesCipher> FileDecryption::ChunkKey(const Schema& schema,
                                                   const format::ColumnChunk& chunk,
                                                   int column) const {
  const format::ColumnCryptoMetaData& crypto = chunk.crypto_metadata;
  const bool footer = crypto.__isset.ENCRYPTION_WITH_FOOTER_KEY;
  const std::string path = schema.columns()[static_cast<size_t>(column)].PathString();
  const auto found = keys_.find(
      KeyName(footer, path,
              footer ? footer_key_metadata_ : crypto.ENCRYPTION_WITH_COLUMN_KEY.key_metadata));
  if (found == keys_.end()) {
    return absl::DataLossError(absl::StrCat("column '", path, "': encrypted with no key named"));
  }
  if (!found->second.ok()) {
    return absl::Status(
        found->second.status().code(),
        absl::StrCat("encrypted, and cannot be read: ", found->second.status().message()));
  }
  return AesCipher::Make(*found->second);
}

absl::StatusOr<std::shared_ptr<const ColumnChunkCipher>> FileDecryption::ChunkCipher(
    const Schema& schema, const format::ColumnChunk& chunk, int row_group, int column,
    bool starts_with_dictionary) const {
  if (!chunk.__isset.crypto_metadata) return nullptr;
  const auto failed =
      chunk_errors_.find({static_cast<size_t>(row_group), static_cast<size_t>(column)});
  if (failed != chunk_errors_.end()) return failed->second;
  absl::StatusOr<AesCipher> key = ChunkKey(schema, chunk, column);
  if (!key.ok()) return key.status();
  return std::make_shared<const ColumnChunkCipher>(*std::move(key), algorithm_, file_aad_,
                                                   row_group, column, starts_with_dictionary);
}

}  // namespace pqpage::internal
