// The page builder: turns a column's values and levels into a finished column chunk (dictionary
// page first when there is one, then data pages v1 or v2, compressed, with CRCs and statistics)
// and the figures a Parquet writer puts into the footer's ColumnMetaData and OffsetIndex.
//
// Memory: the writer holds the dictionary, the finished (compressed) data pages of the chunk and
// the levels and values of the one page being filled, never the chunk's raw values; the
// dictionary page has to precede the data pages, so they wait for Finish(). The blocks the pages
// wait in, and a finished chunk's bytes once FileWriter (or the Arrow writer, or Recode) has
// written them, go to a pool the process's writers share, so the next chunk reuses them instead
// of allocating and filling fresh memory; the pool keeps at most 256 MiB, and no buffer over
// 64 MiB. ReleaseWriterBuffers() frees what it keeps.
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
#include "pqpage/bloom_filter.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/compression.h"
#include "pqpage/metadata.h"
#include "pqpage/page.h"
#include "pqpage/page_index.h"
#include "pqpage/types.h"
#include "pqpage/writer_options.h"

namespace pqpage {

// A finished column chunk: its bytes and what a Parquet writer stores about it. Offsets (in
// `metadata` and `page_index`) are file offsets, computed from the `file_offset` given to Finish().
struct ColumnChunkData {
  // The pages, headers included, as they go into the file: `bytes`, then each of `more_bytes` in
  // order. Finish() puts the whole chunk in `bytes`; FinishInPieces() leaves the data pages in
  // the blocks they were built in, one per element of `more_bytes`.
  std::vector<uint8_t> bytes;
  std::vector<std::vector<uint8_t>> more_bytes;
  // The chunk's size in the file: `bytes` and every piece of `more_bytes`.
  int64_t stored_size() const;
  // Appends `more_bytes` to `bytes` and empties it, so that `bytes` holds the whole chunk.
  void Flatten();
  // The chunk's ColumnMetaData as the footer stores it: encoding_stats (the dictionary page
  // first) is always set, size_statistics (the pages' figures summed) when there is a figure to
  // give, statistics unless WriterOptions::write_statistics is off.
  ColumnMetaData metadata;
  int64_t num_rows = 0;  // rows the chunk holds (its row group's num_rows)
  // The chunk's OffsetIndex and ColumnIndex: one entry per data page (has_offset_index unless
  // the chunk has none); has_column_index as ChunkPageIndex says.
  ChunkPageIndex page_index;
  // The chunk's bloom filter, when WriterOptions::bloom_filter asks for one (FileWriter stores
  // it and sets the metadata's bloom_filter_offset and bloom_filter_length).
  std::optional<BloomFilter> bloom_filter;
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
  // As Finish(), but the chunk comes in pieces (`bytes` and `more_bytes`) instead of copied into
  // one buffer: for a writer that stores it with FileWriter::WriteColumnChunk, which takes either
  // form, this saves copying every byte of the chunk and the memory of a second copy.
  absl::StatusOr<ColumnChunkData> FinishInPieces(int64_t file_offset);

 private:
  absl::StatusOr<ColumnChunkData> FinishChunk(int64_t file_offset, bool in_pieces);

  struct State;
  std::unique_ptr<State> state_;
};

// Moves `chunk`, finished for some file offset, to start at `file_offset`: every file offset in
// its metadata (data, dictionary and index page) and in its page index shifts by the same amount;
// its bytes do not change. This lets a writer finish the chunks of a row group on several threads
// (Finish(0), which compresses the last page and the dictionary page) and place them in file order
// afterwards.
// @return OK, or InvalidArgument for a negative `file_offset`.
absl::Status MoveChunk(ColumnChunkData* chunk, int64_t file_offset);

// Frees the buffers that writers gave back for reuse (see Memory above); writers still alive keep
// theirs. For long-running processes between writes.
void ReleaseWriterBuffers();

// Gives `chunk`'s buffers (`bytes` and `more_bytes`), once the chunk is written, to the pool the
// next chunks' pages are built in (see Memory above); leaves them empty.
void RecycleChunkBuffers(ColumnChunkData* chunk);

}  // namespace pqpage

#endif  // PQPAGE_COLUMN_CHUNK_WRITER_H_
