// LookupValue and FindRows (pqpage/lookup.h) against a brute-force scan of the values written:
// never a row missed, FindRows exactly the rows holding the value, and each test (statistics,
// bloom filter, page index) ruling out what it should. Also ParseValueText (pqpage/value_text.h).
#include "pqpage/lookup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "column_data_helpers.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "pqpage/value_text.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using testing::ColumnData;

constexpr int kGroups = 3;
constexpr int64_t kRowsPerGroup = 4000;

template <typename T>
std::string Plain(T value) {
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

// The values of every row, kept to compare with: id (sorted), user (random), name (optional
// strings), tags (0..3 INT32 per row), score (DOUBLE with -0.0 and NaN).
struct Table {
  std::vector<int64_t> id;
  std::vector<int64_t> user;
  std::vector<std::optional<std::string>> name;
  std::vector<std::vector<int32_t>> tags;
  std::vector<double> score;
};

Schema MakeSchema() {
  auto schema =
      Schema::Builder()
          .AddPrimitive("id", Repetition::kRequired, PhysicalType::kInt64)
          .AddPrimitive("user", Repetition::kRequired, PhysicalType::kInt64)
          .AddPrimitive("name", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
          .AddPrimitive("tags", Repetition::kRepeated, PhysicalType::kInt32)
          .AddPrimitive("score", Repetition::kRequired, PhysicalType::kDouble)
          .Build();
  EXPECT_TRUE(schema.ok());
  return *schema;
}

// Writes the table with `options` (pages of 200 rows) and returns what it holds.
Table WriteTable(const std::string& path, WriterOptions options) {
  options.data_page_row_limit = 200;
  Table table;
  std::mt19937_64 rng(7);
  const Schema schema = MakeSchema();
  auto file = FileWriter::Open(path, schema);
  EXPECT_TRUE(file.ok());
  for (int g = 0; g < kGroups; ++g) {
    ColumnData<int64_t> id;
    ColumnData<int64_t> user;
    ColumnData<ByteArray> name;
    ColumnData<int32_t> tags;
    ColumnData<double> score;
    for (int64_t r = 0; r < kRowsPerGroup; ++r) {
      const int64_t row = g * kRowsPerGroup + r;
      table.id.push_back(row * 2);
      id.values.push_back(row * 2);
      table.user.push_back(static_cast<int64_t>(rng() % 40000));
      user.values.push_back(table.user.back());
      if (rng() % 6 == 0) {
        table.name.emplace_back();
        name.def.push_back(0);
      } else {
        table.name.emplace_back(absl::StrCat("name-", rng() % 3000));
        name.def.push_back(1);
        name.values.push_back(name.AddBytes(*table.name.back()));
      }
      const int elements = static_cast<int>(rng() % 4);
      table.tags.emplace_back();
      if (elements == 0) {
        tags.def.push_back(0);
        tags.rep.push_back(0);
      }
      for (int e = 0; e < elements; ++e) {
        table.tags.back().push_back(static_cast<int32_t>(rng() % 2000));
        tags.values.push_back(table.tags.back().back());
        tags.def.push_back(1);
        tags.rep.push_back(e == 0 ? 0 : 1);
      }
      const uint64_t pick = rng() % 50;
      const double value = pick == 0   ? -0.0
                           : pick == 1 ? std::numeric_limits<double>::quiet_NaN()
                                       : static_cast<double>(rng() % 1000) / 4;
      table.score.push_back(value);
      score.values.push_back(value);
    }
    PQPAGE_EXPECT_OK(testing::WriteRowGroup(**file, schema, options, id, user, name, tags, score));
  }
  PQPAGE_EXPECT_OK((*file)->Close());
  return table;
}

WriterOptions WithFilters() {
  WriterOptions options;
  options.bloom_filter.enabled = true;
  options.bloom_filter.fpp = 0.01;
  return options;
}

// The rows holding `value` in `column` of `table`, by looking at every one.
std::vector<int64_t> BruteForce(const Table& table, int column, const std::string& value) {
  std::vector<int64_t> rows;
  for (size_t r = 0; r < table.id.size(); ++r) {
    bool hit = false;
    switch (column) {
      case 0:
        hit = Plain(table.id[r]) == value;
        break;
      case 1:
        hit = Plain(table.user[r]) == value;
        break;
      case 2:
        hit = table.name[r].has_value() && *table.name[r] == value;
        break;
      case 3:
        for (const int32_t tag : table.tags[r]) hit = hit || Plain(tag) == value;
        break;
      case 4: {
        double wanted;
        std::memcpy(&wanted, value.data(), 8);
        hit = table.score[r] == wanted || (std::isnan(wanted) && std::isnan(table.score[r]));
        break;
      }
    }
    if (hit) rows.push_back(static_cast<int64_t>(r));
  }
  return rows;
}

// Every brute-force row lies in a range the lookup left, and FindRows returns exactly them.
void ExpectExact(const FileReader& file, const Table& table, int column, const std::string& value,
                 const std::string& where, ValueLookup* out = nullptr) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(ValueLookup lookup, LookupValue(file, column, value, {}));
  const std::vector<int64_t> expected = BruteForce(table, column, value);
  for (const int64_t row : expected) {
    const RowGroupLookup& group = lookup.row_groups[static_cast<size_t>(row / kRowsPerGroup)];
    const int64_t in_group = row % kRowsPerGroup;
    bool covered = false;
    for (const RowRange& range : group.rows) {
      covered = covered || (range.begin <= in_group && in_group < range.end);
    }
    ASSERT_TRUE(covered) << where << ": row " << row << " was ruled out";
  }
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<int64_t> found, FindRows(file, lookup, {}));
  EXPECT_EQ(found, expected) << where;
  if (out != nullptr) *out = std::move(lookup);
}

TEST(LookupTest, NeverAFalseNegativeAndFindRowsIsExact) {
  const std::string path = testing::TestTempPath("lookup.parquet");
  const Table table = WriteTable(path, WithFilters());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::Open(path));
  std::mt19937_64 rng(11);
  for (int probe = 0; probe < 60; ++probe) {
    const size_t row = rng() % table.id.size();
    const bool present = probe % 2 == 0;
    ExpectExact(*file, table, 0, Plain<int64_t>(present ? table.id[row] : table.id[row] + 1),
                absl::StrCat("id probe ", probe));
    ExpectExact(*file, table, 1, Plain<int64_t>(present ? table.user[row] : 40000 + probe),
                absl::StrCat("user probe ", probe));
    ExpectExact(*file, table, 2,
                present && table.name[row] ? *table.name[row] : absl::StrCat("absent-", probe),
                absl::StrCat("name probe ", probe));
    ExpectExact(
        *file, table, 3,
        Plain<int32_t>(present && !table.tags[row].empty() ? table.tags[row][0] : 5000 + probe),
        absl::StrCat("tags probe ", probe));
    ExpectExact(*file, table, 4, Plain<double>(present ? table.score[row] : 0.125),
                absl::StrCat("score probe ", probe));
  }
}

TEST(LookupTest, EachTestRulesOutWhatItShould) {
  const std::string path = testing::TestTempPath("lookup.parquet");
  const Table table = WriteTable(path, WithFilters());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::Open(path));
  // A sorted id: statistics rule out the other row groups, the page index all pages but one.
  ValueLookup lookup;
  ExpectExact(*file, table, 0, Plain<int64_t>(table.id[5000]), "sorted", &lookup);
  EXPECT_EQ(lookup.row_groups[0].statistics, LookupCheck::kRuledOut);
  EXPECT_EQ(lookup.row_groups[0].bloom_filter, LookupCheck::kNotRun);
  EXPECT_EQ(lookup.row_groups[1].statistics, LookupCheck::kMayHold);
  EXPECT_EQ(lookup.row_groups[1].bloom_filter, LookupCheck::kMayHold);
  EXPECT_EQ(lookup.row_groups[1].page_index, LookupCheck::kMayHold);
  EXPECT_EQ(lookup.row_groups[1].pages, kRowsPerGroup / 200);
  EXPECT_EQ(lookup.row_groups[1].pages_may_hold, 1);
  ASSERT_EQ(lookup.row_groups[1].rows.size(), 1u);
  EXPECT_EQ(lookup.row_groups[1].rows[0].end - lookup.row_groups[1].rows[0].begin, 200);
  // Absent random users inside the bounds: the bloom filter rules out nearly every group.
  int ruled_out = 0;
  int tests = 0;
  for (int64_t user = 0; user < 40000 && tests < 600; user += 61) {
    const std::string value = Plain<int64_t>(user);
    if (!BruteForce(table, 1, value).empty()) continue;
    PQPAGE_ASSERT_OK_AND_ASSIGN(ValueLookup absent, LookupValue(*file, 1, value, {}));
    for (const RowGroupLookup& group : absent.row_groups) {
      ++tests;
      EXPECT_EQ(group.statistics, LookupCheck::kMayHold);
      ruled_out += group.bloom_filter == LookupCheck::kRuledOut;
    }
  }
  EXPECT_GE(ruled_out, tests * 95 / 100) << ruled_out << " of " << tests;
}

// 0.0 and -0.0 are one value (they hash apart, so both are probed); NaN finds the NaNs, with
// only the bloom filter to test.
TEST(LookupTest, SignedZerosAreOneValueAndNaNFindsNaN) {
  const std::string path = testing::TestTempPath("lookup.parquet");
  const Table table = WriteTable(path, WithFilters());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::Open(path));
  ValueLookup lookup;
  ExpectExact(*file, table, 4, Plain<double>(0.0), "zero", &lookup);
  for (const RowGroupLookup& group : lookup.row_groups) {
    EXPECT_EQ(group.bloom_filter, LookupCheck::kMayHold);
  }
  ExpectExact(*file, table, 4, Plain<double>(std::numeric_limits<double>::quiet_NaN()), "nan",
              &lookup);
  for (const RowGroupLookup& group : lookup.row_groups) {
    EXPECT_EQ(group.statistics, LookupCheck::kNone);
    EXPECT_EQ(group.page_index, LookupCheck::kNone);
  }
}

TEST(LookupTest, WithoutFiltersOrIndexNothingIsMissed) {
  const std::string path = testing::TestTempPath("plain.parquet");
  WriterOptions options;
  const Table table = WriteTable(path, options);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::Open(path));
  ValueLookup lookup;
  ExpectExact(*file, table, 2, *table.name[3], "name", &lookup);
  for (const RowGroupLookup& group : lookup.row_groups) {
    EXPECT_EQ(group.bloom_filter, LookupCheck::kNone);
  }
  ExpectExact(*file, table, 3, Plain<int32_t>(table.tags[8].empty() ? 1 : table.tags[8][0]),
              "tags");
}

// A damaged bloom filter is a warning and is not used; the answer stays right.
TEST(LookupTest, ADamagedFilterIsAWarningNotAWrongAnswer) {
  const std::string path = testing::TestTempPath("lookup.parquet");
  const Table table = WriteTable(path, WithFilters());
  int64_t offset = 0;
  {
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::Open(path));
    offset = *file->metadata().row_groups[1].columns[1].meta_data->bloom_filter_offset;
  }
  {
    std::fstream bytes(path, std::ios::in | std::ios::out | std::ios::binary);
    bytes.seekp(offset);
    const char garbage[3] = {'\x15', '\x7f', '\x00'};  // numBytes -64, then no more fields
    bytes.write(garbage, sizeof(garbage));
  }
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::Open(path));
  std::vector<std::string> warnings;
  const std::string value = Plain<int64_t>(table.user[kRowsPerGroup + 10]);
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      ValueLookup lookup,
      LookupValue(*file, 1, value, [&](const std::string& w) { warnings.push_back(w); }));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("bloom filter"), std::string::npos) << warnings[0];
  EXPECT_EQ(lookup.row_groups[1].bloom_filter, LookupCheck::kNone);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<int64_t> found, FindRows(*file, lookup, {}));
  EXPECT_EQ(found, BruteForce(table, 1, value));
}

TEST(LookupTest, SeveralValuesAnswerAsEachAlone) {
  const std::string path = testing::TestTempPath("lookup.parquet");
  const Table table = WriteTable(path, WithFilters());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::Open(path));
  const std::vector<std::string> values = {Plain<int64_t>(table.user[1]), Plain<int64_t>(-5),
                                           Plain<int64_t>(table.user[9000])};
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<ValueLookup> together,
                              LookupValues(*file, 1, values, {}));
  ASSERT_EQ(together.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(ValueLookup alone, LookupValue(*file, 1, values[i], {}));
    ASSERT_EQ(together[i].row_groups.size(), alone.row_groups.size());
    for (size_t g = 0; g < alone.row_groups.size(); ++g) {
      EXPECT_EQ(together[i].row_groups[g].bloom_filter, alone.row_groups[g].bloom_filter);
      EXPECT_EQ(together[i].row_groups[g].rows, alone.row_groups[g].rows);
    }
  }
}

TEST(LookupTest, BadArgumentsAreRefused) {
  const std::string path = testing::TestTempPath("lookup.parquet");
  WriteTable(path, WithFilters());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::Open(path));
  PQPAGE_EXPECT_ERROR(LookupValue(*file, 9, Plain<int64_t>(1), {}),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(LookupValue(*file, 0, Plain<int32_t>(1), {}),
                      absl::StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------- ParseValueText

ColumnDescriptor Column(PhysicalType type, LogicalType logical = {}, int type_length = 0) {
  ColumnDescriptor column;
  column.path = {"c"};
  column.type = type;
  column.type_length = type_length;
  column.logical_type = logical;
  return column;
}

TEST(ParseValueTextTest, NumbersDatesTimestampsAndDecimals) {
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kInt32), "-7"), Plain<int32_t>(-7));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kInt64), "9007199254740993"),
                          Plain<int64_t>(9007199254740993));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kDouble), "2.5"), Plain(2.5));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kFloat), "-0.25"), Plain(-0.25f));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kBoolean), "true"),
                          std::string(1, '\1'));
  LogicalType date;
  date.kind = LogicalKind::kDate;
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kInt32, date), "1970-01-11"),
                          Plain<int32_t>(10));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kInt32, date), "2000-03-01"),
                          Plain<int32_t>(11017));
  LogicalType micros;
  micros.kind = LogicalKind::kTimestamp;
  micros.unit = TimeUnit::kMicros;
  PQPAGE_EXPECT_OK_AND_EQ(
      ParseValueText(Column(PhysicalType::kInt64, micros), "1970-01-01T00:00:01.5Z"),
      Plain<int64_t>(1'500'000));
  PQPAGE_EXPECT_OK_AND_EQ(
      ParseValueText(Column(PhysicalType::kInt64, micros), "1970-01-01 00:01:00"),
      Plain<int64_t>(60'000'000));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kInt64, micros), "42"),
                          Plain<int64_t>(42));
  LogicalType decimal;
  decimal.kind = LogicalKind::kDecimal;
  decimal.precision = 9;
  decimal.scale = 2;
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kInt32, decimal), "-12.5"),
                          Plain<int32_t>(-1250));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kInt64, decimal), "3.100"),
                          Plain<int64_t>(310));
  // Big-endian two's complement: the fewest bytes for BYTE_ARRAY, type_length for FLBA.
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kByteArray, decimal), "-1.28"),
                          std::string("\x80", 1));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kByteArray, decimal), "1.28"),
                          std::string("\x00\x80", 2));
  PQPAGE_EXPECT_OK_AND_EQ(
      ParseValueText(Column(PhysicalType::kFixedLenByteArray, decimal, 4), "-0.01"),
      std::string("\xff\xff\xff\xff", 4));
  LogicalType uint8;
  uint8.kind = LogicalKind::kInteger;
  uint8.bit_width = 8;
  uint8.is_signed = false;
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kInt32, uint8), "255"),
                          Plain<int32_t>(255));
}

TEST(ParseValueTextTest, BytesTextHexAndUuid) {
  LogicalType string;
  string.kind = LogicalKind::kString;
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kByteArray, string), "0xab"),
                          std::string("0xab"));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kByteArray), "0xab01"),
                          std::string("\xab\x01", 2));
  PQPAGE_EXPECT_OK_AND_EQ(ParseValueText(Column(PhysicalType::kFixedLenByteArray, {}, 3), "abc"),
                          std::string("abc"));
  LogicalType uuid;
  uuid.kind = LogicalKind::kUuid;
  PQPAGE_EXPECT_OK_AND_EQ(
      ParseValueText(Column(PhysicalType::kFixedLenByteArray, uuid, 16),
                     "00112233-4455-6677-8899-aabbccddeeff"),
      std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16));
}

TEST(ParseValueTextTest, TextTheColumnCannotHoldIsRefused) {
  LogicalType decimal;
  decimal.kind = LogicalKind::kDecimal;
  decimal.precision = 4;
  decimal.scale = 2;
  LogicalType int8;
  int8.kind = LogicalKind::kInteger;
  int8.bit_width = 8;
  const std::vector<std::pair<ColumnDescriptor, std::string>> bad = {
      {Column(PhysicalType::kInt32), "12x"},
      {Column(PhysicalType::kInt32), "4294967296"},
      {Column(PhysicalType::kInt32, int8), "200"},
      {Column(PhysicalType::kInt32, decimal), "1.234"},
      {Column(PhysicalType::kDouble), "two"},
      {Column(PhysicalType::kBoolean), "yes"},
      {Column(PhysicalType::kByteArray), "0xabc"},
      {Column(PhysicalType::kFixedLenByteArray, {}, 4), "abc"},
      {Column(PhysicalType::kFixedLenByteArray, decimal, 1), "99.99"},
  };
  for (const auto& [column, text] : bad) {
    PQPAGE_EXPECT_ERROR(ParseValueText(column, text), absl::StatusCode::kInvalidArgument);
  }
  PQPAGE_EXPECT_ERROR(ParseValueText(Column(PhysicalType::kInt96), "1"),
                      absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace pqpage
