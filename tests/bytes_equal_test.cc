// BytesEqual against memcmp for every length up to past its inline range, with the strings in
// exact-size heap buffers (so that a read past either end is caught by ASan), equal and differing
// in each single byte and bit position.
#include "common/bytes_equal.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>

namespace pqpage::internal {
namespace {

TEST(BytesEqualTest, AgreesWithMemcmpAtEveryLengthAndDifference) {
  std::mt19937 rng(5);
  for (size_t n = 0; n <= 40; ++n) {
    auto a = std::make_unique<uint8_t[]>(n);
    auto b = std::make_unique<uint8_t[]>(n);
    for (size_t i = 0; i < n; ++i) a[i] = b[i] = static_cast<uint8_t>(rng());
    EXPECT_TRUE(BytesEqual(a.get(), b.get(), n)) << n;
    for (size_t at = 0; at < n; ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        b[at] = static_cast<uint8_t>(b[at] ^ (1u << bit));
        ASSERT_FALSE(BytesEqual(a.get(), b.get(), n)) << n << " bytes, differing at " << at;
        ASSERT_FALSE(BytesEqual(b.get(), a.get(), n)) << n << " bytes, differing at " << at;
        b[at] = static_cast<uint8_t>(b[at] ^ (1u << bit));
      }
    }
    EXPECT_EQ(BytesEqual(a.get(), b.get(), n), std::memcmp(a.get(), b.get(), n) == 0);
  }
}

}  // namespace
}  // namespace pqpage::internal
