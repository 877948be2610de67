#include "common/small_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace pqpage::internal {
namespace {

TEST(SmallCopyTest, CopiesExactlyTheBytesAskedForAtEveryLength) {
  for (size_t n = 0; n <= 72; ++n) {
    // Exact-size heap source, so the sanitizers catch a read past it.
    std::vector<uint8_t> source(n);
    for (size_t i = 0; i < n; ++i) source[i] = static_cast<uint8_t>(i * 37 + 1);
    std::vector<uint8_t> target(n + 16, 0xEE);
    CopyExact(target.data() + 8, source.data(), n);
    for (size_t i = 0; i < target.size(); ++i) {
      const bool inside = i >= 8 && i < 8 + n;
      ASSERT_EQ(target[i], inside ? source[i - 8] : 0xEE) << "n " << n << " byte " << i;
    }
  }
}

// Blocks pay where CopyExact would branch differently from value to value, never for lengths that
// all take its one branch, and never for a longest value past 32 bytes alone.
TEST(SmallCopyTest, BlocksOnlyForLengthsAcrossCopyExactBranches) {
  EXPECT_FALSE(CopyAsBlocks(7, 7));
  EXPECT_FALSE(CopyAsBlocks(4, 7));
  EXPECT_FALSE(CopyAsBlocks(16, 32));
  EXPECT_FALSE(CopyAsBlocks(0, 0));
  EXPECT_FALSE(CopyAsBlocks(40, 900));
  EXPECT_TRUE(CopyAsBlocks(3, 4));
  EXPECT_TRUE(CopyAsBlocks(4, 16));
  EXPECT_TRUE(CopyAsBlocks(0, 5));
  EXPECT_TRUE(CopyAsBlocks(20, 33));
  for (size_t n = 0; n <= 40; ++n) {
    EXPECT_EQ(CopyExactClass(n), n == 0 ? 0 : n < 4 ? 1 : n < 8 ? 2 : n < 16 ? 3 : n <= 32 ? 4 : 5);
  }
}

// Every length each word size takes, from exact-size sources (a read past one is caught by the
// sanitizers) into targets with guard bytes around them.
template <size_t W>
void ExpectWordRangeCopiesExactly() {
  for (size_t n = W; n <= 4 * W; ++n) {
    std::vector<uint8_t> source(n);
    for (size_t i = 0; i < n; ++i) source[i] = static_cast<uint8_t>(i * 53 + 7);
    std::vector<uint8_t> target(n + 2 * W, 0xEE);
    CopyWordRange<W>(target.data() + W, source.data(), n);
    for (size_t i = 0; i < target.size(); ++i) {
      const bool inside = i >= W && i < W + n;
      ASSERT_EQ(target[i], inside ? source[i - W] : 0xEE)
          << "W " << W << " n " << n << " byte " << i;
    }
  }
}

TEST(SmallCopyTest, WordRangeCopiesExactlyTheBytesAskedFor) {
  ExpectWordRangeCopiesExactly<4>();
  ExpectWordRangeCopiesExactly<8>();
  ExpectWordRangeCopiesExactly<16>();
}

// The largest word whose [W, 4W] holds every length, and none where CopyExact predicts well
// (one branch for every length) or no word fits.
TEST(SmallCopyTest, WordRangeOnlyForLengthsItCoversAcrossBranches) {
  EXPECT_EQ(WordRangeFor(4, 16), 4u);
  EXPECT_EQ(WordRangeFor(8, 16), 8u);
  EXPECT_EQ(WordRangeFor(10, 32), 8u);
  EXPECT_EQ(WordRangeFor(16, 64), 16u);
  EXPECT_EQ(WordRangeFor(20, 40), 16u);
  EXPECT_EQ(WordRangeFor(4, 7), 0u);    // one branch of CopyExact
  EXPECT_EQ(WordRangeFor(40, 60), 0u);  // memcpy for all
  EXPECT_EQ(WordRangeFor(3, 16), 0u);   // 3 is below every word
  EXPECT_EQ(WordRangeFor(0, 12), 0u);
  EXPECT_EQ(WordRangeFor(16, 65), 0u);  // past 4 x 16
  EXPECT_EQ(WordRangeFor(5, 17), 0u);   // past 4 x 4, and below 8
}

TEST(SmallCopyTest, WithCopyForLengthsCopiesEveryValueOfARange) {
  for (const auto& [shortest, longest] :
       std::vector<std::pair<size_t, size_t>>{{0, 12}, {4, 16}, {8, 30}, {16, 64}, {1, 100}}) {
    for (size_t n = shortest; n <= longest; ++n) {
      std::vector<uint8_t> source(n);
      for (size_t i = 0; i < n; ++i) source[i] = static_cast<uint8_t>(i + n);
      std::vector<uint8_t> target(n + 2, 0xEE);
      WithCopyForLengths(shortest, longest,
                         [&](auto copy) { copy(target.data() + 1, source.data(), n); });
      ASSERT_EQ(target.front(), 0xEE);
      ASSERT_EQ(target.back(), 0xEE);
      ASSERT_TRUE(std::equal(source.begin(), source.end(), target.begin() + 1)) << n;
    }
  }
}

TEST(SmallCopyTest, Block32MovesThirtyTwoBytes) {
  std::vector<uint8_t> source(32);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<uint8_t>(i + 1);
  std::vector<uint8_t> target(40, 0);
  CopyBlock32(target.data() + 4, source.data());
  for (size_t i = 0; i < target.size(); ++i) {
    ASSERT_EQ(target[i], i >= 4 && i < 36 ? source[i - 4] : 0) << i;
  }
}

}  // namespace
}  // namespace pqpage::internal
