// Bit-range writes into LSB-first bitmaps (Arrow's validity layout, Parquet's boolean packing).
// Used where a width-1 hybrid stream becomes a bitmap without unpacking to one value per byte.
#ifndef PQPAGE_ENCODINGS_BITMAP_WRITER_H_
#define PQPAGE_ENCODINGS_BITMAP_WRITER_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/byte_io.h"

namespace pqpage::internal {

// Sets bits [bit, bit + count) of `bitmap` to `value`, leaving all other bits as they were.
inline void FillBits(uint8_t* bitmap, int64_t bit, size_t count, bool value) {
  const uint8_t fill = value ? 0xFF : 0x00;
  while (count > 0 && (bit % 8) != 0) {
    const uint8_t mask = static_cast<uint8_t>(1u << (bit % 8));
    bitmap[bit / 8] = value ? (bitmap[bit / 8] | mask) : (bitmap[bit / 8] & ~mask);
    ++bit;
    --count;
  }
  std::memset(bitmap + bit / 8, fill, count / 8);
  bit += static_cast<int64_t>(count / 8 * 8);
  for (size_t i = 0; i < count % 8; ++i, ++bit) {
    const uint8_t mask = static_cast<uint8_t>(1u << (bit % 8));
    bitmap[bit / 8] = value ? (bitmap[bit / 8] | mask) : (bitmap[bit / 8] & ~mask);
  }
}

// Copies `count` bits (a multiple of 8) from the start of `source` to `bitmap` at bit `bit`,
// leaving all other bits of `bitmap` as they were.
inline void CopyBits(const uint8_t* source, uint8_t* bitmap, int64_t bit, size_t count) {
  const size_t bytes = count / 8;
  uint8_t* out = bitmap + bit / 8;
  const int shift = static_cast<int>(bit % 8);
  if (shift == 0) {
    std::memcpy(out, source, bytes);
    return;
  }
  if (bytes == 0) return;
  const uint8_t low_mask = static_cast<uint8_t>((1u << shift) - 1);
  uint8_t carry = out[0] & low_mask;
  size_t i = 0;
  // Eight bytes at a time: each output word is the input word shifted up, plus the carry.
  for (; i + 8 <= bytes; i += 8) {
    const uint64_t word = LoadLittleEndian<uint64_t>(source + i);
    StoreLittleEndian(out + i, (word << shift) | carry);
    carry = static_cast<uint8_t>(word >> (64 - shift));
  }
  for (; i < bytes; ++i) {
    out[i] = static_cast<uint8_t>((source[i] << shift) | carry);
    carry = static_cast<uint8_t>(source[i] >> (8 - shift));
  }
  out[bytes] = static_cast<uint8_t>((out[bytes] & ~low_mask) | carry);
}

inline int64_t CountOnes(const uint8_t* bytes, size_t count) {
  int64_t ones = 0;
  size_t i = 0;
  for (; i + 8 <= count; i += 8) ones += std::popcount(LoadLittleEndian<uint64_t>(bytes + i));
  for (; i < count; ++i) ones += std::popcount(static_cast<unsigned>(bytes[i]));
  return ones;
}

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_BITMAP_WRITER_H_
