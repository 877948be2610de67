#include "encodings/width1_levels.h"

#include <algorithm>
#include <cstring>

#include "codec/bitmap_writer.h"
#include "common/cpu_features.h"
#include "encodings/width1_run_walk.h"

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

void ExpandByTable(const uint8_t* packed, size_t bytes, int16_t* out) {
  for (size_t b = 0; b < bytes; ++b) {
    std::memcpy(out + 8 * b, kWidth1Levels.levels[packed[b]], 8 * sizeof(int16_t));
  }
}

class ScalarLevels {
 public:
  explicit ScalarLevels(int16_t* out) : out_(out) {}
  void Fill(int value, size_t count) {
    std::fill_n(out_, count, static_cast<int16_t>(value));
    out_ += count;
  }
  void Expand(const uint8_t* packed, size_t bytes) {
    ExpandByTable(packed, bytes, out_);
    out_ += 8 * bytes;
  }

 private:
  int16_t* out_;
};

// A bit-packed width-1 run already is an LSB-first bitmap of its values, so it is copied, shifted
// to the destination's bit, rather than expanded.
class BitmapBits {
 public:
  BitmapBits(uint8_t* bitmap, int64_t bit) : bitmap_(bitmap), bit_(bit) {}
  void Fill(int value, size_t count) {
    FillBits(bitmap_, bit_, count, value != 0);
    bit_ += static_cast<int64_t>(count);
  }
  void Expand(const uint8_t* packed, size_t bytes) {
    CopyBits(packed, bitmap_, bit_, 8 * bytes);
    bit_ += static_cast<int64_t>(8 * bytes);
  }

 private:
  uint8_t* bitmap_;
  int64_t bit_;
};

// Only the count: the present values of a page, before its levels are decoded batch by batch.
class NoValues {
 public:
  void Fill(int, size_t) {}
  void Expand(const uint8_t*, size_t) {}
};

}  // namespace

int64_t ExpandWidth1LevelsScalar(const uint8_t* packed, size_t bytes, int16_t* out) {
  ExpandByTable(packed, bytes, out);
  return CountOnes(packed, bytes);
}

Width1Runs DecodeWidth1LevelRunsScalar(const uint8_t* stream, size_t stream_bytes, int16_t* out,
                                       size_t capacity) {
  ScalarLevels levels(out);
  return WalkWidth1Runs(stream, stream_bytes, capacity, levels);
}

Width1Runs DecodeWidth1LevelRuns(const uint8_t* stream, size_t stream_bytes, int16_t* out,
                                 size_t capacity) {
  static const auto decode =
      UseAvx2Twins() ? DecodeWidth1LevelRunsAvx2 : DecodeWidth1LevelRunsScalar;
  return decode(stream, stream_bytes, out, capacity);
}

Width1Runs DecodeWidth1BitmapRuns(const uint8_t* stream, size_t stream_bytes, uint8_t* bitmap,
                                  int64_t bit_offset, size_t capacity) {
  BitmapBits bits(bitmap, bit_offset);
  return WalkWidth1Runs(stream, stream_bytes, capacity, bits);
}

Width1Runs CountWidth1Runs(const uint8_t* stream, size_t stream_bytes, size_t capacity) {
  NoValues none;
  return WalkWidth1Runs(stream, stream_bytes, capacity, none);
}

int64_t ExpandWidth1Levels(const uint8_t* packed, size_t bytes, int16_t* out) {
  // Chosen once: the runs of scattered nulls are a byte or two, and asking for the tier on every
  // run showed in their profile.
  static const auto expand = UseAvx2Twins() ? ExpandWidth1LevelsAvx2 : ExpandWidth1LevelsScalar;
  return expand(packed, bytes, out);
}

}  // namespace pqpage::internal
