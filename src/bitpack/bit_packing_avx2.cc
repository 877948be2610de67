// The AVX2/BMI2 twin of the bit-packing kernel table. Every vector kernel is one template over the
// bit width whose per-width constants (byte shuffles, shift counts) are computed at compile time,
// so no width has a hand-written kernel. Widths a vector form cannot handle, or where it would not
// be faster, forward to the scalar table.
//
// Two rules keep this file safe on any x86-64:
//   - It is compiled with -mavx2 -mbmi2, so it must not instantiate templates or inline functions
//     that other files also instantiate (the scalar templates, byte_io helpers): the linker keeps
//     one copy of such a function and could pick the AVX2 one for the scalar table. Everything
//     here lives in an anonymous namespace, and widths without a vector form call the scalar
//     table's function pointers, whose code is compiled without AVX2.
//   - The table is constant-initialised, so merely asking for it runs no AVX2 instruction.
//
// Exact-range rule: the vector loops use 16- and 32-byte loads and stores that reach past the bytes
// of the current 8-value group, so they only run in place while those accesses stay inside the
// caller's count * w / 8 bytes; the last few groups (fewer bytes than one access reaches) go
// through a small zero-padded stack buffer instead.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "bitpack/bit_packing.h"

namespace pqpage::internal {
namespace {

constexpr size_t kGroup = kValuesPerGroup;  // values per group; a group of width w is w bytes

// ---------------------------------------------------------------------------------------------
// unpack32: 8 values of width W per 256-bit vector.
//
// Value i of a group starts at bit i*W, i.e. byte (i*W)/8 with shift (i*W)%8. Values 0-3 are read
// from a 16-byte load at the group start (low lane) and values 4-7 from a 16-byte load at byte
// (4*W)/8 (high lane); a byte shuffle moves each value's bytes into its 32-bit lane, a variable
// right shift aligns it, and a mask clears the neighbour's bits. When a value straddles five bytes
// (shift + W > 32, only for some W >= 27), a second shuffle brings bytes 1..4 of the value, which
// are shifted left by 8 - shift and OR-ed in.
struct Unpack32Plan {
  uint8_t shuffle_lo[32];  // bytes first..first+3 of each value (0x80 = zero)
  uint8_t shuffle_hi[32];  // bytes first+1..first+4 of each value
  uint32_t shift_right[8];
  uint32_t shift_left[8];
  bool uses_fifth_byte;  // some value needs shuffle_hi
  bool needs_shift;      // some value does not start on a byte boundary
  bool needs_mask;       // some value's last byte holds bits of the next value
  bool fits_lanes;       // every byte a value needs is inside its 16-byte lane
};

template <int W>
constexpr Unpack32Plan MakeUnpack32Plan() {
  Unpack32Plan plan{};
  plan.fits_lanes = true;
  for (int i = 0; i < 8; ++i) {
    const int base = i < 4 ? 0 : (4 * W) / 8;
    const int bit = i * W;
    const int first = bit / 8 - base;
    const int last = (bit + W - 1) / 8 - base;
    const int shift = bit % 8;
    if (last > 15) plan.fits_lanes = false;
    for (int k = 0; k < 4; ++k) {
      plan.shuffle_lo[4 * i + k] = first + k <= last ? static_cast<uint8_t>(first + k) : 0x80;
      plan.shuffle_hi[4 * i + k] =
          first + 1 + k <= last ? static_cast<uint8_t>(first + 1 + k) : 0x80;
    }
    plan.shift_right[i] = static_cast<uint32_t>(shift);
    plan.shift_left[i] = static_cast<uint32_t>(8 - shift);
    if (shift + W > 32) plan.uses_fifth_byte = true;
    if (shift != 0) plan.needs_shift = true;
    if ((shift + W) % 8 != 0) plan.needs_mask = true;
  }
  return plan;
}

template <typename Array>
inline __m256i LoadConstant(const Array& array) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&array[0]));
}

// Two 16-byte loads into the two lanes of one vector.
inline __m256i LoadLanes(const uint8_t* low, const uint8_t* high) {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(low));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(high));
  return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

// Number of leading groups whose vector accesses (`reach` bytes from the group start) stay inside
// `groups` groups of `width` bytes each.
constexpr size_t SafeGroups(size_t groups, size_t width, size_t reach) {
  const size_t total = groups * width;
  if (total < reach) return 0;
  const size_t safe = (total - reach) / width + 1;
  return safe < groups ? safe : groups;
}

template <int W>
void Unpack32(const uint8_t* in, uint32_t* out, size_t count) {
  constexpr Unpack32Plan kPlan = MakeUnpack32Plan<W>();
  static_assert(kPlan.fits_lanes, "a value's bytes must fit in its 16-byte lane");
  constexpr size_t kHighOffset = (4 * W) / 8;
  constexpr size_t kReach = kHighOffset + 16;  // bytes read from a group's start
  const size_t groups = count / kGroup;
  const size_t safe = SafeGroups(groups, W, kReach);

  const __m256i shuffle_lo = LoadConstant(kPlan.shuffle_lo);
  const __m256i shuffle_hi = LoadConstant(kPlan.shuffle_hi);
  const __m256i shift_right = LoadConstant(kPlan.shift_right);
  const __m256i shift_left = LoadConstant(kPlan.shift_left);
  const __m256i mask = _mm256_set1_epi32(static_cast<int>((uint32_t{1} << W) - 1));
  auto unpack_group = [&](const uint8_t* src, uint32_t* dst) {
    const __m256i bytes = LoadLanes(src, src + kHighOffset);
    __m256i values = _mm256_shuffle_epi8(bytes, shuffle_lo);
    // The static analyzer does not evaluate the constexpr plan and calls it garbage.
    // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Branch)
    if constexpr (kPlan.needs_shift) values = _mm256_srlv_epi32(values, shift_right);
    if constexpr (kPlan.uses_fifth_byte) {
      const __m256i upper = _mm256_sllv_epi32(_mm256_shuffle_epi8(bytes, shuffle_hi), shift_left);
      values = _mm256_or_si256(values, upper);
    }
    if constexpr (kPlan.needs_mask) values = _mm256_and_si256(values, mask);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), values);
  };
  size_t g = 0;
  for (; g + 4 <= safe; g += 4) {
    unpack_group(in + g * W, out + g * kGroup);
    unpack_group(in + (g + 1) * W, out + (g + 1) * kGroup);
    unpack_group(in + (g + 2) * W, out + (g + 2) * kGroup);
    unpack_group(in + (g + 3) * W, out + (g + 3) * kGroup);
  }
  for (; g < safe; ++g) unpack_group(in + g * W, out + g * kGroup);
  if (g < groups) {
    // The groups left are fewer than kReach bytes (see SafeGroups): copy them into a zeroed buffer
    // long enough for the vector loads, so short runs do not fall back to scalar code.
    alignas(32) uint8_t padded[2 * kReach] = {};
    const size_t rest = groups - g;
    std::memcpy(padded, in + g * W, rest * W);
    for (size_t t = 0; t < rest; ++t) unpack_group(padded + t * W, out + (g + t) * kGroup);
  }
}

// ---------------------------------------------------------------------------------------------
// unpack64: 4 values of width W per vector (64-bit lanes), two vectors per group. Each 16-byte lane
// holds the bytes of two consecutive values, loaded from the first of them; values that straddle
// nine bytes take their ninth byte through a second shuffle as in unpack32.
struct Unpack64Plan {
  uint8_t shuffle_lo[64];  // vector q = i / 4 occupies bytes [32q, 32q + 32)
  uint8_t shuffle_hi[64];
  uint64_t shift_right[8];
  uint64_t shift_left[8];
  int lane_offset[4];  // byte offset of the 16-byte load for values 2j, 2j+1
  bool uses_ninth_byte;
  bool needs_shift;
  bool needs_mask;
  bool fits_lanes;
};

template <int W>
constexpr Unpack64Plan MakeUnpack64Plan() {
  Unpack64Plan plan{};
  plan.fits_lanes = true;
  for (int j = 0; j < 4; ++j) plan.lane_offset[j] = (2 * j * W) / 8;
  for (int i = 0; i < 8; ++i) {
    const int base = plan.lane_offset[i / 2];
    const int bit = i * W;
    const int first = bit / 8 - base;
    const int last = (bit + W - 1) / 8 - base;
    const int shift = bit % 8;
    if (last > 15) plan.fits_lanes = false;
    for (int k = 0; k < 8; ++k) {
      plan.shuffle_lo[8 * i + k] = first + k <= last ? static_cast<uint8_t>(first + k) : 0x80;
      plan.shuffle_hi[8 * i + k] =
          first + 1 + k <= last ? static_cast<uint8_t>(first + 1 + k) : 0x80;
    }
    plan.shift_right[i] = static_cast<uint64_t>(shift);
    plan.shift_left[i] = static_cast<uint64_t>(8 - shift);
    if (shift + W > 64) plan.uses_ninth_byte = true;
    if (shift != 0) plan.needs_shift = true;
    if ((shift + W) % 8 != 0) plan.needs_mask = true;
  }
  return plan;
}

template <int W>
void Unpack64(const uint8_t* in, uint64_t* out, size_t count) {
  constexpr Unpack64Plan kPlan = MakeUnpack64Plan<W>();
  static_assert(kPlan.fits_lanes, "two values' bytes must fit in a 16-byte lane");
  constexpr size_t kReach = static_cast<size_t>(kPlan.lane_offset[3]) + 16;
  const size_t groups = count / kGroup;
  const size_t safe = SafeGroups(groups, W, kReach);

  const __m256i lo0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&kPlan.shuffle_lo[0]));
  const __m256i lo1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&kPlan.shuffle_lo[32]));
  const __m256i hi0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&kPlan.shuffle_hi[0]));
  const __m256i hi1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&kPlan.shuffle_hi[32]));
  const __m256i sr0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&kPlan.shift_right[0]));
  const __m256i sr1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&kPlan.shift_right[4]));
  const __m256i sl0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&kPlan.shift_left[0]));
  const __m256i sl1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&kPlan.shift_left[4]));
  const __m256i mask = _mm256_set1_epi64x(static_cast<long long>((uint64_t{1} << W) - 1));
  auto unpack_quad = [&](const uint8_t* src, uint64_t* dst, int j, __m256i shuffle_lo,
                         __m256i shuffle_hi, __m256i shift_right, __m256i shift_left) {
    // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): constexpr plan, see above
    const __m256i bytes = LoadLanes(src + kPlan.lane_offset[j], src + kPlan.lane_offset[j + 1]);
    __m256i values = _mm256_shuffle_epi8(bytes, shuffle_lo);
    if constexpr (kPlan.needs_shift) values = _mm256_srlv_epi64(values, shift_right);
    if constexpr (kPlan.uses_ninth_byte) {
      const __m256i upper = _mm256_sllv_epi64(_mm256_shuffle_epi8(bytes, shuffle_hi), shift_left);
      values = _mm256_or_si256(values, upper);
    }
    if constexpr (kPlan.needs_mask) values = _mm256_and_si256(values, mask);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), values);
  };
  auto unpack_group = [&](const uint8_t* src, uint64_t* dst) {
    unpack_quad(src, dst, 0, lo0, hi0, sr0, sl0);
    unpack_quad(src, dst + 4, 2, lo1, hi1, sr1, sl1);
  };
  size_t g = 0;
  for (; g + 2 <= safe; g += 2) {
    unpack_group(in + g * W, out + g * kGroup);
    unpack_group(in + (g + 1) * W, out + (g + 1) * kGroup);
  }
  for (; g < safe; ++g) unpack_group(in + g * W, out + g * kGroup);
  if (g < groups) {
    // As in Unpack32: the last groups are fewer than kReach bytes, unpacked from a padded copy.
    alignas(32) uint8_t padded[2 * kReach] = {};
    const size_t rest = groups - g;
    std::memcpy(padded, in + g * W, rest * W);
    for (size_t t = 0; t < rest; ++t) unpack_group(padded + t * W, out + (g + t) * kGroup);
  }
}

// ---------------------------------------------------------------------------------------------
// pack32: 8 values per vector. Pairs of values are first joined in their 64-bit lane into a chunk
// of 2W bits (v[2k] | v[2k+1] << W), which is shifted by its bit offset within its first output
// byte. Chunk k then covers bytes [(2Wk)/8, ...) of the group's W output bytes; even chunks do not
// share a byte with each other for W >= 2, nor do odd chunks, so two in-lane byte shuffles (one
// over even chunks, one over odd chunks, each after a cross-lane qword permute that gives every
// 16-byte output lane the chunks it needs) and one OR assemble the group. For W = 31 a shifted
// chunk needs 65..68 bits: its top bits are shifted out of the lane, recovered by a right shift of
// the unshifted chunk, and placed by a third shuffle. The 32-byte store writes zeros past the
// group's W bytes, which the next group's store overwrites.
struct Pack32Plan {
  uint64_t chunk_shift[4];
  uint64_t overflow_shift[4];    // 64 - chunk_shift: brings the bits shifted out to the bottom
  uint8_t shuffle_even[32];      // output byte <- byte of chunk 0 or 2 (after permute [0,2 | 2,2])
  uint8_t shuffle_odd[32];       // output byte <- byte of chunk 1 or 3 (after permute [1,3 | 1,3])
  uint8_t shuffle_overflow[32];  // output byte <- bits of chunk 1 or 2 past 64 ([1,1 | 2,2])
  bool needs_shift;
  bool has_overflow;
  bool valid;
};

template <int W>
constexpr Pack32Plan MakePack32Plan() {
  Pack32Plan plan{};
  plan.valid = W >= 1 && W <= 31;
  int first[4] = {};
  int last[4] = {};      // last byte taken from the shifted chunk (at most first + 7)
  int overflow[4] = {};  // byte receiving the bits shifted out of the lane, or -1
  for (int k = 0; k < 4; ++k) {
    const int bit = 2 * W * k;
    plan.chunk_shift[k] = static_cast<uint64_t>(bit % 8);
    plan.overflow_shift[k] = static_cast<uint64_t>(64 - bit % 8);
    if (bit % 8 != 0) plan.needs_shift = true;
    first[k] = bit / 8;
    last[k] = (bit + 2 * W - 1) / 8;
    overflow[k] = -1;
    if (last[k] > first[k] + 7) {
      overflow[k] = first[k] + 8;
      last[k] = first[k] + 7;
      plan.has_overflow = true;
    }
  }
  // Position of chunk k inside each 16-byte lane after the permutes, or -1 if absent.
  constexpr int kEvenSlot[2][4] = {{0, -1, 8, -1}, {-1, -1, 0, -1}};
  constexpr int kOddSlot[2][4] = {{-1, 0, -1, 8}, {-1, 0, -1, 8}};
  constexpr int kOverflowSlot[2][4] = {{-1, 0, -1, -1}, {-1, -1, 0, -1}};
  for (int j = 0; j < 32; ++j) {
    const int lane = j / 16;
    int even_sources = 0;
    int odd_sources = 0;
    int overflow_sources = 0;
    plan.shuffle_even[j] = 0x80;
    plan.shuffle_odd[j] = 0x80;
    plan.shuffle_overflow[j] = 0x80;
    for (int k = 0; k < 4; ++k) {
      if (j == overflow[k]) {
        const int slot = kOverflowSlot[lane][k];
        if (slot < 0) plan.valid = false;
        plan.shuffle_overflow[j] = static_cast<uint8_t>(slot);
        ++overflow_sources;
      }
      if (j < first[k] || j > last[k]) continue;
      const bool even = k % 2 == 0;
      const int slot = even ? kEvenSlot[lane][k] : kOddSlot[lane][k];
      if (slot < 0) {
        plan.valid = false;
        continue;
      }
      const uint8_t index = static_cast<uint8_t>(slot + (j - first[k]));
      if (even) {
        plan.shuffle_even[j] = index;
        ++even_sources;
      } else {
        plan.shuffle_odd[j] = index;
        ++odd_sources;
      }
    }
    if (even_sources > 1 || odd_sources > 1 || overflow_sources > 1) plan.valid = false;
  }
  return plan;
}

template <int W>
void Pack32(const uint32_t* in, uint8_t* out, size_t count) {
  constexpr Pack32Plan kPlan = MakePack32Plan<W>();
  static_assert(kPlan.valid, "no vector pack for this width");
  const size_t groups = count / kGroup;
  constexpr size_t kReach = 32;  // bytes written from a group's start
  const size_t safe = SafeGroups(groups, W, kReach);

  const __m256i value_mask = _mm256_set1_epi32(static_cast<int>((uint32_t{1} << W) - 1));
  const __m256i even_dwords = _mm256_set1_epi64x(0x00000000FFFFFFFFll);
  const __m256i mask_lo = _mm256_and_si256(value_mask, even_dwords);
  const __m256i mask_hi = _mm256_andnot_si256(even_dwords, value_mask);
  const __m256i chunk_shift = LoadConstant(kPlan.chunk_shift);
  const __m256i shuffle_even = LoadConstant(kPlan.shuffle_even);
  const __m256i shuffle_odd = LoadConstant(kPlan.shuffle_odd);
  const __m256i overflow_shift = LoadConstant(kPlan.overflow_shift);
  const __m256i shuffle_overflow = LoadConstant(kPlan.shuffle_overflow);
  auto pack_group = [&](const uint32_t* src, uint8_t* dst) {
    const __m256i values = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    const __m256i low = _mm256_and_si256(values, mask_lo);
    const __m256i high = _mm256_srli_epi64(_mm256_and_si256(values, mask_hi), 32 - W);
    __m256i chunks = _mm256_or_si256(low, high);
    __m256i spill = _mm256_setzero_si256();
    // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Branch): constexpr plan, see above
    if constexpr (kPlan.has_overflow) {
      spill = _mm256_permute4x64_epi64(_mm256_srlv_epi64(chunks, overflow_shift), 0xA5);  // 1,1,2,2
      spill = _mm256_shuffle_epi8(spill, shuffle_overflow);
    }
    if constexpr (kPlan.needs_shift) chunks = _mm256_sllv_epi64(chunks, chunk_shift);
    const __m256i even = _mm256_permute4x64_epi64(chunks, 0xA8);  // qwords 0,2,2,2
    const __m256i odd = _mm256_permute4x64_epi64(chunks, 0xDD);   // qwords 1,3,1,3
    __m256i bytes = _mm256_or_si256(_mm256_shuffle_epi8(even, shuffle_even),
                                    _mm256_shuffle_epi8(odd, shuffle_odd));
    if constexpr (kPlan.has_overflow) bytes = _mm256_or_si256(bytes, spill);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), bytes);
  };
  size_t g = 0;
  for (; g + 4 <= safe; g += 4) {
    pack_group(in + g * kGroup, out + g * W);
    pack_group(in + (g + 1) * kGroup, out + (g + 1) * W);
    pack_group(in + (g + 2) * kGroup, out + (g + 2) * W);
    pack_group(in + (g + 3) * kGroup, out + (g + 3) * W);
  }
  for (; g < safe; ++g) pack_group(in + g * kGroup, out + g * W);
  if (g < groups) {
    // The groups left are fewer than kReach bytes: pack them into a buffer with room for the last
    // 32-byte store and copy out exactly their bytes.
    alignas(32) uint8_t padded[2 * kReach];
    const size_t rest = groups - g;
    for (size_t t = 0; t < rest; ++t) pack_group(in + (g + t) * kGroup, padded + t * W);
    std::memcpy(out + g * W, padded, rest * W);
  }
}

// pack32 at width 1 (definition levels of optional columns, booleans): the chunk shuffles above
// cannot place four 2-bit chunks in one byte, but a width-1 group is exactly the sign bits of the
// values shifted left by 31, which one movemask gathers into the group's byte.
inline uint32_t LowBitsOfGroup(const uint32_t* src) {
  const __m256i values = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
  return static_cast<uint32_t>(
      _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(values, 31))));
}

void Pack32Width1(const uint32_t* in, uint8_t* out, size_t count) {
  const size_t groups = count / kGroup;
  size_t g = 0;
  for (; g + 4 <= groups; g += 4) {
    const uint32_t bytes =
        LowBitsOfGroup(in + g * kGroup) | LowBitsOfGroup(in + (g + 1) * kGroup) << 8 |
        LowBitsOfGroup(in + (g + 2) * kGroup) << 16 | LowBitsOfGroup(in + (g + 3) * kGroup) << 24;
    std::memcpy(out + g, &bytes, sizeof(bytes));
  }
  for (; g < groups; ++g) out[g] = static_cast<uint8_t>(LowBitsOfGroup(in + g * kGroup));
}

// ---------------------------------------------------------------------------------------------
// Entries without a vector form call the scalar kernel through the scalar table (see the top of the
// file for why this file must not instantiate the scalar templates itself).
template <int W>
void ScalarUnpack32(const uint8_t* in, uint32_t* out, size_t count) {
  ScalarBitPackingKernels().unpack32[W](in, out, count);
}
template <int W>
void ScalarUnpack64(const uint8_t* in, uint64_t* out, size_t count) {
  ScalarBitPackingKernels().unpack64[W](in, out, count);
}
template <int W>
void ScalarPack32(const uint32_t* in, uint8_t* out, size_t count) {
  ScalarBitPackingKernels().pack32[W](in, out, count);
}
template <int W>
void ScalarPack64(const uint64_t* in, uint8_t* out, size_t count) {
  ScalarBitPackingKernels().pack64[W](in, out, count);
}
template <int W>
void ScalarUnpack32Msb(const uint8_t* in, uint32_t* out, size_t count) {
  ScalarBitPackingKernels().unpack32_msb[W](in, out, count);
}
template <int W>
void ScalarPack32Msb(const uint32_t* in, uint8_t* out, size_t count) {
  ScalarBitPackingKernels().pack32_msb[W](in, out, count);
}
template <int W>
void ScalarUnpack64Msb(const uint8_t* in, uint64_t* out, size_t count) {
  ScalarBitPackingKernels().unpack64_msb[W](in, out, count);
}
template <int W>
void ScalarPack64Msb(const uint64_t* in, uint8_t* out, size_t count) {
  ScalarBitPackingKernels().pack64_msb[W](in, out, count);
}

// Which widths get a vector kernel: those whose plan is valid, minus 0 and the full width (zero
// fill and memcpy, which the scalar kernels already do at memory speed).
template <int W>
constexpr Unpack32Fn ChooseUnpack32() {
  if constexpr (W >= 1 && W <= 31 && MakeUnpack32Plan<W>().fits_lanes) {
    return &Unpack32<W>;
  } else {
    return &ScalarUnpack32<W>;
  }
}

template <int W>
constexpr Unpack64Fn ChooseUnpack64() {
  if constexpr (W >= 1 && W <= 63 && MakeUnpack64Plan<W>().fits_lanes) {
    return &Unpack64<W>;
  } else {
    return &ScalarUnpack64<W>;
  }
}

template <int W>
constexpr Pack32Fn ChoosePack32() {
  // At W = 16 the compiler turns the scalar template into a plain 16-bit narrowing that measured
  // as fast as the shuffle kernel or faster (about 11 vs 9-10 G values/s at 64K values).
  if constexpr (W == 1) {
    return &Pack32Width1;
  } else if constexpr (W != 16 && MakePack32Plan<W>().valid) {
    return &Pack32<W>;
  } else {
    return &ScalarPack32<W>;
  }
}

template <size_t... W>
constexpr BitPackingKernels MakeAvx2Kernels32(std::index_sequence<W...>) {
  BitPackingKernels kernels{};
  kernels.name = "avx2";
  ((kernels.unpack32[W] = ChooseUnpack32<W>()), ...);
  ((kernels.pack32[W] = ChoosePack32<W>()), ...);
  ((kernels.unpack32_msb[W] = &ScalarUnpack32Msb<W>), ...);
  ((kernels.pack32_msb[W] = &ScalarPack32Msb<W>), ...);
  return kernels;
}

template <size_t... W>
constexpr BitPackingKernels AddAvx2Kernels64(BitPackingKernels kernels, std::index_sequence<W...>) {
  ((kernels.unpack64[W] = ChooseUnpack64<W>()), ...);
  ((kernels.pack64[W] = &ScalarPack64<W>), ...);
  ((kernels.unpack64_msb[W] = &ScalarUnpack64Msb<W>), ...);
  ((kernels.pack64_msb[W] = &ScalarPack64Msb<W>), ...);
  return kernels;
}

constexpr BitPackingKernels kAvx2Kernels =
    AddAvx2Kernels64(MakeAvx2Kernels32(std::make_index_sequence<kMaxBitWidth32 + 1>{}),
                     std::make_index_sequence<kMaxBitWidth64 + 1>{});

}  // namespace

const BitPackingKernels& Avx2BitPackingKernels() { return kAvx2Kernels; }

}  // namespace pqpage::internal
