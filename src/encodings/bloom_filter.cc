// The split-block bloom filter of pqpage/bloom_filter.h.
#include "pqpage/bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pqpage {
namespace {

// The format's eight salts: one odd multiplier per word of a block.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

int64_t RoundToFilterBytes(int64_t num_bytes) {
  const uint64_t clamped = static_cast<uint64_t>(
      std::clamp<int64_t>(num_bytes, BloomFilter::kBlockBytes, BloomFilter::kMaxBytes));
  return static_cast<int64_t>(std::bit_ceil(clamped));
}

template <typename T>
uint64_t HashBytesOf(const T& value) {
  static_assert(std::endian::native == std::endian::little, "PLAIN is little-endian");
  return XXH64(&value, sizeof(value), 0);
}

}  // namespace

int64_t BloomFilter::OptimalBytes(int64_t distinct_values, double fpp) {
  if (!(fpp > 0.0 && fpp < 1.0)) fpp = kDefaultFpp;
  const double n = static_cast<double>(std::max<int64_t>(distinct_values, 1));
  const double bits = -8.0 * n / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  const double bytes = std::ceil(bits / 8.0);
  if (!(bytes < static_cast<double>(kMaxBytes))) return kMaxBytes;
  return RoundToFilterBytes(static_cast<int64_t>(bytes));
}

BloomFilter::BloomFilter(int64_t num_bytes) : words_(RoundToFilterBytes(num_bytes) / 4, 0) {}

absl::StatusOr<BloomFilter> BloomFilter::FromBitset(absl::Span<const uint8_t> bitset) {
  const int64_t size = static_cast<int64_t>(bitset.size());
  if (size == 0 || size % kBlockBytes != 0 || size > kMaxBytes) {
    return absl::DataLossError(absl::StrCat("bloom filter bitset of ", size,
                                            " bytes: not a positive multiple of ", kBlockBytes,
                                            " bytes up to ", kMaxBytes));
  }
  BloomFilter filter;
  filter.words_.resize(bitset.size() / 4);
  std::memcpy(filter.words_.data(), bitset.data(), bitset.size());
  return filter;
}

uint64_t BloomFilter::Hash(std::string_view plain_bytes) {
  return XXH64(plain_bytes.data(), plain_bytes.size(), 0);
}
uint64_t BloomFilter::Hash(int32_t value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(int64_t value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(float value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(double value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(const Int96& value) { return HashBytesOf(value); }
uint64_t BloomFilter::Hash(const ByteArray& value) { return XXH64(value.data, value.size, 0); }

void BloomFilter::InsertHash(uint64_t hash) {
  const uint64_t blocks = words_.size() / 8;
  uint32_t* block = words_.data() + ((hash >> 32) * blocks >> 32) * 8;
  const auto key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) block[i] |= uint32_t{1} << ((key * kSalt[i]) >> 27);
}

bool BloomFilter::MayContainHash(uint64_t hash) const {
  const uint64_t blocks = words_.size() / 8;
  const uint32_t* block = words_.data() + ((hash >> 32) * blocks >> 32) * 8;
  const auto key = static_cast<uint32_t>(hash);
  uint32_t missing = 0;
  for (int i = 0; i < 8; ++i) missing |= ~block[i] & (uint32_t{1} << ((key * kSalt[i]) >> 27));
  return missing == 0;
}

std::vector<uint8_t> BloomFilter::Bitset() const {
  std::vector<uint8_t> bytes(words_.size() * 4);
  std::memcpy(bytes.data(), words_.data(), bytes.size());
  return bytes;
}

}  // namespace pqpage
