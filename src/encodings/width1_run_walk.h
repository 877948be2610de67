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
#include "common/byte_reader.h"
#include "encodings/width1_levels.h"

namespace pqpage::internal {

// Walks the whole runs at the start of stream[0, stream_bytes) into `destination`, which takes up
// to `capacity` values through
//   void Fill(int value, size_t count);                 // an RLE run of 0s or 1s
//   void Expand(const uint8_t* packed, size_t bytes);   // a bit-packed run, 8 values a byte
// and counts the 1s. Stops before a run that does not fit in
// what is left of `capacity`, one whose bytes are not all in the stream, or one the general walker
// must judge: a length of 0, an RLE value above 1, a header the general walker refuses.
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
    if (*next < 0x80) {
      header = *next++;
    } else {
      // A longer header is read as the general walker reads it; one it refuses (cut short, past
      // 32 bits) is left to it.
      ByteReader reader(next, end);
      const absl::StatusOr<uint32_t> read = reader.ReadUleb32("hybrid run header");
      if (!read.ok()) break;
      header = *read;
      next = reader.position();
    }
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
      ones += CountOnes(next, bytes);
      values += 8 * bytes;
      next += bytes;
    }
    position = next;
  }
  return {static_cast<size_t>(position - stream), values, ones};
}

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_WIDTH1_RUN_WALK_H_
