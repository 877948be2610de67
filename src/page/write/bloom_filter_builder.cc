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

// Distinct hashes kept in a set (16 bytes each, about) before counting moves to the filter.
constexpr size_t kExactCountLimit = size_t{1} << 13;

BloomFilterBuilder::BloomFilterBuilder(const BloomFilterOptions& options)
    : options_(options), limit_bytes_(FilterBytesLimit(options.max_bytes)) {
  if (options.distinct_values.has_value()) {
    // Sized for the count given, and counting: a chunk with fewer values folds down at Finish.
    MakeFilter(BloomFilter::OptimalBytes(*options.distinct_values, options.fpp));
    counting_ = true;
  }
}

void BloomFilterBuilder::MakeFilter(int64_t num_bytes) {
  filter_.emplace(std::min(num_bytes, limit_bytes_));
  for (const uint64_t hash : hashes_) filter_->InsertHash(hash);
  distinct_ = static_cast<int64_t>(hashes_.size());
  hashes_ = {};
}

void BloomFilterBuilder::AddHash(uint64_t hash) {
  if (filter_.has_value()) {
    if (filter_->InsertHash(hash) && counting_) ++distinct_;
    return;
  }
  hashes_.insert(hash);
  if (hashes_.size() >= kExactCountLimit) {
    MakeFilter(limit_bytes_);
    counting_ = true;
  }
}

BloomFilter BloomFilterBuilder::Finish() {
  if (!filter_.has_value()) {
    MakeFilter(BloomFilter::OptimalBytes(static_cast<int64_t>(hashes_.size()), options_.fpp));
    return *std::move(filter_);
  }
  if (counting_) {
    const int64_t wanted =
        std::min(BloomFilter::OptimalBytes(distinct_, options_.fpp), limit_bytes_);
    if (wanted < filter_->num_bytes()) {
      absl::StatusOr<BloomFilter> folded = filter_->Fold(wanted);
      if (folded.ok()) return *std::move(folded);  // both are powers of two: it always is
    }
  }
  return *std::move(filter_);
}

}  // namespace pqpage::internal
