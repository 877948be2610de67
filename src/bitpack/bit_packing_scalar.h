// The portable bit-packing kernels as templates over the bit width. The scalar table instantiates
// them for every width; the AVX2 table reuses them for the widths and tails it has no vector form
// for. Each kernel handles a block of 32 values (4 * W bytes) with the width a compile-time
// constant, so the compiler unrolls it into straight-line shifts and masks.
#ifndef PQPAGE_BITPACK_BIT_PACKING_SCALAR_H_
#define PQPAGE_BITPACK_BIT_PACKING_SCALAR_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "bitpack/bit_packing.h"
#include "common/byte_io.h"

namespace pqpage::internal::scalar {

inline constexpr size_t kBlockValues = 32;

template <typename T, int W>
inline constexpr T LowBitsMask() {
  if constexpr (W >= static_cast<int>(sizeof(T) * 8)) {
    return ~T{0};
  } else {
    return (T{1} << W) - 1;
  }
}

inline uint32_t Word32(const uint8_t* in, int index) {
  return LoadLittleEndian<uint32_t>(in + 4 * index);
}

// Value I of a 32-value LSB block of width W, assembled from the 32-bit words it straddles (at
// most three for W up to 64).
template <typename T, int W, int I>
inline T ExtractLsb(const uint8_t* in) {
  constexpr int kBit = I * W;
  constexpr int kWord = kBit / 32;
  constexpr int kShift = kBit % 32;
  uint64_t value = static_cast<uint64_t>(Word32(in, kWord)) >> kShift;
  if constexpr (kShift + W > 32)
    value |= static_cast<uint64_t>(Word32(in, kWord + 1)) << (32 - kShift);
  if constexpr (kShift + W > 64)
    value |= static_cast<uint64_t>(Word32(in, kWord + 2)) << (64 - kShift);
  return static_cast<T>(value) & LowBitsMask<T, W>();
}

template <typename T, int W, size_t... I>
inline void UnpackBlockLsb(const uint8_t* in, T* out, std::index_sequence<I...>) {
  ((out[I] = ExtractLsb<T, W, static_cast<int>(I)>(in)), ...);
}

// Packs value I of a 32-value block into the 32-bit words it straddles.
template <typename T, int W, int I>
inline void DepositLsb(const T* in, uint32_t* words) {
  constexpr int kBit = I * W;
  constexpr int kWord = kBit / 32;
  constexpr int kShift = kBit % 32;
  const uint64_t value = static_cast<uint64_t>(in[I] & LowBitsMask<T, W>());
  words[kWord] |= static_cast<uint32_t>(value << kShift);
  if constexpr (kShift + W > 32) words[kWord + 1] |= static_cast<uint32_t>(value >> (32 - kShift));
  if constexpr (kShift + W > 64) words[kWord + 2] |= static_cast<uint32_t>(value >> (64 - kShift));
}

template <typename T, int W, size_t... I>
inline void PackBlockLsb(const T* in, uint8_t* out, std::index_sequence<I...>) {
  uint32_t words[W] = {};
  (DepositLsb<T, W, static_cast<int>(I)>(in, words), ...);
  std::memcpy(out, words, 4 * W);
}

// MSB order reads the stream as one big-endian bit string. A block of 32 values of W bits is W / 2
// such 64-bit words (the last one half full when W is odd), byte-swapped once as a whole; every
// value's place in them is a compile-time constant, so the words stay in registers and each value
// costs a shift or two, with no read-modify-write of memory.
template <typename T, int W, int I>
inline T ExtractMsb(const uint64_t* words) {
  constexpr int kBit = I * W;
  constexpr int kWord = kBit / 64;
  constexpr int kEnd = kBit % 64 + W;  // where the value ends, in bits from its word's top
  uint64_t value;
  if constexpr (kEnd <= 64) {
    value = words[kWord] >> (64 - kEnd);
  } else {
    value = words[kWord] << (kEnd - 64) | words[kWord + 1] >> (128 - kEnd);
  }
  return static_cast<T>(value & LowBitsMask<uint64_t, W>());
}

template <typename T, int W, size_t... I>
inline void UnpackBlockMsb(const uint8_t* in, T* out, std::index_sequence<I...>) {
  uint64_t words[(W + 1) / 2] = {};
  std::memcpy(words, in, 4 * W);
  for (uint64_t& word : words) word = __builtin_bswap64(word);
  ((out[I] = ExtractMsb<T, W, static_cast<int>(I)>(words)), ...);
}

template <typename T, int W, int I>
inline void DepositMsb(const T* in, uint64_t* words) {
  constexpr int kBit = I * W;
  constexpr int kWord = kBit / 64;
  constexpr int kEnd = kBit % 64 + W;
  const uint64_t value = static_cast<uint64_t>(in[I]) & LowBitsMask<uint64_t, W>();
  if constexpr (kEnd <= 64) {
    words[kWord] |= value << (64 - kEnd);
  } else {
    words[kWord] |= value >> (kEnd - 64);
    words[kWord + 1] |= value << (128 - kEnd);
  }
}

template <typename T, int W, size_t... I>
inline void PackBlockMsb(const T* in, uint8_t* out, std::index_sequence<I...>) {
  uint64_t words[(W + 1) / 2] = {};
  (DepositMsb<T, W, static_cast<int>(I)>(in, words), ...);
  for (uint64_t& word : words) word = __builtin_bswap64(word);
  std::memcpy(out, words, 4 * W);
}

// A block kernel applied to `count` values: whole blocks in place, and the last partial block
// (8, 16 or 24 values) through zero-padded local buffers so nothing outside the exact byte range is
// read or written.
template <typename T, int W, typename BlockFn>
inline void UnpackWithTail(const uint8_t* in, T* out, size_t count, BlockFn block) {
  size_t done = 0;
  for (; done + kBlockValues <= count; done += kBlockValues) block(in + done / 8 * W, out + done);
  if (done < count) {
    const size_t tail = count - done;
    uint8_t in_block[4 * W + 1] = {};
    T out_block[kBlockValues];
    std::memcpy(in_block, in + done / 8 * W, tail / 8 * W);
    block(in_block, out_block);
    std::memcpy(out + done, out_block, tail * sizeof(T));
  }
}

template <typename T, int W, typename BlockFn>
inline void PackWithTail(const T* in, uint8_t* out, size_t count, BlockFn block) {
  size_t done = 0;
  for (; done + kBlockValues <= count; done += kBlockValues) block(in + done, out + done / 8 * W);
  if (done < count) {
    const size_t tail = count - done;
    T in_block[kBlockValues] = {};
    uint8_t out_block[4 * W + 1];
    std::memcpy(in_block, in + done, tail * sizeof(T));
    block(in_block, out_block);
    std::memcpy(out + done / 8 * W, out_block, tail / 8 * W);
  }
}

template <typename T, int W>
void UnpackLsb(const uint8_t* in, T* out, size_t count) {
  if (count == 0) return;  // empty spans may come with null pointers
  if constexpr (W == 0) {
    std::memset(out, 0, count * sizeof(T));
  } else if constexpr (W == static_cast<int>(sizeof(T) * 8)) {
    std::memcpy(out, in, count * sizeof(T));
  } else {
    UnpackWithTail<T, W>(in, out, count, [](const uint8_t* block_in, T* block_out) {
      UnpackBlockLsb<T, W>(block_in, block_out, std::make_index_sequence<kBlockValues>{});
    });
  }
}

template <typename T, int W>
void PackLsb(const T* in, uint8_t* out, size_t count) {
  if (count == 0) return;  // empty spans may come with null pointers
  if constexpr (W == 0) {
    return;
  } else if constexpr (W == static_cast<int>(sizeof(T) * 8)) {
    std::memcpy(out, in, count * sizeof(T));
  } else {
    PackWithTail<T, W>(in, out, count, [](const T* block_in, uint8_t* block_out) {
      PackBlockLsb<T, W>(block_in, block_out, std::make_index_sequence<kBlockValues>{});
    });
  }
}

template <typename T, int W>
void UnpackMsb(const uint8_t* in, T* out, size_t count) {
  if (count == 0) return;  // empty spans may come with null pointers
  if constexpr (W == 0) {
    std::memset(out, 0, count * sizeof(T));
  } else {
    UnpackWithTail<T, W>(in, out, count, [](const uint8_t* block_in, T* block_out) {
      UnpackBlockMsb<T, W>(block_in, block_out, std::make_index_sequence<kBlockValues>{});
    });
  }
}

template <typename T, int W>
void PackMsb(const T* in, uint8_t* out, size_t count) {
  if (count == 0) return;  // empty spans may come with null pointers
  if constexpr (W == 0) {
    return;
  } else {
    PackWithTail<T, W>(in, out, count, [](const T* block_in, uint8_t* block_out) {
      PackBlockMsb<T, W>(block_in, block_out, std::make_index_sequence<kBlockValues>{});
    });
  }
}

}  // namespace pqpage::internal::scalar

#endif  // PQPAGE_BITPACK_BIT_PACKING_SCALAR_H_
