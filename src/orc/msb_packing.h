// Packing and unpacking any number of 64-bit values MSB first, as ORC's integer RLE v2 stores
// them: the bit-packing kernels (bitpack/bit_packing.h) take whole groups of 8 values, so the last
// partial group goes through a small zero-padded buffer. A run's packed bits end on a byte
// boundary.
#ifndef PQPAGE_ORC_MSB_PACKING_H_
#define PQPAGE_ORC_MSB_PACKING_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "bitpack/bit_packing.h"

namespace pqpage::orc::internal {

// Bytes `count` values of `width` bits take, padded to a whole byte.
constexpr size_t PackedBytes(size_t count, int width) {
  return (count * static_cast<size_t>(width) + 7) / 8;
}

// Reads exactly PackedBytes(count, width) bytes at `in` into `out`; width 0..64.
inline void UnpackMsb64(const uint8_t* in, size_t count, int width, uint64_t* out) {
  const pqpage::internal::BitPackingKernels& kernels = pqpage::internal::BitPacking();
  const size_t whole = count & ~size_t{7};
  kernels.unpack64_msb[width](in, out, whole);
  if (whole == count) return;
  uint8_t group[64] = {};  // 8 values of up to 64 bits
  const size_t done_bytes = whole / 8 * static_cast<size_t>(width);
  std::memcpy(group, in + done_bytes, PackedBytes(count, width) - done_bytes);
  uint64_t values[8];
  kernels.unpack64_msb[width](group, values, 8);
  std::memcpy(out + whole, values, (count - whole) * sizeof(uint64_t));
}

// Appends PackedBytes(count, width) bytes to `out`; bits of a value above `width` are ignored.
inline void AppendPackedMsb64(const uint64_t* values, size_t count, int width,
                              std::vector<uint8_t>* out) {
  const pqpage::internal::BitPackingKernels& kernels = pqpage::internal::BitPacking();
  const size_t start = out->size();
  out->resize(start + PackedBytes(count, width));
  const size_t whole = count & ~size_t{7};
  kernels.pack64_msb[width](values, out->data() + start, whole);
  if (whole == count) return;
  uint64_t group_values[8] = {};
  std::memcpy(group_values, values + whole, (count - whole) * sizeof(uint64_t));
  uint8_t group[64];
  kernels.pack64_msb[width](group_values, group, 8);
  const size_t done_bytes = whole / 8 * static_cast<size_t>(width);
  std::memcpy(out->data() + start + done_bytes, group, out->size() - start - done_bytes);
}

}  // namespace pqpage::orc::internal

#endif  // PQPAGE_ORC_MSB_PACKING_H_
