// Both twins of ExpandWidth1Levels against levels read bit by bit: every byte value in every
// position, and lengths that leave the AVX2 loop an odd byte. Then the width-1 run walkers (levels
// at both tiers, the count and the bitmap) against a model of the runs they were made from: where
// each stops, what it writes, and that it writes nothing past its capacity or outside its bits.
#include "encodings/width1_levels.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
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

// A width-1 hybrid stream made run by run, with the levels each whole-run prefix decodes to.
struct ModelStream {
  std::vector<uint8_t> bytes;
  std::vector<int16_t> levels;
  // After each run: its end in `bytes` and in `levels`.
  std::vector<std::pair<size_t, size_t>> run_ends = {{0, 0}};

  void Uleb(uint64_t value) {
    for (; value >= 0x80; value >>= 7) bytes.push_back(static_cast<uint8_t>(value | 0x80));
    bytes.push_back(static_cast<uint8_t>(value));
  }
  ModelStream& Rle(int value, size_t count) {
    Uleb(count << 1);
    bytes.push_back(static_cast<uint8_t>(value));
    levels.insert(levels.end(), count, static_cast<int16_t>(value));
    run_ends.emplace_back(bytes.size(), levels.size());
    return *this;
  }
  ModelStream& Packed(const std::vector<uint8_t>& groups) {
    Uleb((groups.size() << 1) | 1);
    bytes.insert(bytes.end(), groups.begin(), groups.end());
    const std::vector<int16_t> expanded = BitByBit(groups);
    levels.insert(levels.end(), expanded.begin(), expanded.end());
    run_ends.emplace_back(bytes.size(), levels.size());
    return *this;
  }
  // Bytes no walker may take (the general walker's to judge); they end the stream.
  ModelStream& Tail(const std::vector<uint8_t>& tail) {
    bytes.insert(bytes.end(), tail.begin(), tail.end());
    return *this;
  }
};

// Every level walker, the counting one and the bitmap walker, at every capacity from 0 to past the
// stream's levels: each stops at the last run end that fits, and writes nothing past its capacity
// (nor, for the bitmap, outside the bits it is given).
void CheckWalkers(const ModelStream& model, const std::string& what) {
  constexpr size_t kGuard = 40;
  using LevelWalker = Width1Runs (*)(const uint8_t*, size_t, int16_t*, size_t);
  std::vector<std::pair<const char*, LevelWalker>> walkers = {
      {"scalar", DecodeWidth1LevelRunsScalar}, {"dispatched", DecodeWidth1LevelRuns}};
  if (UseAvx2Twins()) walkers.emplace_back("avx2", DecodeWidth1LevelRunsAvx2);
  for (size_t capacity = 0; capacity <= model.levels.size() + 9; ++capacity) {
    std::pair<size_t, size_t> want = model.run_ends.front();
    for (const auto& end : model.run_ends) {
      if (end.second <= capacity) want = end;
    }
    const int64_t ones = std::count(model.levels.begin(), model.levels.begin() + want.second, 1);
    for (const auto& [name, walker] : walkers) {
      // An exact-size copy of the stream, so that a read past it is caught by ASan.
      const std::vector<uint8_t> stream(model.bytes);
      std::vector<int16_t> out(capacity + kGuard, -7);
      const Width1Runs runs = walker(stream.data(), stream.size(), out.data(), capacity);
      ASSERT_EQ(runs.stream_bytes, want.first) << what << " " << name << " capacity " << capacity;
      ASSERT_EQ(runs.values, want.second) << what << " " << name << " capacity " << capacity;
      ASSERT_EQ(runs.ones, ones) << what << " " << name << " capacity " << capacity;
      ASSERT_TRUE(std::equal(model.levels.begin(), model.levels.begin() + want.second, out.begin()))
          << what << " " << name << " capacity " << capacity;
      ASSERT_TRUE(std::all_of(out.begin() + capacity, out.end(), [](int16_t v) { return v == -7; }))
          << what << " " << name << " wrote past capacity " << capacity;
    }
    const Width1Runs counted = CountWidth1Runs(model.bytes.data(), model.bytes.size(), capacity);
    ASSERT_EQ(counted.stream_bytes, want.first) << what << " count capacity " << capacity;
    ASSERT_EQ(counted.values, want.second) << what << " count capacity " << capacity;
    ASSERT_EQ(counted.ones, ones) << what << " count capacity " << capacity;
    for (int offset : {0, 3, 8, 13}) {
      const std::vector<uint8_t> stream(model.bytes);
      std::vector<uint8_t> bitmap((offset + capacity + 7) / 8 + 2, 0x5A);
      const std::vector<uint8_t> before = bitmap;
      const Width1Runs runs =
          DecodeWidth1BitmapRuns(stream.data(), stream.size(), bitmap.data(), offset, capacity);
      ASSERT_EQ(runs.stream_bytes, want.first) << what << " bitmap capacity " << capacity;
      ASSERT_EQ(runs.values, want.second) << what << " bitmap capacity " << capacity;
      ASSERT_EQ(runs.ones, ones) << what << " bitmap capacity " << capacity;
      for (size_t bit = 0; bit < bitmap.size() * 8; ++bit) {
        const int got = (bitmap[bit / 8] >> (bit % 8)) & 1;
        const bool written = bit >= static_cast<size_t>(offset) && bit - offset < want.second;
        const int expected =
            written ? model.levels[bit - offset] : (before[bit / 8] >> (bit % 8)) & 1;
        ASSERT_EQ(got, expected) << what << " bitmap offset " << offset << " capacity " << capacity
                                 << " bit " << bit;
      }
    }
  }
}

ModelStream EveryKindOfRun() {
  ModelStream model;
  model.Rle(1, 5).Packed({0xA5}).Rle(0, 70).Packed({0x01, 0xFF, 0x80}).Rle(1, 9);
  model.Packed({0x3C, 0xC3}).Rle(0, 1).Rle(1, 300).Packed(std::vector<uint8_t>(37, 0x6D));
  return model;
}

TEST(Width1RunWalkTest, StopsAtEveryCapacityOnARunBoundary) {
  CheckWalkers(EveryKindOfRun(), "every kind of run");
}

TEST(Width1RunWalkTest, LeavesWhatTheGeneralWalkerMustJudge) {
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> tails = {
      {"RLE value 2", {0x10, 0x02}},
      {"RLE value 255", {0x10, 0xFF}},
      {"length 0", {0x00, 0x01}},
      {"bit-packed length 0", {0x01, 0xFF}},
      {"header cut short", {0x80}},
      {"header past 32 bits", {0x80, 0x80, 0x80, 0x80, 0x10, 0x01}},
      {"header of six bytes", {0x82, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01}},
      {"RLE run with no value", {0x10}},
      {"bit-packed run cut short", {0x07, 0x01, 0x02}},
  };
  for (const auto& [what, tail] : tails) {
    ModelStream model = EveryKindOfRun();
    CheckWalkers(model.Tail(tail), what);
  }
}

TEST(Width1RunWalkTest, RandomRunsOfScatteredAndClusteredNulls) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    ModelStream model;
    const int runs = 1 + static_cast<int>(rng() % 24);
    for (int r = 0; r < runs; ++r) {
      if (rng() % 2 == 0) {
        // Mostly short runs, as scattered nulls make; now and then a long one.
        const size_t count = rng() % 8 == 0 ? 1 + rng() % 2000 : 1 + rng() % 40;
        model.Rle(static_cast<int>(rng() % 2), count);
      } else {
        std::vector<uint8_t> groups(rng() % 8 == 0 ? 1 + rng() % 70 : 1 + rng() % 3);
        for (uint8_t& g : groups) g = static_cast<uint8_t>(rng());
        model.Packed(groups);
      }
    }
    CheckWalkers(model, "trial " + std::to_string(trial));
  }
}

}  // namespace
}  // namespace pqpage::internal
