// The column chunks a whole-file pass (Scan, Recode, Advise) goes over, located before any is read:
// progress reports a total of their lengths, and a chunk that lies outside the file is reported
// before any work starts.
#ifndef PQPAGE_FILE_LOCATED_CHUNKS_H_
#define PQPAGE_FILE_LOCATED_CHUNKS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/file.h"

namespace pqpage::internal {

struct LocatedChunk {
  int row_group = 0;
  int column = 0;
  ColumnChunkLocation location;
};

// The chunks of `columns` (leaf indices) in `row_groups`, row group by row group (file order):
// entry i is row group row_groups[i / columns.size()], column columns[i % columns.size()].
// @return them; the first error of FileReader::LocateColumnChunk in that order.
absl::StatusOr<std::vector<LocatedChunk>> LocateChunks(const FileReader& file,
                                                       absl::Span<const int> row_groups,
                                                       absl::Span<const int> columns);

// [0, count): every row group or every column, for LocateChunks.
// @return 0, 1, ..., count - 1.
std::vector<int> AllIndices(int count);

// The sum of the chunks' lengths, the total that a pass's progress counts towards.
// @return that sum.
int64_t TotalLength(absl::Span<const LocatedChunk> chunks);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_LOCATED_CHUNKS_H_
