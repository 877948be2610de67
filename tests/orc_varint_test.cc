// ORC's base 128 varints: the spec's tables (both directions), the 64- and 128-bit limits, and
// every truncation.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "pqpage/orc/varint.h"
#include "status_matchers.h"

namespace pqpage::orc {
namespace {

using ::absl::StatusCode;

TEST(OrcVarintTest, SpecUnsignedTable) {
  const std::vector<std::pair<uint64_t, std::vector<uint8_t>>> table = {
      {0, {0x00}},
      {1, {0x01}},
      {127, {0x7f}},
      {128, {0x80, 0x01}},
      {129, {0x81, 0x01}},
      {16383, {0xff, 0x7f}},
      {16384, {0x80, 0x80, 0x01}},
      {16385, {0x81, 0x80, 0x01}}};
  for (const auto& [value, bytes] : table) {
    std::vector<uint8_t> out;
    EXPECT_EQ(AppendVarint(value, &out), bytes.size());
    EXPECT_EQ(out, bytes) << value;
    EXPECT_EQ(VarintSize(value), bytes.size());
    size_t position = 0;
    PQPAGE_ASSERT_OK_AND_ASSIGN(const uint64_t read, ReadVarint(bytes, &position));
    EXPECT_EQ(read, value);
    EXPECT_EQ(position, bytes.size());
  }
}

TEST(OrcVarintTest, SpecZigZagTable) {
  const std::vector<std::pair<int64_t, uint8_t>> table = {{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {2, 4}};
  for (const auto& [value, zigzag] : table) {
    std::vector<uint8_t> out;
    AppendSignedVarint(value, &out);
    EXPECT_EQ(out, std::vector<uint8_t>{zigzag}) << value;
    size_t position = 0;
    PQPAGE_ASSERT_OK_AND_ASSIGN(const int64_t read, ReadSignedVarint(out, &position));
    EXPECT_EQ(read, value);
  }
}

TEST(OrcVarintTest, RoundTripsExtremes) {
  std::vector<int64_t> values = {std::numeric_limits<int64_t>::min(),
                                 std::numeric_limits<int64_t>::max(), -1, 0, 1};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) values.push_back(static_cast<int64_t>(rng()) >> (rng() % 64));
  std::vector<uint8_t> out;
  for (int64_t value : values) {
    AppendSignedVarint(value, &out);
    AppendVarint(static_cast<uint64_t>(value), &out);
  }
  size_t position = 0;
  for (int64_t value : values) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(const int64_t signed_value, ReadSignedVarint(out, &position));
    EXPECT_EQ(signed_value, value);
    PQPAGE_ASSERT_OK_AND_ASSIGN(const uint64_t unsigned_value, ReadVarint(out, &position));
    EXPECT_EQ(unsigned_value, static_cast<uint64_t>(value));
  }
  EXPECT_EQ(position, out.size());
}

TEST(OrcVarintTest, Decimal128RoundTripsAndLimits) {
  // 10^38 - 1, the largest unscaled value of a DECIMAL(38), and its negation.
  absl::int128 largest = 1;
  for (int i = 0; i < 38; ++i) largest *= 10;
  largest -= 1;
  const std::vector<absl::int128> values = {0,
                                            1,
                                            -1,
                                            largest,
                                            -largest,
                                            std::numeric_limits<absl::int128>::max(),
                                            std::numeric_limits<absl::int128>::min()};
  for (const absl::int128 value : values) {
    std::vector<uint8_t> out;
    const size_t bytes = AppendSignedVarint128(value, &out);
    EXPECT_EQ(bytes, out.size());
    EXPECT_LE(bytes, kMaxVarint128Bytes);
    size_t position = 0;
    PQPAGE_ASSERT_OK_AND_ASSIGN(const absl::int128 read, ReadSignedVarint128(out, &position));
    EXPECT_EQ(read, value);
  }
  // -1 is zigzag 1; small values match the 64-bit form.
  std::vector<uint8_t> small;
  AppendSignedVarint128(-1234567, &small);
  std::vector<uint8_t> small64;
  AppendSignedVarint(-1234567, &small64);
  EXPECT_EQ(small, small64);
}

TEST(OrcVarintTest, RejectsOverlongAndTruncated) {
  // Eleven continuation bytes: longer than 64 bits allows.
  const std::vector<uint8_t> overlong(11, 0x80);
  size_t position = 0;
  PQPAGE_EXPECT_ERROR(ReadVarint(overlong, &position), StatusCode::kDataLoss);
  // A tenth byte carrying more than the one bit 64 has left.
  std::vector<uint8_t> too_wide(9, 0xff);
  too_wide.push_back(0x02);
  position = 0;
  PQPAGE_EXPECT_ERROR(ReadVarint(too_wide, &position), StatusCode::kDataLoss);
  // 2^64 - 1 is fine.
  too_wide.back() = 0x01;
  position = 0;
  PQPAGE_EXPECT_OK(ReadVarint(too_wide, &position).status());
  // 128 bits: a 19th byte may hold only two bits.
  std::vector<uint8_t> wide128(18, 0xff);
  wide128.push_back(0x04);
  position = 0;
  PQPAGE_EXPECT_ERROR(ReadSignedVarint128(wide128, &position), StatusCode::kDataLoss);
  const std::vector<uint8_t> overlong128(20, 0x80);
  position = 0;
  PQPAGE_EXPECT_ERROR(ReadSignedVarint128(overlong128, &position), StatusCode::kDataLoss);
  // Every truncation of a long varint, and a position past the end.
  std::vector<uint8_t> full;
  AppendVarint(std::numeric_limits<uint64_t>::max(), &full);
  for (size_t length = 0; length < full.size(); ++length) {
    const std::vector<uint8_t> cut(full.begin(), full.begin() + length);
    position = 0;
    PQPAGE_EXPECT_ERROR(ReadVarint(cut, &position), StatusCode::kDataLoss);
    position = 0;
    PQPAGE_EXPECT_ERROR(ReadSignedVarint128(cut, &position), StatusCode::kDataLoss);
  }
  position = full.size() + 1;
  PQPAGE_EXPECT_ERROR(ReadVarint(full, &position), StatusCode::kDataLoss);
}

}  // namespace
}  // namespace pqpage::orc
