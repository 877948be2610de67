#include "page/write/bloom_filter_builder.h"

#include <algorithm>
#include <bit>
#include <utility>

namespace pqpage::internal {
namespace {

// The largest power of two at or below `max_bytes`, at least one block.
int64_t FilterBytesLimit(int64_t max_bytes) {
  return static_cast<int64_t>(std::bit_floor(static_cast<uint64_t>(
      std::clamp<int64_t>(max_bytes, BloomFilter::kBlockBytes, BloomFilter::kMaxBytes))));
}

}  // namespace

BloomFilterBuilder::BloomFilterBuilder(const BloomFilterOptions& options) : options_(options) {
  const int64_t limit = FilterBytesLimit(options.max_bytes);
  if (options.distinct_values.has_value()) {
    MakeFilter(BloomFilter::OptimalBytes(*options.distinct_values, options.fpp));
    return;
  }
  // The count at which OptimalBytes reaches `limit`: it grows with the count, so search.
  int64_t low = 1;
  int64_t high = limit * 8;  // a filter never holds more values than bits
  while (low < high) {
    const int64_t mid = low + (high - low) / 2;
    if (BloomFilter::OptimalBytes(mid, options.fpp) >= limit) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  max_counted_ = low;
}

void BloomFilterBuilder::MakeFilter(int64_t num_bytes) {
  filter_.emplace(std::min(num_bytes, FilterBytesLimit(options_.max_bytes)));
  for (const uint64_t hash : hashes_) filter_->InsertHash(hash);
  hashes_ = {};
}

void BloomFilterBuilder::AddHash(uint64_t hash) {
  if (filter_.has_value()) {
    filter_->InsertHash(hash);
    return;
  }
  hashes_.insert(hash);
  if (static_cast<int64_t>(hashes_.size()) >= max_counted_) {
    MakeFilter(FilterBytesLimit(options_.max_bytes));
  }
}

BloomFilter BloomFilterBuilder::Finish() {
  if (!filter_.has_value()) {
    MakeFilter(BloomFilter::OptimalBytes(static_cast<int64_t>(hashes_.size()), options_.fpp));
  }
  return *std::move(filter_);
}

}  // namespace pqpage::internal
