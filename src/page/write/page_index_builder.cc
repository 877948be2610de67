#include "page/write/page_index_builder.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "page/write/statistics.h"

namespace pqpage::internal {

std::string TruncatedMin(const std::string& min, size_t length) {
  // A prefix sorts before (or equal to) every string that starts with it.
  return min.size() <= length ? min : min.substr(0, length);
}

std::string TruncatedMax(const std::string& max, size_t length) {
  if (max.size() <= length) return max;
  std::string cut = max.substr(0, length);
  // Bytes of 0xFF cannot be incremented: drop them and increment the byte before, which makes
  // the result larger than every string that starts with the prefix.
  while (!cut.empty() && static_cast<uint8_t>(cut.back()) == 0xFF) cut.pop_back();
  if (cut.empty()) return max;
  cut.back() = static_cast<char>(static_cast<uint8_t>(cut.back()) + 1);
  return cut;
}

PageIndexBuilder::PageIndexBuilder(const ColumnDescriptor& column, int64_t truncate_length)
    : column_(column),
      truncate_length_(static_cast<size_t>(truncate_length)),
      can_index_(column.type != PhysicalType::kInt96) {}

std::vector<int64_t> PageIndexBuilder::Histogram(absl::Span<const int16_t> levels,
                                                 int16_t max_level) {
  std::vector<int64_t> counts(static_cast<size_t>(max_level) + 1, 0);
  for (const int16_t level : levels) ++counts[static_cast<size_t>(level)];
  return counts;
}

void PageIndexBuilder::AddPage(absl::Span<const int16_t> definition_levels,
                               absl::Span<const int16_t> repetition_levels, int64_t levels,
                               int64_t values, const Statistics& statistics, int64_t value_bytes) {
  IndexedPage entry;
  entry.null_page = values == 0;
  entry.null_count = levels - values;
  const int16_t max_def = column_.max_definition_level;
  if (max_def == 1) {
    // Every level is 0 or 1, and the 1s are the values: no need to count.
    entry.definition_level_histogram = {levels - values, values};
  } else if (max_def > 1) {
    entry.definition_level_histogram = Histogram(definition_levels, max_def);
  }
  if (column_.max_repetition_level > 0) {
    entry.repetition_level_histogram = Histogram(repetition_levels, column_.max_repetition_level);
  }
  if (column_.type == PhysicalType::kByteArray) entry.unencoded_byte_array_data_bytes = value_bytes;
  if (!entry.null_page) {
    if (statistics.min_value && statistics.max_value) {
      entry.min_value = *statistics.min_value;
      entry.max_value = *statistics.max_value;
      // Truncating keeps bounds only in bytewise order: a decimal's bytes are a number.
      if (column_.type == PhysicalType::kByteArray &&
          SortOrderOf(column_) == SortOrder::kPhysical) {
        entry.min_value = TruncatedMin(entry.min_value, truncate_length_);
        entry.max_value = TruncatedMax(entry.max_value, truncate_length_);
      }
    } else {
      can_index_ = false;  // values without bounds: only NaN
    }
  }
  entries_.push_back(std::move(entry));
}

BoundaryOrder PageIndexBuilder::ComputeBoundaryOrder() const {
  bool ascending = true;
  bool descending = true;
  const IndexedPage* previous = nullptr;
  for (const IndexedPage& entry : entries_) {
    if (entry.null_page) continue;
    if (previous != nullptr) {
      const int min_order = CompareEncodedValues(column_, previous->min_value, entry.min_value);
      const int max_order = CompareEncodedValues(column_, previous->max_value, entry.max_value);
      ascending = ascending && min_order <= 0 && max_order <= 0;
      descending = descending && min_order >= 0 && max_order >= 0;
    }
    previous = &entry;
  }
  // Fewer than two pages with values are in every order; ascending is what others write then.
  if (ascending) return BoundaryOrder::kAscending;
  if (descending) return BoundaryOrder::kDescending;
  return BoundaryOrder::kUnordered;
}

absl::Status PageIndexBuilder::Finish(ColumnChunkData* chunk) {
  ChunkPageIndex& index = chunk->page_index;
  if (index.pages.size() != entries_.size()) {
    return absl::InternalError(absl::StrCat("page index: ", index.pages.size(),
                                            " pages located but ", entries_.size(), " described"));
  }
  index.has_column_index = can_index_ && !entries_.empty();
  index.boundary_order =
      index.has_column_index ? ComputeBoundaryOrder() : BoundaryOrder::kUnordered;
  SizeStatistics sizes;
  auto add_into = [](std::vector<int64_t>* total, const std::vector<int64_t>& page) {
    if (total->size() < page.size()) total->resize(page.size(), 0);
    for (size_t i = 0; i < page.size(); ++i) (*total)[i] += page[i];
  };
  for (size_t i = 0; i < entries_.size(); ++i) {
    IndexedPage& entry = entries_[i];
    add_into(&sizes.repetition_level_histogram, entry.repetition_level_histogram);
    add_into(&sizes.definition_level_histogram, entry.definition_level_histogram);
    if (entry.unencoded_byte_array_data_bytes) {
      sizes.unencoded_byte_array_data_bytes = sizes.unencoded_byte_array_data_bytes.value_or(0) +
                                              *entry.unencoded_byte_array_data_bytes;
    }
    // Without a ColumnIndex the pages keep only what the OffsetIndex stores, as a reader sees it.
    IndexedPage& page = index.pages[i];
    if (index.has_column_index) {
      entry.offset = page.offset;
      entry.compressed_page_size = page.compressed_page_size;
      entry.first_row_index = page.first_row_index;
      page = std::move(entry);
    } else {
      page.unencoded_byte_array_data_bytes = entry.unencoded_byte_array_data_bytes;
    }
  }
  entries_.clear();
  if (sizes.unencoded_byte_array_data_bytes || !sizes.repetition_level_histogram.empty() ||
      !sizes.definition_level_histogram.empty()) {
    chunk->metadata.size_statistics = std::move(sizes);
  }
  return absl::OkStatus();
}

}  // namespace pqpage::internal
