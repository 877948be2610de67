// The page index beside the pages: an entry per data page, in order. A damaged or disagreeing
// index is flagged, never an error of the chunk: the data does not depend on it.
#include "file/inspect_page_index.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace pqpage::internal {

void CheckPageIndex(const FileReader& file, InspectedChunk* report) {
  absl::StatusOr<std::optional<ChunkPageIndex>> index =
      file.ReadPageIndex(report->row_group, report->column);
  if (!index.ok()) {
    report->page_index_error = std::string(index.status().message());
    return;
  }
  report->page_index = *std::move(index);
  if (!report->page_index) return;
  const ChunkPageIndex& pages_index = *report->page_index;
  const std::vector<size_t> data_pages = report->DataPageNumbers();
  std::vector<std::string>& problems = report->page_index_problems;
  if (pages_index.pages.size() != data_pages.size()) {
    problems.push_back(absl::StrCat("the index has ", pages_index.pages.size(),
                                    " pages, the chunk ", data_pages.size(), " data pages"));
    return;
  }
  int64_t first_row = 0;
  bool rows_known = true;
  for (size_t i = 0; i < data_pages.size(); ++i) {
    const IndexedPage& entry = pages_index.pages[i];
    const InspectedPage& page = report->pages[data_pages[i]];
    const std::string where = absl::StrCat("page ", data_pages[i], ": ");
    if (pages_index.has_offset_index) {
      if (entry.offset != page.info.offset) {
        problems.push_back(absl::StrCat(where, "the index puts it at offset ", entry.offset,
                                        ", it is at ", page.info.offset));
      }
      if (rows_known && entry.first_row_index != first_row) {
        problems.push_back(absl::StrCat(where, "the index says it starts at row ",
                                        entry.first_row_index, ", it starts at row ", first_row));
      }
    }
    const std::optional<int64_t> nulls = page.nulls();
    if (pages_index.has_column_index && nulls) {
      const bool no_values = *nulls == page.info.num_values;
      if (entry.null_page != no_values) {
        problems.push_back(absl::StrCat(where, "the index says it is ",
                                        entry.null_page ? "" : "not ", "a null page, it holds ",
                                        page.info.num_values - *nulls, " values"));
      }
      if (entry.null_count && *entry.null_count != *nulls) {
        problems.push_back(absl::StrCat(where, "the index counts ", *entry.null_count,
                                        " nulls, the page holds ", *nulls));
      }
    }
    const std::optional<int64_t> rows = page.rows();
    if (rows) {
      first_row += *rows;
    } else {
      rows_known = false;
    }
  }
}

}  // namespace pqpage::internal
