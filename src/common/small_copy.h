// Copying many short byte strings (the values of a BYTE_ARRAY page) one after another. A call to
// memcpy per value costs more than the copy itself for strings of a few bytes, so lengths up to 32
// are copied inline with at most two overlapping fixed-size moves that touch exactly
// [src, src + n) and [dst, dst + n).
#ifndef PQPAGE_COMMON_SMALL_COPY_H_
#define PQPAGE_COMMON_SMALL_COPY_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

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

// Copies the 32 bytes at `src` to `dst`, both of which must have that many: a value of up to 32
// bytes in one fixed move, the bytes past it landing where the next values go.
inline void CopyBlock32(uint8_t* dst, const uint8_t* src) {
  uint8_t block[32];
  std::memcpy(block, src, 32);
  std::memcpy(dst, block, 32);
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_SMALL_COPY_H_
