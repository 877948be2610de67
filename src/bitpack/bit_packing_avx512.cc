// The AVX-512 (VBMI) unpack32 kernels, 16 values per 512-bit vector: the tier's entries of the
// bit-packing table (bit_packing_dispatch.cc builds the table from the AVX2 one, replacing the
// widths that have a kernel here). Only reached when UseAvx512Twins().
//
// 16 values of width W fill exactly 2W bytes. One masked load brings in those bytes (the mask
// stops it at the last byte the values use, so it never reads past them, and suppresses faults
// beyond), a byte permute (VBMI) moves each value's bytes into its own 32-bit lane, a variable
// shift aligns it and a mask clears its neighbour's bits. A value starts at bit (i*W) % 8 < 8, so
// for W <= 25 it fits in its lane's 4 bytes.
// Widths 26 to 31 need a fifth byte: a form with 64-bit lanes, narrowed to 32 bits, measured
// slower than the AVX2 kernel (0.79x at width 31), so those widths, 0 and 32 (a copy) keep the
// AVX2 table's kernels.
//
// Like the AVX2 file, everything here lives in an anonymous namespace, and the table is a constant
// array, so that no code compiled with these flags is shared with, or run by, the other tiers.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "bitpack/bit_packing.h"

namespace pqpage::internal {
namespace {

constexpr size_t kBlock = 16;  // values per vector: two groups of 8

struct Unpack32Plan {
  uint8_t permute[64];  // for each 32-bit lane, the 4 input bytes it takes, low byte first
  uint32_t shift[16];   // right shift of each value within its lane
};

template <int W>
constexpr Unpack32Plan MakePlan() {
  Unpack32Plan plan{};
  for (int value = 0; value < 16; ++value) {
    const int bit = value * W;
    // Bytes past the value's last are cleared by the mask; the highest index, 15W / 8 + 3, is
    // still inside the vector.
    for (int k = 0; k < 4; ++k) plan.permute[4 * value + k] = static_cast<uint8_t>(bit / 8 + k);
    plan.shift[value] = static_cast<uint32_t>(bit % 8);
  }
  return plan;
}

inline __m512i Load(const void* constants) { return _mm512_loadu_si512(constants); }

// Bit i set for i < n (n <= 64).
inline __mmask64 LowBytes(size_t n) { return n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1; }

template <int W>
void Unpack32(const uint8_t* in, uint32_t* out, size_t count) {
  static_assert(W >= 1 && W <= 25);
  static constexpr Unpack32Plan kPlan = MakePlan<W>();
  const __m512i permute = Load(kPlan.permute);
  const __m512i shift = Load(kPlan.shift);
  const __m512i mask = _mm512_set1_epi32(static_cast<int>((uint32_t{1} << W) - 1));
  auto unpack = [&](__mmask64 load_mask, const uint8_t* src) {
    const __m512i bytes = _mm512_maskz_loadu_epi8(load_mask, src);
    return _mm512_and_si512(_mm512_srlv_epi32(_mm512_permutexvar_epi8(permute, bytes), shift),
                            mask);
  };
  const __mmask64 block_mask = LowBytes(2 * W);
  size_t i = 0;
  for (; i + kBlock <= count; i += kBlock) {
    _mm512_storeu_si512(out + i, unpack(block_mask, in + i * W / 8));
  }
  if (i < count) {  // one group of 8 left: W bytes in, 8 values out
    _mm512_mask_storeu_epi32(out + i, 0x00FF, unpack(LowBytes(W), in + i * W / 8));
  }
}

template <int W>
constexpr Unpack32Fn ChooseUnpack32() {
  if constexpr (W >= 1 && W <= 25) {
    return &Unpack32<W>;
  } else {
    return nullptr;
  }
}

template <size_t... W>
constexpr Avx512Unpack32Table MakeTable(std::index_sequence<W...>) {
  Avx512Unpack32Table table{};
  ((table.unpack32[W] = ChooseUnpack32<W>()), ...);
  return table;
}

}  // namespace

constexpr Avx512Unpack32Table kAvx512Unpack32 =
    MakeTable(std::make_index_sequence<kMaxBitWidth32 + 1>{});

}  // namespace pqpage::internal
