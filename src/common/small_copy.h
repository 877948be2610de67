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

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_SMALL_COPY_H_
