// The run scanner's loops as templates over the mask kernels, so that the scalar and AVX2
// translation units each compile a whole copy with their mask inlined (zstd's "_body" twins): the
// instruction set is chosen once per call, not once per 32 values.
#ifndef PQPAGE_ENCODINGS_RUN_SCAN_BODY_H_
#define PQPAGE_ENCODINGS_RUN_SCAN_BODY_H_

#include <bit>
#include <cstddef>
#include <cstdint>

namespace pqpage::internal {

// Bit p of the result is set when bits p .. p + ones - 1 of `mask` are all set (ones >= 1).
inline uint32_t StartsOfOnes(uint32_t mask, size_t ones) {
  size_t covered = 1;
  while (covered < ones) {
    const size_t shift = covered < ones - covered ? covered : ones - covered;
    mask &= mask >> shift;
    covered += shift;
  }
  return mask;
}

template <typename NeighbourMask>
inline size_t FindRunOfAtLeastBody(const uint32_t* values, size_t from, size_t n, size_t min_length,
                                   NeighbourMask mask_of) {
  if (min_length <= 1) return from;
  size_t run_start = from;
  size_t block = from + 1;
  for (; block + 32 <= n; block += 32) {
    const uint32_t equal = mask_of(values + block);
    if (equal == 0xFFFFFFFFu) {
      if (block + 32 - run_start >= min_length) return run_start;
      continue;
    }
    // The run open at the block's start ends at its first unequal value.
    const int first_break = std::countr_one(equal);
    if (block + first_break - run_start >= min_length) return run_start;
    // Runs starting inside the block: min_length - 1 equal neighbours in a row after a break.
    const uint32_t inside = equal & ~((uint32_t{2} << first_break) - 1);
    const uint32_t long_runs = StartsOfOnes(inside, min_length - 1);
    if (long_runs != 0) return block + std::countr_zero(long_runs) - 1;
    // Otherwise the last run of the block stays open into the next one.
    run_start = block + 31 - std::countl_one(equal);
  }
  for (size_t j = block; j < n; ++j) {
    run_start = values[j] != values[j - 1] ? j : run_start;
    if (j + 1 - run_start >= min_length) return run_start;
  }
  return run_start;
}

template <typename ValueMask>
inline size_t EndOfRunBody(const uint32_t* values, size_t from, size_t n, uint32_t value,
                           ValueMask mask_of) {
  size_t j = from;
  for (; j + 32 <= n; j += 32) {
    const uint32_t equal = mask_of(values + j, value);
    if (equal != 0xFFFFFFFFu) return j + std::countr_one(equal);
  }
  while (j < n && values[j] == value) ++j;
  return j;
}

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_RUN_SCAN_BODY_H_
