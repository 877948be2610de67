// Checking a block of decoded integers against an upper bound (dictionary size, maximum level)
// before the block is used. Baseline x86-64 (SSE2) has no unsigned 32-bit compare or max, so both
// sides are biased by 2^31 and compared signed: the loop vectorises into a branch-free pass, where
// an unsigned max would be emulated instruction by instruction.
#ifndef PQPAGE_CODEC_RANGE_CHECK_H_
#define PQPAGE_CODEC_RANGE_CHECK_H_

#include <cstddef>
#include <cstdint>

namespace pqpage::internal {

// Whether any of `count` values is `limit` or more.
inline bool AnyAtLeast(const uint32_t* values, size_t count, uint64_t limit) {
  if (limit > 0xFFFFFFFFu) return false;
  const int32_t biased_limit = static_cast<int32_t>(static_cast<uint32_t>(limit) ^ 0x80000000u);
  int32_t out_of_range = 0;
  for (size_t i = 0; i < count; ++i) {
    out_of_range |= static_cast<int32_t>(values[i] ^ 0x80000000u) >= biased_limit;
  }
  return out_of_range != 0;
}

// The first value that is `limit` or more (0 if none), for error messages: off the hot path.
inline uint32_t FirstAtLeast(const uint32_t* values, size_t count, uint64_t limit) {
  for (size_t i = 0; i < count; ++i) {
    if (values[i] >= limit) return values[i];
  }
  return 0;
}

}  // namespace pqpage::internal

#endif  // PQPAGE_CODEC_RANGE_CHECK_H_
