#include "file/located_chunks.h"

#include <numeric>

#include "pqpage/status_macros.h"

namespace pqpage::internal {

absl::StatusOr<std::vector<LocatedChunk>> LocateChunks(const FileReader& file,
                                                       absl::Span<const int> row_groups,
                                                       absl::Span<const int> columns) {
  std::vector<LocatedChunk> chunks;
  chunks.reserve(row_groups.size() * columns.size());
  for (const int rg : row_groups) {
    for (const int c : columns) {
      PQPAGE_ASSIGN_OR_RETURN(ColumnChunkLocation location, file.LocateColumnChunk(rg, c));
      chunks.push_back(LocatedChunk{.row_group = rg, .column = c, .location = location});
    }
  }
  return chunks;
}

std::vector<int> AllIndices(int count) {
  std::vector<int> indices(static_cast<size_t>(count > 0 ? count : 0));
  std::iota(indices.begin(), indices.end(), 0);
  return indices;
}

int64_t TotalLength(absl::Span<const LocatedChunk> chunks) {
  int64_t total = 0;
  for (const LocatedChunk& chunk : chunks) total += chunk.location.length;
  return total;
}

}  // namespace pqpage::internal
