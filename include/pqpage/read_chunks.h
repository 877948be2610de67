// Reading selected column chunks of a file batch by batch, as an engine streams a file: every
// selected chunk in file order (row group by row group), each through one reusable ValueBatch
// (pqpage/value_batch.h), only the selected rows when a RowRange is given. The caller sees each
// chunk as it starts and each batch of levels and values; nothing of a chunk is kept past its
// batch. `pqpage dump` prints what this reads.
#ifndef PQPAGE_READ_CHUNKS_H_
#define PQPAGE_READ_CHUNKS_H_

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/file.h"
#include "pqpage/page_index.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_batch.h"
#include "pqpage/value_type.h"

namespace pqpage {

// Which chunks of a file to read.
struct ChunkSelection {
  // Leaf columns (schema order indices) to read in each row group, in the order given; empty:
  // every leaf column.
  std::vector<int> columns;
  // Only these rows of the file (counted from 0 across row groups): row groups they do not reach
  // are passed over, and pages outside them skipped through the offset index when there is one.
  // Unset: every row.
  std::optional<RowRange> rows;
  // Told of a problem that does not stop the reading (an offset index that cannot be used).
  std::function<void(const std::string&)> on_warning;
};

// One chunk to read: where it is, and which of its row group's rows.
struct SelectedChunk {
  int row_group = 0;
  int column = 0;
  std::optional<RowRange> rows;  // rows of the row group; unset: all of them
};

// The chunks `selection` picks out of `file`.
// @return them in file order (row group by row group, the columns in the order asked for), or
// InvalidArgument, naming the file, for a column outside the schema.
absl::StatusOr<std::vector<SelectedChunk>> SelectChunks(const FileReader& file,
                                                        const ChunkSelection& selection);

// Opens a page decoder on `chunk`, positioned at its first selected row (OpenColumnChunkRows when
// it has rows, which tells `on_warning` of an offset index it cannot use).
// @return the reader, or OpenColumnChunk's or OpenColumnChunkRows' error.
absl::StatusOr<ColumnChunkReader> OpenSelectedChunk(
    const FileReader& file, const SelectedChunk& chunk,
    const std::function<void(const std::string&)>& on_warning);

// Reads every chunk `selection` picks out of `file`, in file order. For each chunk, once it is
// open, calls on_chunk(const SelectedChunk&, const ColumnChunkReader&); then for each batch read
// from it, on_batch(const SelectedChunk&, const ValueBatch<T>& batch, const BatchCounts& counts)
// with T the column's value type (pqpage/value_type.h), so on_batch is usually a generic lambda.
// The batch holds counts.levels levels (each level array only when the column has such levels)
// and counts.values present values; byte array values are views that the next batch may
// invalidate. Both callbacks return absl::Status; an error stops the reading.
// @return OK; SelectChunks' error; the first error of a chunk that cannot be opened or decoded;
// or the first error a callback returned.
template <typename OnChunk, typename OnBatch>
absl::Status ReadChunks(const FileReader& file, const ChunkSelection& selection, OnChunk&& on_chunk,
                        OnBatch&& on_batch) {
  PQPAGE_ASSIGN_OR_RETURN(const std::vector<SelectedChunk> chunks, SelectChunks(file, selection));
  for (const SelectedChunk& chunk : chunks) {
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader,
                            OpenSelectedChunk(file, chunk, selection.on_warning));
    PQPAGE_RETURN_IF_ERROR(on_chunk(chunk, std::as_const(reader)));
    PQPAGE_RETURN_IF_ERROR(VisitValueType(reader.column().type, [&](auto tag) -> absl::Status {
      ValueBatch<typename decltype(tag)::Type> batch;
      while (true) {
        PQPAGE_ASSIGN_OR_RETURN(const BatchCounts counts, ReadNextBatch(reader, batch));
        if (counts.levels == 0) return absl::OkStatus();
        PQPAGE_RETURN_IF_ERROR(on_batch(chunk, std::as_const(batch), counts));
      }
    }));
  }
  return absl::OkStatus();
}

}  // namespace pqpage

#endif  // PQPAGE_READ_CHUNKS_H_
