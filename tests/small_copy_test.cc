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

}  // namespace
}  // namespace pqpage::internal
