#include "encodings/run_scan.h"

#include "common/cpu_features.h"
#include "encodings/run_scan_body.h"

namespace pqpage::internal {

uint32_t EqualNeighbourMaskScalar(const uint32_t* values) {
  uint32_t mask = 0;
  for (int k = 0; k < 32; ++k) mask |= static_cast<uint32_t>(values[k] == values[k - 1]) << k;
  return mask;
}

uint32_t EqualValueMaskScalar(const uint32_t* values, uint32_t value) {
  uint32_t mask = 0;
  for (int k = 0; k < 32; ++k) mask |= static_cast<uint32_t>(values[k] == value) << k;
  return mask;
}

size_t FindRunOfAtLeastScalar(const uint32_t* values, size_t from, size_t n, size_t min_length) {
  return FindRunOfAtLeastBody(values, from, n, min_length, EqualNeighbourMaskScalar);
}

size_t EndOfRunScalar(const uint32_t* values, size_t from, size_t n, uint32_t value) {
  return EndOfRunBody(values, from, n, value, EqualValueMaskScalar);
}

size_t FindRunOfAtLeast(const uint32_t* values, size_t from, size_t n, size_t min_length) {
  return UseAvx2Twins() ? FindRunOfAtLeastAvx2(values, from, n, min_length)
                        : FindRunOfAtLeastScalar(values, from, n, min_length);
}

size_t EndOfRun(const uint32_t* values, size_t from, size_t n, uint32_t value) {
  return UseAvx2Twins() ? EndOfRunAvx2(values, from, n, value)
                        : EndOfRunScalar(values, from, n, value);
}

}  // namespace pqpage::internal
