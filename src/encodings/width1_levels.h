// Expanding width-1 bit-packed levels (a column whose maximum level is 1, the most common
// optional column) into int16 levels, eight per packed byte, least significant bit first. The
// scalar form copies eight levels per byte from a table; the AVX2 twin, chosen at run time by the
// one CPU gate, makes sixteen levels from two bytes with a broadcast, a mask and a minimum, which
// doubles the speed of decoding levels of columns with scattered nulls.
#ifndef PQPAGE_ENCODINGS_WIDTH1_LEVELS_H_
#define PQPAGE_ENCODINGS_WIDTH1_LEVELS_H_

#include <cstddef>
#include <cstdint>

namespace pqpage::internal {

// Writes 8 * `bytes` levels, 0 or 1, to `out`: level 8 * b + k is bit k of packed[b].
// @return how many of them are 1 (the present values, for definition levels), counted on the way
// because baseline x86-64 has no population count instruction to do it cheaply afterwards.
int64_t ExpandWidth1Levels(const uint8_t* packed, size_t bytes, int16_t* out);

// The twins behind ExpandWidth1Levels (the AVX2 one only when the CPU has AVX2).
int64_t ExpandWidth1LevelsScalar(const uint8_t* packed, size_t bytes, int16_t* out);
int64_t ExpandWidth1LevelsAvx2(const uint8_t* packed, size_t bytes, int16_t* out);

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_WIDTH1_LEVELS_H_
