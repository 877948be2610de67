#include "file/page_index_thrift.h"

#include <vector>

namespace pqpage::internal {

bool HasPageEntries(const ColumnChunkMetadata& meta) {
  return !meta.page_locations.empty() && meta.page_index.size() == meta.page_locations.size();
}

format::OffsetIndex OffsetIndexOf(const ColumnChunkMetadata& meta) {
  format::OffsetIndex index;
  std::vector<format::PageLocation> locations;
  locations.reserve(meta.page_locations.size());
  for (const PageLocation& page : meta.page_locations) {
    format::PageLocation location;
    location.__set_offset(page.offset);
    location.__set_compressed_page_size(page.compressed_page_size);
    location.__set_first_row_index(page.first_row_index);
    locations.push_back(location);
  }
  index.page_locations = std::move(locations);  // required: no isset flag
  if (meta.type == PhysicalType::kByteArray && HasPageEntries(meta)) {
    std::vector<int64_t> bytes;
    bytes.reserve(meta.page_index.size());
    for (const PageIndexEntry& entry : meta.page_index) {
      bytes.push_back(entry.unencoded_byte_array_data_bytes.value_or(0));
    }
    index.unencoded_byte_array_data_bytes = std::move(bytes);
    index.__isset.unencoded_byte_array_data_bytes = true;
  }
  return index;
}

std::optional<format::ColumnIndex> ColumnIndexOf(const ColumnChunkMetadata& meta) {
  if (!meta.has_column_index || !HasPageEntries(meta)) return std::nullopt;
  format::ColumnIndex index;
  std::vector<bool> null_pages;
  std::vector<std::string> mins;
  std::vector<std::string> maxes;
  std::vector<int64_t> null_counts;
  std::vector<int64_t> repetition;
  std::vector<int64_t> definition;
  for (const PageIndexEntry& entry : meta.page_index) {
    null_pages.push_back(entry.null_page);
    mins.push_back(entry.min_value);
    maxes.push_back(entry.max_value);
    null_counts.push_back(entry.null_count);
    // The format's lists are the pages' histograms one after the other.
    repetition.insert(repetition.end(), entry.repetition_level_histogram.begin(),
                      entry.repetition_level_histogram.end());
    definition.insert(definition.end(), entry.definition_level_histogram.begin(),
                      entry.definition_level_histogram.end());
  }
  // Moved in rather than copied by the generated setters (which take const references).
  index.null_pages = std::move(null_pages);
  index.min_values = std::move(mins);
  index.max_values = std::move(maxes);
  index.boundary_order = static_cast<int32_t>(meta.boundary_order);
  index.null_counts = std::move(null_counts);
  index.__isset.null_counts = true;
  if (!repetition.empty()) {
    index.repetition_level_histograms = std::move(repetition);
    index.__isset.repetition_level_histograms = true;
  }
  if (!definition.empty()) {
    index.definition_level_histograms = std::move(definition);
    index.__isset.definition_level_histograms = true;
  }
  return index;
}

std::optional<format::SizeStatistics> SizeStatisticsOf(const ColumnChunkMetadata& meta) {
  if (!meta.unencoded_byte_array_data_bytes && meta.repetition_level_histogram.empty() &&
      meta.definition_level_histogram.empty()) {
    return std::nullopt;
  }
  format::SizeStatistics statistics;
  if (meta.unencoded_byte_array_data_bytes) {
    statistics.__set_unencoded_byte_array_data_bytes(*meta.unencoded_byte_array_data_bytes);
  }
  if (!meta.repetition_level_histogram.empty()) {
    statistics.__set_repetition_level_histogram(meta.repetition_level_histogram);
  }
  if (!meta.definition_level_histogram.empty()) {
    statistics.__set_definition_level_histogram(meta.definition_level_histogram);
  }
  return statistics;
}

}  // namespace pqpage::internal
