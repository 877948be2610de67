// The AVX2 twins of ExpandWidth1Levels and DecodeWidth1LevelRuns. Compiled with -mavx2; reached
// only through the dispatch in width1_levels.cc.
#include <immintrin.h>

#include <cstring>

#include "codec/bitmap_writer.h"
#include "encodings/width1_levels.h"
#include "encodings/width1_run_walk.h"

namespace pqpage::internal {

namespace {

// Lane k keeps bit k of two packed bytes broadcast to every lane; the unsigned minimum with 1 turns
// any kept bit into the level 1.
inline __m256i SixteenLevels(__m256i spread) {
  const __m256i bit_of_lane = _mm256_setr_epi16(
      0x0001, 0x0002, 0x0004, 0x0008, 0x0010, 0x0020, 0x0040, 0x0080, 0x0100, 0x0200, 0x0400,
      0x0800, 0x1000, 0x2000, 0x4000, static_cast<int16_t>(0x8000));
  return _mm256_min_epu16(_mm256_and_si256(spread, bit_of_lane), _mm256_set1_epi16(1));
}

// Writes exactly 8 * `bytes` levels.
inline void ExpandExact(const uint8_t* packed, size_t bytes, int16_t* out) {
  size_t b = 0;
  // Sixteen bytes at a time: one load, then each pair spread over the lanes by one shuffle.
  for (; b + 16 <= bytes; b += 16) {
    const __m256i sixteen =
        _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(packed + b)));
    for (int pair = 0; pair < 8; ++pair) {
      const __m256i spread = _mm256_shuffle_epi8(
          sixteen, _mm256_set1_epi16(static_cast<int16_t>((2 * pair) | ((2 * pair + 1) << 8))));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * (b + 2 * pair)),
                          SixteenLevels(spread));
    }
  }
  for (; b + 2 <= bytes; b += 2) {
    uint16_t two;
    std::memcpy(&two, packed + b, sizeof(two));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * b),
                        SixteenLevels(_mm256_set1_epi16(static_cast<int16_t>(two))));
  }
  if (b < bytes) {
    // The odd last byte: the low half of the same shape.
    const __m256i levels = SixteenLevels(_mm256_set1_epi16(packed[b]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 8 * b), _mm256_castsi256_si128(levels));
  }
}

// Levels for the run walker. Runs of scattered nulls are a byte or two, so the short ones are
// written by whole vectors, past the run's end while the caller's buffer has room: the runs that
// follow overwrite the excess.
class Avx2Levels {
 public:
  Avx2Levels(int16_t* out, size_t capacity) : out_(out), end_(out + capacity) {}
  void Fill(int value, size_t count) {
    const __m256i fill = _mm256_set1_epi16(static_cast<int16_t>(value));
    if (count <= 32 && end_ - out_ >= 32) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out_), fill);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out_ + 16), fill);
    } else {
      size_t i = 0;
      for (; i < count && end_ - (out_ + i) >= 16; i += 16) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out_ + i), fill);
      }
      for (; i < count; ++i) out_[i] = static_cast<int16_t>(value);
    }
    out_ += count;
  }
  void Expand(const uint8_t* packed, size_t bytes) {
    if (bytes <= 2 && end_ - out_ >= 16) {
      // One or two bytes without reading past the run: the last byte stands in the high half, or
      // repeats the only one there (its excess levels are overwritten later).
      const auto two = static_cast<uint16_t>(packed[0] | (packed[bytes - 1] << 8));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out_),
                          SixteenLevels(_mm256_set1_epi16(static_cast<int16_t>(two))));
    } else {
      ExpandExact(packed, bytes, out_);
    }
    out_ += 8 * bytes;
  }

 private:
  int16_t* out_;
  int16_t* const end_;
};

}  // namespace

int64_t ExpandWidth1LevelsAvx2(const uint8_t* packed, size_t bytes, int16_t* out) {
  ExpandExact(packed, bytes, out);
  // Counted from the packed bytes, a word at a time: most runs of scattered nulls are a byte or
  // two, where summing the levels in vector lanes and then across them cost more than the run.
  return CountOnes(packed, bytes);
}

Width1Runs DecodeWidth1LevelRunsAvx2(const uint8_t* stream, size_t stream_bytes, int16_t* out,
                                     size_t capacity) {
  Avx2Levels levels(out, capacity);
  return WalkWidth1Runs(stream, stream_bytes, capacity, levels);
}

}  // namespace pqpage::internal
