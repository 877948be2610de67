// Size arithmetic on numbers that came from a file. Every size computed from a header goes through
// these, so that an overflow is an error instead of a small allocation followed by a large write.
#ifndef PQPAGE_COMMON_CHECKED_MATH_H_
#define PQPAGE_COMMON_CHECKED_MATH_H_

#include <cstdint>
#include <optional>

namespace pqpage::internal {

template <typename T>
inline std::optional<T> CheckedMultiply(T a, T b) {
  T result;
  if (__builtin_mul_overflow(a, b, &result)) return std::nullopt;
  return result;
}

template <typename T>
inline std::optional<T> CheckedAdd(T a, T b) {
  T result;
  if (__builtin_add_overflow(a, b, &result)) return std::nullopt;
  return result;
}

// Bytes needed for `count` values of `bit_width` bits, rounded up to whole bytes. `count` must be
// below 2^56 so that count * 64 cannot overflow.
inline constexpr uint64_t BitPackedBytes(uint64_t count, int bit_width) {
  return (count * static_cast<uint64_t>(bit_width) + 7) / 8;
}

// The number of bits needed to represent `value` (0 for 0).
inline constexpr int BitWidthOf(uint64_t value) {
  return value == 0 ? 0 : 64 - __builtin_clzll(value);
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_CHECKED_MATH_H_
