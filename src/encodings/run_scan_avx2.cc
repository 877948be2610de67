// The AVX2 twins of the run scanner: the same loops as run_scan.cc, with vector masks inlined.
// Compiled with -mavx2; reached only through the dispatch in run_scan.cc.
#include <immintrin.h>

#include "encodings/run_scan.h"
#include "encodings/run_scan_body.h"

namespace pqpage::internal {

uint32_t EqualNeighbourMaskAvx2(const uint32_t* values) {
  uint32_t mask = 0;
  for (int part = 0; part < 4; ++part) {
    const __m256i current = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + 8 * part));
    const __m256i previous =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + 8 * part - 1));
    const int bits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(current, previous)));
    mask |= static_cast<uint32_t>(bits) << (8 * part);
  }
  return mask;
}

uint32_t EqualValueMaskAvx2(const uint32_t* values, uint32_t value) {
  const __m256i wanted = _mm256_set1_epi32(static_cast<int>(value));
  uint32_t mask = 0;
  for (int part = 0; part < 4; ++part) {
    const __m256i current = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + 8 * part));
    const int bits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(current, wanted)));
    mask |= static_cast<uint32_t>(bits) << (8 * part);
  }
  return mask;
}

size_t FindRunOfAtLeastAvx2(const uint32_t* values, size_t from, size_t n, size_t min_length) {
  return FindRunOfAtLeastBody(values, from, n, min_length, EqualNeighbourMaskAvx2);
}

size_t EndOfRunAvx2(const uint32_t* values, size_t from, size_t n, uint32_t value) {
  return EndOfRunBody(values, from, n, value, EqualValueMaskAvx2);
}

}  // namespace pqpage::internal
