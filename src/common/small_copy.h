// Copying many short byte strings (the values of a BYTE_ARRAY page) one after another. A call to
// memcpy per value costs more than the copy itself for strings of a few bytes, so lengths up to 32
// are copied inline with at most two overlapping fixed-size moves that touch exactly
// [src, src + n) and [dst, dst + n).
#ifndef PQPAGE_COMMON_SMALL_COPY_H_
#define PQPAGE_COMMON_SMALL_COPY_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>

namespace pqpage::internal {

// Copies n bytes exactly; the ranges must not overlap.
inline void CopyExact(uint8_t* dst, const uint8_t* src, size_t n) {
  if (n >= 16) {
    if (n > 32) {
      std::memcpy(dst, src, n);
      return;
    }
    uint8_t head[16], tail[16];
    std::memcpy(head, src, 16);
    std::memcpy(tail, src + n - 16, 16);
    std::memcpy(dst, head, 16);
    std::memcpy(dst + n - 16, tail, 16);
  } else if (n >= 8) {
    uint64_t head, tail;
    std::memcpy(&head, src, 8);
    std::memcpy(&tail, src + n - 8, 8);
    std::memcpy(dst, &head, 8);
    std::memcpy(dst + n - 8, &tail, 8);
  } else if (n >= 4) {
    uint32_t head, tail;
    std::memcpy(&head, src, 4);
    std::memcpy(&tail, src + n - 4, 4);
    std::memcpy(dst, &head, 4);
    std::memcpy(dst + n - 4, &tail, 4);
  } else if (n > 0) {
    dst[0] = src[0];
    dst[n / 2] = src[n / 2];
    dst[n - 1] = src[n - 1];
  }
}

// Which of CopyExact's branches a length takes: 0, 1-3, 4-7, 8-15, 16-32, or more (memcpy).
inline int CopyExactClass(size_t n) {
  if (n == 0) return 0;
  if (n < 4) return 1;
  if (n < 8) return 2;
  if (n < 16) return 3;
  return n <= 32 ? 4 : 5;
}

// Whether values whose lengths run from `shortest` to `longest` are best copied as a fixed 32
// bytes each (where both buffers have room past them) rather than by CopyExact: when their
// lengths fall in different branches of CopyExact, which a mix mispredicts (4-16 byte strings
// copied in 4.6 ns a value, against 2.5 ns as fixed blocks). Lengths that all take one branch
// are copied exactly, which is then cheaper (a 7-byte code takes one line where a 32-byte block
// crosses into the next half the time).
inline bool CopyAsBlocks(size_t shortest, size_t longest) {
  return shortest <= 32 && CopyExactClass(shortest) != CopyExactClass(longest);
}

// Copies n bytes, n in [W, 4W], with four W-byte moves and no branch: two moves from each end,
// the inner two pushed inwards by W once n reaches 2W. For writers, whose sources are the
// caller's values and must not be read past: a batch of lengths that straddle CopyExact's
// branches (4 to 16 bytes, say) is copied without a mispredicted branch per value.
template <size_t W>
inline void CopyWordRange(uint8_t* dst, const uint8_t* src, size_t n) {
  static_assert(W == 4 || W == 8 || W == 16);
  const size_t inner = n >= 2 * W ? W : 0;
  uint8_t a[W], b[W], c[W], d[W];
  std::memcpy(a, src, W);
  std::memcpy(b, src + inner, W);
  std::memcpy(c, src + n - W - inner, W);
  std::memcpy(d, src + n - W, W);
  std::memcpy(dst, a, W);
  std::memcpy(dst + inner, b, W);
  std::memcpy(dst + n - W - inner, c, W);
  std::memcpy(dst + n - W, d, W);
}

// The W of CopyWordRange for lengths from `shortest` to `longest` (the largest of 16, 8 and 4
// with every length in [W, 4W]), or 0 where CopyExact is the better copy: no W fits, or every
// length takes the same branch of CopyExact, which then predicts it.
inline size_t WordRangeFor(size_t shortest, size_t longest) {
  if (CopyExactClass(shortest) == CopyExactClass(longest)) return 0;
  for (size_t word : {size_t{16}, size_t{8}, size_t{4}}) {
    if (shortest >= word && longest <= 4 * word) return word;
  }
  return 0;
}

// Runs body(copy) with the copy WordRangeFor picks for lengths from `shortest` to `longest`,
// `copy(dst, src, n)` then being CopyWordRange<W> or CopyExact: the loop in `body` is compiled
// once per copy, with the copy inlined.
template <typename Body>
inline void WithCopyForLengths(size_t shortest, size_t longest, Body&& body) {
  switch (WordRangeFor(shortest, longest)) {
    case 16:
      body([](uint8_t* dst, const uint8_t* src, size_t n) { CopyWordRange<16>(dst, src, n); });
      return;
    case 8:
      body([](uint8_t* dst, const uint8_t* src, size_t n) { CopyWordRange<8>(dst, src, n); });
      return;
    case 4:
      body([](uint8_t* dst, const uint8_t* src, size_t n) { CopyWordRange<4>(dst, src, n); });
      return;
    default:
      body([](uint8_t* dst, const uint8_t* src, size_t n) { CopyExact(dst, src, n); });
  }
}

// Copies the 32 bytes at `src` to `dst`, both of which must have that many: a value of up to 32
// bytes in one fixed move, the bytes past it landing where the next values go.
inline void CopyBlock32(uint8_t* dst, const uint8_t* src) {
  uint8_t block[32];
  std::memcpy(block, src, 32);
  std::memcpy(dst, block, 32);
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_SMALL_COPY_H_
