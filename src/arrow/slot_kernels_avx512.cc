// The AVX-512 twins of SpreadToSlots and OffsetsFromLengths (slot_kernels.h). Both take eight
// slots a step, a bitmap byte, with one expanding load (VPEXPAND: it reads exactly the packed
// values the byte's set bits ask for, and zeroes the lanes of its clear ones). SpreadToSlots
// stores the eight slots, from the back; widths 1 and 2 need VBMI2. OffsetsFromLengths sums the
// eight lengths in 64-bit lanes, a prefix sum in three shifts, and adds the running total.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "arrow/slot_kernels.h"

namespace pqpage::arrow_internal {
namespace {

// Slots [0, 8) at `to` from the packed values at `from`: lane i holds the next value where bit i
// of `present` is set, zero where it is clear; only the lanes set in `written` are stored.
template <size_t kWidth>
inline void ExpandEight(uint8_t* to, const uint8_t* from, uint32_t present, uint32_t written) {
  const auto lanes = static_cast<__mmask8>(present);
  const auto stored = static_cast<__mmask8>(written);
  if constexpr (kWidth == 8) {
    _mm512_mask_storeu_epi64(to, stored, _mm512_maskz_expandloadu_epi64(lanes, from));
  } else if constexpr (kWidth == 4) {
    _mm256_mask_storeu_epi32(to, stored, _mm256_maskz_expandloadu_epi32(lanes, from));
  } else if constexpr (kWidth == 2) {
    _mm_mask_storeu_epi16(to, stored, _mm_maskz_expandloadu_epi16(lanes, from));
  } else {
    static_assert(kWidth == 1);
    _mm_mask_storeu_epi8(to, stored, _mm_maskz_expandloadu_epi8(lanes, from));
  }
}

template <size_t kWidth>
void Spread(uint8_t* bytes, const uint8_t* bits, int64_t slots, int64_t values) {
  int64_t value = values;  // values [0, value) are still packed at the front
  int64_t slot = slots;    // slots [0, slot) are not written yet
  // Every step's store ends at or after the packed values it has not loaded yet: there are at
  // least as many nulls before a step's slots as in them, so slot - 8 >= value after it. Each
  // step loads before it stores, so its own values may overlap its slots.
  if (slot > value && (slot & 7) != 0) {
    const uint32_t head = (1u << (slot & 7)) - 1;  // the last, partial bitmap byte
    const uint32_t present = bits[slot >> 3] & head;
    slot &= ~int64_t{7};
    value -= __builtin_popcount(present);
    ExpandEight<kWidth>(bytes + slot * kWidth, bytes + value * kWidth, present, head);
  }
  // Once slot == value, the slots before are all present and already hold their values.
  while (slot > value) {
    const uint32_t present = bits[(slot >> 3) - 1];
    slot -= 8;
    value -= __builtin_popcount(present);
    ExpandEight<kWidth>(bytes + slot * kWidth, bytes + value * kWidth, present, 0xff);
  }
}

// Offsets [0, 8) of eight slots: the running total `base` (in every lane) plus the prefix sums
// of the lengths that `present` expands from `lengths`.
inline __m512i EightOffsets(const int32_t* lengths, uint32_t present, __m512i base) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i sum = _mm512_cvtepi32_epi64(
      _mm256_maskz_expandloadu_epi32(static_cast<__mmask8>(present), lengths));
  sum = _mm512_add_epi64(sum, _mm512_alignr_epi64(sum, zero, 7));  // + the lane before
  sum = _mm512_add_epi64(sum, _mm512_alignr_epi64(sum, zero, 6));  // + the two before that
  sum = _mm512_add_epi64(sum, _mm512_alignr_epi64(sum, zero, 4));  // + the four before those
  return _mm512_add_epi64(sum, base);
}

inline void StoreOffsets(int64_t* to, __m512i offsets, uint32_t written) {
  _mm512_mask_storeu_epi64(to, static_cast<__mmask8>(written), offsets);
}

inline void StoreOffsets(int32_t* to, __m512i offsets, uint32_t written) {
  _mm256_mask_storeu_epi32(to, static_cast<__mmask8>(written), _mm512_cvtepi64_epi32(offsets));
}

template <typename Offset>
int64_t Offsets(const int32_t* lengths, const uint8_t* bits, int64_t slots, Offset* offsets) {
  offsets[0] = 0;
  __m512i base = _mm512_setzero_si512();
  int64_t value = 0;
  for (int64_t slot = 0; slot < slots; slot += 8) {
    const uint32_t in_range = slots - slot >= 8 ? 0xff : (1u << (slots - slot)) - 1;
    const uint32_t present = (bits == nullptr ? 0xff : bits[slot >> 3]) & in_range;
    const __m512i eight = EightOffsets(lengths + value, present, base);
    value += __builtin_popcount(present);
    StoreOffsets(offsets + slot + 1, eight, in_range);
    base = _mm512_permutexvar_epi64(_mm512_set1_epi64(7), eight);  // the last lane, everywhere
  }
  return _mm_cvtsi128_si64(_mm512_castsi512_si128(base));
}

}  // namespace

int64_t OffsetsFromLengthsAvx512(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                                 int32_t* offsets) {
  return Offsets(lengths, bits, slots, offsets);
}

int64_t OffsetsFromLengthsAvx512(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                                 int64_t* offsets) {
  return Offsets(lengths, bits, slots, offsets);
}

bool SpreadToSlotsAvx512(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots,
                         int64_t values) {
  return ForWidth<1, 2, 4, 8>(width,
                              [&](auto kWidth) { Spread<kWidth>(bytes, bits, slots, values); });
}

}  // namespace pqpage::arrow_internal
