// Splitting one column chunk into runs of whole data pages that threads decode side by side, so a
// file with one large column, or a single row group, still uses every core:
//
//   PQPAGE_ASSIGN_OR_RETURN(ChunkRuns split, SplitIntoPageRuns(file, rg, column, threads));
//   // on each thread, for its run r:
//   PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader,
//                           OpenPageRun(file, rg, column, split, split.runs[r].rows));
//   ... read `reader` to its end ...
//
// Each run's reader jumps straight to the run's first page and reads only its pages (and the
// dictionary page, which each run decodes for itself). The runs' levels and values, concatenated
// in run order, are the chunk's, and in a column without repetition run r's first level is the
// row group's row runs[r].rows.begin, so a caller can decode each run straight into its place in
// the output.
#ifndef PQPAGE_PAGE_RUNS_H_
#define PQPAGE_PAGE_RUNS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/file.h"
#include "pqpage/page_index.h"

namespace pqpage {

// Consecutive data pages of one column chunk.
struct PageRun {
  RowRange rows;             // the rows of the row group its pages hold
  int64_t stored_bytes = 0;  // its pages' stored bytes, headers included
  int64_t pages = 0;         // data pages in it; 0 (not counted) when the chunk is one run
};

struct ChunkRuns {
  std::vector<PageRun> runs;  // in row order, covering the row group's rows without gaps
  // Where every data page lies and which row it starts, as an OffsetIndex: the chunk's own, or
  // one built from its page headers. Unset when the chunk is a single run.
  std::optional<ChunkPageIndex> page_locations;
};

// Splits chunk (row_group, column) of `file` into at most `max_runs` runs of about equal stored
// bytes, cutting only where a data page starts a row. Where pages start:
//   - from the chunk's offset index, when it has a usable one (every page starts a row);
//   - otherwise from the page headers, walked once without reading the pages' stored bytes: a
//     page's rows are its num_rows in a data page v2, its num_values (levels) in a data page v1
//     of a column that is not repeated. A v1 page of a repeated column does not tell where its
//     rows start, so such a chunk is not split, nor is one read with
//     carry_delta_byte_array_prefix (each page depends on the one before).
// @return the runs; a single run when max_runs <= 1, or the chunk has fewer than two data pages
// or cannot be split; the errors of LocateColumnChunk and of the header walk
// (PageHeaderIterator::Next); DataLoss when the headers' rows do not add up to the row group's.
// An offset index that cannot be read or used is not an error: the headers are walked instead.
absl::StatusOr<ChunkRuns> SplitIntoPageRuns(const FileReader& file, int row_group, int column,
                                            int max_runs);

// A reader over `rows` (one of split.runs' rows, or part of one) of chunk (row_group, column),
// positioned at its first row: it jumps there through split.page_locations, when set.
// @return the reader, or OpenColumnChunk's, UseOffsetIndex's or SelectRows' error.
absl::StatusOr<ColumnChunkReader> OpenPageRun(const FileReader& file, int row_group, int column,
                                              const ChunkRuns& split, const RowRange& rows);

}  // namespace pqpage

#endif  // PQPAGE_PAGE_RUNS_H_
