// AVX2 twin of the DELTA_BINARY_PACKED fused "add min delta, prefix-sum" pass. Each vector is
// scanned in-register (log-step shifted adds within 128-bit lanes, then the low lane's total is
// carried into the high lane) and the running total is broadcast from the last element, so the
// serial dependency is one add and one permute per vector rather than one add per value.
// Compiled with -mavx2; only called after GetCpuFeatures() reports AVX2.
#include <immintrin.h>

#include "encodings/delta_internal.h"

namespace pqpage::internal {

uint32_t DeltaPrefixSum32Avx2(uint32_t* values, size_t count, uint32_t min_delta, uint32_t last) {
  size_t i = 0;
  if (count >= 8) {
    const __m256i min_vec = _mm256_set1_epi32(static_cast<int>(min_delta));
    const __m256i last_index = _mm256_set1_epi32(7);
    __m256i carry = _mm256_set1_epi32(static_cast<int>(last));
    for (; i + 8 <= count; i += 8) {
      __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i));
      x = _mm256_add_epi32(x, min_vec);
      x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
      x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
      // Low lane's total (element 3) into every element of the high lane.
      const __m256i low_total = _mm256_shuffle_epi32(x, 0xFF);
      x = _mm256_add_epi32(x, _mm256_permute2x128_si256(low_total, low_total, 0x08));
      x = _mm256_add_epi32(x, carry);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(values + i), x);
      carry = _mm256_permutevar8x32_epi32(x, last_index);
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
  if (count >= 4) {
    const __m256i min_vec = _mm256_set1_epi64x(static_cast<long long>(min_delta));
    const __m256i zero = _mm256_setzero_si256();
    __m256i carry = _mm256_set1_epi64x(static_cast<long long>(last));
    for (; i + 4 <= count; i += 4) {
      __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i));
      x = _mm256_add_epi64(x, min_vec);
      x = _mm256_add_epi64(x, _mm256_slli_si256(x, 8));
      // [x0, x0, x1, x1] with the low half cleared adds the low lane's total to the high lane.
      const __m256i spread = _mm256_permute4x64_epi64(x, 0x50);
      x = _mm256_add_epi64(x, _mm256_blend_epi32(zero, spread, 0xF0));
      x = _mm256_add_epi64(x, carry);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(values + i), x);
      carry = _mm256_permute4x64_epi64(x, 0xFF);
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
