// AVX2 twin of the DELTA_BINARY_PACKED fused "add min delta, prefix-sum" pass. Each vector is
// scanned in-register (log-step shifted adds within 128-bit lanes, then the low lane's total is
// carried into the high lane) and the running total is broadcast from the last element, so the
// serial dependency is one add and one permute per vector rather than one add per value.
// Compiled with -mavx2; only called when UseAvx2Twins().
#include <immintrin.h>

#include "encodings/delta_internal.h"

namespace pqpage::internal {

namespace {

// Inclusive prefix sum of the 8 elements of x.
inline __m256i Scan8(__m256i x) {
  x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
  x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
  // Each 128-bit lane is now scanned; add the low lane's total (element 3) to the high lane.
  const __m256i low_total = _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32(3));
  return _mm256_add_epi32(x, _mm256_blend_epi32(_mm256_setzero_si256(), low_total, 0xF0));
}

}  // namespace

uint32_t DeltaPrefixSum32Avx2(uint32_t* values, size_t count, uint32_t min_delta, uint32_t last) {
  size_t i = 0;
  if (count >= 16) {
    const __m256i min_vec = _mm256_set1_epi32(static_cast<int>(min_delta));
    const __m256i last_index = _mm256_set1_epi32(7);
    __m256i carry = _mm256_set1_epi32(static_cast<int>(last));
    // Two vectors per step, scanned independently; the running total is the only serial chain
    // and costs one add per 16 values.
    for (; i + 16 <= count; i += 16) {
      __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i));
      __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i + 8));
      a = Scan8(_mm256_add_epi32(a, min_vec));
      b = Scan8(_mm256_add_epi32(b, min_vec));
      b = _mm256_add_epi32(b, _mm256_permutevar8x32_epi32(a, last_index));
      const __m256i step_total = _mm256_permutevar8x32_epi32(b, last_index);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(values + i), _mm256_add_epi32(a, carry));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(values + i + 8), _mm256_add_epi32(b, carry));
      carry = _mm256_add_epi32(carry, step_total);
    }
    last = static_cast<uint32_t>(_mm256_extract_epi32(carry, 0));
  }
  for (; i < count; ++i) {
    last += values[i] + min_delta;
    values[i] = last;
  }
  return last;
}

uint64_t DeltaPrefixSum64Avx2(uint64_t* values, size_t count, uint64_t min_delta, uint64_t last) {
  size_t i = 0;
  if (count >= 8) {
    const __m256i min_vec = _mm256_set1_epi64x(static_cast<long long>(min_delta));
    const __m256i zero = _mm256_setzero_si256();
    __m256i carry = _mm256_set1_epi64x(static_cast<long long>(last));
    auto scan4 = [&](__m256i x) {
      x = _mm256_add_epi64(x, _mm256_slli_si256(x, 8));
      // [x0, x0, x1, x1] with the low half cleared adds the low lane's total to the high lane.
      const __m256i spread = _mm256_permute4x64_epi64(x, 0x50);
      return _mm256_add_epi64(x, _mm256_blend_epi32(zero, spread, 0xF0));
    };
    for (; i + 8 <= count; i += 8) {
      __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i));
      __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i + 4));
      a = scan4(_mm256_add_epi64(a, min_vec));
      b = scan4(_mm256_add_epi64(b, min_vec));
      b = _mm256_add_epi64(b, _mm256_permute4x64_epi64(a, 0xFF));
      const __m256i step_total = _mm256_permute4x64_epi64(b, 0xFF);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(values + i), _mm256_add_epi64(a, carry));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(values + i + 4), _mm256_add_epi64(b, carry));
      carry = _mm256_add_epi64(carry, step_total);
    }
    last = static_cast<uint64_t>(_mm256_extract_epi64(carry, 0));
  }
  for (; i < count; ++i) {
    last += values[i] + min_delta;
    values[i] = last;
  }
  return last;
}

}  // namespace pqpage::internal
