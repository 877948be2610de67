// The AVX2 twin of ExpandWidth1Levels. Compiled with -mavx2; reached only through the dispatch in
// width1_levels.cc.
#include <immintrin.h>

#include <cstring>

#include "codec/bitmap_writer.h"
#include "encodings/width1_levels.h"

namespace pqpage::internal {

int64_t ExpandWidth1LevelsAvx2(const uint8_t* packed, size_t bytes, int16_t* out) {
  // Lane k keeps bit k of the two bytes broadcast to every lane; the unsigned minimum with 1
  // turns any kept bit into the level 1.
  const __m256i bit_of_lane = _mm256_setr_epi16(
      0x0001, 0x0002, 0x0004, 0x0008, 0x0010, 0x0020, 0x0040, 0x0080, 0x0100, 0x0200, 0x0400,
      0x0800, 0x1000, 0x2000, 0x4000, static_cast<int16_t>(0x8000));
  const __m256i one = _mm256_set1_epi16(1);
  size_t b = 0;
  // Sixteen bytes at a time: one load, then each pair spread over the lanes by one shuffle.
  for (; b + 16 <= bytes; b += 16) {
    const __m256i sixteen =
        _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(packed + b)));
    for (int pair = 0; pair < 8; ++pair) {
      const __m256i spread = _mm256_shuffle_epi8(
          sixteen, _mm256_set1_epi16(static_cast<int16_t>((2 * pair) | ((2 * pair + 1) << 8))));
      const __m256i levels = _mm256_min_epu16(_mm256_and_si256(spread, bit_of_lane), one);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * (b + 2 * pair)), levels);
    }
  }
  for (; b + 2 <= bytes; b += 2) {
    uint16_t two;
    std::memcpy(&two, packed + b, sizeof(two));
    const __m256i spread = _mm256_set1_epi16(static_cast<int16_t>(two));
    const __m256i levels = _mm256_min_epu16(_mm256_and_si256(spread, bit_of_lane), one);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * b), levels);
  }
  if (b < bytes) {
    // The odd last byte: eight lanes of the same shape.
    const __m128i spread = _mm_set1_epi16(packed[b]);
    const __m128i levels = _mm_min_epu16(_mm_and_si128(spread, _mm256_castsi256_si128(bit_of_lane)),
                                         _mm256_castsi256_si128(one));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 8 * b), levels);
  }
  // Counted from the packed bytes, a word at a time: most runs of scattered nulls are a byte or
  // two, where summing the levels in vector lanes and then across them cost more than the run.
  return CountOnes(packed, bytes);
}

}  // namespace pqpage::internal
