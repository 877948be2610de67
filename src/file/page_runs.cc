#include "pqpage/page_runs.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "pqpage/page_header_iterator.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

// The chunk's own offset index, or nullopt without a usable one.
std::optional<ChunkPageIndex> FromOffsetIndex(const FileReader& file, int row_group, int column) {
  absl::StatusOr<std::optional<ChunkPageIndex>> index = file.ReadPageIndex(row_group, column);
  if (!index.ok() || !*index || !(*index)->has_offset_index || (*index)->pages.empty()) {
    return std::nullopt;
  }
  ChunkPageIndex locations;
  locations.has_offset_index = true;
  for (const IndexedPage& page : (*index)->pages) {
    IndexedPage located;
    located.offset = page.offset;
    located.compressed_page_size = page.compressed_page_size;
    located.first_row_index = page.first_row_index;
    locations.pages.push_back(std::move(located));
  }
  return locations;
}

// An offset index built from the page headers, or nullopt for a v1 page of a repeated column.
absl::StatusOr<std::optional<ChunkPageIndex>> FromHeaders(const FileReader& file, int row_group,
                                                          int column) {
  const ColumnDescriptor& descriptor = file.schema().columns()[static_cast<size_t>(column)];
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkLocation location, file.LocateColumnChunk(row_group, column));
  PageHeaderIterator walk(&file.source(), std::move(location), descriptor.PathString(),
                          file.options());
  walk.SkipPageBodies();
  ChunkPageIndex locations;
  locations.has_offset_index = true;
  int64_t row = 0;
  while (true) {
    PQPAGE_ASSIGN_OR_RETURN(const bool more, walk.Next());
    if (!more) break;
    const PageInfo& page = walk.page();
    int64_t rows = 0;
    if (page.type == PageType::kDataPageV2 && page.num_rows.has_value()) {
      rows = *page.num_rows;
    } else if (page.type == PageType::kDataPage && descriptor.max_repetition_level == 0) {
      rows = page.num_values;
    } else if (page.type == PageType::kDataPage || page.type == PageType::kDataPageV2) {
      return std::nullopt;
    } else {
      continue;  // dictionary and index pages belong to no run
    }
    IndexedPage located;
    located.offset = page.offset;
    located.compressed_page_size = page.header_size + page.compressed_page_size;
    located.first_row_index = row;
    locations.pages.push_back(std::move(located));
    row += rows;
  }
  if (row != file.row_group_num_rows(row_group)) {
    return absl::DataLossError(
        absl::StrCat(file.name(), ": row group ", row_group, ", column '", descriptor.PathString(),
                     "': its data page headers hold ", row, " rows, the row group ",
                     file.row_group_num_rows(row_group)));
  }
  return locations;
}

}  // namespace

absl::StatusOr<ChunkRuns> SplitIntoPageRuns(const FileReader& file, int row_group, int column,
                                            int max_runs) {
  const int64_t num_rows = file.row_group_num_rows(row_group);
  PQPAGE_ASSIGN_OR_RETURN(const ColumnChunkLocation location,
                          file.LocateColumnChunk(row_group, column));
  ChunkRuns whole;
  whole.runs.push_back(PageRun{RowRange{0, num_rows}, location.length, 0});
  if (max_runs <= 1) return whole;
  // A chunk whose pages depend on the page before (carry_delta_byte_array_prefix) is walked page
  // by page whatever the index says, so runs would each decode it from the start.
  if (location.carry_delta_byte_array_prefix) return whole;
  // Each run's reader will use the locations; ones the reader refuses are not used at all, so
  // that splitting never turns a readable chunk into an error.
  auto usable = [&](const std::optional<ChunkPageIndex>& pages) {
    if (!pages) return false;
    absl::StatusOr<ColumnChunkReader> reader = file.OpenColumnChunk(row_group, column);
    return reader.ok() && reader->UseOffsetIndex(*pages).ok();
  };
  std::optional<ChunkPageIndex> pages = FromOffsetIndex(file, row_group, column);
  if (!usable(pages)) {
    PQPAGE_ASSIGN_OR_RETURN(pages, FromHeaders(file, row_group, column));
    if (!usable(pages)) return whole;
  }
  if (pages->pages.size() < 2) return whole;
  int64_t total = 0;
  for (const IndexedPage& page : pages->pages) total += page.compressed_page_size;
  // A run ends once it holds its share of the bytes; a page never splits.
  const int64_t share = std::max<int64_t>(1, (total + max_runs - 1) / max_runs);
  ChunkRuns split;
  PageRun run;
  for (const IndexedPage& page : pages->pages) {
    if (run.pages > 0 && run.stored_bytes >= share && page.first_row_index > run.rows.begin &&
        static_cast<int>(split.runs.size()) + 1 < max_runs) {
      run.rows.end = page.first_row_index;
      split.runs.push_back(run);
      run = PageRun{RowRange{page.first_row_index, 0}, 0, 0};
    }
    run.stored_bytes += page.compressed_page_size;
    ++run.pages;
  }
  run.rows.end = num_rows;
  split.runs.push_back(run);
  if (split.runs.size() < 2) return whole;
  split.page_locations = std::move(pages);
  return split;
}

absl::StatusOr<ColumnChunkReader> OpenPageRun(const FileReader& file, int row_group, int column,
                                              const ChunkRuns& split, const RowRange& rows) {
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader, file.OpenColumnChunk(row_group, column));
  if (split.page_locations) PQPAGE_RETURN_IF_ERROR(reader.UseOffsetIndex(*split.page_locations));
  PQPAGE_RETURN_IF_ERROR(reader.SelectRows({rows}));
  return reader;
}

}  // namespace pqpage
