#include "encodings/width1_levels.h"

#include <cstring>

#include "codec/bitmap_writer.h"
#include "common/cpu_features.h"

namespace pqpage::internal {
namespace {

// Eight int16 levels for each value of a packed byte, built at compile time.
struct Width1LevelTable {
  int16_t levels[256][8];
  constexpr Width1LevelTable() : levels() {
    for (int byte = 0; byte < 256; ++byte) {
      for (int bit = 0; bit < 8; ++bit) levels[byte][bit] = static_cast<int16_t>((byte >> bit) & 1);
    }
  }
};
constexpr Width1LevelTable kWidth1Levels;

}  // namespace

int64_t ExpandWidth1LevelsScalar(const uint8_t* packed, size_t bytes, int16_t* out) {
  for (size_t b = 0; b < bytes; ++b) {
    std::memcpy(out + 8 * b, kWidth1Levels.levels[packed[b]], 8 * sizeof(int16_t));
  }
  return CountOnes(packed, bytes);
}

int64_t ExpandWidth1Levels(const uint8_t* packed, size_t bytes, int16_t* out) {
  // Chosen once: the runs of scattered nulls are a byte or two, and asking for the tier on every
  // run showed in their profile.
  static const auto expand = UseAvx2Twins() ? ExpandWidth1LevelsAvx2 : ExpandWidth1LevelsScalar;
  return expand(packed, bytes, out);
}

}  // namespace pqpage::internal
