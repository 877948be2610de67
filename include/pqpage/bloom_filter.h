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

  void InsertHash(uint64_t hash);
  // @return false when no value of this hash was inserted; true when one may have been.
  bool MayContainHash(uint64_t hash) const;
  // MayContainHash(Hash(value)).
  template <typename T>
  bool MayContain(const T& value) const {
    return MayContainHash(Hash(value));
  }

  int64_t num_bytes() const { return static_cast<int64_t>(words_.size()) * 4; }
  int64_t num_blocks() const { return num_bytes() / kBlockBytes; }
  // The bitset as it is stored in a file: the words little-endian, in order.
  std::vector<uint8_t> Bitset() const;

  bool operator==(const BloomFilter&) const = default;

 private:
  BloomFilter() = default;
  std::vector<uint32_t> words_;  // num_blocks * 8
};

}  // namespace pqpage

#endif  // PQPAGE_BLOOM_FILTER_H_
