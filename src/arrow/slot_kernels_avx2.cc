// The AVX2 twins of SpreadToSlots (4- and 8-byte values) and of OffsetsFromLengths (int32
// offsets), for CPUs without the AVX-512 twins' expanding loads. Eight slots a step (a bitmap
// byte): one load of the packed values or lengths the step takes, a permute that puts the one of
// rank r among the byte's set bits in the lane of that bit (the ranks come from a 2 KiB table,
// not PDEP, which older AMD cores run in microcode), zeros in the lanes of clear bits; then one
// store of the eight slots, or, for offsets, a prefix sum of the eight lengths first. SpreadToSlots
// goes from the back, OffsetsFromLengths from the front.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "arrow/slot_kernels.h"

namespace pqpage::arrow_internal {
namespace {

// For each bitmap byte, lane i's rank among the byte's set bits (0 for clear bits, whose lanes
// are masked to zero).
struct RankTable {
  uint8_t ranks[256][8];
  constexpr RankTable() : ranks() {
    for (int byte = 0; byte < 256; ++byte) {
      int rank = 0;
      for (int lane = 0; lane < 8; ++lane) {
        if (((byte >> lane) & 1) != 0) ranks[byte][lane] = static_cast<uint8_t>(rank++);
      }
    }
  }
};
constexpr RankTable kRanks;

// For each four bits, the 32-bit lane indices that move 8-byte values to their slots (rank r of
// 64-bit lane i: lanes 2r and 2r + 1) and the mask of the set bits' 64-bit lanes.
struct PairTable {
  alignas(32) int32_t lanes[16][8];
  alignas(32) int64_t present[16][4];
  constexpr PairTable() : lanes(), present() {
    for (int nibble = 0; nibble < 16; ++nibble) {
      int rank = 0;
      for (int lane = 0; lane < 4; ++lane) {
        const bool set = ((nibble >> lane) & 1) != 0;
        lanes[nibble][2 * lane] = set ? 2 * rank : 0;
        lanes[nibble][2 * lane + 1] = set ? 2 * rank + 1 : 0;
        present[nibble][lane] = set ? -1 : 0;
        rank += set ? 1 : 0;
      }
    }
  }
};
constexpr PairTable kPairs;

// The byte's bits as lanes of all ones (set) or zeros (clear), 32 bits a lane.
inline __m256i LaneMask32(uint32_t byte) {
  const __m256i bit_of_lane = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_cmpeq_epi32(
      _mm256_and_si256(_mm256_set1_epi32(static_cast<int32_t>(byte)), bit_of_lane), bit_of_lane);
}

inline __m256i Ranks32(uint32_t byte) {
  return _mm256_cvtepu8_epi32(
      _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kRanks.ranks[byte])));
}

// Lanes [0, n) of all ones, for lanes of 32 bits and of 64 bits.
inline __m256i FirstLanes32(int n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
inline __m256i FirstLanes64(int n) {
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}

// Slots [0, 8) at `to`, 4-byte values, from the packed values at `from`, for the set bits of
// `byte`. With `whole`, eight values are readable at `from` and eight slots are stored; without
// it, only the popcount(byte) values are read (masked loads fault on no lane they leave out) and
// only the `lanes` first slots are stored.
inline void SpreadEight4(uint8_t* to, const uint8_t* from, uint32_t byte, bool whole, int lanes) {
  const auto* source = reinterpret_cast<const int32_t*>(from);
  const __m256i packed =
      whole ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from))
            : _mm256_maskload_epi32(source, FirstLanes32(__builtin_popcount(byte)));
  const __m256i spread =
      _mm256_and_si256(_mm256_permutevar8x32_epi32(packed, Ranks32(byte)), LaneMask32(byte));
  if (whole) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), spread);
  } else {
    _mm256_maskstore_epi32(reinterpret_cast<int32_t*>(to), FirstLanes32(lanes), spread);
  }
}

// Slots [0, 4) at `to`, 8-byte values, for the low four bits of `nibble`, by SpreadEight4's rules
// (four values and slots when whole): each 8-byte value moves as a pair of 32-bit lanes.
inline void SpreadFour8(uint8_t* to, const uint8_t* from, uint32_t nibble, bool whole, int lanes) {
  const auto* source = reinterpret_cast<const long long*>(from);  // NOLINT(google-runtime-int)
  const __m256i packed =
      whole ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from))
            : _mm256_maskload_epi64(source, FirstLanes64(__builtin_popcount(nibble)));
  const __m256i pairs = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPairs.lanes[nibble]));
  const __m256i present =
      _mm256_load_si256(reinterpret_cast<const __m256i*>(kPairs.present[nibble]));
  const __m256i spread = _mm256_and_si256(_mm256_permutevar8x32_epi32(packed, pairs), present);
  if (whole) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), spread);
  } else {
    _mm256_maskstore_epi64(reinterpret_cast<long long*>(to),  // NOLINT(google-runtime-int)
                           FirstLanes64(lanes), spread);
  }
}

// Eight slots ending at `*slot`, from the values ending at `*value`; the first `lanes` of them
// only, reading only the values they take, unless `whole`.
template <size_t kWidth>
inline void Step(uint8_t* bytes, uint32_t byte, bool whole, int lanes, int64_t* slot,
                 int64_t* value) {
  if constexpr (kWidth == 4) {
    *slot -= 8;
    *value -= __builtin_popcount(byte);
    SpreadEight4(bytes + *slot * 4, bytes + *value * 4, byte, whole, lanes);
  } else {
    // The high four slots first: their store lies above every value the low four still take.
    const uint32_t high = byte >> 4;
    *slot -= 4;
    *value -= __builtin_popcount(high);
    if (whole || lanes > 4) {
      SpreadFour8(bytes + *slot * 8, bytes + *value * 8, high, whole, lanes - 4);
    }
    const uint32_t low = byte & 0xf;
    *slot -= 4;
    *value -= __builtin_popcount(low);
    SpreadFour8(bytes + *slot * 8, bytes + *value * 8, low, whole, lanes);
  }
}

template <size_t kWidth>
void Spread(uint8_t* bytes, const uint8_t* bits, int64_t slots, int64_t values) {
  int64_t value = values;  // values [0, value) are still packed at the front
  int64_t slot = slots;    // slots [0, slot) are not written yet
  // Every step loads before it stores, and reads no value past its own last slot: there are at
  // least as many nulls before a step's slots as in them, so value <= slot after each slot.
  if (slot > value && (slot & 7) != 0) {
    const int lanes = static_cast<int>(slot & 7);  // the last, partial bitmap byte
    const uint32_t byte = bits[slot >> 3] & ((1u << lanes) - 1);
    slot = (slot & ~int64_t{7}) + 8;
    Step<kWidth>(bytes, byte, false, lanes, &slot, &value);
  }
  // Once slot == value, the slots before are all present and already hold their values.
  while (slot > value) Step<kWidth>(bytes, bits[(slot >> 3) - 1], true, 8, &slot, &value);
}

// Eight int32 lanes to their running sums, lane i holding lanes 0..i added up: a shift and add
// of one and of two lanes within each 128-bit half, then the low half's total added to the high
// half.
inline __m256i PrefixSum8(__m256i x) {
  x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
  x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
  const __m256i low_total =
      _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3));
  return _mm256_add_epi32(
      x, _mm256_and_si256(low_total, _mm256_setr_epi32(0, 0, 0, 0, -1, -1, -1, -1)));
}

}  // namespace

int64_t OffsetsFromLengthsAvx2(const int32_t* lengths, const uint8_t* bits, int64_t slots,
                               int32_t* offsets) {
  offsets[0] = 0;
  __m256i base = _mm256_setzero_si256();  // the last offset written, in every lane (wrapping)
  const __m256i last_lane = _mm256_set1_epi32(7);
  __m256i total = _mm256_setzero_si256();  // the lengths so far, in four 64-bit lanes
  int64_t value = 0;
  int64_t slot = 0;
  for (; slot + 8 <= slots; slot += 8) {
    __m256i eight;
    if (bits == nullptr) {
      eight = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lengths + slot));
    } else {
      // The byte's lengths, read by a masked load (none past the last), to their slots.
      const uint32_t byte = bits[slot >> 3];
      const int present = __builtin_popcount(byte);
      const __m256i packed = _mm256_maskload_epi32(lengths + value, FirstLanes32(present));
      eight =
          _mm256_and_si256(_mm256_permutevar8x32_epi32(packed, Ranks32(byte)), LaneMask32(byte));
      value += present;
    }
    // The int32 offsets wrap; the total, summed in 64-bit lanes, does not.
    total = _mm256_add_epi64(total, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(eight)));
    total = _mm256_add_epi64(total, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(eight, 1)));
    const __m256i prefix = PrefixSum8(eight);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(offsets + slot + 1),
                        _mm256_add_epi32(prefix, base));
    // The step's total joins the base apart from its stores: one add a step on the carried chain.
    base = _mm256_add_epi32(base, _mm256_permutevar8x32_epi32(prefix, last_lane));
  }
  if (bits == nullptr) value = slot;
  alignas(32) int64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), total);
  int64_t end = lanes[0] + lanes[1] + lanes[2] + lanes[3];
  for (; slot < slots; ++slot) {
    if (bits == nullptr || ((bits[slot >> 3] >> (slot & 7)) & 1) != 0) end += lengths[value++];
    offsets[slot + 1] = static_cast<int32_t>(end);
  }
  return end;
}

bool SpreadToSlotsAvx2(uint8_t* bytes, size_t width, const uint8_t* bits, int64_t slots,
                       int64_t values) {
  return ForWidth<4, 8>(width, [&](auto kWidth) { Spread<kWidth>(bytes, bits, slots, values); });
}

}  // namespace pqpage::arrow_internal
