// AVX-512 twins of the BYTE_STREAM_SPLIT width-8 kernels, 64 values per step; the remaining
// values go through the portable loop. Compiled with the AVX-512 tier's flags and only reached
// through ByteStreamSplitKernelsForCpu() when UseAvx512Twins().
//
// Every step is a two-source byte permute (VBMI's vpermt2b), which picks any 64 of 128 bytes:
//   - decode: streams in pairs, pairs into quads, quads into values, 24 permutes per 64 values
//     where the AVX2 unpack ladder needs 48 shuffles;
//   - encode: each pair of value registers is permuted into 16-byte lanes of one stream each, and
//     a transpose of 128-bit lanes (whole-lane shuffles) collects each stream's 64 bytes.
// Width 4 has no kernel here: the same designs (and the 512-bit unpack ladder) measured slower
// than the AVX2 kernels on an Intel Xeon with AVX-512, which runs 512-bit shuffles on one port
// only while 256-bit unpacks use two; the AVX-512 table keeps the AVX2 width-4 kernels.
#include <immintrin.h>

#include <cstdint>

#include "encodings/byte_stream_split_internal.h"

namespace pqpage::internal {
namespace {

inline __m512i Load(const uint8_t* p) { return _mm512_loadu_si512(p); }
inline void Store(uint8_t* p, __m512i v) { _mm512_storeu_si512(p, v); }

// Byte indices for _mm512_permutex2var_epi8: 0-63 pick from the first source, 64-127 from the
// second. A plain array: this file must not instantiate templates that other files also
// instantiate (the linker could keep this file's AVX-512 copy for them).
struct PermuteIndex {
  uint8_t bytes[64];
};

// Output byte `unit * u + k` (k < `half`) is byte `first + half_unit * u + k` of source a, and
// byte `half + k` of the unit is the same byte of source b: interleaves units of `half` bytes of
// two sources. `first` selects which of the sources' units are taken.
constexpr PermuteIndex Interleave(int half, int first_unit) {
  PermuteIndex index{};
  const int unit = 2 * half;
  for (int u = 0; u < 64 / unit; ++u) {
    for (int k = 0; k < half; ++k) {
      const int from = (first_unit + u) * half + k;
      index.bytes[unit * u + k] = static_cast<uint8_t>(from);
      index.bytes[unit * u + half + k] = static_cast<uint8_t>(64 + from);
    }
  }
  return index;
}

// From two registers of `width`-byte values (the first source's values, then the second's),
// lane s (16 bytes) of the result holds byte `first_byte + s` of 16 values: the ones that start
// at value `first_value` of the 128 bytes. The inverse of the decode's interleaves.
constexpr PermuteIndex GroupByByte(int width, int first_byte, int first_value) {
  PermuteIndex index{};
  for (int s = 0; s < 4; ++s) {
    for (int v = 0; v < 16; ++v) {
      index.bytes[16 * s + v] = static_cast<uint8_t>((first_value + v) * width + first_byte + s);
    }
  }
  return index;
}

constexpr PermuteIndex kBytesLow = Interleave(1, 0);    // 1-byte units of values 0-31
constexpr PermuteIndex kBytesHigh = Interleave(1, 32);  // values 32-63
constexpr PermuteIndex kPairsLow = Interleave(2, 0);    // 2-byte units of values 0-15
constexpr PermuteIndex kPairsHigh = Interleave(2, 16);  // values 16-31
constexpr PermuteIndex kQuadsLow = Interleave(4, 0);    // 4-byte units of values 0-7
constexpr PermuteIndex kQuadsHigh = Interleave(4, 8);   // values 8-15
// Lanes = bytes 0-3 and bytes 4-7 of the 16 values of the two sources.
constexpr PermuteIndex kGroup8Low = GroupByByte(8, 0, 0);
constexpr PermuteIndex kGroup8High = GroupByByte(8, 4, 0);

inline __m512i Index(const PermuteIndex& index) { return _mm512_loadu_si512(index.bytes); }

inline __m512i Permute(__m512i a, __m512i index, __m512i b) {
  return _mm512_permutex2var_epi8(a, index, b);
}

// Afterwards 128-bit lane j of r[i] is what lane i of r[j] was.
inline void TransposeLanes4x4(__m512i r[4]) {
  const __m512i t0 = _mm512_shuffle_i64x2(r[0], r[1], 0x44);  // r0.0 r0.1 r1.0 r1.1
  const __m512i t1 = _mm512_shuffle_i64x2(r[2], r[3], 0x44);  // r2.0 r2.1 r3.0 r3.1
  const __m512i t2 = _mm512_shuffle_i64x2(r[0], r[1], 0xEE);  // r0.2 r0.3 r1.2 r1.3
  const __m512i t3 = _mm512_shuffle_i64x2(r[2], r[3], 0xEE);  // r2.2 r2.3 r3.2 r3.3
  r[0] = _mm512_shuffle_i64x2(t0, t1, 0x88);                  // r0.0 r1.0 r2.0 r3.0
  r[1] = _mm512_shuffle_i64x2(t0, t1, 0xDD);                  // r0.1 r1.1 r2.1 r3.1
  r[2] = _mm512_shuffle_i64x2(t2, t3, 0x88);
  r[3] = _mm512_shuffle_i64x2(t2, t3, 0xDD);
}

}  // namespace

void Avx512ByteStreamSplitDecode8(const uint8_t* streams, int64_t stride, int64_t count,
                                  uint8_t* out) {
  const __m512i bytes_low = Index(kBytesLow), bytes_high = Index(kBytesHigh);
  const __m512i pairs_low = Index(kPairsLow), pairs_high = Index(kPairsHigh);
  const __m512i quads_low = Index(kQuadsLow), quads_high = Index(kQuadsHigh);
  int64_t i = 0;
  for (; i + 64 <= count; i += 64) {
    __m512i pairs[4][2];  // [streams 2p, 2p+1][values 0-31, 32-63]
    for (int p = 0; p < 4; ++p) {
      const __m512i a = Load(streams + 2 * p * stride + i);
      const __m512i b = Load(streams + (2 * p + 1) * stride + i);
      pairs[p][0] = Permute(a, bytes_low, b);
      pairs[p][1] = Permute(a, bytes_high, b);
    }
    for (int block = 0; block < 4; ++block) {  // 16 values: 128 output bytes
      const int half = block / 2;
      const __m512i index = block % 2 == 0 ? pairs_low : pairs_high;
      const __m512i low = Permute(pairs[0][half], index, pairs[1][half]);   // bytes 0-3
      const __m512i high = Permute(pairs[2][half], index, pairs[3][half]);  // bytes 4-7
      uint8_t* dst = out + (i + 16 * block) * 8;
      Store(dst, Permute(low, quads_low, high));
      Store(dst + 64, Permute(low, quads_high, high));
    }
  }
  ByteStreamSplitDecodeGeneric(streams + i, 8, stride, count - i, out + i * 8);
}

void Avx512ByteStreamSplitEncode8(const uint8_t* values, int64_t count, int64_t stride,
                                  uint8_t* out) {
  const __m512i group_low = Index(kGroup8Low), group_high = Index(kGroup8High);
  int64_t i = 0;
  for (; i + 64 <= count; i += 64) {
    __m512i low[4], high[4];  // [b] lane s = byte s (low) or 4 + s (high) of values 16b..
    for (int block = 0; block < 4; ++block) {
      const uint8_t* src = values + (i + 16 * block) * 8;
      const __m512i a = Load(src), b = Load(src + 64);
      low[block] = Permute(a, group_low, b);
      high[block] = Permute(a, group_high, b);
    }
    TransposeLanes4x4(low);
    TransposeLanes4x4(high);
    for (int s = 0; s < 4; ++s) {
      Store(out + s * stride + i, low[s]);
      Store(out + (4 + s) * stride + i, high[s]);
    }
  }
  ByteStreamSplitEncodeGeneric(values + i * 8, 8, count - i, stride, out + i);
}

}  // namespace pqpage::internal
