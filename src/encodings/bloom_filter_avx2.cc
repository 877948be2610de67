// The AVX2 twins of bloom_filter_block.h: the eight words' bits made in one vector (a multiply,
// a shift, a variable shift), then one OR or one test, with no branch per word.
#include <immintrin.h>

#include "encodings/bloom_filter_block.h"

namespace pqpage::internal {
namespace {

__m256i KeyBits(uint32_t key) {
  const __m256i salt = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kBloomSalt));
  const __m256i products = _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(key)), salt);
  return _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_srli_epi32(products, 27));
}

}  // namespace

bool BlockInsertAvx2(uint32_t* block, uint32_t key) {
  auto* words = reinterpret_cast<__m256i*>(block);
  const __m256i before = _mm256_load_si256(words);
  const __m256i bits = KeyBits(key);
  _mm256_store_si256(words, _mm256_or_si256(before, bits));
  return _mm256_testc_si256(before, bits) == 0;  // some bit was not set before
}

bool BlockMayContainAvx2(const uint32_t* block, uint32_t key) {
  const __m256i words = _mm256_load_si256(reinterpret_cast<const __m256i*>(block));
  return _mm256_testc_si256(words, KeyBits(key)) != 0;  // every bit of the key is set
}

}  // namespace pqpage::internal
