// A run walker for width-1 RLE/bit-packed hybrid streams (the levels of an optional column, the
// most common column), for the case the general HybridRunReader is slowest at: scattered nulls,
// whose runs are a byte or two long. It takes whole runs only and leaves every case that needs a
// judgement (an error, a run cut by the end of the stream or of the caller's buffer) to the general
// walker, which it hands back to by the number of stream bytes it consumed. With no state between
// runs and no sink calls, a run costs its header, one branch and its stores.
//
// Each tier includes this header with its own destination type (declared in an unnamed namespace),
// so the instantiations of different tiers never merge.
#ifndef PQPAGE_ENCODINGS_WIDTH1_RUN_WALK_H_
#define PQPAGE_ENCODINGS_WIDTH1_RUN_WALK_H_

#include <cstddef>
#include <cstdint>

#include "codec/bitmap_writer.h"
#include "encodings/width1_levels.h"

namespace pqpage::internal {

// Ones in each byte value, for the runs too short for a word-wide count.
struct ByteOnesTable {
  uint8_t ones[256];
  constexpr ByteOnesTable() : ones() {
    for (int byte = 0; byte < 256; ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        ones[byte] = static_cast<uint8_t>(ones[byte] + ((byte >> bit) & 1));
      }
    }
  }
};
inline constexpr ByteOnesTable kByteOnes;

// The 1s of a bit-packed run of `bytes` bytes: most runs of scattered nulls are one or two.
inline int64_t CountRunOnes(const uint8_t* packed, size_t bytes) {
  if (bytes > 2) return CountOnes(packed, bytes);
  return kByteOnes.ones[packed[0]] + (bytes == 2 ? kByteOnes.ones[packed[1]] : 0);
}

// Reads a run header (a ULEB128 of at most 5 bytes) from [*position, end).
// @return false, leaving *position, when the header is cut short or longer than 5 bytes.
inline bool ReadWidth1RunHeader(const uint8_t** position, const uint8_t* end, uint64_t* header) {
  const uint8_t* p = *position;
  if (p < end && *p < 0x80) {
    *header = *p;
    *position = p + 1;
    return true;
  }
  uint64_t value = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (p == end) return false;
    const uint8_t byte = *p++;
    value |= uint64_t{byte & 0x7Fu} << shift;
    if (byte < 0x80) {
      *header = value;
      *position = p;
      return true;
    }
  }
  return false;
}

// Walks the whole runs at the start of stream[0, stream_bytes) into `destination`, which takes up
// to `capacity` values through
//   void Fill(int value, size_t count);                 // an RLE run of 0s or 1s
//   void Expand(const uint8_t* packed, size_t bytes);   // a bit-packed run, 8 values a byte
// and counts the 1s. Stops before a run that does not fit in
// what is left of `capacity`, one whose bytes are not all in the stream, or one the general walker
// must judge: a length of 0, an RLE value above 1, a header cut short or over 32 bits.
template <typename Destination>
Width1Runs WalkWidth1Runs(const uint8_t* stream, size_t stream_bytes, size_t capacity,
                          Destination& destination) {
  const uint8_t* position = stream;
  const uint8_t* const end = stream + stream_bytes;
  size_t values = 0;
  int64_t ones = 0;
  while (position < end) {
    const uint8_t* next = position;
    uint64_t header;
    // Headers past 32 bits are for the general walker to refuse.
    if (!ReadWidth1RunHeader(&next, end, &header) || header > 0xFFFFFFFFu) break;
    const uint64_t length = header >> 1;
    if (length == 0) break;
    if ((header & 1) == 0) {
      if (next == end || *next > 1 || length > capacity - values) break;
      const int value = *next++;
      destination.Fill(value, static_cast<size_t>(length));
      ones += value != 0 ? static_cast<int64_t>(length) : 0;
      values += static_cast<size_t>(length);
    } else {
      // `length` groups of 8 values, one byte each; under 2^31 groups, so no product overflows.
      if (length > static_cast<uint64_t>(end - next) || length * 8 > capacity - values) break;
      const auto bytes = static_cast<size_t>(length);
      destination.Expand(next, bytes);
      ones += CountRunOnes(next, bytes);
      values += 8 * bytes;
      next += bytes;
    }
    position = next;
  }
  return {static_cast<size_t>(position - stream), values, ones};
}

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_WIDTH1_RUN_WALK_H_
