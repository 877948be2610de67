#include "file/page_index_read.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "metadata/thrift_compact.h"
#include "parquet_types.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {
namespace {

absl::Status OffsetError(const std::string& message) {
  return absl::DataLossError(absl::StrCat("OffsetIndex: ", message));
}
absl::Status ColumnError(const std::string& message) {
  return absl::DataLossError(absl::StrCat("ColumnIndex: ", message));
}

absl::Status ReadOffsetIndex(absl::Span<const uint8_t> bytes, const ColumnDescriptor& column,
                             const PageIndexChunk& chunk, ChunkPageIndex* out) {
  format::OffsetIndex index;
  absl::StatusOr<size_t> parsed = DeserializeCompact(bytes, &index);
  if (!parsed.ok()) return OffsetError(std::string(parsed.status().message()));
  const std::vector<format::PageLocation>& locations = index.page_locations;
  if (locations.empty() && chunk.num_rows > 0) {
    return OffsetError(absl::StrCat("no pages for ", chunk.num_rows, " rows"));
  }
  out->pages.resize(locations.size());
  int64_t previous_end = chunk.begin;
  for (size_t i = 0; i < locations.size(); ++i) {
    const format::PageLocation& page = locations[i];
    const std::string where = absl::StrCat("page ", i, " ");
    if (page.compressed_page_size <= 0) {
      return OffsetError(absl::StrCat(where, "has size ", page.compressed_page_size));
    }
    // Pages in file order, inside the chunk, not overlapping (the dictionary page, which the
    // index leaves out, may come first).
    if (page.offset < previous_end || page.offset > chunk.end - page.compressed_page_size) {
      return OffsetError(absl::StrCat(where, "at offset ", page.offset, " (",
                                      page.compressed_page_size,
                                      " bytes) is outside the chunk's bytes ", previous_end, "..",
                                      chunk.end, " or before the page ahead of it"));
    }
    previous_end = page.offset + page.compressed_page_size;
    const int64_t previous_row = i == 0 ? -1 : locations[i - 1].first_row_index;
    if ((i == 0 && page.first_row_index != 0) || (i > 0 && page.first_row_index < previous_row) ||
        page.first_row_index >= chunk.num_rows) {
      return OffsetError(absl::StrCat(where, "starts at row ", page.first_row_index,
                                      ": first rows must be 0, then never decrease, below the row "
                                      "group's ",
                                      chunk.num_rows, " rows"));
    }
    IndexedPage& entry = out->pages[i];
    entry.offset = page.offset;
    entry.compressed_page_size = page.compressed_page_size;
    entry.first_row_index = page.first_row_index;
  }
  if (index.__isset.unencoded_byte_array_data_bytes) {
    const std::vector<int64_t>& bytes_per_page = index.unencoded_byte_array_data_bytes;
    if (bytes_per_page.size() != locations.size() || column.type != PhysicalType::kByteArray) {
      return OffsetError(absl::StrCat(bytes_per_page.size(), " unencoded byte array sizes for ",
                                      locations.size(), " pages of a ",
                                      PhysicalTypeName(column.type).data(), " column"));
    }
    for (size_t i = 0; i < bytes_per_page.size(); ++i) {
      if (bytes_per_page[i] < 0) {
        return OffsetError(absl::StrCat("page ", i, " has ", bytes_per_page[i], " value bytes"));
      }
      out->pages[i].unencoded_byte_array_data_bytes = bytes_per_page[i];
    }
  }
  out->has_offset_index = true;
  return absl::OkStatus();
}

// Splits a list of per-page histograms (pages x (max_level + 1) counts) into the pages.
absl::Status SplitHistograms(const std::vector<int64_t>& counts, int16_t max_level,
                             const char* name, std::vector<IndexedPage>* pages,
                             std::vector<int64_t> IndexedPage::*histogram) {
  const size_t width = static_cast<size_t>(max_level) + 1;
  if (counts.size() != pages->size() * width) {
    return ColumnError(absl::StrCat(counts.size(), " ", name, " histogram counts for ",
                                    pages->size(), " pages of ", width, " levels"));
  }
  for (size_t p = 0; p < pages->size(); ++p) {
    std::vector<int64_t>& page = (*pages)[p].*histogram;
    page.assign(counts.begin() + static_cast<std::ptrdiff_t>(p * width),
                counts.begin() + static_cast<std::ptrdiff_t>((p + 1) * width));
    for (const int64_t count : page) {
      if (count < 0) return ColumnError(absl::StrCat("a negative ", name, " histogram count"));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadColumnIndex(absl::Span<const uint8_t> bytes, const ColumnDescriptor& column,
                             ChunkPageIndex* out) {
  format::ColumnIndex index;
  absl::StatusOr<size_t> parsed = DeserializeCompact(bytes, &index);
  if (!parsed.ok()) return ColumnError(std::string(parsed.status().message()));
  const size_t pages = index.null_pages.size();
  if (index.min_values.size() != pages || index.max_values.size() != pages ||
      (index.__isset.null_counts && index.null_counts.size() != pages)) {
    return ColumnError(absl::StrCat(pages, " null_pages, ", index.min_values.size(), " mins, ",
                                    index.max_values.size(), " maxes, ", index.null_counts.size(),
                                    " null counts: lists of one length "
                                    "expected"));
  }
  if (out->has_offset_index && out->pages.size() != pages) {
    return ColumnError(absl::StrCat(pages, " pages, but the OffsetIndex has ", out->pages.size()));
  }
  if (index.boundary_order < 0 || index.boundary_order > 2) {
    return ColumnError(absl::StrCat("unknown boundary order ", index.boundary_order));
  }
  out->pages.resize(pages);
  const size_t fixed = IndexBoundSize(column.type);
  for (size_t i = 0; i < pages; ++i) {
    IndexedPage& page = out->pages[i];
    page.null_page = index.null_pages[i];
    if (page.null_page && column.max_definition_level == 0) {
      // Every level of a required column is a value. parquet-mr has written such indexes (every
      // page null, null counts -1) when it kept no statistics: trusted, they would prune pages
      // full of values.
      return ColumnError(absl::StrCat("page ", i, " of a required column is marked a null page"));
    }
    if (!page.null_page) {
      // A bound of the wrong size would be read past its end by anyone comparing with it.
      const bool fits =
          fixed != 0 ? index.min_values[i].size() == fixed && index.max_values[i].size() == fixed
          : column.type == PhysicalType::kFixedLenByteArray
              ? index.min_values[i].size() <= static_cast<size_t>(column.type_length) &&
                    index.max_values[i].size() <= static_cast<size_t>(column.type_length)
              : true;
      if (!fits) {
        return ColumnError(absl::StrCat("page ", i, " has bounds of ", index.min_values[i].size(),
                                        " and ", index.max_values[i].size(), " bytes for a ",
                                        PhysicalTypeName(column.type).data(), " column"));
      }
      page.min_value = index.min_values[i];
      page.max_value = index.max_values[i];
    }
    // parquet-mr writes -1 for a count it did not keep (datapage_v1-*-checksum.parquet): read
    // as unknown, like an absent list.
    if (index.__isset.null_counts && index.null_counts[i] >= 0) {
      page.null_count = index.null_counts[i];
    }
  }
  if (index.__isset.repetition_level_histograms) {
    PQPAGE_RETURN_IF_ERROR(SplitHistograms(index.repetition_level_histograms,
                                           column.max_repetition_level, "repetition", &out->pages,
                                           &IndexedPage::repetition_level_histogram));
  }
  if (index.__isset.definition_level_histograms) {
    PQPAGE_RETURN_IF_ERROR(SplitHistograms(index.definition_level_histograms,
                                           column.max_definition_level, "definition", &out->pages,
                                           &IndexedPage::definition_level_histogram));
  }
  out->boundary_order = static_cast<BoundaryOrder>(index.boundary_order);
  out->has_column_index = true;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ChunkPageIndex> ParsePageIndex(
    const ColumnDescriptor& column, const PageIndexChunk& chunk,
    std::optional<absl::Span<const uint8_t>> column_index,
    std::optional<absl::Span<const uint8_t>> offset_index) {
  ChunkPageIndex out;
  // The OffsetIndex first: the ColumnIndex's page count is checked against it.
  if (offset_index) PQPAGE_RETURN_IF_ERROR(ReadOffsetIndex(*offset_index, column, chunk, &out));
  if (column_index) PQPAGE_RETURN_IF_ERROR(ReadColumnIndex(*column_index, column, &out));
  return out;
}

}  // namespace pqpage::internal
