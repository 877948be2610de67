#include "file/page_index_thrift.h"

#include <string>
#include <utility>
#include <vector>

namespace pqpage::internal {

std::optional<format::OffsetIndex> OffsetIndexOf(const ChunkPageIndex& index, PhysicalType type) {
  if (!index.has_offset_index) return std::nullopt;
  format::OffsetIndex out;
  std::vector<format::PageLocation> locations;
  locations.reserve(index.pages.size());
  for (const IndexedPage& page : index.pages) {
    format::PageLocation location;
    location.__set_offset(page.offset);
    location.__set_compressed_page_size(page.compressed_page_size);
    location.__set_first_row_index(page.first_row_index);
    locations.push_back(location);
  }
  out.page_locations = std::move(locations);  // required: no isset flag
  if (type == PhysicalType::kByteArray) {
    std::vector<int64_t> bytes;
    bytes.reserve(index.pages.size());
    for (const IndexedPage& page : index.pages) {
      bytes.push_back(page.unencoded_byte_array_data_bytes.value_or(0));
    }
    out.unencoded_byte_array_data_bytes = std::move(bytes);
    out.__isset.unencoded_byte_array_data_bytes = true;
  }
  return out;
}

std::optional<format::ColumnIndex> ColumnIndexOf(const ChunkPageIndex& index) {
  if (!index.has_column_index) return std::nullopt;
  std::vector<bool> null_pages;
  std::vector<std::string> mins;
  std::vector<std::string> maxes;
  std::vector<int64_t> null_counts;
  std::vector<int64_t> repetition;
  std::vector<int64_t> definition;
  bool every_null_count = true;
  for (const IndexedPage& page : index.pages) {
    null_pages.push_back(page.null_page);
    mins.push_back(page.min_value);
    maxes.push_back(page.max_value);
    every_null_count = every_null_count && page.null_count.has_value();
    null_counts.push_back(page.null_count.value_or(0));
    // The format's lists are the pages' histograms one after the other.
    repetition.insert(repetition.end(), page.repetition_level_histogram.begin(),
                      page.repetition_level_histogram.end());
    definition.insert(definition.end(), page.definition_level_histogram.begin(),
                      page.definition_level_histogram.end());
  }
  format::ColumnIndex out;
  // Moved in rather than copied by the generated setters (which take const references).
  out.null_pages = std::move(null_pages);
  out.min_values = std::move(mins);
  out.max_values = std::move(maxes);
  out.boundary_order = static_cast<int32_t>(index.boundary_order);
  // The list is all or nothing: a page without a count leaves it out for every page.
  if (every_null_count) {
    out.null_counts = std::move(null_counts);
    out.__isset.null_counts = true;
  }
  if (!repetition.empty()) {
    out.repetition_level_histograms = std::move(repetition);
    out.__isset.repetition_level_histograms = true;
  }
  if (!definition.empty()) {
    out.definition_level_histograms = std::move(definition);
    out.__isset.definition_level_histograms = true;
  }
  return out;
}

}  // namespace pqpage::internal
