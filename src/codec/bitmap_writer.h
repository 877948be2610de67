// Bit-range writes into LSB-first bitmaps (Arrow's validity layout, Parquet's boolean packing).
// Used where a width-1 hybrid stream becomes a bitmap without unpacking to one value per byte.
#ifndef PQPAGE_CODEC_BITMAP_WRITER_H_
#define PQPAGE_CODEC_BITMAP_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/byte_io.h"

namespace pqpage::internal {

// Sets bits [bit, bit + count) of `bitmap` to `value`, leaving all other bits as they were.
inline void FillBits(uint8_t* bitmap, int64_t bit, size_t count, bool value) {
  if (count == 0) return;
  const uint64_t first = static_cast<uint64_t>(bit);
  const uint64_t last = first + count - 1;
  const uint64_t first_byte = first / 8;
  const uint64_t last_byte = last / 8;
  uint8_t head = static_cast<uint8_t>(0xFFu << (first % 8));
  const uint8_t tail = static_cast<uint8_t>(0xFFu >> (7 - last % 8));
  auto apply = [&](uint64_t index, uint8_t mask) {
    bitmap[index] = value ? (bitmap[index] | mask) : (bitmap[index] & ~mask);
  };
  if (first_byte == last_byte) {
    apply(first_byte, head & tail);
    return;
  }
  apply(first_byte, head);
  // Short spans dominate (runs of tens of values): word stores beat a call to memset.
  const uint64_t fill = value ? ~uint64_t{0} : 0;
  uint64_t index = first_byte + 1;
  for (; index + 8 <= last_byte; index += 8) StoreLittleEndian(bitmap + index, fill);
  for (; index < last_byte; ++index) bitmap[index] = static_cast<uint8_t>(fill);
  apply(last_byte, tail);
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

// Population count without the POPCNT instruction, which baseline x86-64 lacks (std::popcount
// becomes a libgcc call there): the classic SWAR sum of bit pairs, nibbles and bytes.
inline int CountOnes64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}

// Ones in each byte value, for counts of a byte or two.
struct ByteOnesTable {
  uint8_t ones[256];
  constexpr ByteOnesTable() : ones() {
    for (int byte = 0; byte < 256; ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        ones[byte] = static_cast<uint8_t>(ones[byte] + ((byte >> bit) & 1));
      }
    }
  }
};
inline constexpr ByteOnesTable kByteOnes;

inline int64_t CountOnes(const uint8_t* bytes, size_t count) {
  // Bit-packed runs of levels with scattered nulls are a byte or two: table lookups, not the
  // byte loop below that gathers a word's tail.
  if (count <= 2) {
    if (count == 0) return 0;
    return kByteOnes.ones[bytes[0]] + (count == 2 ? kByteOnes.ones[bytes[1]] : 0);
  }
  int64_t ones = 0;
  size_t i = 0;
  for (; i + 8 <= count; i += 8) ones += CountOnes64(LoadLittleEndian<uint64_t>(bytes + i));
  uint64_t tail = 0;
  for (size_t k = 0; i + k < count; ++k) tail |= uint64_t{bytes[i + k]} << (8 * k);
  return ones + CountOnes64(tail);
}

}  // namespace pqpage::internal

#endif  // PQPAGE_CODEC_BITMAP_WRITER_H_
