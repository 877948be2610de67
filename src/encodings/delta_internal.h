// Internals shared by the DELTA_* family: the format's shape limits, the fused "add min delta and
// prefix-sum" pass of the DELTA_BINARY_PACKED decoder (scalar, with an AVX2 twin chosen at run
// time), and the length-stream reader the two byte-array decoders share.
#ifndef PQPAGE_ENCODINGS_DELTA_INTERNAL_H_
#define PQPAGE_ENCODINGS_DELTA_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/types.h"

namespace pqpage::internal {

inline constexpr int64_t kDeltaBlockSizeMultiple = 128;
inline constexpr int64_t kDeltaMiniblockMultiple = 32;
// The encoder keeps one block pending; a cap keeps that buffer reasonable.
inline constexpr int64_t kDeltaMaxEncoderBlockSize = int64_t{1} << 20;
// block size (<= 5 bytes), miniblock count (<= 5), total count (<= 10), first value (<= 10).
inline constexpr size_t kDeltaMaxHeaderBytes = 30;

// values[i] = last + (values[i] + min_delta) summed over 0..i, in wrapping unsigned arithmetic;
// returns the new last value. Scalar and AVX2 versions; DeltaPrefixSum32/64 pick one at run time.
using DeltaPrefixSum32Fn = uint32_t (*)(uint32_t* values, size_t count, uint32_t min_delta,
                                        uint32_t last);
using DeltaPrefixSum64Fn = uint64_t (*)(uint64_t* values, size_t count, uint64_t min_delta,
                                        uint64_t last);
uint32_t DeltaPrefixSum32Scalar(uint32_t* values, size_t count, uint32_t min_delta, uint32_t last);
uint64_t DeltaPrefixSum64Scalar(uint64_t* values, size_t count, uint64_t min_delta, uint64_t last);
uint32_t DeltaPrefixSum32Avx2(uint32_t* values, size_t count, uint32_t min_delta, uint32_t last);
uint64_t DeltaPrefixSum64Avx2(uint64_t* values, size_t count, uint64_t min_delta, uint64_t last);
DeltaPrefixSum32Fn DeltaPrefixSum32();
DeltaPrefixSum64Fn DeltaPrefixSum64();

// The lengths at the start of a DELTA_LENGTH_BYTE_ARRAY stream (or the prefix lengths of a
// DELTA_BYTE_ARRAY stream): decodes the first `num_values` lengths of the DELTA_BINARY_PACKED
// (INT32) stream at the start of `data` into (*lengths)[0, num_values) (grown as the stream yields
// values, never shrunk, so pages reuse it), checks each is >= 0, and moves past the rest of the
// stream.
struct DeltaLengths {
  size_t stream_bytes = 0;   // where the length stream ends in `data`
  int64_t header_count = 0;  // the count the stream's header announces
  int64_t sum = 0;           // sum of the first num_values lengths
};
// `encoding` and `what` name the stream in errors ("DELTA_BYTE_ARRAY", "prefix length").
// `decoder` is the byte-array decoder's own, reused page after page (its state is allocated once).
// DataLoss: corrupt stream, negative length, header count < num_values.
absl::Status DecodeDeltaLengths(absl::Span<const uint8_t> data, int64_t num_values,
                                const char* encoding, const char* what,
                                DeltaBinaryPackedDecoder<int32_t>* decoder,
                                std::vector<int32_t>* lengths, DeltaLengths* result);

// Where a DELTA_BYTE_ARRAY decoder stands: the next value's prefix and suffix lengths, its suffix
// bytes in the page, and the decoder's buffer, in which the previous value ends at
// buffer + built. The buffer has kDeltaByteArraySlack bytes after the page's values.
struct DeltaByteArrayCursor {
  const int32_t* prefixes;
  const int32_t* suffixes;
  const uint8_t* source;
  const uint8_t* source_begin;  // the page's first byte
  const uint8_t* source_end;    // one past the page's last byte
  uint8_t* buffer;
  size_t built;
  size_t previous_length;
};
inline constexpr size_t kDeltaByteArraySlack = 64;
inline constexpr size_t kDeltaByteArrayShortValue = 64;

// Builds up to `count` values (storing views to `out` unless it is null) while each is at most
// kDeltaByteArrayShortValue bytes and its 64-byte source window lies inside the page: the previous
// value stays in registers and each value is one blend of it with the suffix bytes, so no value is
// read back from memory just after being stored. Returns how many were built; the cursor moves
// past them. AVX2 only.
size_t BuildShortValuesAvx2(DeltaByteArrayCursor* cursor, size_t count, ByteArray* out);

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_DELTA_INTERNAL_H_
