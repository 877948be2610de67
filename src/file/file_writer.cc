// FileWriter: "PAR1", the column chunks streamed to the file as they come, then the footer
// (FileMetaData in Thrift compact), its 4-byte little-endian length and "PAR1" again. Only the
// footer's metadata stays in memory.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/output_file.h"
#include "crypto/chunk_cipher.h"
#include "file/file_encryption.h"
#include "file/page_index_thrift.h"
#include "metadata/bloom_filter_header.h"
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

// A chunk's bloom filter as stored: header and bitset, each a module for an encrypted chunk.
absl::StatusOr<std::vector<uint8_t>> BloomFilterBytes(const ColumnChunkData& chunk,
                                                      const ColumnChunkCipher* cipher) {
  std::vector<uint8_t> filter;
  if (!chunk.bloom_filter.has_value()) return filter;
  std::vector<uint8_t> header;
  PQPAGE_RETURN_IF_ERROR(internal::AppendBloomFilterHeader(
      static_cast<int32_t>(chunk.bloom_filter->num_bytes()), &header));
  const std::vector<uint8_t> bitset = chunk.bloom_filter->Bitset();
  if (cipher == nullptr) {
    filter = std::move(header);
    filter.insert(filter.end(), bitset.begin(), bitset.end());
    return filter;
  }
  PQPAGE_RETURN_IF_ERROR(
      cipher->Encrypt(internal::ModuleType::kBloomFilterHeader, 0, header, &filter));
  PQPAGE_RETURN_IF_ERROR(
      cipher->Encrypt(internal::ModuleType::kBloomFilterBitset, 0, bitset, &filter));
  return filter;
}

}  // namespace

struct FileWriter::State {
  std::string path;
  Schema schema;
  FileWriterOptions options;
  int fd = -1;
  int64_t position = 0;
  bool closed = false;
  // The first write error: the file is unusable after it.
  absl::Status io_status;

  bool in_row_group = false;
  format::RowGroup row_group;  // the one being written
  std::vector<format::RowGroup> row_groups;
  // The page indexes of every chunk written, per row group and column, until Close writes them
  // after the row groups.
  struct ChunkIndexes {
    std::optional<format::ColumnIndex> column_index;
    std::optional<format::OffsetIndex> offset_index;
    std::shared_ptr<const ColumnChunkCipher> cipher;  // for an encrypted chunk
  };
  std::vector<ChunkIndexes> row_group_indexes;  // the row group being written
  std::vector<std::vector<ChunkIndexes>> indexes;
  // The bloom filters of the row group being written (header and bitset, as stored), by column;
  // EndRowGroup writes them after its chunks, so memory holds one row group's filters.
  std::vector<std::vector<uint8_t>> row_group_filters;
  int64_t num_rows = 0;
  std::optional<internal::FileEncryption> encryption;

  const char* Magic() const {
    return encryption.has_value() && encryption->encrypted_footer() ? kEncryptedMagic : kMagic;
  }

  absl::Status Write(absl::Span<const uint8_t> bytes) {
    PQPAGE_RETURN_IF_ERROR(io_status);
    io_status = internal::WriteAll(fd, bytes, path);
    PQPAGE_RETURN_IF_ERROR(io_status);
    position += static_cast<int64_t>(bytes.size());
    return absl::OkStatus();
  }

  // Every ColumnIndex, then every OffsetIndex (row group by row group, column by column), as
  // other writers place them: between the last row group and the footer, so that a reader can
  // fetch all of one kind at once. Their offsets and lengths go into the chunks' footer entries.
  absl::Status WritePageIndexes() {
    std::vector<uint8_t> bytes;  // all of them, written at once
    for (const bool column_indexes : {true, false}) {
      for (size_t rg = 0; rg < indexes.size(); ++rg) {
        for (size_t c = 0; c < indexes[rg].size(); ++c) {
          const ChunkIndexes& chunk = indexes[rg][c];
          const size_t before = bytes.size();
          std::vector<uint8_t> plain;
          std::vector<uint8_t>* to = chunk.cipher != nullptr ? &plain : &bytes;
          if (column_indexes && chunk.column_index) {
            PQPAGE_RETURN_IF_ERROR(internal::SerializeCompact(*chunk.column_index, to));
          } else if (!column_indexes && chunk.offset_index) {
            PQPAGE_RETURN_IF_ERROR(internal::SerializeCompact(*chunk.offset_index, to));
          } else {
            continue;
          }
          if (chunk.cipher != nullptr) {
            PQPAGE_RETURN_IF_ERROR(chunk.cipher->Encrypt(column_indexes
                                                             ? internal::ModuleType::kColumnIndex
                                                             : internal::ModuleType::kOffsetIndex,
                                                         0, plain, &bytes));
          }
          if (bytes.size() - before > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
            return absl::InvalidArgumentError("Close: a page index is larger than 2 GiB");
          }
          const int64_t offset = position + static_cast<int64_t>(before);
          const auto length = static_cast<int32_t>(bytes.size() - before);
          format::ColumnChunk& entry = row_groups[rg].columns[c];
          if (column_indexes) {
            entry.__set_column_index_offset(offset);
            entry.__set_column_index_length(length);
          } else {
            entry.__set_offset_index_offset(offset);
            entry.__set_offset_index_length(length);
          }
        }
      }
    }
    return Write(bytes);
  }

  // Writes the row group's bloom filters and points its chunks' metadata at them.
  absl::Status WriteBloomFilters() {
    std::vector<uint8_t> bytes;
    for (size_t c = 0; c < row_group_filters.size(); ++c) {
      const std::vector<uint8_t>& filter = row_group_filters[c];
      if (filter.empty()) continue;
      format::ColumnMetaData& meta = row_group.columns[c].meta_data;
      meta.__set_bloom_filter_offset(position + static_cast<int64_t>(bytes.size()));
      meta.__set_bloom_filter_length(static_cast<int32_t>(filter.size()));
      bytes.insert(bytes.end(), filter.begin(), filter.end());
    }
    row_group_filters.clear();
    return Write(bytes);
  }

  // Ends the row group; `stated_rows`, when given, is its row count (which a row group with
  // no columns has no other way to state, and which one with columns must agree with).
  absl::Status EndRowGroup(std::optional<int64_t> stated_rows) {
    PQPAGE_RETURN_IF_ERROR(Usable());
    if (!in_row_group) return absl::InvalidArgumentError("EndRowGroup without BeginRowGroup");
    if (stated_rows) {
      if (*stated_rows < 0 || *stated_rows > std::numeric_limits<int64_t>::max() - num_rows) {
        return absl::InvalidArgumentError(absl::StrCat("EndRowGroup: a row count of ", *stated_rows,
                                                       " is negative or overflows"));
      }
      if (schema.columns().empty()) {
        row_group.__set_num_rows(*stated_rows);
      } else if (!row_group.columns.empty() && row_group.num_rows != *stated_rows) {
        return absl::InvalidArgumentError(absl::StrCat("EndRowGroup: ", *stated_rows,
                                                       " rows asked for, the columns hold ",
                                                       row_group.num_rows));
      }
    }
    const size_t expected = schema.columns().size();
    if (row_group.columns.size() != expected) {
      return absl::InvalidArgumentError(absl::StrCat("EndRowGroup: the row group has ",
                                                     row_group.columns.size(), " of ", expected,
                                                     " columns"));
    }
    if (expected == 0) row_group.__set_file_offset(position);
    PQPAGE_RETURN_IF_ERROR(WriteBloomFilters());
    if (encryption.has_value()) {
      // After the bloom filters: their offsets are part of the metadata encrypted here.
      for (size_t c = 0; c < row_group.columns.size(); ++c) {
        PQPAGE_RETURN_IF_ERROR(encryption->EncryptColumnMetadata(
            static_cast<int64_t>(row_groups.size()), static_cast<int>(c), &row_group.columns[c]));
      }
    }
    row_group.__set_ordinal(static_cast<int16_t>(row_groups.size()));
    num_rows += row_group.num_rows;
    row_groups.push_back(std::move(row_group));
    row_group = format::RowGroup();
    indexes.push_back(std::move(row_group_indexes));
    row_group_indexes.clear();
    in_row_group = false;
    return absl::OkStatus();
  }

  absl::Status Usable() const {
    if (closed) return absl::FailedPreconditionError(absl::StrCat(path, ": file already closed"));
    return io_status;
  }
};

FileWriter::FileWriter() : state_(std::make_unique<State>()) {}

FileWriter::~FileWriter() {
  // A writer destroyed without Close leaves an incomplete file; the descriptor is still released.
  if (state_ != nullptr && state_->fd >= 0) ::close(state_->fd);
}

absl::StatusOr<std::unique_ptr<FileWriter>> FileWriter::Open(const std::string& path, Schema schema,
                                                             FileWriterOptions options) {
  // Bad encryption properties are refused before the file is made.
  std::optional<internal::FileEncryption> encryption;
  if (options.encryption != nullptr) {
    PQPAGE_ASSIGN_OR_RETURN(encryption, internal::FileEncryption::Make(options.encryption, schema));
  }
  PQPAGE_ASSIGN_OR_RETURN(const int fd, pqpage::internal::CreateOutputFile(path));
  std::unique_ptr<FileWriter> writer(new FileWriter());
  State& state = *writer->state_;
  state.path = path;
  state.schema = std::move(schema);
  state.options = std::move(options);
  state.fd = fd;
  state.encryption = std::move(encryption);
  PQPAGE_RETURN_IF_ERROR(state.Write(
      absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(state.Magic()), sizeof(kMagic))));
  return writer;
}

const Schema& FileWriter::schema() const { return state_->schema; }

int64_t FileWriter::position() const { return state_->position; }

absl::Status FileWriter::BeginRowGroup() {
  PQPAGE_RETURN_IF_ERROR(state_->Usable());
  if (state_->in_row_group) {
    return absl::InvalidArgumentError("BeginRowGroup: the previous row group was not ended");
  }
  if (state_->row_groups.size() >= static_cast<size_t>(std::numeric_limits<int16_t>::max())) {
    // RowGroup.ordinal is an i16.
    return absl::InvalidArgumentError("BeginRowGroup: too many row groups (32767 at most)");
  }
  state_->in_row_group = true;
  state_->row_group = format::RowGroup();
  state_->row_group_indexes.clear();
  state_->row_group_filters.clear();
  return absl::OkStatus();
}

absl::Status FileWriter::WriteColumnChunk(ColumnChunkWriter writer) {
  PQPAGE_RETURN_IF_ERROR(state_->Usable());
  if (!state_->in_row_group) {
    return absl::InvalidArgumentError("WriteColumnChunk outside a row group (call BeginRowGroup)");
  }
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkData chunk, writer.FinishInPieces(state_->position));
  absl::Status status = WriteColumnChunk(chunk);
  RecycleChunkBuffers(&chunk);  // for the next chunk's pages
  return status;
}

absl::Status FileWriter::WriteColumnChunk(const ColumnChunkData& chunk) {
  State& state = *state_;
  PQPAGE_RETURN_IF_ERROR(state.Usable());
  if (!state.in_row_group) {
    return absl::InvalidArgumentError("WriteColumnChunk outside a row group (call BeginRowGroup)");
  }
  const std::vector<ColumnDescriptor>& columns = state.schema.columns();
  const size_t index = state.row_group.columns.size();
  const ColumnMetaData& meta = chunk.metadata;
  if (index >= columns.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "WriteColumnChunk: the row group already has all ", columns.size(), " columns"));
  }
  const ColumnDescriptor& column = columns[index];
  if (meta.path_in_schema != column.path || meta.physical_type() != column.type) {
    return absl::InvalidArgumentError(
        absl::StrCat("WriteColumnChunk: expected column ", index, " '", column.PathString(), "' (",
                     std::string(PhysicalTypeName(column.type)), "), got '",
                     absl::StrJoin(meta.path_in_schema, "."), "' (",
                     std::string(PhysicalTypeName(meta.physical_type())),
                     "): chunks must come in schema order"));
  }
  if (!state.row_group.columns.empty() && chunk.num_rows != state.row_group.num_rows) {
    return absl::InvalidArgumentError(
        absl::StrCat("WriteColumnChunk: column '", column.PathString(), "' has ", chunk.num_rows,
                     " rows, the row group's earlier columns ", state.row_group.num_rows));
  }
  const int64_t first_page = meta.dictionary_page_offset.value_or(meta.data_page_offset);
  const int64_t chunk_size = chunk.stored_size();
  if (chunk_size != meta.total_compressed_size ||
      (chunk_size > 0 && first_page != state.position)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "WriteColumnChunk: column '", column.PathString(), "' was finished for offset ", first_page,
        " with ", meta.total_compressed_size, " bytes, but the file is at ", state.position,
        " and the chunk holds ", chunk_size, " bytes"));
  }
  std::shared_ptr<const ColumnChunkCipher> cipher;
  std::optional<ColumnChunkData> encrypted;
  if (state.encryption.has_value()) {
    PQPAGE_ASSIGN_OR_RETURN(
        cipher, state.encryption->ChunkCipher(static_cast<int64_t>(state.row_groups.size()),
                                              static_cast<int>(index)));
    if (cipher != nullptr) {
      PQPAGE_ASSIGN_OR_RETURN(
          encrypted, internal::FileEncryption::EncryptPages(*cipher, state.position, chunk));
    }
  }
  const ColumnChunkData& stored = encrypted.has_value() ? *encrypted : chunk;
  PQPAGE_ASSIGN_OR_RETURN(std::vector<uint8_t> filter, BloomFilterBytes(chunk, cipher.get()));
  const int64_t offset = state.position;
  PQPAGE_RETURN_IF_ERROR(state.Write(stored.bytes));
  for (const std::vector<uint8_t>& piece : stored.more_bytes) {
    PQPAGE_RETURN_IF_ERROR(state.Write(piece));
  }

  format::ColumnChunk out;
  out.__set_file_offset(offset);
  out.__set_meta_data(internal::ColumnMetaDataToThrift(stored.metadata));
  if (state.row_group.columns.empty()) {
    state.row_group.__set_num_rows(chunk.num_rows);
    state.row_group.__set_file_offset(offset);
  }
  state.row_group.columns.push_back(std::move(out));
  State::ChunkIndexes indexes;
  if (state.options.write_page_index) {
    indexes.column_index = internal::ColumnIndexOf(stored.page_index);
    indexes.offset_index = internal::OffsetIndexOf(stored.page_index, meta.physical_type());
    indexes.cipher = cipher;
  }
  state.row_group_indexes.push_back(std::move(indexes));
  state.row_group_filters.push_back(std::move(filter));
  state.row_group.__set_total_byte_size(state.row_group.total_byte_size +
                                        meta.total_uncompressed_size);
  state.row_group.__set_total_compressed_size(state.row_group.total_compressed_size +
                                              stored.metadata.total_compressed_size);
  return absl::OkStatus();
}

absl::Status FileWriter::EndRowGroup() { return state_->EndRowGroup(std::nullopt); }

absl::Status FileWriter::EndRowGroup(int64_t num_rows) { return state_->EndRowGroup(num_rows); }

absl::Status FileWriter::Close() {
  State& state = *state_;
  PQPAGE_RETURN_IF_ERROR(state.Usable());
  if (state.in_row_group) {
    return absl::InvalidArgumentError("Close: the last row group was not ended (EndRowGroup)");
  }
  PQPAGE_RETURN_IF_ERROR(state.WritePageIndexes());
  format::FileMetaData footer;
  footer.__set_version(1);
  footer.__set_schema(internal::SchemaElements::Of(state.schema));
  footer.__set_num_rows(state.num_rows);
  footer.__set_row_groups(state.row_groups);
  if (!state.options.key_value_metadata.empty()) {
    footer.__set_key_value_metadata(internal::KeyValuesToThrift(state.options.key_value_metadata));
  }
  footer.__set_created_by(state.options.created_by);
  std::vector<format::ColumnOrder> orders(state.schema.columns().size());
  for (format::ColumnOrder& order : orders) order.__set_TYPE_ORDER(format::TypeDefinedOrder());
  footer.__set_column_orders(orders);

  std::vector<uint8_t> bytes;
  if (state.encryption.has_value()) {
    PQPAGE_ASSIGN_OR_RETURN(bytes, state.encryption->Footer(footer));
  } else {
    PQPAGE_RETURN_IF_ERROR(internal::SerializeCompact(footer, &bytes));
  }
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<uint32_t>::max())) {
    return absl::InvalidArgumentError("Close: the footer is larger than 4 GiB");
  }
  const uint32_t length = static_cast<uint32_t>(bytes.size());
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(length >> (8 * i)));
  bytes.insert(bytes.end(), state.Magic(), state.Magic() + sizeof(kMagic));
  PQPAGE_RETURN_IF_ERROR(state.Write(bytes));
  state.closed = true;
  const int fd = state.fd;
  state.fd = -1;
  if (::close(fd) != 0) {
    return absl::UnavailableError(
        absl::StrCat(state.path, ": cannot close: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace pqpage
