// Finding repeats worth an RLE run, for the hybrid encoder. Values are compared with their
// predecessors 32 at a time into a bitmask (bit k set when value k equals value k - 1), and runs
// are read off the mask with bit operations, so stretches without long repeats cost a few
// instructions per 32 values instead of a branch per value. The mask is built by an AVX2 kernel
// when the CPU has one and by a scalar loop otherwise; both feed the same mask logic.
#ifndef PQPAGE_ENCODINGS_RUN_SCAN_H_
#define PQPAGE_ENCODINGS_RUN_SCAN_H_

#include <cstddef>
#include <cstdint>

namespace pqpage::internal {

// Bit k of the result is set when values[k] == values[k - 1], for k in 0..31; `values` must have a
// readable element at index -1.
using EqualNeighbourMaskFn = uint32_t (*)(const uint32_t* values);

uint32_t EqualNeighbourMaskScalar(const uint32_t* values);
uint32_t EqualNeighbourMaskAvx2(const uint32_t* values);

// Bit k of the result is set when values[k] == value, for k in 0..31.
using EqualValueMaskFn = uint32_t (*)(const uint32_t* values, uint32_t value);

uint32_t EqualValueMaskScalar(const uint32_t* values, uint32_t value);
uint32_t EqualValueMaskAvx2(const uint32_t* values, uint32_t value);

// The first index at or after `from` whose value differs from `value`, or `n`.
size_t EndOfRun(const uint32_t* values, size_t from, size_t n, uint32_t value);

// The scalar and AVX2 twins of the two scans below (the AVX2 ones only when the CPU has AVX2).
size_t FindRunOfAtLeastScalar(const uint32_t* values, size_t from, size_t n, size_t min_length);
size_t FindRunOfAtLeastAvx2(const uint32_t* values, size_t from, size_t n, size_t min_length);
size_t EndOfRunScalar(const uint32_t* values, size_t from, size_t n, uint32_t value);
size_t EndOfRunAvx2(const uint32_t* values, size_t from, size_t n, uint32_t value);

// Returns the start of the first run of at least `min_length` (1..32) equal values that starts at
// or after `from`, or, when there is none, the start of the last run in values[from, n). `n` must
// be greater than `from`.
size_t FindRunOfAtLeast(const uint32_t* values, size_t from, size_t n, size_t min_length);

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_RUN_SCAN_H_
