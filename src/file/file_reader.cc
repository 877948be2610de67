#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "crypto/aes_cipher.h"
#include "crypto/chunk_cipher.h"
#include "file/bloom_filter_read.h"
#include "file/file_decryption.h"
#include "file/page_index_read.h"
#include "file/writer_quirks.h"
#include "metadata/footer_metadata.h"
#include "metadata/thrift_compact.h"
#include "parquet_types.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"
#include "schema/schema_elements.h"

namespace pqpage {
namespace {

constexpr char kMagic[4] = {'P', 'A', 'R', '1'};
constexpr char kEncryptedMagic[4] = {'P', 'A', 'R', 'E'};
constexpr int64_t kTailSize = 8;  // footer length (4 bytes LE) + magic

// Parses the footer's bytes (between the data and the tail): the FileMetaData, or for an
// encrypted footer the FileCryptoMetaData and the FileMetaData decrypted from the module after
// it. A plaintext footer of an encrypted file has its signature checked when the key is there.
absl::Status ReadFooter(bool encrypted_footer, absl::Span<const uint8_t> footer,
                        const std::shared_ptr<const FileDecryptionProperties>& properties,
                        format::FileMetaData* metadata, format::FileCryptoMetaData* crypto,
                        std::optional<internal::FileDecryption>* decryption,
                        absl::Status* decryption_error) {
  std::vector<uint8_t> decrypted;
  if (encrypted_footer) {
    absl::StatusOr<size_t> parsed = internal::DeserializeCompact(footer, crypto);
    if (!parsed.ok()) {
      return absl::DataLossError(
          absl::StrCat("cannot read the file's crypto metadata: ", parsed.status().message()));
    }
    PQPAGE_ASSIGN_OR_RETURN(internal::FileDecryption made,
                            internal::FileDecryption::Make(crypto->encryption_algorithm,
                                                           crypto->key_metadata, properties));
    decryption->emplace(std::move(made));
    PQPAGE_ASSIGN_OR_RETURN(decrypted, (*decryption)->DecryptFooter(footer.subspan(*parsed)));
    footer = decrypted;
  }
  absl::StatusOr<size_t> parsed = internal::DeserializeCompact(footer, metadata);
  if (!parsed.ok()) {
    return absl::DataLossError(absl::StrCat("cannot read the footer: ", parsed.status().message()));
  }
  if (encrypted_footer || !metadata->__isset.encryption_algorithm) return absl::OkStatus();
  absl::StatusOr<internal::FileDecryption> made = internal::FileDecryption::Make(
      metadata->encryption_algorithm, metadata->footer_signing_key_metadata, properties);
  // A reader that cannot decrypt (no AAD prefix) still reads the columns left in the clear; the
  // encrypted ones say why they cannot be read.
  if (made.status().code() == absl::StatusCode::kPermissionDenied) {
    *decryption_error = made.status();
    return absl::OkStatus();
  }
  if (!made.ok()) return made.status();
  decryption->emplace(*std::move(made));
  return (*decryption)->CheckFooterSignature(footer.subspan(0, *parsed), footer.subspan(*parsed));
}

}  // namespace

struct FileReader::State {
  std::unique_ptr<ByteSource> source;
  std::string name;
  ReaderOptions options;
  format::FileMetaData metadata;
  FileMetaData public_metadata;  // the same footer in pqpage's plain types, for metadata()
  Schema schema;
  int64_t footer_size = 0;
  int64_t data_end = 0;  // where the footer starts: column chunks must end before it
  // For an encrypted file.
  std::optional<internal::FileDecryption> decryption;
  format::FileCryptoMetaData crypto_metadata;  // of a PARE file
  // Why a plaintext footer's file cannot be decrypted (its AAD prefix was not supplied).
  absl::Status decryption_error;

  absl::Status Error(absl::StatusCode code, absl::string_view message) const {
    return absl::Status(code, absl::StrCat(name, ": ", message));
  }
};

FileReader::FileReader() : state_(std::make_unique<State>()) {}
FileReader::~FileReader() = default;

absl::StatusOr<std::unique_ptr<FileReader>> FileReader::Open(const std::string& path,
                                                             ReaderOptions options) {
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<ByteSource> source, options.memory_map
                                                                  ? OpenMappedFileByteSource(path)
                                                                  : OpenFileByteSource(path));
  return Open(std::move(source), path, std::move(options));
}

absl::StatusOr<std::unique_ptr<FileReader>> FileReader::Open(std::unique_ptr<ByteSource> source,
                                                             std::string name,
                                                             ReaderOptions options) {
  std::unique_ptr<FileReader> reader(new FileReader());
  State& state = *reader->state_;
  state.source = std::move(source);
  state.name = std::move(name);
  state.options = std::move(options);
  const int64_t size = state.source->size();
  if (size < int64_t{sizeof(kMagic)} + kTailSize) {
    return state.Error(absl::StatusCode::kDataLoss,
                       absl::StrCat("not a Parquet file: only ", size, " bytes"));
  }
  uint8_t head[4];
  uint8_t tail[kTailSize];
  PQPAGE_RETURN_IF_ERROR(state.source->ReadAt(0, absl::MakeSpan(head)));
  PQPAGE_RETURN_IF_ERROR(state.source->ReadAt(size - kTailSize, absl::MakeSpan(tail)));
  const bool encrypted_footer = std::memcmp(tail + 4, kEncryptedMagic, 4) == 0;
  if (std::memcmp(head, encrypted_footer ? kEncryptedMagic : kMagic, 4) != 0 ||
      (!encrypted_footer && std::memcmp(tail + 4, kMagic, 4) != 0)) {
    return state.Error(absl::StatusCode::kDataLoss,
                       encrypted_footer
                           ? "not a Parquet file: ends in PARE (an encrypted footer) but does "
                             "not start with it"
                           : "not a Parquet file: PAR1 magic missing");
  }
  const uint32_t footer_length =
      static_cast<uint32_t>(tail[0]) | (static_cast<uint32_t>(tail[1]) << 8) |
      (static_cast<uint32_t>(tail[2]) << 16) | (static_cast<uint32_t>(tail[3]) << 24);
  if (footer_length > static_cast<uint64_t>(size - int64_t{sizeof(kMagic)} - kTailSize)) {
    return state.Error(absl::StatusCode::kDataLoss,
                       absl::StrCat("footer length ", footer_length, " is larger than the file"));
  }
  if (footer_length == 0) {
    return state.Error(absl::StatusCode::kDataLoss, "the footer is empty (length 0)");
  }
  state.footer_size = footer_length;
  state.data_end = size - kTailSize - footer_length;
  std::vector<uint8_t> footer(footer_length);
  PQPAGE_RETURN_IF_ERROR(state.source->ReadAt(state.data_end, absl::MakeSpan(footer)));
  absl::Status footer_read =
      ReadFooter(encrypted_footer, footer, state.options.decryption, &state.metadata,
                 &state.crypto_metadata, &state.decryption, &state.decryption_error);
  if (!footer_read.ok()) return state.Error(footer_read.code(), footer_read.message());
  absl::StatusOr<Schema> schema = internal::SchemaElements::ToSchema(state.metadata.schema);
  if (!schema.ok()) {
    return state.Error(schema.status().code(), schema.status().message());
  }
  state.schema = *std::move(schema);
  const size_t num_columns = state.schema.columns().size();
  for (size_t g = 0; g < state.metadata.row_groups.size(); ++g) {
    const format::RowGroup& group = state.metadata.row_groups[g];
    if (group.columns.size() != num_columns) {
      return state.Error(absl::StatusCode::kDataLoss,
                         absl::StrCat("row group ", g, " has ", group.columns.size(),
                                      " column chunks for ", num_columns, " leaf columns"));
    }
    if (group.num_rows < 0) {
      return state.Error(absl::StatusCode::kDataLoss,
                         absl::StrCat("row group ", g, " has negative num_rows"));
    }
  }
  if (state.decryption.has_value()) {
    absl::Status decrypted = state.decryption->DecryptColumnMetadata(state.schema, &state.metadata);
    if (!decrypted.ok()) return state.Error(decrypted.code(), decrypted.message());
  }
  state.public_metadata = internal::FileMetaDataFromThrift(state.metadata);
  if (encrypted_footer) {
    state.public_metadata.encryption = internal::EncryptionFromThrift(
        state.crypto_metadata.encryption_algorithm, state.crypto_metadata.key_metadata, true);
  }
  return reader;
}

const std::string& FileReader::name() const { return state_->name; }
const Schema& FileReader::schema() const { return state_->schema; }
int64_t FileReader::num_rows() const { return state_->metadata.num_rows; }
int FileReader::num_row_groups() const {
  return static_cast<int>(state_->metadata.row_groups.size());
}
int64_t FileReader::row_group_num_rows(int row_group) const {
  return state_->metadata.row_groups.at(static_cast<size_t>(row_group)).num_rows;
}
std::string FileReader::created_by() const {
  return state_->metadata.__isset.created_by ? state_->metadata.created_by : std::string();
}
const std::vector<KeyValue>& FileReader::key_value_metadata() const {
  return state_->public_metadata.key_value_metadata;
}
const ReaderOptions& FileReader::options() const { return state_->options; }
const FileMetaData& FileReader::metadata() const { return state_->public_metadata; }
const ByteSource& FileReader::source() const { return *state_->source; }
int64_t FileReader::footer_size() const { return state_->footer_size; }

absl::StatusOr<ColumnChunkLocation> FileReader::LocateColumnChunk(int row_group, int column) const {
  const State& state = *state_;
  if (row_group < 0 || row_group >= num_row_groups() || column < 0 ||
      column >= static_cast<int>(state.schema.columns().size())) {
    return absl::InvalidArgumentError(
        absl::StrCat(state.name, ": no column chunk (", row_group, ", ", column, ")"));
  }
  const ColumnDescriptor& descriptor = state.schema.columns()[static_cast<size_t>(column)];
  const std::string where = absl::StrCat("column '", descriptor.PathString(), "' (", state.name,
                                         ", row group ", row_group, ")");
  const format::RowGroup& group = state.metadata.row_groups[static_cast<size_t>(row_group)];
  const format::ColumnChunk& chunk = group.columns[static_cast<size_t>(column)];
  if (chunk.__isset.file_path && !chunk.file_path.empty()) {
    return absl::UnimplementedError(
        absl::StrCat(where, ": column chunk stored in another file (", chunk.file_path, ")"));
  }
  if (chunk.__isset.crypto_metadata) {
    // Before the metadata: an encrypted footer leaves it out for a column whose key is missing.
    PQPAGE_RETURN_IF_ERROR(ChunkCipher(row_group, column, false).status());
  }
  if (!chunk.__isset.meta_data) {
    return absl::DataLossError(absl::StrCat(where, ": column chunk without metadata"));
  }
  const format::ColumnMetaData& meta = chunk.meta_data;
  if (static_cast<int>(meta.type) != static_cast<int>(descriptor.type)) {
    return absl::DataLossError(absl::StrCat(where, ": chunk type ", static_cast<int>(meta.type),
                                            " differs from the schema's ",
                                            PhysicalTypeName(descriptor.type).data()));
  }
  if (meta.codec < format::CompressionCodec::UNCOMPRESSED ||
      meta.codec > format::CompressionCodec::LZ4_RAW) {
    return absl::UnimplementedError(
        absl::StrCat(where, ": unknown compression codec id ", static_cast<int>(meta.codec)));
  }
  ColumnChunkLocation location;
  // The chunk starts at its first page. Writers have set dictionary_page_offset to 0 with no
  // dictionary, after the data pages, and (Arrow 17) data_page_offset to 0 beside a real
  // dictionary_page_offset: the earliest offset that can hold a page is the start.
  location.offset = meta.data_page_offset;
  if (meta.__isset.dictionary_page_offset &&
      meta.dictionary_page_offset >= int64_t{sizeof(kMagic)} &&
      (meta.dictionary_page_offset < location.offset ||
       location.offset < int64_t{sizeof(kMagic)})) {
    location.offset = meta.dictionary_page_offset;
  }
  location.length = meta.total_compressed_size;
  if (chunk.__isset.crypto_metadata) {
    PQPAGE_ASSIGN_OR_RETURN(location.cipher,
                            ChunkCipher(row_group, column,
                                        meta.__isset.dictionary_page_offset &&
                                            location.offset == meta.dictionary_page_offset));
  }
  if (internal::UndercountsDictionaryHeader(created_by()) && location.offset >= 0 &&
      location.length >= 0 && location.offset <= state.data_end &&
      location.length <= state.data_end - location.offset) {
    constexpr int64_t kMaxDictionaryHeaderBytes = 100;
    location.length +=
        std::min(kMaxDictionaryHeaderBytes, state.data_end - location.offset - location.length);
  }
  location.codec = static_cast<Compression>(meta.codec);
  location.num_values = meta.num_values;
  location.num_rows = group.num_rows;
  location.context = absl::StrCat(state.name, ", row group ", row_group);
  location.carry_delta_byte_array_prefix =
      internal::CarriesDeltaByteArrayPrefixAcrossPages(created_by());
  location.bit_packed_levels = internal::PacksBitPackedLevelsLsbFirst(created_by())
                                   ? BitPackedOrder::kLeastSignificantFirst
                                   : BitPackedOrder::kMostSignificantFirst;
  // A chunk of no values and no bytes holds nothing to read, wherever it claims to be: pyarrow
  // writes a zero-row table's chunks (without dictionary) at offset 0 with size 0.
  const bool empty = location.length == 0 && location.num_values == 0 && location.offset >= 0 &&
                     location.offset <= state.data_end;
  if (!empty &&
      (location.offset < int64_t{sizeof(kMagic)} || location.length < 0 ||
       location.offset > state.data_end || location.length > state.data_end - location.offset)) {
    return absl::DataLossError(
        absl::StrCat(where, ": column chunk at ", location.offset, " of ", location.length,
                     " bytes lies outside the file's data (which ends at ", state.data_end, ")"));
  }
  if (location.num_values < 0) {
    return absl::DataLossError(absl::StrCat(where, ": negative num_values"));
  }
  if (descriptor.max_repetition_level == 0 && location.num_values != group.num_rows) {
    return absl::DataLossError(absl::StrCat(where, ": ", location.num_values,
                                            " values in a column without repetition, but the row "
                                            "group has ",
                                            group.num_rows, " rows"));
  }
  return location;
}

absl::StatusOr<std::shared_ptr<const ColumnChunkCipher>> FileReader::ChunkCipher(
    int row_group, int column, bool starts_with_dictionary) const {
  const State& state = *state_;
  const format::ColumnChunk& chunk = state.metadata.row_groups[static_cast<size_t>(row_group)]
                                         .columns[static_cast<size_t>(column)];
  absl::StatusOr<std::shared_ptr<const ColumnChunkCipher>> cipher = nullptr;
  if (!state.decryption.has_value()) {
    if (!chunk.__isset.crypto_metadata) {
      cipher = nullptr;
    } else if (!state.metadata.__isset.encryption_algorithm) {
      cipher = absl::DataLossError("the column claims to be encrypted in a file that is not");
    } else if (state.options.decryption == nullptr) {
      cipher = absl::PermissionDeniedError(
          "the column is encrypted, and the file's keys were not given");
    } else {
      cipher = absl::PermissionDeniedError(
          absl::StrCat("the column is encrypted: ", state.decryption_error.message()));
    }
  } else {
    cipher = state.decryption->ChunkCipher(state.schema, chunk, row_group, column,
                                           starts_with_dictionary);
  }
  if (cipher.ok()) return cipher;
  return absl::Status(cipher.status().code(),
                      absl::StrCat(state.name, ": row group ", row_group, ", column '",
                                   state.schema.columns()[static_cast<size_t>(column)].PathString(),
                                   "': ", cipher.status().message()));
}

absl::StatusOr<std::optional<ChunkPageIndex>> FileReader::ReadPageIndex(int row_group,
                                                                        int column) const {
  PQPAGE_ASSIGN_OR_RETURN(const ColumnChunkLocation location, LocateColumnChunk(row_group, column));
  const State& state = *state_;
  const ColumnDescriptor& descriptor = state.schema.columns()[static_cast<size_t>(column)];
  const format::ColumnChunk& chunk = state.metadata.row_groups[static_cast<size_t>(row_group)]
                                         .columns[static_cast<size_t>(column)];
  const std::string where = absl::StrCat(state.name, ": row group ", row_group, ", column '",
                                         descriptor.PathString(), "': page index: ");
  // Reads one index's bytes after checking that they lie between the magic and the footer.
  auto read = [&](const char* what, bool present, int64_t offset, int32_t length,
                  std::vector<uint8_t>* bytes) -> absl::Status {
    if (!present) return absl::OkStatus();
    if (offset < int64_t{sizeof(kMagic)} || length <= 0 || offset > state.data_end - length) {
      return absl::DataLossError(absl::StrCat(where, what, " at offset ", offset, " (", length,
                                              " bytes) is not inside the file's data (4..",
                                              state.data_end, ")"));
    }
    bytes->resize(static_cast<size_t>(length));
    return state.source->ReadAt(offset, absl::MakeSpan(*bytes));
  };
  const bool has_column_index =
      chunk.__isset.column_index_offset && chunk.__isset.column_index_length;
  const bool has_offset_index =
      chunk.__isset.offset_index_offset && chunk.__isset.offset_index_length;
  if (!has_column_index && !has_offset_index) return std::nullopt;
  std::vector<uint8_t> column_bytes;
  std::vector<uint8_t> offset_bytes;
  PQPAGE_RETURN_IF_ERROR(read("ColumnIndex", has_column_index, chunk.column_index_offset,
                              chunk.column_index_length, &column_bytes));
  PQPAGE_RETURN_IF_ERROR(read("OffsetIndex", has_offset_index, chunk.offset_index_offset,
                              chunk.offset_index_length, &offset_bytes));
  if (location.cipher != nullptr) {
    // Each index is a module of the column's key.
    auto decrypt = [&](const char* what, bool present, internal::ModuleType type,
                       std::vector<uint8_t>* bytes) -> absl::Status {
      if (!present) return absl::OkStatus();
      absl::StatusOr<std::vector<uint8_t>> plain = location.cipher->Decrypt(type, 0, *bytes);
      if (!plain.ok()) {
        return absl::DataLossError(absl::StrCat(where, what, ": ", plain.status().message()));
      }
      *bytes = *std::move(plain);
      return absl::OkStatus();
    };
    PQPAGE_RETURN_IF_ERROR(decrypt("ColumnIndex", has_column_index,
                                   internal::ModuleType::kColumnIndex, &column_bytes));
    PQPAGE_RETURN_IF_ERROR(decrypt("OffsetIndex", has_offset_index,
                                   internal::ModuleType::kOffsetIndex, &offset_bytes));
  }
  internal::PageIndexChunk bounds;
  bounds.begin = location.offset;
  bounds.end = location.offset + location.length;
  bounds.num_rows = row_group_num_rows(row_group);
  absl::StatusOr<ChunkPageIndex> index = internal::ParsePageIndex(
      descriptor, bounds,
      has_column_index ? std::optional<absl::Span<const uint8_t>>(column_bytes) : std::nullopt,
      has_offset_index ? std::optional<absl::Span<const uint8_t>>(offset_bytes) : std::nullopt);
  if (!index.ok()) return absl::DataLossError(absl::StrCat(where, index.status().message()));
  return std::optional<ChunkPageIndex>(*std::move(index));
}

absl::StatusOr<std::optional<BloomFilter>> FileReader::ReadBloomFilter(int row_group,
                                                                       int column) const {
  PQPAGE_ASSIGN_OR_RETURN(const ColumnChunkLocation location, LocateColumnChunk(row_group, column));
  const State& state = *state_;
  const format::ColumnChunk& chunk = state.metadata.row_groups[static_cast<size_t>(row_group)]
                                         .columns[static_cast<size_t>(column)];
  if (!chunk.__isset.meta_data || !chunk.meta_data.__isset.bloom_filter_offset) {
    return std::nullopt;
  }
  const format::ColumnMetaData& meta = chunk.meta_data;
  absl::StatusOr<BloomFilter> filter = internal::ReadBloomFilterAt(
      *state.source, meta.bloom_filter_offset,
      meta.__isset.bloom_filter_length ? std::optional<int32_t>(meta.bloom_filter_length)
                                       : std::nullopt,
      int64_t{sizeof(kMagic)}, state.data_end, location.cipher.get());
  if (!filter.ok()) {
    return absl::Status(
        filter.status().code(),
        absl::StrCat(state.name, ": row group ", row_group, ", column '",
                     state.schema.columns()[static_cast<size_t>(column)].PathString(),
                     "': ", filter.status().message()));
  }
  return std::optional<BloomFilter>(*std::move(filter));
}

absl::StatusOr<ColumnChunkReader> FileReader::OpenColumnChunk(int row_group, int column) const {
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkLocation location, LocateColumnChunk(row_group, column));
  return ColumnChunkReader(state_->schema.columns()[static_cast<size_t>(column)],
                           state_->source.get(), std::move(location), state_->options);
}

}  // namespace pqpage
