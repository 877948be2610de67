// Whether two byte strings of the same length are equal, for the many short strings of a
// dictionary-encoded BYTE_ARRAY column (codes, names, ids), where a call to memcmp per comparison
// costs more than the comparison. Lengths up to 16 are compared inline with at most two
// overlapping loads from each side that touch exactly [a, a + n) and [b, b + n).
#ifndef PQPAGE_COMMON_BYTES_EQUAL_H_
#define PQPAGE_COMMON_BYTES_EQUAL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pqpage::internal {

// Whether the first and last Word of a[0, n) and b[0, n) agree (sizeof(Word) <= n <= 2
// sizeof(Word)): together they cover every byte.
template <typename Word>
inline bool HeadAndTailEqual(const uint8_t* a, const uint8_t* b, size_t n) {
  Word a_head, a_tail, b_head, b_tail;
  std::memcpy(&a_head, a, sizeof(Word));
  std::memcpy(&b_head, b, sizeof(Word));
  std::memcpy(&a_tail, a + n - sizeof(Word), sizeof(Word));
  std::memcpy(&b_tail, b + n - sizeof(Word), sizeof(Word));
  return ((a_head ^ b_head) | (a_tail ^ b_tail)) == 0;
}

// @return whether a[0, n) equals b[0, n).
inline bool BytesEqual(const uint8_t* a, const uint8_t* b, size_t n) {
  if (n >= 8) return n > 16 ? std::memcmp(a, b, n) == 0 : HeadAndTailEqual<uint64_t>(a, b, n);
  if (n >= 4) return HeadAndTailEqual<uint32_t>(a, b, n);
  if (n == 0) return true;
  // 1 to 3 bytes: the first, middle and last cover them all.
  return a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1];
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_BYTES_EQUAL_H_
