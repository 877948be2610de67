// The page builder: turns a column's values and levels into a finished column chunk (dictionary
// page first when there is one, then data pages v1 or v2, compressed, with CRCs and statistics)
// and the figures a Parquet writer puts into the footer's ColumnMetaData and OffsetIndex.
//
// Memory: the writer holds the dictionary, the finished (compressed) data pages of the chunk and
// the levels and values of the one page being filled, never the chunk's raw values; the
// dictionary page has to precede the data pages, so they wait for Finish().
//
// Errors:
//   - InvalidArgument: a caller mistake: a value type that does not match the column, level arrays
//     of different lengths or with levels above their maxima or negative, a value count that
//     disagrees with the definition levels, a first repetition level that is not 0, a byte array
//     over 2^31 - 1 bytes, a FIXED_LEN_BYTE_ARRAY value of the wrong length, options out of range
//     (page version other than 1 or 2, non-positive page size).
//   - Unimplemented: a codec pqpage does not write (LZO, Hadoop-framed LZ4: use LZ4_RAW).
//   - Internal: with verify_pages, a page the writer's own decoder did not read back identically
//     (a pqpage bug, never expected).
#ifndef PQPAGE_COLUMN_CHUNK_WRITER_H_
#define PQPAGE_COLUMN_CHUNK_WRITER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/compression.h"
#include "pqpage/metadata.h"
#include "pqpage/page.h"
#include "pqpage/page_index.h"
#include "pqpage/types.h"
#include "pqpage/writer_options.h"

namespace pqpage {

// What a Parquet writer needs for the chunk's ColumnMetaData and OffsetIndex. Offsets are file
// offsets, computed from the `file_offset` given to Finish().
struct ColumnChunkMetadata {
  PhysicalType type = PhysicalType::kInt32;
  std::vector<std::string> path;
  Compression codec = Compression::kUncompressed;
  std::vector<Encoding> encodings;                // every encoding used: values and levels
  std::vector<PageEncodingStats> encoding_stats;  // the dictionary page first
  int64_t num_values = 0;                         // levels, nulls included
  int64_t num_rows = 0;
  int64_t total_uncompressed_size = 0;            // headers included
  int64_t total_compressed_size = 0;              // headers included: the chunk's byte length
  std::optional<int64_t> dictionary_page_offset;  // only when there is a dictionary page
  int64_t data_page_offset = 0;
  std::optional<Statistics> statistics;      // min_value/max_value in the type's order, null_count
  std::vector<PageLocation> page_locations;  // the OffsetIndex
  // One entry per data page, in page_locations' order.
  std::vector<PageIndexEntry> page_index;
  // Whether a ColumnIndex can describe the chunk: not for INT96 (no sort order), nor when a page
  // has values but no bounds (only NaN), which the ColumnIndex cannot say.
  bool has_column_index = false;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  // SizeStatistics: the pages' figures summed.
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;
};

struct ColumnChunkData {
  std::vector<uint8_t> bytes;  // the pages, headers included, as they go into the file
  ColumnChunkMetadata metadata;
};

class ColumnChunkWriter {
 public:
  // Writes with options.ForColumn(column.PathString()): the column's own override applies.
  ColumnChunkWriter(ColumnDescriptor column, const WriterOptions& options = {});
  ~ColumnChunkWriter();
  ColumnChunkWriter(ColumnChunkWriter&&) noexcept;
  ColumnChunkWriter& operator=(ColumnChunkWriter&&) noexcept;

  const ColumnDescriptor& column() const;

  // Appends levels and values. `definition_levels` and `repetition_levels` hold one entry per
  // level and are empty when the column's maximum is 0 (then there is one level per value; an
  // array of zeros of the right length is accepted too); `values` holds the present values only
  // (def == max_def), in order. T is as for
  // ColumnChunkReader::ReadBatch. A batch may end inside a row; pages still end at row boundaries.
  // A batch that fails the checks above (InvalidArgument) leaves the writer as it was; any other
  // error (a codec failure) leaves it unusable, every later call returning that error.
  template <typename T>
  absl::Status WriteBatch(absl::Span<const int16_t> definition_levels,
                          absl::Span<const int16_t> repetition_levels, absl::Span<const T> values);

  // WriteBatch for dictionary-encoded input, such as ColumnChunkReader::ReadIndices and
  // Dictionary<T>() give: the present values are entries[indices[i]], and the chunk written is byte
  // for byte the one WriteBatch of those values gives. It is faster while the chunk is
  // dictionary-encoded: each entry is hashed into the chunk's dictionary once rather than at every
  // value, and page statistics look at each entry once per page. Calls may mix with WriteBatch.
  // Calls that pass the same `entries` (same address and size) must pass the same contents: the
  // writer remembers what became of each entry, and checks the entries (as WriteBatch checks
  // values) at the first call that passes them. InvalidArgument as WriteBatch, and for an index
  // at or past entries.size(). T is any type of WriteBatch but bool (which has no dictionary).
  template <typename T>
  absl::Status WriteIndexedBatch(absl::Span<const int16_t> definition_levels,
                                 absl::Span<const int16_t> repetition_levels,
                                 absl::Span<const uint32_t> indices, absl::Span<const T> entries);

  // Bytes the finished pages take so far (compressed, headers included), plus an estimate for the
  // page being filled and the dictionary.
  int64_t EstimatedChunkSize() const;

  // Finishes the last page and returns the chunk, its first byte to be placed at `file_offset` of
  // the file. The writer is spent afterwards (FailedPrecondition for further calls). A chunk given
  // no levels has no pages (0 bytes, data_page_offset = file_offset). A dictionary page is written
  // only when some data page uses the dictionary.
  absl::StatusOr<ColumnChunkData> Finish(int64_t file_offset);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pqpage

#endif  // PQPAGE_COLUMN_CHUNK_WRITER_H_
