#include "cli/cli_row_selection.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {

absl::StatusOr<std::optional<RowRange>> RowsFrom(const ParsedArgs& parsed) {
  const std::optional<std::string> text = parsed.Value("rows");
  if (!text) return std::nullopt;
  const size_t colon = text->find(':');
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (colon != std::string::npos) {
    absl::StatusOr<int64_t> begin = ParseIntegerOption("rows", text->substr(0, colon), 0, kMax);
    absl::StatusOr<int64_t> end = ParseIntegerOption("rows", text->substr(colon + 1), 0, kMax);
    if (begin.ok() && end.ok() && *begin <= *end) return RowRange{*begin, *end};
  }
  return absl::InvalidArgumentError(
      absl::StrCat("option '--rows' needs A:B, two row numbers with A <= B, not '", *text, "'"));
}

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

absl::StatusOr<ColumnChunkReader> OpenRowsOfChunk(const char* command, const FileReader& file,
                                                  int row_group, int column, const RowRange& rows) {
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader, file.OpenColumnChunk(row_group, column));
  absl::StatusOr<std::optional<ChunkPageIndex>> index = file.ReadPageIndex(row_group, column);
  absl::Status used = index.status();
  if (used.ok() && *index && (*index)->has_offset_index && !(*index)->pages.empty()) {
    used = reader.UseOffsetIndex(**index);
  }
  if (!used.ok()) {
    std::fprintf(stderr, "pqpage %s: warning: %s; its pages are read one after another instead\n",
                 command, std::string(used.message()).c_str());
  }
  PQPAGE_RETURN_IF_ERROR(reader.SelectRows({rows}));
  return reader;
}

}  // namespace pqpage::cli
