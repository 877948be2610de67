#include "common/small_copy.h"

#include <gtest/gtest.h>

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
