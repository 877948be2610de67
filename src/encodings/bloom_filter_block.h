// One block of the split-block bloom filter (pqpage/bloom_filter.h): eight 32-bit words, a key's
// eight bits (one per word, chosen by the format's salts), set and tested. The portable form is
// here; bloom_filter_avx2.cc holds the AVX2 twin, which does all eight words at once.
#ifndef PQPAGE_ENCODINGS_BLOOM_FILTER_BLOCK_H_
#define PQPAGE_ENCODINGS_BLOOM_FILTER_BLOCK_H_

#include <cstdint>

namespace pqpage::internal {

// The format's eight salts: one odd multiplier per word of a block.
inline constexpr uint32_t kBloomSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                           0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

// The bit of word `i` that `key` sets.
inline uint32_t BloomBit(uint32_t key, int i) {
  return uint32_t{1} << ((key * kBloomSalt[i]) >> 27);
}

// @return whether a bit was new.
inline bool BlockInsert(uint32_t* block, uint32_t key) {
  uint32_t new_bits = 0;
  for (int i = 0; i < 8; ++i) {
    const uint32_t bit = BloomBit(key, i);
    new_bits |= bit & ~block[i];
    block[i] |= bit;
  }
  return new_bits != 0;
}

inline bool BlockMayContain(const uint32_t* block, uint32_t key) {
  // Most absent keys miss in the first word or two: stop there.
  for (int i = 0; i < 8; ++i) {
    if ((block[i] & BloomBit(key, i)) == 0) return false;
  }
  return true;
}

// The AVX2 twins; `block` 32-byte aligned. Only where UseAvx2Twins() (common/cpu_features.h).
bool BlockInsertAvx2(uint32_t* block, uint32_t key);
bool BlockMayContainAvx2(const uint32_t* block, uint32_t key);

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_BLOOM_FILTER_BLOCK_H_
