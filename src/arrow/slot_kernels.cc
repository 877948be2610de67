#include "arrow/slot_kernels.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/cpu_features.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pqpage::arrow_internal {
namespace {

// Slot `slot` from the packed value `*value` (when its bit is set) or zeros.
template <size_t kWidth>
inline void FillSlot(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slot,
                     int64_t* value) {
  const size_t size = kWidth == 0 ? width : kWidth;
  uint8_t* to = bytes + static_cast<size_t>(slot) * size;
  if (((bits[slot >> 3] >> (slot & 7)) & 1) != 0) {
    --*value;
    // A value below its slot never shares bytes with it: both are `size` bytes at multiples of it.
    if (*value != slot) std::memcpy(to, bytes + static_cast<size_t>(*value) * size, size);
  } else {
    std::memset(to, 0, size);
  }
}

// kWidth 0: `width` known only at run time.
template <size_t kWidth>
void Spread(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots, int64_t values) {
  const size_t size = kWidth == 0 ? width : kWidth;
  int64_t value = values;  // values [0, value) are still packed at the front
  int64_t slot = slots;    // slots [0, slot) are not written yet; slot - value of them are null
  while (slot > value && (slot & 7) != 0) FillSlot<kWidth>(bytes, width, bits, --slot, &value);
  // Whole bitmap bytes from here. Once slot == value, the slots before are all present and the
  // values already sit in them.
  while (slot > value) {
    const uint8_t byte = bits[(slot >> 3) - 1];
    if (byte == 0xff) {
      // Eight present values move together; the ranges may overlap, so through a copy.
      slot -= 8;
      value -= 8;
      if constexpr (kWidth != 0) {
        uint8_t moved[8 * kWidth];
        std::memcpy(moved, bytes + static_cast<size_t>(value) * size, sizeof(moved));
        std::memcpy(bytes + static_cast<size_t>(slot) * size, moved, sizeof(moved));
      } else {
        std::memmove(bytes + static_cast<size_t>(slot) * size,
                     bytes + static_cast<size_t>(value) * size, 8 * size);
      }
    } else if constexpr (kWidth == 4 || kWidth == 8) {
      // A byte with nulls, without a branch per slot (nulls fall anywhere): each slot takes the
      // value below it, masked to zero when its bit is clear. The value read for a null slot is
      // one of the `slots` values of room, whatever it holds.
      using Word = std::conditional_t<kWidth == 4, uint32_t, uint64_t>;
      for (int i = 7; i >= 0; --i) {
        const Word present = (byte >> i) & 1;
        --slot;
        value -= static_cast<int64_t>(present);
        Word moved;
        std::memcpy(&moved, bytes + static_cast<size_t>(value) * kWidth, kWidth);
        moved &= Word{0} - present;
        std::memcpy(bytes + static_cast<size_t>(slot) * kWidth, &moved, kWidth);
      }
    } else {
      for (int i = 0; i < 8; ++i) FillSlot<kWidth>(bytes, width, bits, --slot, &value);
    }
  }
}

}  // namespace

int64_t FindRowStart(const int16_t* repetitions, int64_t begin, int64_t end, int64_t skip,
                     int64_t* skipped) {
  int64_t passed = 0;
  int64_t i = begin;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= end; i += 16) {
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(repetitions + i));
    const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(repetitions + i + 8));
    const auto starts = static_cast<uint32_t>(_mm_movemask_epi8(
        _mm_packs_epi16(_mm_cmpeq_epi16(low, zero), _mm_cmpeq_epi16(high, zero))));
    const int count = __builtin_popcount(starts);
    if (passed + count > skip) break;  // the one sought is in this block
    passed += count;
  }
#endif
  for (; i < end; ++i) {
    if (repetitions[i] != 0) continue;
    if (passed == skip) break;
    ++passed;
  }
  *skipped = passed;
  return i;
}

int64_t ValidityFromLevels(const int16_t* levels, int64_t count, int16_t max, uint8_t* bits) {
  int64_t set = 0;
  int64_t i = 0;
#if defined(__SSE2__)
  // level >= max as level > max - 1 (max is at least 1 for a column with definition levels; for
  // max 0 every level is 0 and present, which the scalar form below also gives).
  if (max > 0) {
    const __m128i below = _mm_set1_epi16(static_cast<int16_t>(max - 1));
    for (; i + 16 <= count; i += 16) {
      const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i));
      const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i + 8));
      const __m128i packed =
          _mm_packs_epi16(_mm_cmpgt_epi16(low, below), _mm_cmpgt_epi16(high, below));
      const auto mask = static_cast<uint32_t>(_mm_movemask_epi8(packed));
      bits[i >> 3] = static_cast<uint8_t>(mask);
      bits[(i >> 3) + 1] = static_cast<uint8_t>(mask >> 8);
      set += __builtin_popcount(mask);
    }
  }
#endif
  for (; i < count; i += 8) {
    const int64_t end = count - i < 8 ? count - i : 8;
    uint32_t byte = 0;
    for (int64_t j = 0; j < end; ++j) byte |= static_cast<uint32_t>(levels[i + j] >= max) << j;
    bits[i >> 3] = static_cast<uint8_t>(byte);
    set += __builtin_popcount(byte);
  }
  return set;
}

int64_t SlotValidity(const int16_t* levels, int64_t count, int16_t slot_def, int16_t max,
                     uint8_t* bits, int64_t* slots) {
  int64_t slot = 0;
  int64_t present = 0;
  uint32_t byte = 0;  // the bits since the last whole byte
  for (int64_t i = 0; i < count; ++i) {
    const int16_t level = levels[i];
    const int is_slot = static_cast<int>(level >= slot_def);
    const int valid = static_cast<int>(level >= max) & is_slot;
    // The byte being filled is stored at every level and restarted once full: no branch on the
    // byte boundary, which slots under lists reach at unpredictable levels.
    byte |= static_cast<uint32_t>(valid) << (slot & 7);
    bits[slot >> 3] = static_cast<uint8_t>(byte);
    present += valid;
    slot += is_slot;
    byte &= 0u - static_cast<uint32_t>((slot & 7) != 0);
  }
  *slots = slot;
  return present;
}

void SpreadToSlots(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots,
                   int64_t values) {
  if (internal::UseAvx512Twins() && SpreadToSlotsAvx512(bytes, width, bits, slots, values)) return;
  if (internal::UseAvx2Twins() && SpreadToSlotsAvx2(bytes, width, bits, slots, values)) return;
  SpreadToSlotsScalar(bytes, width, bits, slots, values);
}

void SpreadToSlotsScalar(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots,
                         int64_t values) {
  const auto spread = [&](auto kWidth) { Spread<kWidth>(bytes, width, bits, slots, values); };
  // kWidth 0: any other width, known only at run time.
  if (!ForWidth<1, 2, 4, 8, 16>(width, spread)) spread(std::integral_constant<size_t, 0>());
}

}  // namespace pqpage::arrow_internal
