#include "cli/cli_inspect_page_index.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/cli_text_table.h"
#include "cli/cli_value_text.h"

namespace pqpage::cli {
namespace {

const char* BoundaryOrderName(BoundaryOrder order) {
  switch (order) {
    case BoundaryOrder::kAscending:
      return "ASCENDING";
    case BoundaryOrder::kDescending:
      return "DESCENDING";
    case BoundaryOrder::kUnordered:
      break;
  }
  return "UNORDERED";
}

std::string Describe(const ChunkPageIndex& index) {
  std::string text;
  if (index.has_column_index) {
    absl::StrAppend(&text, "ColumnIndex (boundary order ", BoundaryOrderName(index.boundary_order),
                    ")");
  }
  if (index.has_offset_index) absl::StrAppend(&text, text.empty() ? "" : " + ", "OffsetIndex");
  absl::StrAppend(&text, ", ", index.pages.size(), " pages");
  return text;
}

// The listed pages that are data pages, in order: the pages an index describes.
std::vector<size_t> DataPageNumbers(const ChunkReport& report) {
  std::vector<size_t> numbers;
  for (size_t i = 0; i < report.pages.size(); ++i) {
    if (report.pages[i].is_data_page()) numbers.push_back(i);
  }
  return numbers;
}

}  // namespace

void GatherPageIndex(const FileReader& file, ChunkReport* report) {
  absl::StatusOr<std::optional<ChunkPageIndex>> index =
      file.ReadPageIndex(report->row_group, report->column);
  if (!index.ok()) {
    report->page_index_error = std::string(index.status().message());
    return;
  }
  report->page_index = *std::move(index);
  if (!report->page_index) return;
  const ChunkPageIndex& pages_index = *report->page_index;
  const std::vector<size_t> data_pages = DataPageNumbers(*report);
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
    const PageRecord& page = report->pages[data_pages[i]];
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

void PrintPageIndexTable(FILE* out, const ChunkReport& chunk) {
  if (!chunk.page_index_error.empty()) {
    std::fprintf(out, "    page index: UNREADABLE: %s\n",
                 Printable(chunk.page_index_error).c_str());
    return;
  }
  if (!chunk.page_index) return;
  const ChunkPageIndex& index = *chunk.page_index;
  std::fprintf(out, "    page index: %s\n", Describe(index).c_str());
  const std::vector<size_t> data_pages = DataPageNumbers(chunk);
  const PhysicalType type = chunk.descriptor->type;
  Table table({"page", "first row", "min", "max", "nulls", "null page"});
  for (size_t i = 0; i < index.pages.size(); ++i) {
    const IndexedPage& entry = index.pages[i];
    const bool bounds = index.has_column_index && !entry.null_page;
    table.AddRow({i < data_pages.size() ? absl::StrCat(data_pages[i]) : "?",
                  index.has_offset_index ? absl::StrCat(entry.first_row_index) : "-",
                  bounds ? Printable(FormatBoundText(type, entry.min_value)) : "-",
                  bounds ? Printable(FormatBoundText(type, entry.max_value)) : "-",
                  entry.null_count ? absl::StrCat(*entry.null_count) : "-",
                  index.has_column_index ? (entry.null_page ? "yes" : "no") : "-"});
  }
  table.Print(out, 4);
  for (const std::string& problem : chunk.page_index_problems) {
    std::fprintf(out, "    page index DISAGREES: %s\n", Printable(problem).c_str());
  }
}

void WritePageIndexJson(JsonWriter& json, const ChunkReport& chunk) {
  if (chunk.page_index_error.empty() && !chunk.page_index) return;
  json.Key("page_index");
  json.BeginObject();
  if (!chunk.page_index_error.empty()) {
    json.Key("error");
    json.String(chunk.page_index_error);
    json.EndObject();
    return;
  }
  const ChunkPageIndex& index = *chunk.page_index;
  const PhysicalType type = chunk.descriptor->type;
  json.Key("column_index");
  json.Bool(index.has_column_index);
  json.Key("offset_index");
  json.Bool(index.has_offset_index);
  if (index.has_column_index) {
    json.Key("boundary_order");
    json.String(BoundaryOrderName(index.boundary_order));
  }
  json.Key("pages");
  json.BeginArray();
  for (const IndexedPage& entry : index.pages) {
    json.BeginObject(/*single_line=*/true);
    if (index.has_offset_index) {
      json.Key("offset");
      json.Int(entry.offset);
      json.Key("compressed_page_size");
      json.Int(entry.compressed_page_size);
      json.Key("first_row_index");
      json.Int(entry.first_row_index);
    }
    if (index.has_column_index) {
      json.Key("null_page");
      json.Bool(entry.null_page);
      if (!entry.null_page) {
        json.Key("min");
        WriteBoundJson(json, type, entry.min_value);
        json.Key("max");
        WriteBoundJson(json, type, entry.max_value);
      }
    }
    if (entry.null_count) {
      json.Key("null_count");
      json.Int(*entry.null_count);
    }
    json.EndObject();
  }
  json.EndArray();
  json.Key("problems");
  json.BeginArray();
  for (const std::string& problem : chunk.page_index_problems) json.String(problem);
  json.EndArray();
  json.EndObject();
}

}  // namespace pqpage::cli
