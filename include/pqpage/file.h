// The file layer, for the pqpage tool and for tests: reading a Parquet file's footer and opening
// page decoders on its column chunks, and writing a complete file from column chunks made by the
// page builder. It does not assemble records; it serves the page level.
//
// Errors: DataLoss for a file that is not Parquet or is damaged (missing magic, a footer length
// past the file, malformed Thrift, a column chunk outside the file, a row group whose columns do
// not match the schema or disagree with its num_rows, an encrypted module that does not
// authenticate); PermissionDenied for an encrypted footer or column whose key the reader was not
// given (ReaderOptions::decryption); the errors of ByteSource for I/O. The writer returns
// InvalidArgument for calls out of order (a column chunk outside a row group, a row group missing
// columns, chunks of different row counts).
#ifndef PQPAGE_FILE_H_
#define PQPAGE_FILE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/encryption.h"
#include "pqpage/metadata.h"
#include "pqpage/page_index.h"
#include "pqpage/schema.h"

namespace pqpage {

// Thread safety: a FileReader is immutable once open, so its methods may be called from several
// threads at once; the ColumnChunkReaders it opens decode in parallel, one thread per reader.
class FileReader {
 public:
  // Opens a file and reads its footer (the footer is bounded by FooterLimits below).
  static absl::StatusOr<std::unique_ptr<FileReader>> Open(const std::string& path,
                                                          ReaderOptions options = {});
  // Reads from any source; `name` appears in error messages.
  static absl::StatusOr<std::unique_ptr<FileReader>> Open(std::unique_ptr<ByteSource> source,
                                                          std::string name,
                                                          ReaderOptions options = {});
  ~FileReader();

  const std::string& name() const;
  const Schema& schema() const;
  int64_t num_rows() const;
  int num_row_groups() const;
  int64_t row_group_num_rows(int row_group) const;
  std::string created_by() const;
  const std::vector<KeyValue>& key_value_metadata() const;
  const ReaderOptions& options() const;

  // Where column chunk (row_group, column) lies. Checks that it lies inside the file; tolerates a
  // dictionary_page_offset of 0 or one that is not before the data pages (writers that got it
  // wrong) by starting at the first page that is there.
  absl::StatusOr<ColumnChunkLocation> LocateColumnChunk(int row_group, int column) const;
  // A page decoder over that chunk; it reads through this reader's source, so the FileReader must
  // outlive it.
  absl::StatusOr<ColumnChunkReader> OpenColumnChunk(int row_group, int column) const;

  // The page index (ColumnIndex and OffsetIndex) of column chunk (row_group, column), read from
  // the source at each call; std::nullopt when the chunk's footer entry references neither.
  // DataLoss, naming the chunk, for an index that cannot be trusted: a location outside the
  // file's data (between the magic and the footer), bytes that do not parse, lists of different
  // lengths, pages out of file order, overlapping or outside the chunk, first rows that do not
  // start at 0 or decrease or pass the row group's rows, bounds of the wrong size for the type,
  // histograms of the wrong length, negative counts, an unknown boundary order, or two indexes
  // that disagree on the page count, a null page in a required column. A negative null count
  // (parquet-mr's -1 for "not counted") reads as unknown. A damaged index never makes the chunk
  // unreadable: OpenColumnChunk does not use it, and a caller can fall back to reading every page.
  absl::StatusOr<std::optional<ChunkPageIndex>> ReadPageIndex(int row_group, int column) const;

  // The bloom filter of column chunk (row_group, column), read from the source at each call;
  // std::nullopt when the chunk's metadata has no bloom_filter_offset. Without
  // bloom_filter_length (older writers) the header is read first and gives the size.
  // @return the filter; DataLoss, naming the chunk, for a filter that cannot be trusted: an offset
  // or length outside the file's data, a header that does not parse or whose size disagrees with
  // bloom_filter_length, a bitset that is empty, not a multiple of 32 bytes or over
  // BloomFilter::kMaxBytes; Unimplemented for an algorithm, hash or compression the format did not
  // define when this was written. A damaged filter never makes the chunk unreadable.
  absl::StatusOr<std::optional<BloomFilter>> ReadBloomFilter(int row_group, int column) const;

  // The whole footer in pqpage's plain types (pqpage/metadata.h), for tools and engines that show
  // or use everything it holds. Converted once by Open.
  const FileMetaData& metadata() const;
  const ByteSource& source() const;
  // Bytes of the footer's Thrift structure.
  int64_t footer_size() const;

 private:
  FileReader();
  // The cipher of an encrypted chunk, nullptr for a plain one; PermissionDenied without its key.
  absl::StatusOr<std::shared_ptr<const ColumnChunkCipher>> ChunkCipher(
      int row_group, int column, bool starts_with_dictionary) const;
  struct State;
  std::unique_ptr<State> state_;
};

// Where a long pass over a file's column chunks is (scan, recode, advise), for a progress display.
// Row group and column are 0-based; `bytes_done` of `total_bytes` counts the input's column chunk
// bytes (their lengths in the footer) already passed.
struct FileProgress {
  int row_group = 0;
  int num_row_groups = 0;
  int column = 0;
  int num_columns = 0;
  int64_t bytes_done = 0;
  int64_t total_bytes = 0;
};

// For each row group of `file`, the part of `rows` (rows of the file, counted from 0 across row
// groups) that lies in it, as rows of the group.
// @return one entry per row group: the rows of the group to read, or std::nullopt for a group
// `rows` does not reach.
std::vector<std::optional<RowRange>> RowsPerRowGroup(const FileReader& file, const RowRange& rows);

// Opens chunk (row_group, column) to read only `rows` (rows of its row group), jumping over pages
// through the chunk's offset index when it has one. An index that cannot be read or used is told
// to `on_warning` (when set, as "<why>; its pages are read one after another instead") and the
// pages are walked: the data is still readable.
// @return the reader, positioned at the first selected row, or OpenColumnChunk's error, or
// SelectRows' for rows past the row group.
absl::StatusOr<ColumnChunkReader> OpenColumnChunkRows(
    const FileReader& file, int row_group, int column, const RowRange& rows,
    const std::function<void(const std::string&)>& on_warning);

// OpenColumnChunkRows for several ranges of rows, as ColumnChunkReader::SelectRows takes them
// (ascending, not overlapping).
// @return the reader, whose batches hold only rows of `ranges`; OpenColumnChunk's error, or
// SelectRows'.
absl::StatusOr<ColumnChunkReader> OpenColumnChunkRanges(
    const FileReader& file, int row_group, int column, std::vector<RowRange> ranges,
    const std::function<void(const std::string&)>& on_warning);

// "pqpage version X.Y.Z (build HASH)", the created_by every file pqpage writes carries.
std::string DefaultCreatedBy();

struct FileWriterOptions {
  std::string created_by = DefaultCreatedBy();
  std::vector<KeyValue> key_value_metadata;
  // Write each column chunk's page index (ColumnChunkData::page_index: its OffsetIndex, and its
  // ColumnIndex when it has one) between the last row group and the footer, referenced from the
  // chunk's footer entry. A chunk without data pages has neither.
  bool write_page_index = true;
  // Encrypt the file (pqpage/encryption.h): its encrypted columns' pages, page headers, column
  // metadata, page indexes and bloom filters, and its footer, encrypted or signed.
  std::shared_ptr<const FileEncryptionProperties> encryption;
};

// The paths `encryption` gives column keys for that `schema` has no column of, in order; a writer
// refuses them (FileWriter::Open: InvalidArgument).
std::vector<std::string> UnknownEncryptionColumns(const FileEncryptionProperties& encryption,
                                                  const Schema& schema);

// Writes a file: magic, then each row group's column chunks in schema order as they are added,
// followed by the bloom filters of its chunks that have one (ColumnChunkData::bloom_filter),
// then the page indexes and the footer. Column chunks are written as soon as they are added, so
// memory holds at most one chunk.
class FileWriter {
 public:
  static absl::StatusOr<std::unique_ptr<FileWriter>> Open(const std::string& path, Schema schema,
                                                          FileWriterOptions options = {});
  ~FileWriter();

  const Schema& schema() const;

  // The file offset at which the next column chunk's first byte will be written.
  int64_t position() const;

  absl::Status BeginRowGroup();
  // Finishes `writer` at position() and writes its chunk. Chunks must come in schema order.
  absl::Status WriteColumnChunk(ColumnChunkWriter writer);
  // Writes an already finished chunk whose offsets were computed for position().
  absl::Status WriteColumnChunk(const ColumnChunkData& chunk);
  absl::Status EndRowGroup();
  // EndRowGroup for a row group of `num_rows` rows: the only way to give rows to a row group of a
  // schema without leaf columns (its rows have no values, yet readers count them). With columns,
  // InvalidArgument unless it equals their rows; also for a negative count.
  absl::Status EndRowGroup(int64_t num_rows);

  // Writes the footer and closes the file.
  absl::Status Close();

 private:
  FileWriter();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pqpage

#endif  // PQPAGE_FILE_H_
