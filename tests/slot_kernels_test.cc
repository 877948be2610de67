// The Arrow assembly kernels against plain per-slot loops: every count from 0 to a few hundred
// (so every tail of the 16-level SIMD step and of the 8-slot bitmap bytes), null densities from
// none to all, every value width assembly uses and a few it does not. SpreadToSlots and
// OffsetsFromLengths have AVX-512 twins and SpreadToSlots an AVX2 one: ctest runs this suite at
// every SIMD tier, and the twins are also compared directly where the CPU runs them.
#include "arrow/slot_kernels.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/cpu_features.h"

namespace pqpage::arrow_internal {
namespace {

std::vector<int16_t> RandomLevels(int64_t count, int16_t max, double null_share, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> share(0.0, 1.0);
  std::uniform_int_distribution<int> below(0, max - 1);
  std::vector<int16_t> levels(static_cast<size_t>(count));
  for (int16_t& level : levels) {
    level = share(random) < null_share ? static_cast<int16_t>(below(random)) : max;
  }
  return levels;
}

bool Bit(const std::vector<uint8_t>& bits, int64_t i) {
  return ((bits[i / 8] >> (i % 8)) & 1) != 0;
}

TEST(SlotKernelsTest, ValidityFromLevelsMatchesTheLevels) {
  for (const int16_t max : {int16_t{1}, int16_t{2}, int16_t{7}}) {
    for (const double null_share : {0.0, 0.1, 0.5, 1.0}) {
      for (int64_t count = 0; count <= 300; ++count) {
        const std::vector<int16_t> levels =
            RandomLevels(count, max, null_share, static_cast<uint32_t>(count * 31 + max));
        // 0xAA everywhere: bits past the count must come out cleared, not kept.
        std::vector<uint8_t> bits(static_cast<size_t>((count + 7) / 8), 0xaa);
        const int64_t set = ValidityFromLevels(levels.data(), count, max, bits.data());
        int64_t expected_set = 0;
        for (int64_t i = 0; i < count; ++i) {
          const bool present = levels[static_cast<size_t>(i)] >= max;
          expected_set += present ? 1 : 0;
          ASSERT_EQ(Bit(bits, i), present) << "max " << max << " count " << count << " at " << i;
        }
        for (int64_t i = count; i < static_cast<int64_t>(bits.size()) * 8; ++i) {
          ASSERT_FALSE(Bit(bits, i)) << "count " << count << " padding bit " << i;
        }
        EXPECT_EQ(set, expected_set);
      }
    }
  }
}

TEST(SlotKernelsTest, ValidityFromLevelsSeesNegativeAndLargeLevelsAsTheComparisonDoes) {
  // Levels are checked by the page reader, but the kernel's answer is still the comparison's.
  const std::vector<int16_t> levels = {-1, 0, 3, 2, 32767, -32768, 2, 1, 0, 5, 2, 2, 2, 2, 2, 2, 1};
  std::vector<uint8_t> bits(3);
  const int64_t set =
      ValidityFromLevels(levels.data(), static_cast<int64_t>(levels.size()), 2, bits.data());
  int64_t expected = 0;
  for (size_t i = 0; i < levels.size(); ++i) {
    EXPECT_EQ(Bit(bits, static_cast<int64_t>(i)), levels[i] >= 2) << i;
    expected += levels[i] >= 2 ? 1 : 0;
  }
  EXPECT_EQ(set, expected);
}

TEST(SlotKernelsTest, FindRowStartStopsAtTheRowAfterTheSkippedOnes) {
  std::mt19937 random(5);
  for (int64_t count = 0; count <= 120; ++count) {
    // Repetition levels with row starts (0) about one level in three.
    std::vector<int16_t> repetitions(static_cast<size_t>(count));
    for (int16_t& level : repetitions) level = static_cast<int16_t>(random() % 3);
    for (int64_t begin = 0; begin <= count; begin += 7) {
      for (int64_t skip = 0; skip <= count + 1; ++skip) {
        int64_t expected_skipped = 0;
        int64_t expected = begin;
        for (; expected < count; ++expected) {
          if (repetitions[static_cast<size_t>(expected)] != 0) continue;
          if (expected_skipped == skip) break;
          ++expected_skipped;
        }
        int64_t skipped = -1;
        ASSERT_EQ(FindRowStart(repetitions.data(), begin, count, skip, &skipped), expected)
            << "count " << count << " begin " << begin << " skip " << skip;
        ASSERT_EQ(skipped, expected_skipped);
      }
    }
  }
}

TEST(SlotKernelsTest, SlotValidityKeepsOnlyTheLevelsThatAreSlots) {
  // A leaf under a list with max definition 3: level 0 is a null list, 1 an empty list (neither a
  // slot of the element when slot_def is 2), 2 a null element, 3 a value.
  std::mt19937 random(9);
  for (int64_t count = 0; count <= 300; ++count) {
    std::vector<int16_t> levels(static_cast<size_t>(count));
    for (int16_t& level : levels) level = static_cast<int16_t>(random() % 4);
    std::vector<uint8_t> bits(static_cast<size_t>((count + 7) / 8), 0xaa);
    int64_t slots = -1;
    const int64_t present = SlotValidity(levels.data(), count, 2, 3, bits.data(), &slots);
    int64_t expected_slots = 0;
    int64_t expected_present = 0;
    for (const int16_t level : levels) {
      if (level < 2) continue;
      ASSERT_EQ(Bit(bits, expected_slots), level == 3) << "count " << count;
      expected_present += level == 3 ? 1 : 0;
      ++expected_slots;
    }
    ASSERT_EQ(slots, expected_slots);
    ASSERT_EQ(present, expected_present);
    for (int64_t i = slots; i < (slots + 7) / 8 * 8; ++i) ASSERT_FALSE(Bit(bits, i)) << i;
  }
}

TEST(SlotKernelsTest, SpreadToSlotsPutsEachValueInItsSlotAndZerosUnderNulls) {
  for (const size_t width : {size_t{1}, size_t{2}, size_t{3}, size_t{4}, size_t{6}, size_t{8},
                             size_t{12}, size_t{16}, size_t{32}}) {
    for (const double null_share : {0.0, 0.02, 0.3, 0.9, 1.0}) {
      for (int64_t slots = 0; slots <= 200; ++slots) {
        const std::vector<int16_t> levels =
            RandomLevels(slots, 1, null_share, static_cast<uint32_t>(slots * 7 + width));
        std::vector<uint8_t> bits(static_cast<size_t>((slots + 7) / 8));
        const int64_t values = ValidityFromLevels(levels.data(), slots, 1, bits.data());
        // Bits past the slots are not the kernel's to read: set them.
        if (slots % 8 != 0) bits.back() |= static_cast<uint8_t>(0xff << (slots % 8));
        // Value v's bytes are (v * 13 + byte) & 0xff, never all zero for width > 1.
        std::vector<uint8_t> bytes(static_cast<size_t>(slots) * width, 0xee);
        for (int64_t v = 0; v < values; ++v) {
          for (size_t b = 0; b < width; ++b) {
            bytes[static_cast<size_t>(v) * width + b] = static_cast<uint8_t>(v * 13 + 1 + b);
          }
        }
        SpreadToSlots(bytes.data(), width, bits.data(), slots, values);
        int64_t v = 0;
        for (int64_t slot = 0; slot < slots; ++slot) {
          for (size_t b = 0; b < width; ++b) {
            const uint8_t expected = Bit(bits, slot) ? static_cast<uint8_t>(v * 13 + 1 + b) : 0;
            ASSERT_EQ(bytes[static_cast<size_t>(slot) * width + b], expected)
                << "width " << width << " slots " << slots << " slot " << slot;
          }
          if (Bit(bits, slot)) ++v;
        }
      }
    }
  }
}

// Each SIMD twin the CPU can run against the portable one, on buffers of random bytes (so the
// bytes past the packed values are not zeros the kernels could get away with).
TEST(SlotKernelsTest, SpreadTwinsAgree) {
  struct Twin {
    const char* name;
    bool (*spread)(uint8_t*, size_t, const uint8_t*, int64_t, int64_t);
    bool runs;
    std::vector<size_t> widths;
  };
  const internal::CpuFeatures& cpu = internal::DetectedCpuFeatures();
  const std::vector<Twin> twins = {
      {"avx512", SpreadToSlotsAvx512, internal::CanRunAvx512Twins(cpu), {1, 2, 4, 8}},
      {"avx2", SpreadToSlotsAvx2, internal::CanRunAvx2Twins(cpu), {4, 8}}};
  bool any = false;
  std::mt19937 random(11);
  for (const Twin& twin : twins) {
    if (!twin.runs) continue;
    any = true;
    for (const size_t width : twin.widths) {
      for (int64_t slots = 0; slots <= 300; ++slots) {
        const double null_share = static_cast<double>(slots % 5) / 4.0;
        const std::vector<int16_t> levels =
            RandomLevels(slots, 1, null_share, static_cast<uint32_t>(slots + width));
        std::vector<uint8_t> bits(static_cast<size_t>((slots + 7) / 8));
        const int64_t values = ValidityFromLevels(levels.data(), slots, 1, bits.data());
        if (slots % 8 != 0) bits.back() |= static_cast<uint8_t>(0xff << (slots % 8));
        // Exactly `slots` values of room, so that the sanitizers see a read past them.
        std::vector<uint8_t> scalar(static_cast<size_t>(slots) * width);
        for (uint8_t& byte : scalar) byte = static_cast<uint8_t>(random());
        std::vector<uint8_t> simd = scalar;
        SpreadToSlotsScalar(scalar.data(), width, bits.data(), slots, values);
        ASSERT_TRUE(twin.spread(simd.data(), width, bits.data(), slots, values));
        ASSERT_EQ(simd, scalar) << twin.name << " width " << width << " slots " << slots;
      }
    }
    // Other widths are the portable twin's: refused, nothing written.
    std::vector<uint8_t> untouched(48, 7);
    const std::vector<uint8_t> all_present = {0xff, 0xff, 0xff};
    EXPECT_FALSE(twin.spread(untouched.data(), 16, all_present.data(), 3, 3)) << twin.name;
    EXPECT_EQ(untouched, std::vector<uint8_t>(48, 7));
  }
  if (!any) GTEST_SKIP() << "this CPU can run no SIMD twin";
}

// Every count 0..300 (each tail of the eight-slot step), null shares from none to all, both
// offset widths, with and without a bitmap: the portable twin, the active tier's
// OffsetsFromLengths and the SIMD twins the CPU runs, against a loop over the slots.
TEST(SlotKernelsTest, OffsetsFromLengthsTwinsAgree) {
  const bool avx512 = internal::CanRunAvx512Twins(internal::DetectedCpuFeatures());
  const bool avx2 = internal::CanRunAvx2Twins(internal::DetectedCpuFeatures());
  std::mt19937 random(5);
  for (int64_t slots = 0; slots <= 300; ++slots) {
    for (const bool dense : {false, true}) {
      const double null_share = dense ? 0.0 : static_cast<double>(slots % 5) / 4.0;
      const std::vector<int16_t> levels =
          RandomLevels(slots, 1, null_share, static_cast<uint32_t>(slots * 3 + 1));
      std::vector<uint8_t> bits(static_cast<size_t>((slots + 7) / 8));
      const int64_t values = ValidityFromLevels(levels.data(), slots, 1, bits.data());
      if (slots % 8 != 0) bits.back() |= static_cast<uint8_t>(0xff << (slots % 8));
      std::vector<int32_t> lengths(static_cast<size_t>(values));
      // Lengths up to 2^30: a few of them pass the int32 range, where both forms wrap alike.
      for (int32_t& length : lengths) {
        length = static_cast<int32_t>(random() % 4 == 0 ? random() % (1u << 30) : random() % 40);
      }
      const uint8_t* bitmap = dense ? nullptr : bits.data();
      // The reference: a slot at a time.
      std::vector<int64_t> wide(static_cast<size_t>(slots) + 1, 0);
      std::vector<int32_t> narrow(static_cast<size_t>(slots) + 1, 0);
      int64_t end = 0;
      for (int64_t slot = 0, value = 0; slot < slots; ++slot) {
        if (dense || Bit(bits, slot)) end += lengths[static_cast<size_t>(value++)];
        wide[static_cast<size_t>(slot) + 1] = end;
        narrow[static_cast<size_t>(slot) + 1] = static_cast<int32_t>(static_cast<uint32_t>(end));
      }
      // The portable twin, the active tier's, the AVX-512 twin, the AVX2 twin (int32 only).
      for (const int form : {0, 1, 2, 3}) {
        if ((form == 2 && !avx512) || (form == 3 && !avx2)) continue;
        SCOPED_TRACE(::testing::Message()
                     << "slots " << slots << " dense " << dense << " form " << form);
        // One slot more than written in each: the kernels must not write past slots + 1.
        std::vector<int64_t> got_wide(static_cast<size_t>(slots) + 2, -1);
        std::vector<int32_t> got_narrow(static_cast<size_t>(slots) + 2, -1);
        const auto offsets = [&](auto* out) {
          return form == 0   ? OffsetsFromLengthsScalar(lengths.data(), bitmap, slots, out)
                 : form == 1 ? OffsetsFromLengths(lengths.data(), bitmap, slots, out)
                             : OffsetsFromLengthsAvx512(lengths.data(), bitmap, slots, out);
        };
        if (form == 3) {
          got_wide = wide;  // no int64 form
          got_wide.push_back(-1);
          EXPECT_EQ(OffsetsFromLengthsAvx2(lengths.data(), bitmap, slots, got_narrow.data()), end);
        } else {
          EXPECT_EQ(offsets(got_wide.data()), end);
          EXPECT_EQ(offsets(got_narrow.data()), end);
        }
        EXPECT_EQ(got_wide.back(), -1);
        EXPECT_EQ(got_narrow.back(), -1);
        got_wide.pop_back();
        got_narrow.pop_back();
        EXPECT_EQ(got_wide, wide);
        EXPECT_EQ(got_narrow, narrow);
      }
    }
  }
}

TEST(SlotKernelsTest, OffsetsFromLengthsRepeatTheOffsetUnderNulls) {
  const std::vector<int32_t> lengths = {3, 0, 5, 1};
  // Slots: value, null, value, value, null, null, value.
  const std::vector<uint8_t> bits = {0b1001101};
  std::vector<int32_t> offsets(8, -1);
  EXPECT_EQ(OffsetsFromLengths<int32_t>(lengths.data(), bits.data(), 7, offsets.data()), 9);
  EXPECT_EQ(offsets, (std::vector<int32_t>{0, 3, 3, 3, 8, 8, 8, 9}));

  std::vector<int64_t> dense(5, -1);
  EXPECT_EQ(OffsetsFromLengths<int64_t>(lengths.data(), nullptr, 4, dense.data()), 9);
  EXPECT_EQ(dense, (std::vector<int64_t>{0, 3, 3, 8, 9}));

  std::vector<int32_t> empty(1, -1);
  EXPECT_EQ(OffsetsFromLengths<int32_t>(lengths.data(), nullptr, 0, empty.data()), 0);
  EXPECT_EQ(empty, (std::vector<int32_t>{0}));
}

}  // namespace
}  // namespace pqpage::arrow_internal
