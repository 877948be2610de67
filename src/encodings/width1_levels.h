// Expanding width-1 bit-packed levels (a column whose maximum level is 1, the most common
// optional column) into int16 levels, eight per packed byte, least significant bit first, and
// walking whole runs of such streams into levels or a validity bitmap. The
// scalar form copies eight levels per byte from a table; the AVX2 twin, chosen at run time by the
// one CPU gate, makes sixteen levels from two bytes with a broadcast, a mask and a minimum, which
// doubles the speed of decoding levels of columns with scattered nulls.
#ifndef PQPAGE_ENCODINGS_WIDTH1_LEVELS_H_
#define PQPAGE_ENCODINGS_WIDTH1_LEVELS_H_

#include <cstddef>
#include <cstdint>

namespace pqpage::internal {

// What a walk over the whole width-1 runs at the start of a stream did (see width1_run_walk.h).
struct Width1Runs {
  size_t stream_bytes;  // of the stream, the runs' headers and values
  size_t values;        // written
  int64_t ones;         // of the values written, those equal to 1
};

// Decodes the whole runs at the start of the width-1 hybrid stream[0, stream_bytes) into int16
// levels at out[0, capacity), stopping before a run that does not fit, is not all there, or holds
// an error (for the general walker to report); it may write anywhere in out[0, capacity).
// @return where it stopped; the caller's general walker goes on from stream + stream_bytes.
Width1Runs DecodeWidth1LevelRuns(const uint8_t* stream, size_t stream_bytes, int16_t* out,
                                 size_t capacity);
// The same into an LSB-first bitmap from bit `bit_offset` on; it writes only those bits.
Width1Runs DecodeWidth1BitmapRuns(const uint8_t* stream, size_t stream_bytes, uint8_t* bitmap,
                                  int64_t bit_offset, size_t capacity);

// The same, counting the values and their 1s without writing them.
Width1Runs CountWidth1Runs(const uint8_t* stream, size_t stream_bytes, size_t capacity);

// The twins behind DecodeWidth1LevelRuns (the AVX2 one only when the CPU has AVX2).
Width1Runs DecodeWidth1LevelRunsScalar(const uint8_t* stream, size_t stream_bytes, int16_t* out,
                                       size_t capacity);
Width1Runs DecodeWidth1LevelRunsAvx2(const uint8_t* stream, size_t stream_bytes, int16_t* out,
                                     size_t capacity);

// Writes 8 * `bytes` levels, 0 or 1, to `out`: level 8 * b + k is bit k of packed[b].
// @return how many of them are 1 (the present values, for definition levels), counted on the way
// because baseline x86-64 has no population count instruction to do it cheaply afterwards.
int64_t ExpandWidth1Levels(const uint8_t* packed, size_t bytes, int16_t* out);

// The twins behind ExpandWidth1Levels (the AVX2 one only when the CPU has AVX2).
int64_t ExpandWidth1LevelsScalar(const uint8_t* packed, size_t bytes, int16_t* out);
int64_t ExpandWidth1LevelsAvx2(const uint8_t* packed, size_t bytes, int16_t* out);

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_WIDTH1_LEVELS_H_
