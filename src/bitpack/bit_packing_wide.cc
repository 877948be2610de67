// Unpacking of values one bit wider than their output type (PARQUET-2435 delta miniblocks).
#include <algorithm>

#include "bitpack/bit_packing.h"
#include "common/byte_io.h"

namespace pqpage::internal {

void UnpackWidth33Low32(const uint8_t* in, uint32_t* out, size_t count) {
  // Through the table's 64-bit width-33 kernel, a slice at a time so the wide lanes stay in L1.
  constexpr size_t kSlice = 256;  // a multiple of 8: every slice starts on a byte boundary
  constexpr int kWidth = kMaxBitWidth32 + 1;
  const Unpack64Fn unpack = BitPacking().unpack64[kWidth];
  uint64_t wide[kSlice];
  while (count > 0) {
    const size_t n = std::min(count, kSlice);
    unpack(in, wide, n);
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint32_t>(wide[i]);
    in += n * kWidth / 8;
    out += n;
    count -= n;
  }
}

void UnpackWidth65Low64(const uint8_t* in, uint64_t* out, size_t count) {
  // Value i starts at bit 65 * i. Its low 64 bits span 8 bytes when the start is byte aligned and
  // 9 otherwise; in both cases every byte read belongs to the value itself, so nothing past
  // count * 65 / 8 bytes is touched.
  for (size_t i = 0; i < count; ++i) {
    const size_t bit = i * 65;
    const uint8_t* p = in + bit / 8;
    const unsigned shift = bit % 8;
    uint64_t value = LoadLittleEndian<uint64_t>(p);
    if (shift != 0) value = (value >> shift) | (static_cast<uint64_t>(p[8]) << (64 - shift));
    out[i] = value;
  }
}

}  // namespace pqpage::internal
