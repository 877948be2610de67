// The one table of bit-packing kernels. Every path that packs or unpacks fixed-width integers (the
// RLE/bit-packed hybrid, DELTA_BINARY_PACKED miniblocks, dictionary indices, levels, BIT_PACKED)
// calls through this table, indexed by bit width, so each width's kernel exists once per
// instruction set and the width is dispatched once per run, never per value.
//
// Layout. Parquet packs in two bit orders:
//   - LSB order (hybrid and delta): value i occupies bits [i*w, i*w + w) of the stream, where bit k
//     is bit (k % 8) of byte k / 8, least significant first.
//   - MSB order (the deprecated BIT_PACKED, and ORC's integer RLE v2 at up to 64 bits): bit k of
//     the stream is bit 7 - (k % 8) of byte k / 8, and each value is written most significant bit
//     first.
// In both orders 8 values of width w fill exactly w bytes, so the kernels work on whole groups
// of 8.
//
// Kernel contract (all function pointers below):
//   - `count` is a multiple of 8 (kValuesPerGroup).
//   - unpack reads exactly count * w / 8 bytes from `in` and writes exactly `count` values to
//     `out`; it never reads past the bytes it decodes, so callers need no padding after their
//     buffers.
//   - pack reads `count` values and writes exactly count * w / 8 bytes; bits of a value above
//     `w` are ignored (callers that must reject such values check them first).
//   - Width 0 unpacks to zeros and packs to nothing.
#ifndef PQPAGE_BITPACK_BIT_PACKING_H_
#define PQPAGE_BITPACK_BIT_PACKING_H_

#include <cstddef>
#include <cstdint>

namespace pqpage::internal {

inline constexpr int kValuesPerGroup = 8;
inline constexpr int kMaxBitWidth32 = 32;
inline constexpr int kMaxBitWidth64 = 64;

using Unpack32Fn = void (*)(const uint8_t* in, uint32_t* out, size_t count);
using Unpack64Fn = void (*)(const uint8_t* in, uint64_t* out, size_t count);
using Pack32Fn = void (*)(const uint32_t* in, uint8_t* out, size_t count);
using Pack64Fn = void (*)(const uint64_t* in, uint8_t* out, size_t count);

struct BitPackingKernels {
  const char* name;                             // "scalar", "avx2" or "avx512"
  Unpack32Fn unpack32[kMaxBitWidth32 + 1];      // LSB order, widths 0..32
  Unpack64Fn unpack64[kMaxBitWidth64 + 1];      // LSB order, widths 0..64
  Pack32Fn pack32[kMaxBitWidth32 + 1];          // LSB order, widths 0..32
  Pack64Fn pack64[kMaxBitWidth64 + 1];          // LSB order, widths 0..64
  Unpack32Fn unpack32_msb[kMaxBitWidth32 + 1];  // MSB order (BIT_PACKED), widths 0..32
  Pack32Fn pack32_msb[kMaxBitWidth32 + 1];      // MSB order (BIT_PACKED), widths 0..32
  Unpack64Fn unpack64_msb[kMaxBitWidth64 + 1];  // MSB order (ORC RLE v2), widths 0..64
  Pack64Fn pack64_msb[kMaxBitWidth64 + 1];      // MSB order (ORC RLE v2), widths 0..64
};

// The portable kernels, generated from one template per direction and bit order.
const BitPackingKernels& ScalarBitPackingKernels();

// The AVX2/BMI2 kernels (entries without a vector form point at the scalar ones). Only call the
// returned functions when UseAvx2Twins() (common/cpu_features.h) says so.
const BitPackingKernels& Avx2BitPackingKernels();

// The AVX-512 tier's own unpack32 kernels by width, nullptr where the AVX2 kernel serves; a
// constant table, so reading it runs no AVX-512 instruction.
struct Avx512Unpack32Table {
  Unpack32Fn unpack32[kMaxBitWidth32 + 1];
};
extern const Avx512Unpack32Table kAvx512Unpack32;

// The AVX2 table with the AVX-512 tier's kernels in place of its own where kAvx512Unpack32 has
// one. Only call the returned functions when UseAvx512Twins() (common/cpu_features.h) says so.
const BitPackingKernels& Avx512BitPackingKernels();

// The kernels for this CPU, chosen once on first use.
const BitPackingKernels& BitPacking();

// Unpacks LSB-order values one bit wider than the output type (33 into uint32_t, 65 into
// uint64_t) and keeps their low 32 / 64 bits. Since PARQUET-2435 DELTA_BINARY_PACKED readers
// accept such miniblocks (DuckDB computes INT32 deltas in 64 bits and writes width 33); delta
// arithmetic is modulo 2^32 / 2^64, so dropping the top bit loses nothing. Same contract as the
// table's kernels: `count` a multiple of 8, exactly count * 33 / 8 (count * 65 / 8) bytes read.
// A rare path: correct and bounded rather than vectorised.
void UnpackWidth33Low32(const uint8_t* in, uint32_t* out, size_t count);
void UnpackWidth65Low64(const uint8_t* in, uint64_t* out, size_t count);

}  // namespace pqpage::internal

#endif  // PQPAGE_BITPACK_BIT_PACKING_H_
