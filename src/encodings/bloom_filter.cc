// The split-block bloom filter of pqpage/bloom_filter.h.
#include "pqpage/bloom_filter.h"

// xxHash's functions compiled here, inline (Debian's header carries them): a call into the shared
// library for every 8-byte value would cost as much as the probe.
#define XXH_INLINE_ALL
#include <sys/mman.h>
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/cpu_features.h"
#include "encodings/bloom_filter_block.h"

namespace pqpage {
namespace {

// Asked once: the dispatch costs a predictable branch per probe.
bool UseAvx2Blocks() {
  static const bool use = internal::UseAvx2Twins();
  return use;
}

int64_t RoundToFilterBytes(int64_t num_bytes) {
  const uint64_t clamped = static_cast<uint64_t>(
      std::clamp<int64_t>(num_bytes, BloomFilter::kBlockBytes, BloomFilter::kMaxBytes));
  return static_cast<int64_t>(std::bit_ceil(clamped));
}

// An empty value may come with no pointer at all (a default ByteArray): xxHash gets a real one,
// and without a pointer there are no bytes.
uint64_t HashBytes(const void* data, size_t size) {
  static constexpr char kNoBytes[1] = {};
  return data != nullptr ? XXH64(data, size, 0) : XXH64(kNoBytes, 0, 0);
}

// Flattened: xxHash inlined whole, its length a constant, so a number hashes in a few
// instructions rather than through the general loop.
template <typename T>
[[gnu::flatten]] uint64_t HashBytesOf(const T& value) {
  static_assert(std::endian::native == std::endian::little, "PLAIN is little-endian");
  return XXH64(&value, sizeof(value), 0);
}

}  // namespace

template <typename T>
T* BloomFilter::HugePageAllocator<T>::allocate(size_t n) {
  constexpr size_t kHugePage = size_t{2} << 20;
  const size_t bytes = n * sizeof(T);
  if (bytes < kHugePage) {
    return static_cast<T*>(::operator new (bytes, std::align_val_t{alignof(T)}));
  }
  void* memory = std::aligned_alloc(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage);
  if (memory == nullptr) throw std::bad_alloc();
  ::madvise(memory, bytes, MADV_HUGEPAGE);  // advice only: a refusal changes nothing
  return static_cast<T*>(memory);
}

template <typename T>
void BloomFilter::HugePageAllocator<T>::deallocate(T* p, size_t n) {
  if (n * sizeof(T) < (size_t{2} << 20)) {
    ::operator delete (p, std::align_val_t{alignof(T)});
  } else {
    std::free(p);
  }
}

template struct BloomFilter::HugePageAllocator<BloomFilter::Block>;

int64_t BloomFilter::OptimalBytes(int64_t distinct_values, double fpp) {
  if (!(fpp > 0.0 && fpp < 1.0)) fpp = kDefaultFpp;
  const double n = static_cast<double>(std::max<int64_t>(distinct_values, 1));
  const double bits = -8.0 * n / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  const double bytes = std::ceil(bits / 8.0);
  if (!(bytes < static_cast<double>(kMaxBytes))) return kMaxBytes;
  return RoundToFilterBytes(static_cast<int64_t>(bytes));
}

BloomFilter::BloomFilter(int64_t num_bytes)
    : blocks_(static_cast<size_t>(RoundToFilterBytes(num_bytes) / kBlockBytes), Block{}) {}

absl::StatusOr<BloomFilter> BloomFilter::FromBitset(absl::Span<const uint8_t> bitset) {
  const int64_t size = static_cast<int64_t>(bitset.size());
  if (size == 0 || size % kBlockBytes != 0 || size > kMaxBytes) {
    return absl::DataLossError(absl::StrCat("bloom filter bitset of ", size,
                                            " bytes: not a positive multiple of ", kBlockBytes,
                                            " bytes up to ", kMaxBytes));
  }
  BloomFilter filter;
  filter.blocks_.resize(bitset.size() / kBlockBytes);
  std::memcpy(filter.blocks_.data(), bitset.data(), bitset.size());
  return filter;
}

uint64_t BloomFilter::Hash(std::string_view plain_bytes) {
  return HashBytes(plain_bytes.data(), plain_bytes.size());
}
uint64_t BloomFilter::Hash(int32_t value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(int64_t value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(float value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(double value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(const Int96& value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(const ByteArray& value) { return HashBytes(value.data, value.size); }

bool BloomFilter::InsertHash(uint64_t hash) {
  uint32_t* block = blocks_[(hash >> 32) * blocks_.size() >> 32].words;
  const auto key = static_cast<uint32_t>(hash);
  return UseAvx2Blocks() ? internal::BlockInsertAvx2(block, key)
                         : internal::BlockInsert(block, key);
}

absl::StatusOr<BloomFilter> BloomFilter::Fold(int64_t num_bytes) const {
  const int64_t blocks = num_bytes / kBlockBytes;
  if (num_bytes < kBlockBytes || num_bytes % kBlockBytes != 0 ||
      !std::has_single_bit(static_cast<uint64_t>(blocks)) || !std::has_single_bit(blocks_.size()) ||
      blocks > num_blocks()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot fold a bloom filter of ", this->num_bytes(), " bytes to ", num_bytes));
  }
  BloomFilter folded;
  folded.blocks_.assign(static_cast<size_t>(blocks), Block{});
  const size_t ratio = blocks_.size() / static_cast<size_t>(blocks);
  for (size_t b = 0; b < blocks_.size(); ++b) {
    Block& into = folded.blocks_[b / ratio];
    for (int i = 0; i < 8; ++i) into.words[i] |= blocks_[b].words[i];
  }
  return folded;
}

bool BloomFilter::MayContainHash(uint64_t hash) const {
  const uint32_t* block = blocks_[(hash >> 32) * blocks_.size() >> 32].words;
  const auto key = static_cast<uint32_t>(hash);
  return UseAvx2Blocks() ? internal::BlockMayContainAvx2(block, key)
                         : internal::BlockMayContain(block, key);
}

std::vector<uint8_t> BloomFilter::Bitset() const {
  std::vector<uint8_t> bytes(static_cast<size_t>(num_bytes()));
  std::memcpy(bytes.data(), blocks_.data(), bytes.size());
  return bytes;
}

}  // namespace pqpage
