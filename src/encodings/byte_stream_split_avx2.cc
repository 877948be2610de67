// AVX2 twins of the BYTE_STREAM_SPLIT width-4 and width-8 kernels, 32 values per step; the
// remaining values go through the portable loop. Compiled with -mavx2 and only reached through
// ByteStreamSplitKernelsForCpu() when the CPU has AVX2.
//
// Gathering (decode) is a byte transpose done with unpack instructions: interleaving bytes, then
// 16-bit pairs, (then 32-bit quads for width 8) of the streams builds whole values, but the
// unpacks work inside each 128-bit lane, so the last step swaps lane halves into value order.
#include <immintrin.h>

#include "encodings/byte_stream_split_internal.h"

namespace pqpage::internal {
namespace {

inline __m256i Load(const uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
inline void Store(uint8_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }

void Avx2Decode4(const uint8_t* streams, int64_t stride, int64_t count, uint8_t* out) {
  const uint8_t* s0 = streams;
  const uint8_t* s1 = streams + stride;
  const uint8_t* s2 = streams + 2 * stride;
  const uint8_t* s3 = streams + 3 * stride;
  int64_t i = 0;
  for (; i + 32 <= count; i += 32) {
    const __m256i a = Load(s0 + i), b = Load(s1 + i), c = Load(s2 + i), d = Load(s3 + i);
    // Lane 0 holds values 0..15 of the step, lane 1 values 16..31.
    const __m256i ab_lo = _mm256_unpacklo_epi8(a, b);  // values 0-7   | 16-23, bytes 0-1
    const __m256i ab_hi = _mm256_unpackhi_epi8(a, b);  // values 8-15  | 24-31
    const __m256i cd_lo = _mm256_unpacklo_epi8(c, d);
    const __m256i cd_hi = _mm256_unpackhi_epi8(c, d);
    const __m256i v0 = _mm256_unpacklo_epi16(ab_lo, cd_lo);  // values 0-3   | 16-19
    const __m256i v1 = _mm256_unpackhi_epi16(ab_lo, cd_lo);  // values 4-7   | 20-23
    const __m256i v2 = _mm256_unpacklo_epi16(ab_hi, cd_hi);  // values 8-11  | 24-27
    const __m256i v3 = _mm256_unpackhi_epi16(ab_hi, cd_hi);  // values 12-15 | 28-31
    uint8_t* dst = out + i * 4;
    Store(dst + 0, _mm256_permute2x128_si256(v0, v1, 0x20));
    Store(dst + 32, _mm256_permute2x128_si256(v2, v3, 0x20));
    Store(dst + 64, _mm256_permute2x128_si256(v0, v1, 0x31));
    Store(dst + 96, _mm256_permute2x128_si256(v2, v3, 0x31));
  }
  ByteStreamSplitDecodeGeneric(streams + i, 4, stride, count - i, out + i * 4);
}

void Avx2Decode8(const uint8_t* streams, int64_t stride, int64_t count, uint8_t* out) {
  int64_t i = 0;
  for (; i + 32 <= count; i += 32) {
    __m256i s[8];
    for (int k = 0; k < 8; ++k) s[k] = Load(streams + k * stride + i);
    // Byte pairs of streams (0,1), (2,3), (4,5), (6,7).
    __m256i p_lo[4], p_hi[4];  // values 0-7 | 16-23, and 8-15 | 24-31
    for (int k = 0; k < 4; ++k) {
      p_lo[k] = _mm256_unpacklo_epi8(s[2 * k], s[2 * k + 1]);
      p_hi[k] = _mm256_unpackhi_epi8(s[2 * k], s[2 * k + 1]);
    }
    // Quads of streams 0-3 (q[0][*]) and 4-7 (q[1][*]); index j covers values 4j..4j+3 | +16.
    __m256i q[2][4];
    for (int h = 0; h < 2; ++h) {
      q[h][0] = _mm256_unpacklo_epi16(p_lo[2 * h], p_lo[2 * h + 1]);
      q[h][1] = _mm256_unpackhi_epi16(p_lo[2 * h], p_lo[2 * h + 1]);
      q[h][2] = _mm256_unpacklo_epi16(p_hi[2 * h], p_hi[2 * h + 1]);
      q[h][3] = _mm256_unpackhi_epi16(p_hi[2 * h], p_hi[2 * h + 1]);
    }
    // Whole values: w[2j] = values 4j, 4j+1 | +16; w[2j+1] = values 4j+2, 4j+3 | +16.
    __m256i w[8];
    for (int j = 0; j < 4; ++j) {
      w[2 * j] = _mm256_unpacklo_epi32(q[0][j], q[1][j]);
      w[2 * j + 1] = _mm256_unpackhi_epi32(q[0][j], q[1][j]);
    }
    uint8_t* dst = out + i * 8;
    for (int j = 0; j < 4; ++j) {
      Store(dst + 32 * j, _mm256_permute2x128_si256(w[2 * j], w[2 * j + 1], 0x20));
      Store(dst + 128 + 32 * j, _mm256_permute2x128_si256(w[2 * j], w[2 * j + 1], 0x31));
    }
  }
  ByteStreamSplitDecodeGeneric(streams + i, 8, stride, count - i, out + i * 8);
}

void Avx2Encode4(const uint8_t* values, int64_t count, int64_t stride, uint8_t* out) {
  // Within each lane (4 values), group byte k of the 4 values into dword k.
  const __m256i group_bytes =
      _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9,
                       13, 2, 6, 10, 14, 3, 7, 11, 15);
  // Then pair dword k of both lanes, so qword k holds byte k of 8 consecutive values.
  const __m256i pair_lanes = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  int64_t i = 0;
  for (; i + 32 <= count; i += 32) {
    __m256i z[4];  // z[r] qword k = byte k of values 8r..8r+7
    for (int r = 0; r < 4; ++r) {
      const __m256i x = Load(values + (i + 8 * r) * 4);
      z[r] = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(x, group_bytes), pair_lanes);
    }
    // A 4x4 transpose of qwords.
    const __m256i even01 = _mm256_unpacklo_epi64(z[0], z[1]);  // byte 0 | byte 2, values 0-15
    const __m256i odd01 = _mm256_unpackhi_epi64(z[0], z[1]);   // byte 1 | byte 3, values 0-15
    const __m256i even23 = _mm256_unpacklo_epi64(z[2], z[3]);  // values 16-31
    const __m256i odd23 = _mm256_unpackhi_epi64(z[2], z[3]);
    Store(out + i, _mm256_permute2x128_si256(even01, even23, 0x20));
    Store(out + stride + i, _mm256_permute2x128_si256(odd01, odd23, 0x20));
    Store(out + 2 * stride + i, _mm256_permute2x128_si256(even01, even23, 0x31));
    Store(out + 3 * stride + i, _mm256_permute2x128_si256(odd01, odd23, 0x31));
  }
  ByteStreamSplitEncodeGeneric(values + i * 4, 4, count - i, stride, out + i);
}

void Avx2Encode8(const uint8_t* values, int64_t count, int64_t stride, uint8_t* out) {
  // Lane 0 of register r holds values 2r, 2r+1 and lane 1 values 16+2r, 16+2r+1, so each lane
  // is an independent 16-value block. Within a block, byte b of value v sits at address
  // v*8 + b (register = top 3 bits of the 7-bit address, position = low 4). One round of
  // unpacking registers r and r+4 rotates the address left by one bit; four rounds turn it
  // into b*16 + v, i.e. register b holds stream b.
  int64_t i = 0;
  for (; i + 32 <= count; i += 32) {
    const uint8_t* src = values + i * 8;
    __m256i x[8];
    for (int r = 0; r < 8; ++r) {
      const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16 * r));
      const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 128 + 16 * r));
      x[r] = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    }
    for (int round = 0; round < 4; ++round) {
      __m256i y[8];
      for (int r = 0; r < 4; ++r) {
        y[2 * r] = _mm256_unpacklo_epi8(x[r], x[r + 4]);
        y[2 * r + 1] = _mm256_unpackhi_epi8(x[r], x[r + 4]);
      }
      for (int r = 0; r < 8; ++r) x[r] = y[r];
    }
    for (int k = 0; k < 8; ++k) Store(out + k * stride + i, x[k]);
  }
  ByteStreamSplitEncodeGeneric(values + i * 8, 8, count - i, stride, out + i);
}

}  // namespace

const ByteStreamSplitKernels& Avx2ByteStreamSplitKernels() {
  static const ByteStreamSplitKernels kernels = {"avx2", Avx2Decode4, Avx2Decode8, Avx2Encode4,
                                                 Avx2Encode8};
  return kernels;
}

}  // namespace pqpage::internal
