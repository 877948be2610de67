// The inner loops of reading Arrow batches that run once per level or value: finding where rows
// begin among repetition levels, a validity bitmap from definition levels, packed values spread
// to their slots, and byte array offsets from the present values' lengths. Each is one pass over
// plain arrays, in blocks where SSE2 (every x86-64) can compare many levels at once; the last two
// have AVX-512 twins (slot_kernels_avx512.cc) built on VPEXPAND, and AVX2 twins
// (slot_kernels_avx2.cc) built on a permute.
#ifndef PQPAGE_SRC_ARROW_SLOT_KERNELS_H_
#define PQPAGE_SRC_ARROW_SLOT_KERNELS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/cpu_features.h"

namespace pqpage::arrow_internal {

// Finds the first repetition level 0 (the start of a row) in [begin, end) after `skip` of them.
// @return its index, or `end` when the range holds `skip` or fewer; `*skipped` is set to the
// number of row starts passed over (min(skip, the range's row starts)).
int64_t FindRowStart(const int16_t* repetitions, int64_t begin, int64_t end, int64_t skip,
                     int64_t* skipped);

// Sets bit i of `bits` (LSB first) where levels[i] >= max and clears it elsewhere, for i in
// [0, count); `bits` holds (count + 7) / 8 bytes, and the bits past count in its last byte are
// cleared.
// @return the number of bits set.
int64_t ValidityFromLevels(const int16_t* levels, int64_t count, int16_t max, uint8_t* bits);

// The validity of a leaf under a list: a slot at each level >= slot_def, present when the level is
// >= max. `bits` holds (count + 7) / 8 bytes; bits from the slot count on in the last byte written
// are cleared.
// @return the number of present slots; `*slots` is set to the number of slots.
int64_t SlotValidity(const int16_t* levels, int64_t count, int16_t slot_def, int16_t max,
                     uint8_t* bits, int64_t* slots);

// Calls run(std::integral_constant<size_t, W>()) for the W of kWidths equal to `width`, so that
// each twin's spread is compiled for the widths it has.
// @return whether `width` was one of kWidths.
template <size_t... kWidths, typename Run>
bool ForWidth(size_t width, Run&& run) {
  return ((width == kWidths && (run(std::integral_constant<size_t, kWidths>()), true)) || ...);
}

// Moves the `values` packed values of `width` bytes at the front of `bytes` to their slots: slot
// i holds the next value where bit i of `bits` is set, and zeros where it is clear. `bytes` holds
// `slots` values of room; values <= slots, and exactly `values` bits of the first `slots` are set.
// Widths 1, 2, 4 and 8 go through the AVX-512 twin when the CPU gate allows it, else widths 4 and
// 8 through the AVX2 twin.
void SpreadToSlots(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots,
                   int64_t values);
// The twins behind SpreadToSlots: the portable one; the AVX-512 one (only when
// internal::UseAvx512Twins()), which returns false, writing nothing, for a width other than 1, 2,
// 4 and 8; and the AVX2 one (only when internal::UseAvx2Twins()), likewise for a width other
// than 4 and 8.
void SpreadToSlotsScalar(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots,
                         int64_t values);
bool SpreadToSlotsAvx512(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots,
                         int64_t values);
bool SpreadToSlotsAvx2(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots,
                       int64_t values);

// Writes slots + 1 offsets: 0, then after each slot the running sum of the lengths of the
// present values (a null slot repeats the offset before it). `bits` is null when every slot is
// present. `lengths` holds one length per set bit. Through the AVX-512 twin when the CPU gate
// allows it.
// @return the last offset (the values' total bytes).
template <typename Offset>
int64_t OffsetsFromLengths(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                           Offset* offsets);

// The twins behind OffsetsFromLengths: the portable one, and the AVX-512 one (only when
// internal::UseAvx512Twins()).
template <typename Offset>
int64_t OffsetsFromLengthsScalar(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                                 Offset* offsets) {
  int64_t end = 0;
  offsets[0] = 0;
  if (bits == nullptr) {
    for (int64_t slot = 0; slot < slots; ++slot) {
      end += lengths[slot];
      offsets[slot + 1] = static_cast<Offset>(end);
    }
    return end;
  }
  // A bitmap byte at a time. Nulls fall anywhere, so a branch on every slot's bit mispredicts;
  // a byte of eight present slots (most bytes, at a few percent nulls) and a byte of nulls take
  // no branch per slot, and a mixed byte adds each slot's length masked by its bit. Its length is
  // read at `value & -bit`, which for a null slot is lengths[0]: present, as the byte has a set
  // bit.
  int64_t value = 0;
  int64_t slot = 0;
  for (; slot + 8 <= slots; slot += 8) {
    const uint32_t byte = bits[slot >> 3];
    Offset* out = offsets + slot + 1;
    if (byte == 0xff) {
      for (int i = 0; i < 8; ++i) {
        end += lengths[value + i];
        out[i] = static_cast<Offset>(end);
      }
      value += 8;
    } else if (byte == 0) {
      for (int i = 0; i < 8; ++i) out[i] = static_cast<Offset>(end);
    } else {
      for (int i = 0; i < 8; ++i) {
        const int64_t bit = (byte >> i) & 1;
        end += lengths[value & -bit] & -bit;
        value += bit;
        out[i] = static_cast<Offset>(end);
      }
    }
  }
  for (; slot < slots; ++slot) {
    if (((bits[slot >> 3] >> (slot & 7)) & 1) != 0) end += lengths[value++];
    offsets[slot + 1] = static_cast<Offset>(end);
  }
  return end;
}
int64_t OffsetsFromLengthsAvx512(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                                 int32_t* offsets);
int64_t OffsetsFromLengthsAvx512(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                                 int64_t* offsets);

// The AVX2 twin, for int32 offsets (only when internal::UseAvx2Twins()).
int64_t OffsetsFromLengthsAvx2(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                               int32_t* offsets);

template <typename Offset>
int64_t OffsetsFromLengths(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                           Offset* offsets) {
  if (internal::UseAvx512Twins()) return OffsetsFromLengthsAvx512(lengths, bits, slots, offsets);
  if constexpr (std::is_same_v<Offset, int32_t>) {
    if (internal::UseAvx2Twins()) return OffsetsFromLengthsAvx2(lengths, bits, slots, offsets);
  }
  return OffsetsFromLengthsScalar(lengths, bits, slots, offsets);
}

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_SLOT_KERNELS_H_
