// Reading part of a file's rows: which rows of each row group, and a chunk reader that skips to
// them through the offset index.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"

namespace pqpage {

std::vector<std::optional<RowRange>> RowsPerRowGroup(const FileReader& file, const RowRange& rows) {
  std::vector<std::optional<RowRange>> out;
  int64_t first = 0;
  for (int group = 0; group < file.num_row_groups(); ++group) {
    const int64_t count = file.row_group_num_rows(group);
    const int64_t begin = std::max(rows.begin, first);
    const int64_t end = std::min(rows.end, first + count);
    if (begin < end) {
      out.push_back(RowRange{begin - first, end - first});
    } else {
      out.push_back(std::nullopt);
    }
    first += count;
  }
  return out;
}

absl::StatusOr<ColumnChunkReader> OpenColumnChunkRows(
    const FileReader& file, int row_group, int column, const RowRange& rows,
    const std::function<void(const std::string&)>& on_warning) {
  return OpenColumnChunkRanges(file, row_group, column, {rows}, on_warning);
}

absl::StatusOr<ColumnChunkReader> OpenColumnChunkRanges(
    const FileReader& file, int row_group, int column, std::vector<RowRange> ranges,
    const std::function<void(const std::string&)>& on_warning) {
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader, file.OpenColumnChunk(row_group, column));
  absl::StatusOr<std::optional<ChunkPageIndex>> index = file.ReadPageIndex(row_group, column);
  absl::Status used = index.status();
  if (used.ok() && *index && (*index)->has_offset_index && !(*index)->pages.empty()) {
    used = reader.UseOffsetIndex(**index);
  }
  if (!used.ok() && on_warning) {
    on_warning(absl::StrCat(used.message(), "; its pages are read one after another instead"));
  }
  PQPAGE_RETURN_IF_ERROR(reader.SelectRows(std::move(ranges)));
  return reader;
}

}  // namespace pqpage
