// Both twins of ExpandWidth1Levels against levels read bit by bit: every byte value in every
// position, and lengths that leave the AVX2 loop an odd byte.
#include "encodings/width1_levels.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/cpu_features.h"
#include "gtest/gtest.h"

namespace pqpage::internal {
namespace {

std::vector<int16_t> BitByBit(const std::vector<uint8_t>& packed) {
  std::vector<int16_t> levels;
  for (uint8_t byte : packed) {
    for (int bit = 0; bit < 8; ++bit) levels.push_back(static_cast<int16_t>((byte >> bit) & 1));
  }
  return levels;
}

void CheckEveryTwin(const std::vector<uint8_t>& packed) {
  const std::vector<int16_t> want = BitByBit(packed);
  // One spare level past the end, which no twin may touch.
  std::vector<int16_t> got(want.size() + 1, -7);
  const int64_t ones = std::count(want.begin(), want.end(), 1);
  EXPECT_EQ(ExpandWidth1LevelsScalar(packed.data(), packed.size(), got.data()), ones);
  EXPECT_EQ(std::vector<int16_t>(got.begin(), got.end() - 1), want) << packed.size() << " bytes";
  EXPECT_EQ(got.back(), -7);
  std::fill(got.begin(), got.end(), -7);
  EXPECT_EQ(ExpandWidth1Levels(packed.data(), packed.size(), got.data()), ones);
  EXPECT_EQ(std::vector<int16_t>(got.begin(), got.end() - 1), want) << packed.size() << " bytes";
  EXPECT_EQ(got.back(), -7);
  if (UseAvx2Twins()) {
    std::fill(got.begin(), got.end(), -7);
    EXPECT_EQ(ExpandWidth1LevelsAvx2(packed.data(), packed.size(), got.data()), ones);
    EXPECT_EQ(std::vector<int16_t>(got.begin(), got.end() - 1), want) << packed.size() << " bytes";
    EXPECT_EQ(got.back(), -7);
  }
}

TEST(Width1LevelsTest, EveryByteValueInBothHalvesOfAPair) {
  std::vector<uint8_t> packed;
  for (int value = 0; value < 256; ++value) {
    packed.push_back(static_cast<uint8_t>(value));
    packed.push_back(static_cast<uint8_t>(255 - value));
  }
  CheckEveryTwin(packed);
  packed.push_back(0xA5);  // an odd byte for the tail
  CheckEveryTwin(packed);
}

TEST(Width1LevelsTest, CountsPastTheSixteenBitLaneSums) {
  // 2^16 pairs of all-ones bytes: each 16-bit lane would overflow without the flushes.
  CheckEveryTwin(std::vector<uint8_t>((size_t{1} << 17) + 3, 0xFF));
}

TEST(Width1LevelsTest, EveryShortLength) {
  std::mt19937 rng(3);
  for (size_t n = 0; n <= 40; ++n) {
    std::vector<uint8_t> packed(n);
    for (uint8_t& b : packed) b = static_cast<uint8_t>(rng());
    CheckEveryTwin(packed);
  }
}

}  // namespace
}  // namespace pqpage::internal
