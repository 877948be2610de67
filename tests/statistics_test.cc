#include "page/write/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace pqpage::internal {
namespace {

template <typename T>
std::string Bytes(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

template <typename T>
T Value(const std::string& bytes) {
  T value{};
  EXPECT_EQ(bytes.size(), sizeof(T));
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

// A column of `type` with no logical type: the physical type's order.
ColumnDescriptor Column(PhysicalType type) {
  ColumnDescriptor column;
  column.path = {"c"};
  column.type = type;
  return column;
}

TEST(StatisticsTest, Int32IsSigned) {
  StatisticsAccumulator stats(Column(PhysicalType::kInt32));
  std::vector<int32_t> values = {5, -7, 3, std::numeric_limits<int32_t>::max(), -1};
  stats.Update(absl::MakeConstSpan(values));
  stats.AddNulls(2);
  Statistics s = stats.ToStatistics();
  ASSERT_TRUE(s.min_value && s.max_value);
  EXPECT_EQ(Value<int32_t>(*s.min_value), -7);
  EXPECT_EQ(Value<int32_t>(*s.max_value), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(s.null_count, 2);
  // The deprecated fields carry the same bounds for signed-order types.
  EXPECT_EQ(s.legacy_min, s.min_value);
  EXPECT_EQ(s.legacy_max, s.max_value);
}

TEST(StatisticsTest, Int64AcrossBatchesAndMerge) {
  StatisticsAccumulator a(Column(PhysicalType::kInt64));
  StatisticsAccumulator b(Column(PhysicalType::kInt64));
  std::vector<int64_t> first = {10, 20};
  std::vector<int64_t> second = {-(int64_t{1} << 40), 15};
  std::vector<int64_t> third = {int64_t{1} << 50};
  a.Update(absl::MakeConstSpan(first));
  a.Update(absl::MakeConstSpan(second));
  b.Update(absl::MakeConstSpan(third));
  b.AddNulls(3);
  a.Merge(b);
  Statistics s = a.ToStatistics();
  EXPECT_EQ(Value<int64_t>(*s.min_value), -(int64_t{1} << 40));
  EXPECT_EQ(Value<int64_t>(*s.max_value), int64_t{1} << 50);
  EXPECT_EQ(s.null_count, 3);
}

TEST(StatisticsTest, DoubleIgnoresNaN) {
  StatisticsAccumulator stats(Column(PhysicalType::kDouble));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values = {nan, 2.5, nan, -1.5, 7.0, nan};
  stats.Update(absl::MakeConstSpan(values));
  Statistics s = stats.ToStatistics();
  ASSERT_TRUE(s.min_value && s.max_value);
  EXPECT_EQ(Value<double>(*s.min_value), -1.5);
  EXPECT_EQ(Value<double>(*s.max_value), 7.0);
}

TEST(StatisticsTest, AllNaNHasNoBounds) {
  StatisticsAccumulator stats(Column(PhysicalType::kFloat));
  std::vector<float> values(5, std::numeric_limits<float>::quiet_NaN());
  stats.Update(absl::MakeConstSpan(values));
  Statistics s = stats.ToStatistics();
  EXPECT_FALSE(s.min_value.has_value());
  EXPECT_FALSE(s.max_value.has_value());
  EXPECT_FALSE(s.legacy_min.has_value());
  EXPECT_EQ(s.null_count, 0);
}

TEST(StatisticsTest, ZeroBoundsAreSignedZeros) {
  // Only +0.0 given: the min must still be -0.0 and the max +0.0.
  StatisticsAccumulator stats(Column(PhysicalType::kDouble));
  std::vector<double> values = {0.0, 0.0};
  stats.Update(absl::MakeConstSpan(values));
  Statistics s = stats.ToStatistics();
  EXPECT_EQ(*s.min_value, Bytes(-0.0));
  EXPECT_EQ(*s.max_value, Bytes(0.0));

  // Only -0.0 given (float).
  StatisticsAccumulator f(Column(PhysicalType::kFloat));
  std::vector<float> negative = {-0.0f, 3.0f};
  f.Update(absl::MakeConstSpan(negative));
  Statistics fs = f.ToStatistics();
  EXPECT_EQ(*fs.min_value, Bytes(-0.0f));
  EXPECT_EQ(*fs.max_value, Bytes(3.0f));

  StatisticsAccumulator g(Column(PhysicalType::kFloat));
  std::vector<float> below = {-2.0f, -0.0f};
  g.Update(absl::MakeConstSpan(below));
  Statistics gs = g.ToStatistics();
  EXPECT_EQ(*gs.min_value, Bytes(-2.0f));
  EXPECT_EQ(*gs.max_value, Bytes(0.0f));
  EXPECT_FALSE(std::signbit(Value<float>(*gs.max_value)));
}

TEST(StatisticsTest, AllNullHasOnlyNullCount) {
  StatisticsAccumulator stats(Column(PhysicalType::kByteArray));
  stats.AddNulls(4);
  Statistics s = stats.ToStatistics();
  EXPECT_FALSE(s.min_value.has_value());
  EXPECT_FALSE(s.max_value.has_value());
  EXPECT_EQ(s.null_count, 4);
}

TEST(StatisticsTest, ByteArrayUnsignedOrder) {
  StatisticsAccumulator stats(Column(PhysicalType::kByteArray));
  const std::string high("\x80\x01", 2);
  const std::string low("\x7f\xff\xff", 3);
  const std::string empty;
  const std::string prefix("\x80", 1);
  std::vector<ByteArray> values = {ByteArray(high), ByteArray(low), ByteArray(prefix),
                                   ByteArray(empty)};
  stats.Update(absl::MakeConstSpan(values));
  Statistics s = stats.ToStatistics();
  EXPECT_EQ(*s.min_value, empty);
  EXPECT_EQ(*s.max_value, high);
  // Byte arrays had an inconsistent legacy order: the deprecated fields stay unset.
  EXPECT_FALSE(s.legacy_min.has_value());
  EXPECT_FALSE(s.legacy_max.has_value());

  StatisticsAccumulator no_empty(Column(PhysicalType::kFixedLenByteArray));
  std::vector<ByteArray> fixed = {ByteArray(std::string_view("\xff\x00", 2)),
                                  ByteArray(std::string_view("\x00\xff", 2)),
                                  ByteArray(std::string_view("\x80\x80", 2))};
  no_empty.Update(absl::MakeConstSpan(fixed));
  Statistics f = no_empty.ToStatistics();
  EXPECT_EQ(*f.min_value, std::string("\x00\xff", 2));
  EXPECT_EQ(*f.max_value, std::string("\xff\x00", 2));
}

// The bounds are found on the values' first 8 bytes where those differ: values that agree on them,
// or end within them, or hold zero bytes there, must still come out as a byte-by-byte comparison
// finds them, whatever the order they come in.
TEST(StatisticsTest, ByteArrayBoundsAgreeWithByteComparisonAroundTheFirstEightBytes) {
  std::mt19937_64 random(5);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> texts;
    const size_t shared = random() % 12;  // a prefix every value starts with, up to past 8 bytes
    std::string prefix;
    for (size_t i = 0; i < shared; ++i) prefix.push_back(static_cast<char>(random() % 3));
    const size_t count = 1 + random() % 40;
    for (size_t i = 0; i < count; ++i) {
      std::string text = prefix.substr(0, random() % (shared + 1));
      const size_t tail = random() % 6;
      for (size_t j = 0; j < tail; ++j) {
        text.push_back(static_cast<char>(random() % 2 == 0 ? random() % 3 : 0xfe + random() % 2));
      }
      texts.push_back(std::move(text));
    }
    std::vector<ByteArray> values(texts.begin(), texts.end());
    StatisticsAccumulator stats(Column(PhysicalType::kByteArray));
    stats.Update(absl::MakeConstSpan(values));
    const Statistics got = stats.ToStatistics();
    // std::string compares its chars as unsigned char, as the unsigned byte order does.
    EXPECT_EQ(*got.min_value, *std::min_element(texts.begin(), texts.end())) << round;
    EXPECT_EQ(*got.max_value, *std::max_element(texts.begin(), texts.end())) << round;
  }
}

TEST(StatisticsTest, BooleanFalseBeforeTrue) {
  StatisticsAccumulator stats(Column(PhysicalType::kBoolean));
  bool buffer[2] = {true, true};
  stats.Update(absl::Span<const bool>(buffer, 2));
  Statistics s = stats.ToStatistics();
  EXPECT_EQ(*s.min_value, std::string(1, '\x01'));
  EXPECT_EQ(*s.max_value, std::string(1, '\x01'));
  bool mixed[3] = {true, false, true};
  stats.Update(absl::Span<const bool>(mixed, 3));
  s = stats.ToStatistics();
  EXPECT_EQ(*s.min_value, std::string(1, '\x00'));
  EXPECT_EQ(*s.max_value, std::string(1, '\x01'));
  EXPECT_EQ(s.legacy_min, s.min_value);
}

TEST(StatisticsTest, Int96HasNoOrder) {
  StatisticsAccumulator stats(Column(PhysicalType::kInt96));
  Int96 values[2];
  values[0].words[2] = 5;
  stats.Update(absl::Span<const Int96>(values, 2));
  stats.AddNulls(1);
  Statistics s = stats.ToStatistics();
  EXPECT_FALSE(s.min_value.has_value());
  EXPECT_FALSE(s.max_value.has_value());
  EXPECT_EQ(s.null_count, 1);
}

TEST(StatisticsTest, ResetForgetsEverything) {
  StatisticsAccumulator stats(Column(PhysicalType::kInt32));
  int32_t values[2] = {1, 2};
  stats.Update(absl::Span<const int32_t>(values, 2));
  stats.AddNulls(1);
  stats.Reset();
  Statistics s = stats.ToStatistics();
  EXPECT_FALSE(s.min_value.has_value());
  EXPECT_EQ(s.null_count, 0);
}

TEST(StatisticsTest, CompareEncodedValues) {
  EXPECT_LT(CompareEncodedValues(PhysicalType::kInt32, SortOrder::kPhysical, Bytes<int32_t>(-1),
                                 Bytes<int32_t>(1)),
            0);
  EXPECT_GT(CompareEncodedValues(PhysicalType::kByteArray, SortOrder::kPhysical, "\x80", "\x7f"),
            0);
  EXPECT_EQ(
      CompareEncodedValues(PhysicalType::kDouble, SortOrder::kPhysical, Bytes(-0.0), Bytes(0.0)),
      0);
}

ColumnDescriptor WithLogical(PhysicalType type, LogicalType logical, int type_length = 0) {
  ColumnDescriptor column;
  column.path = {"c"};
  column.type = type;
  column.type_length = type_length;
  column.logical_type = logical;
  return column;
}

LogicalType Unsigned(int8_t bits) {
  LogicalType logical;
  logical.kind = LogicalKind::kInteger;
  logical.bit_width = bits;
  logical.is_signed = false;
  return logical;
}

LogicalType Decimal(int32_t precision, int32_t scale) {
  LogicalType logical;
  logical.kind = LogicalKind::kDecimal;
  logical.precision = precision;
  logical.scale = scale;
  return logical;
}

TEST(StatisticsTest, UnsignedIntegersSortUnsigned) {
  // UINT_32 values above 2^31 are negative as int32: signed bounds would say [3e9, 7].
  StatisticsAccumulator stats(WithLogical(PhysicalType::kInt32, Unsigned(32)));
  const std::vector<int32_t> values = {5, static_cast<int32_t>(3000000000u), 7};
  stats.Update(absl::MakeConstSpan(values));
  Statistics s = stats.ToStatistics();
  EXPECT_EQ(*s.min_value, Bytes<int32_t>(5));
  EXPECT_EQ(*s.max_value, Bytes<int32_t>(static_cast<int32_t>(3000000000u)));
  // The deprecated fields were compared signed by their readers: not written.
  EXPECT_FALSE(s.legacy_min.has_value());
  StatisticsAccumulator wide(WithLogical(PhysicalType::kInt64, Unsigned(64)));
  const std::vector<int64_t> big = {-1, 1};  // 2^64 - 1 and 1
  wide.Update(absl::MakeConstSpan(big));
  EXPECT_EQ(*wide.ToStatistics().min_value, Bytes<int64_t>(1));
  EXPECT_EQ(*wide.ToStatistics().max_value, Bytes<int64_t>(-1));
  // Pages merge in the same order.
  StatisticsAccumulator chunk(WithLogical(PhysicalType::kInt32, Unsigned(32)));
  chunk.Merge(stats);
  StatisticsAccumulator other(WithLogical(PhysicalType::kInt32, Unsigned(32)));
  const std::vector<int32_t> more = {-2};  // 2^32 - 2
  other.Update(absl::MakeConstSpan(more));
  chunk.Merge(other);
  EXPECT_EQ(*chunk.ToStatistics().max_value, Bytes<int32_t>(-2));
  EXPECT_EQ(*chunk.ToStatistics().min_value, Bytes<int32_t>(5));
}

TEST(StatisticsTest, ByteArrayDecimalsSortAsSignedNumbers) {
  // -300 (fe d4), -1 (ff), 0 (empty and 00), 1 (01), 127 (7f), 128 (00 80), 70000 (01 11 70):
  // bytewise, ff would be the largest and the empty string the smallest.
  StatisticsAccumulator stats(WithLogical(PhysicalType::kByteArray, Decimal(10, 2)));
  const std::vector<std::string> numbers = {
      std::string("\x01", 1),     std::string("\xff", 1),         std::string(),
      std::string("\x00\x80", 2), std::string("\x01\x11\x70", 3), std::string("\xfe\xd4", 2),
      std::string("\x7f", 1),     std::string("\x00", 1)};
  std::vector<ByteArray> values;
  for (const std::string& n : numbers) values.emplace_back(n);
  stats.Update(absl::MakeConstSpan(values));
  Statistics s = stats.ToStatistics();
  EXPECT_EQ(*s.min_value, std::string("\xfe\xd4", 2));
  EXPECT_EQ(*s.max_value, std::string("\x01\x11\x70", 3));
  const ColumnDescriptor column = WithLogical(PhysicalType::kByteArray, Decimal(10, 2));
  // Sign-extended forms of one number are equal; a longer negative is further from zero.
  EXPECT_EQ(CompareEncodedValues(column, std::string("\xff\xff", 2), std::string("\xff", 1)), 0);
  EXPECT_EQ(CompareEncodedValues(column, std::string("\x00\x01", 2), std::string("\x01", 1)), 0);
  EXPECT_LT(CompareEncodedValues(column, std::string("\xff\x7f", 2), std::string("\x80", 1)), 0);
  EXPECT_GT(CompareEncodedValues(column, std::string("\x00\x80", 2), std::string("\x7f", 1)), 0);
  // FIXED_LEN_BYTE_ARRAY decimals likewise.
  StatisticsAccumulator fixed(WithLogical(PhysicalType::kFixedLenByteArray, Decimal(4, 0), 2));
  const std::vector<ByteArray> pairs = {ByteArray(std::string_view("\x80\x00", 2)),
                                        ByteArray(std::string_view("\x7f\xff", 2)),
                                        ByteArray(std::string_view("\xff\xff", 2))};
  fixed.Update(absl::MakeConstSpan(pairs));
  EXPECT_EQ(*fixed.ToStatistics().min_value, std::string("\x80\x00", 2));
  EXPECT_EQ(*fixed.ToStatistics().max_value, std::string("\x7f\xff", 2));
}

TEST(StatisticsTest, NoBoundsWhereTheOrderIsUndefinedOrNotImplemented) {
  LogicalType interval;
  interval.kind = LogicalKind::kInterval;
  LogicalType float16;
  float16.kind = LogicalKind::kFloat16;
  for (const auto& [logical, length] : {std::pair{interval, 12}, std::pair{float16, 2}}) {
    StatisticsAccumulator stats(WithLogical(PhysicalType::kFixedLenByteArray, logical, length));
    const std::string one(static_cast<size_t>(length), '\x01');
    const std::string two(static_cast<size_t>(length), '\x02');
    const std::vector<ByteArray> values = {ByteArray(one), ByteArray(two)};
    stats.Update(absl::MakeConstSpan(values));
    stats.AddNulls(1);
    Statistics s = stats.ToStatistics();
    EXPECT_FALSE(s.min_value.has_value());
    EXPECT_EQ(s.null_count, 1);
  }
}

TEST(StatisticsTest, SortOrderFollowsTheLogicalType) {
  EXPECT_EQ(SortOrderOf(WithLogical(PhysicalType::kInt32, Unsigned(8))), SortOrder::kUnsigned);
  LogicalType signed_int = Unsigned(16);
  signed_int.is_signed = true;
  EXPECT_EQ(SortOrderOf(WithLogical(PhysicalType::kInt32, signed_int)), SortOrder::kPhysical);
  EXPECT_EQ(SortOrderOf(WithLogical(PhysicalType::kInt64, Decimal(18, 2))), SortOrder::kPhysical);
  EXPECT_EQ(SortOrderOf(WithLogical(PhysicalType::kByteArray, Decimal(30, 2))),
            SortOrder::kSignedDecimal);
  LogicalType text;
  text.kind = LogicalKind::kString;
  EXPECT_EQ(SortOrderOf(WithLogical(PhysicalType::kByteArray, text)), SortOrder::kPhysical);
  EXPECT_EQ(SortOrderOf(WithLogical(PhysicalType::kInt96, LogicalType())), SortOrder::kNone);
}

}  // namespace
}  // namespace pqpage::internal
