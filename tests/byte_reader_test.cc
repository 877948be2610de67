// ULEB128 and zigzag varints at their limits: the largest legal values, one bit too many, and
// streams that never terminate (each a clean error, never a shift past the type).
#include "common/byte_reader.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "status_matchers.h"

namespace pqpage::internal {
namespace {

using absl::StatusCode;

absl::StatusOr<uint64_t> Read(std::vector<uint8_t> bytes, int max_bits) {
  ByteReader reader(bytes);
  return reader.ReadUleb128(max_bits, "test");
}

TEST(ByteReaderTest, LargestVarintsOfEachWidth) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(uint64_t u32, Read({0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, 32));
  EXPECT_EQ(u32, 0xFFFFFFFFu);
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      uint64_t u64, Read({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, 64));
  EXPECT_EQ(u64, std::numeric_limits<uint64_t>::max());
}

TEST(ByteReaderTest, OverflowingAndUnterminatedVarintsAreErrors) {
  PQPAGE_EXPECT_ERROR(Read({0xFF, 0xFF, 0xFF, 0xFF, 0x1F}, 32), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(Read({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, 32), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(Read({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03}, 64),
                      StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(Read(std::vector<uint8_t>(20, 0x80), 32), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(Read(std::vector<uint8_t>(20, 0x80), 64), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(Read({0x80, 0x80}, 64), StatusCode::kDataLoss);  // truncated
  PQPAGE_EXPECT_ERROR(Read({}, 32), StatusCode::kDataLoss);
}

TEST(ByteReaderTest, ZigZagRoundTripsTheExtremes) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max()}) {
    std::vector<uint8_t> bytes;
    AppendUleb128(bytes, ZigZagEncode(v));
    ByteReader reader(bytes);
    PQPAGE_ASSERT_OK_AND_ASSIGN(int64_t back, reader.ReadZigZag64("test"));
    EXPECT_EQ(back, v);
    EXPECT_EQ(reader.remaining(), 0u);
  }
  EXPECT_EQ(ZigZagEncode(-1), 1u);
  EXPECT_EQ(ZigZagEncode(1), 2u);
}

}  // namespace
}  // namespace pqpage::internal
