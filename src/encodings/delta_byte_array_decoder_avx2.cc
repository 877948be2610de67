// AVX2 builder of short DELTA_BYTE_ARRAY values (see delta_internal.h). Building a value by copying
// its prefix out of the buffer just written stalls on store-to-load forwarding (the load spans the
// previous value's several stores); keeping the previous value in two registers avoids the reload.
// Compiled with -mavx2; only called when UseAvx2Twins().
#include <immintrin.h>

#include "encodings/delta_internal.h"

namespace pqpage::internal {

size_t BuildShortValuesAvx2(DeltaByteArrayCursor* cursor, size_t count, ByteArray* out) {
  if (count == 0 || cursor->previous_length > kDeltaByteArrayShortValue) return 0;
  uint8_t* dst = cursor->buffer + cursor->built;
  // The buffer's slack keeps these loads (and the stores below) inside it.
  const uint8_t* previous = dst - cursor->previous_length;
  __m256i previous_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(previous));
  __m256i previous_hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(previous + 32));
  const __m256i iota_lo =
      _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                       22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
  const __m256i iota_hi = _mm256_add_epi8(iota_lo, _mm256_set1_epi8(32));
  const int32_t* prefixes = cursor->prefixes;
  const int32_t* suffixes = cursor->suffixes;
  const uint8_t* source = cursor->source;
  // Copies, so that the stores to `out` (which could alias the cursor) do not reload them.
  const uint8_t* const source_begin = cursor->source_begin;
  const uint8_t* const source_end = cursor->source_end;
  size_t previous_length = cursor->previous_length;
  size_t i = 0;
  for (; i < count; ++i) {
    const size_t prefix = static_cast<size_t>(prefixes[i]);
    const size_t suffix = static_cast<size_t>(suffixes[i]);
    const size_t length = prefix + suffix;
    // The window starts `prefix` bytes before the suffix so the suffix lands at its place.
    if (length > kDeltaByteArrayShortValue || prefix > static_cast<size_t>(source - source_begin) ||
        static_cast<size_t>(source_end - source) + prefix < 64) {
      break;
    }
    const uint8_t* window = source - prefix;
    const __m256i keep = _mm256_set1_epi8(static_cast<char>(prefix));
    const __m256i from_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(window));
    const __m256i value_lo =
        _mm256_blendv_epi8(from_lo, previous_lo, _mm256_cmpgt_epi8(keep, iota_lo));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), value_lo);
    // A value of at most 32 bytes is whole in the low half. The high half it leaves stale is
    // never read: the next value's prefix is at most this one's length, so its high lanes all
    // come from the page.
    if (length > 32) {
      const __m256i from_hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(window + 32));
      const __m256i value_hi =
          _mm256_blendv_epi8(from_hi, previous_hi, _mm256_cmpgt_epi8(keep, iota_hi));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 32), value_hi);
      previous_hi = value_hi;
    }
    if (out != nullptr) out[i] = ByteArray(dst, static_cast<uint32_t>(length));
    previous_lo = value_lo;
    dst += length;
    source += suffix;
    previous_length = length;
  }
  cursor->prefixes += i;
  cursor->suffixes += i;
  cursor->source = source;
  cursor->built = static_cast<size_t>(dst - cursor->buffer);
  cursor->previous_length = previous_length;
  return i;
}

}  // namespace pqpage::internal
