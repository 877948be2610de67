// Parquet's split-block bloom filter (the format's BloomFilter.md): a bitset of 32-byte blocks,
// each eight 32-bit words, that answers "may this column chunk hold value v?" with no false
// negatives. A value is hashed with xxHash64 (seed 0) over its PLAIN encoding (a byte array's or
// fixed-length byte array's bytes without a length; numbers little-endian); the hash's top 32
// bits pick a block, its low 32 bits set one bit in each of the block's words, chosen by eight
// fixed odd "salt" multipliers. Every writer (parquet-java, Arrow C++, arrow-rs, DuckDB) agrees on
// these bits, so a filter written by any of them answers here and the other way round.
//
// The filter itself has no header; FileReader::ReadBloomFilter (pqpage/file.h) reads the Thrift
// header that precedes it in a file, and the page builder writes it (WriterOptions::bloom_filter).
#ifndef PQPAGE_BLOOM_FILTER_H_
#define PQPAGE_BLOOM_FILTER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/types.h"

namespace pqpage {

class BloomFilter {
 public:
  static constexpr int64_t kBlockBytes = 32;
  // The most bytes pqpage writes or reads for one filter (Arrow C++'s limit too).
  static constexpr int64_t kMaxBytes = int64_t{128} << 20;
  // The false-positive rate a filter is sized for when the caller names none (Arrow C++'s).
  static constexpr double kDefaultFpp = 0.05;

  // The bytes a filter needs to hold `distinct_values` values with a false-positive rate of at
  // most `fpp`: the format's bound for split-block filters, m = -8 n / ln(1 - fpp^(1/8)) bits,
  // rounded up to a power of two and kept within [kBlockBytes, kMaxBytes].
  // @return the size in bytes; `fpp` outside (0, 1) is taken as kDefaultFpp, a count below 1 as 1.
  static int64_t OptimalBytes(int64_t distinct_values, double fpp);

  // An empty filter (no value inserted) of `num_bytes` bytes, rounded up to a power of two within
  // [kBlockBytes, kMaxBytes].
  explicit BloomFilter(int64_t num_bytes);

  // A filter over a bitset read from a file. The bitset is copied.
  // @return the filter, or DataLoss for an empty bitset, one whose length is not a multiple of
  // kBlockBytes, or one over kMaxBytes.
  static absl::StatusOr<BloomFilter> FromBitset(absl::Span<const uint8_t> bitset);

  // xxHash64 with seed 0 of `plain_bytes`, the value's PLAIN encoding (see above).
  static uint64_t Hash(std::string_view plain_bytes);
  // The hash of a value of each physical type but BOOLEAN (which no writer filters): numbers by
  // their little-endian bytes, a ByteArray by its bytes.
  static uint64_t Hash(int32_t value);
  static uint64_t Hash(int64_t value);
  static uint64_t Hash(float value);
  static uint64_t Hash(double value);
  static uint64_t Hash(const Int96& value);
  static uint64_t Hash(const ByteArray& value);
  // BOOLEAN has no filter; without this, a bool would hash as an int32.
  static uint64_t Hash(bool value) = delete;

  // @return whether the hash set a bit that was not set: false means the value, or one that
  // hashes to the same bits, is in the filter already (a count of the trues is a count of the
  // distinct values, short by the false positives).
  bool InsertHash(uint64_t hash);
  // @return false when no value of this hash was inserted; true when one may have been.
  bool MayContainHash(uint64_t hash) const;
  // MayContainHash(Hash(value)).
  template <typename T>
  bool MayContain(const T& value) const {
    return MayContainHash(Hash(value));
  }

  // The filter of `num_bytes` (a power of two, at most this one's size, which must be a power of
  // two too) that inserting the same values would give: blocks 2i and 2i+1 are ORed into block i
  // as often as needed, since a hash's block in a filter half the size is its block here halved.
  // @return the smaller filter; InvalidArgument for a size that is not such a power of two.
  absl::StatusOr<BloomFilter> Fold(int64_t num_bytes) const;

  int64_t num_bytes() const { return num_blocks() * kBlockBytes; }
  int64_t num_blocks() const { return static_cast<int64_t>(blocks_.size()); }
  // The bitset as it is stored in a file: the words little-endian, in order.
  std::vector<uint8_t> Bitset() const;

  bool operator==(const BloomFilter&) const = default;

 private:
  // Aligned to its size, so that no block straddles two cache lines.
  struct alignas(32) Block {
    uint32_t words[8];
    bool operator==(const Block&) const = default;
  };
  static_assert(sizeof(Block) == kBlockBytes);

  // Allocates filters of 2 MiB and more on huge pages where the system allows it: probes land
  // anywhere in the filter, and with 4 KiB pages nearly each one would miss the TLB.
  template <typename T>
  struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() = default;
    template <typename U>
    HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT(google-explicit-constructor)
    T* allocate(size_t n);
    void deallocate(T* p, size_t n);
    bool operator==(const HugePageAllocator&) const { return true; }
  };

  BloomFilter() = default;
  std::vector<Block, HugePageAllocator<Block>> blocks_;
};

}  // namespace pqpage

#endif  // PQPAGE_BLOOM_FILTER_H_
