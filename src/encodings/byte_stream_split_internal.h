// The transposition kernels behind BYTE_STREAM_SPLIT, shared by its encoder, decoder and SIMD
// twins.
//
// Layout words: a page of N values of width K holds stream k at bytes [k*N, k*N + N). The kernels
// take a `stride` (the distance between streams, N) separately from the number of values they
// move, so a decoder can start in the middle of the streams.
#ifndef PQPAGE_ENCODINGS_BYTE_STREAM_SPLIT_INTERNAL_H_
#define PQPAGE_ENCODINGS_BYTE_STREAM_SPLIT_INTERNAL_H_

#include <cstdint>

namespace pqpage::internal {

// Gathers `count` values: byte k of value i comes from streams[k * stride + i]; values are written
// back to back to `out` (count * K bytes).
using BssDecodeFn = void (*)(const uint8_t* streams, int64_t stride, int64_t count, uint8_t* out);
// Scatters `count` values read back to back from `values`: byte k of value i goes to
// out[k * stride + i].
using BssEncodeFn = void (*)(const uint8_t* values, int64_t count, int64_t stride, uint8_t* out);

struct ByteStreamSplitKernels {
  const char* name;  // "scalar" or "avx2"
  BssDecodeFn decode4;
  BssDecodeFn decode8;
  BssEncodeFn encode4;
  BssEncodeFn encode8;
};

// Portable kernels (also the tails of the AVX2 ones).
const ByteStreamSplitKernels& ScalarByteStreamSplitKernels();
// AVX2 kernels; only call them when UseAvx2Twins().
const ByteStreamSplitKernels& Avx2ByteStreamSplitKernels();
// The kernels for this CPU, chosen once.
const ByteStreamSplitKernels& ByteStreamSplitKernelsForCpu();

// Any width K >= 1 (widths 4 and 8 go through ByteStreamSplitKernelsForCpu()).
void ByteStreamSplitDecode(const uint8_t* streams, int width, int64_t stride, int64_t count,
                           uint8_t* out);
void ByteStreamSplitEncode(const uint8_t* values, int width, int64_t count, int64_t stride,
                           uint8_t* out);

// The portable loops for any width, used for widths without a dedicated kernel and for tails.
void ByteStreamSplitDecodeGeneric(const uint8_t* streams, int width, int64_t stride, int64_t count,
                                  uint8_t* out);
void ByteStreamSplitEncodeGeneric(const uint8_t* values, int width, int64_t count, int64_t stride,
                                  uint8_t* out);

// The scalar width-4 and width-8 kernels (8x8 byte transposes of words).
void ScalarByteStreamSplitDecode4(const uint8_t* streams, int64_t stride, int64_t count,
                                  uint8_t* out);
void ScalarByteStreamSplitDecode8(const uint8_t* streams, int64_t stride, int64_t count,
                                  uint8_t* out);
void ScalarByteStreamSplitEncode4(const uint8_t* values, int64_t count, int64_t stride,
                                  uint8_t* out);
void ScalarByteStreamSplitEncode8(const uint8_t* values, int64_t count, int64_t stride,
                                  uint8_t* out);

// Transposes an 8x8 byte matrix held as 8 little-endian words: afterwards byte j of rows[i] is
// what byte i of rows[j] was. Three rounds of block swaps (4x4, 2x2, 1x1).
inline void TransposeBytes8x8(uint64_t rows[8]) {
  for (int i = 0; i < 4; ++i) {
    const uint64_t t = ((rows[i] >> 32) ^ rows[i + 4]) & 0x00000000FFFFFFFFULL;
    rows[i] ^= t << 32;
    rows[i + 4] ^= t;
  }
  for (int n = 0; n < 4; ++n) {
    const int i = (n & 1) | ((n & 2) << 1);  // 0, 1, 4, 5
    const uint64_t t = ((rows[i] >> 16) ^ rows[i + 2]) & 0x0000FFFF0000FFFFULL;
    rows[i] ^= t << 16;
    rows[i + 2] ^= t;
  }
  for (int n = 0; n < 4; ++n) {
    const int i = 2 * n;
    const uint64_t t = ((rows[i] >> 8) ^ rows[i + 1]) & 0x00FF00FF00FF00FFULL;
    rows[i] ^= t << 8;
    rows[i + 1] ^= t;
  }
}

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_BYTE_STREAM_SPLIT_INTERNAL_H_
