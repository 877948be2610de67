// Builds a column chunk's bloom filter from the values the page builder is given
// (WriterOptions::bloom_filter). With a distinct-value count given, the filter is made at once for
// it and each value goes in as it comes. Without one, the hashes are kept in a set while they are
// few; past that, they go into a filter of the largest size. Either way a filter's inserts that
// set a new bit count the distinct values, and Finish folds it down to the size their count asks
// for when that is smaller (BloomFilter::Fold gives exactly the filter the values would have
// made).
#ifndef PQPAGE_PAGE_WRITE_BLOOM_FILTER_BUILDER_H_
#define PQPAGE_PAGE_WRITE_BLOOM_FILTER_BUILDER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/types/span.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/writer_options.h"

namespace pqpage::internal {

class BloomFilterBuilder {
 public:
  // `options` must have passed CheckWriterSetup.
  explicit BloomFilterBuilder(const BloomFilterOptions& options);

  template <typename T>
  void Add(absl::Span<const T> values) {
    for (const T& value : values) AddHash(BloomFilter::Hash(value));
  }
  // The values entries[indices[i]]. Each entry is hashed and added once per builder for the same
  // `entries` (address and size), as WriteIndexedBatch promises the same contents for them.
  template <typename T>
  void AddIndexed(absl::Span<const uint32_t> indices, absl::Span<const T> entries) {
    if (entries.data() != indexed_entries_ || entries.size() != added_entries_.size()) {
      indexed_entries_ = entries.data();
      added_entries_.assign(entries.size(), false);
    }
    for (const uint32_t index : indices) {
      if (added_entries_[index]) continue;
      added_entries_[index] = true;
      AddHash(BloomFilter::Hash(entries[index]));
    }
  }
  void AddHash(uint64_t hash);

  // The filter holding every value added. The builder is spent afterwards.
  BloomFilter Finish();

 private:
  // Moves the hashes counted so far into a filter of `num_bytes`.
  void MakeFilter(int64_t num_bytes);

  BloomFilterOptions options_;
  int64_t limit_bytes_ = 0;               // the largest filter: max_bytes down to a power of two
  absl::flat_hash_set<uint64_t> hashes_;  // while few distinct values have come
  std::optional<BloomFilter> filter_;
  // Counting into a filter of limit_bytes_: the distinct values seen (inserts that set a bit).
  bool counting_ = false;
  int64_t distinct_ = 0;
  const void* indexed_entries_ = nullptr;
  std::vector<bool> added_entries_;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_BLOOM_FILTER_BUILDER_H_
