// RowsThatMayMatch: pruning pages with the page index pqpage writes. Sound (no row that matches
// is ever left out, checked against every row's value, with truncated byte array bounds too),
// exact where min/max can be (a sorted column), and honest when it cannot prune (no index).
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "column_data_helpers.h"
#include "pqpage/file.h"
#include "pqpage/page_index.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using testing::ColumnData;

constexpr int64_t kRows = 3000;

std::string Bytes(int64_t value) { return std::string(reinterpret_cast<const char*>(&value), 8); }
std::string Bytes(int32_t value) { return std::string(reinterpret_cast<const char*>(&value), 4); }

// `sorted`: required INT64 0, 5, 10, ...; `word`: optional strings of letters, up to 12 (so
// that truncated bounds are exercised); `sparse`: optional INT32, null for rows
// 1000..1999 and every 7th row.
std::string WriteFile(const std::string& name) {
  const std::string path = testing::TestTempPath(name);
  auto schema =
      Schema::Builder()
          .AddPrimitive("sorted", Repetition::kRequired, PhysicalType::kInt64)
          .AddPrimitive("word", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
          .AddPrimitive("sparse", Repetition::kOptional, PhysicalType::kInt32)
          .Build();
  EXPECT_TRUE(schema.ok());
  auto file = FileWriter::Open(path, *schema);
  EXPECT_TRUE(file.ok());
  WriterOptions options;
  options.encoding = EncodingPolicy::kPlain;
  options.data_page_row_limit = 100;
  options.page_index_truncate_length = 2;
  std::mt19937_64 rng(5);
  ColumnData<int64_t> sorted;
  ColumnData<ByteArray> word;
  ColumnData<int32_t> sparse;
  for (int64_t row = 0; row < kRows; ++row) {
    sorted.values.push_back(row * 5);
    if (rng() % 10 == 0) {
      word.def.push_back(0);
    } else {
      // The first letter follows the row (runs of 120 rows), the rest is random: pages then have
      // narrow bounds to prune with, and bounds cut to two bytes.
      std::string text(1 + rng() % 12, 'a');
      for (char& c : text) c = static_cast<char>('a' + rng() % 26);
      text[0] = static_cast<char>('a' + (row / 120) % 26);
      word.def.push_back(1);
      word.values.push_back(word.AddBytes(text));
    }
    if ((row >= 1000 && row < 2000) || row % 7 == 0) {
      sparse.def.push_back(0);
    } else {
      sparse.def.push_back(1);
      sparse.values.push_back(static_cast<int32_t>(rng() % 1000));
    }
  }
  PQPAGE_EXPECT_OK(testing::WriteRowGroup(**file, *schema, options, sorted, word, sparse));
  EXPECT_TRUE((*file)->Close().ok());
  return path;
}

// Each row's value (nullopt for a null) of a flat column, as PLAIN bytes.
template <typename T>
std::vector<std::optional<std::string>> RowValues(const FileReader& file, int column) {
  std::vector<std::optional<std::string>> rows;
  auto chunk = file.OpenColumnChunk(0, column);
  EXPECT_TRUE(chunk.ok());
  std::vector<int16_t> def(128);
  std::vector<T> values(128);
  while (true) {
    auto counts = chunk->template ReadBatch<T>(absl::MakeSpan(def), {}, absl::MakeSpan(values));
    EXPECT_TRUE(counts.ok());
    if (!counts.ok() || counts->levels == 0) break;
    const bool optional = file.schema().columns()[column].max_definition_level > 0;
    size_t v = 0;
    for (int64_t i = 0; i < counts->levels; ++i) {
      if (optional && def[i] == 0) {
        rows.push_back(std::nullopt);
        continue;
      }
      if constexpr (std::is_same_v<T, ByteArray>) {
        rows.push_back(std::string(values[v++].AsStringView()));
      } else {
        rows.push_back(std::string(reinterpret_cast<const char*>(&values[v++]), sizeof(T)));
      }
    }
  }
  return rows;
}

bool InRanges(const std::vector<RowRange>& ranges, int64_t row) {
  for (const RowRange& range : ranges) {
    if (row >= range.begin && row < range.end) return true;
  }
  return false;
}

int64_t Covered(const std::vector<RowRange>& ranges) {
  int64_t rows = 0;
  for (const RowRange& range : ranges) rows += range.end - range.begin;
  return rows;
}

TEST(PagePruningTest, ASortedColumnPrunesToExactlyThePagesInRange) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(WriteFile("prune_sorted.parquet")));
  const ColumnDescriptor& column = reader->schema().columns()[0];
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto index, reader->ReadPageIndex(0, 0));
  ASSERT_TRUE(index.has_value());
  ASSERT_EQ(index->boundary_order, BoundaryOrder::kAscending);
  ColumnPredicate predicate;
  predicate.min = Bytes(int64_t{2502});  // row 500.4: page 5 (rows 500..599)
  predicate.max = Bytes(int64_t{3000});  // row 600: page 6
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto ranges, RowsThatMayMatch(column, *index, kRows, predicate));
  EXPECT_EQ(ranges, (std::vector<RowRange>{{500, 700}}));
  predicate.min.reset();  // everything up to row 600
  PQPAGE_ASSERT_OK_AND_ASSIGN(ranges, RowsThatMayMatch(column, *index, kRows, predicate));
  EXPECT_EQ(ranges, (std::vector<RowRange>{{0, 700}}));
  predicate.min = Bytes(int64_t{1} << 40);
  predicate.max.reset();
  PQPAGE_ASSERT_OK_AND_ASSIGN(ranges, RowsThatMayMatch(column, *index, kRows, predicate));
  EXPECT_TRUE(ranges.empty());
}

TEST(PagePruningTest, NoRowThatMatchesIsLeftOut) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(WriteFile("prune_random.parquet")));
  const std::vector<std::optional<std::string>> words = RowValues<ByteArray>(*reader, 1);
  const std::vector<std::optional<std::string>> sparse = RowValues<int32_t>(*reader, 2);
  ASSERT_EQ(words.size(), static_cast<size_t>(kRows));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto word_index, reader->ReadPageIndex(0, 1));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto sparse_index, reader->ReadPageIndex(0, 2));
  const ColumnDescriptor& word_column = reader->schema().columns()[1];
  const ColumnDescriptor& sparse_column = reader->schema().columns()[2];
  std::mt19937_64 rng(9);
  int64_t pruned = 0;
  for (int trial = 0; trial < 200; ++trial) {
    // Word ranges of one to three letters: the bounds the index keeps are two bytes long.
    ColumnPredicate predicate;
    std::string low(1 + rng() % 3, 'a'), high(1 + rng() % 3, 'a');
    for (char& c : low) c = static_cast<char>('a' + rng() % 26);
    for (char& c : high) c = static_cast<char>('a' + rng() % 26);
    if (high < low) std::swap(low, high);
    if (trial % 5 != 0) predicate.min = low;
    if (trial % 7 != 0) predicate.max = high;
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto ranges,
                                RowsThatMayMatch(word_column, *word_index, kRows, predicate));
    for (int64_t row = 0; row < kRows; ++row) {
      const auto& value = words[row];
      const bool matches = value && (!predicate.min || *value >= *predicate.min) &&
                           (!predicate.max || *value <= *predicate.max);
      if (matches) ASSERT_TRUE(InRanges(ranges, row)) << "row " << row << " trial " << trial;
    }
    pruned += kRows - Covered(ranges);

    ColumnPredicate numbers;
    const int32_t a = static_cast<int32_t>(rng() % 1000);
    numbers.min = Bytes(a);
    numbers.max = Bytes(static_cast<int32_t>(a + rng() % 20));
    PQPAGE_ASSERT_OK_AND_ASSIGN(ranges,
                                RowsThatMayMatch(sparse_column, *sparse_index, kRows, numbers));
    for (int64_t row = 0; row < kRows; ++row) {
      if (!sparse[row]) continue;
      int32_t value;
      std::memcpy(&value, sparse[row]->data(), 4);
      int32_t lo, hi;
      std::memcpy(&lo, numbers.min->data(), 4);
      std::memcpy(&hi, numbers.max->data(), 4);
      if (value >= lo && value <= hi) ASSERT_TRUE(InRanges(ranges, row)) << row;
    }
    // Rows 1000..1999 are null pages: no value range reaches them.
    EXPECT_FALSE(InRanges(ranges, 1500));
  }
  EXPECT_GT(pruned, 0) << "random words pruned nothing: the test would not notice over-pruning";

  // Nulls: pages without a null are ruled out of IS NULL, null pages out of IS NOT NULL.
  ColumnPredicate is_null{ColumnPredicate::Kind::kIsNull};
  ColumnPredicate is_not_null{ColumnPredicate::Kind::kIsNotNull};
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto null_rows,
                              RowsThatMayMatch(sparse_column, *sparse_index, kRows, is_null));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto value_rows,
                              RowsThatMayMatch(sparse_column, *sparse_index, kRows, is_not_null));
  for (int64_t row = 0; row < kRows; ++row) {
    if (!sparse[row]) ASSERT_TRUE(InRanges(null_rows, row)) << row;
    if (sparse[row]) ASSERT_TRUE(InRanges(value_rows, row)) << row;
  }
  EXPECT_FALSE(InRanges(value_rows, 1500));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto sorted_nulls,
                              RowsThatMayMatch(reader->schema().columns()[0],
                                               *(*reader->ReadPageIndex(0, 0)), kRows, is_null));
  EXPECT_TRUE(sorted_nulls.empty()) << "a required column has no null";
}

TEST(PagePruningTest, WithoutAnIndexEveryRowMayMatch) {
  const ColumnDescriptor column =
      testing::MakeColumn(PhysicalType::kInt32, testing::Shape::kOptional);
  ChunkPageIndex offsets_only;
  offsets_only.has_offset_index = true;
  offsets_only.pages.resize(2);
  offsets_only.pages[1].first_row_index = 10;
  ColumnPredicate predicate;
  predicate.min = Bytes(int32_t{5});
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto ranges, RowsThatMayMatch(column, offsets_only, 20, predicate));
  EXPECT_EQ(ranges, (std::vector<RowRange>{{0, 20}}));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ranges, RowsThatMayMatch(column, ChunkPageIndex{}, 20, predicate));
  EXPECT_EQ(ranges, (std::vector<RowRange>{{0, 20}}));

  predicate.min = std::string(3, '\0');
  PQPAGE_EXPECT_ERROR(RowsThatMayMatch(column, offsets_only, 20, predicate).status(),
                      absl::StatusCode::kInvalidArgument);
  const ColumnDescriptor int96 =
      testing::MakeColumn(PhysicalType::kInt96, testing::Shape::kOptional);
  predicate.min = std::string(12, '\0');
  PQPAGE_EXPECT_ERROR(RowsThatMayMatch(int96, offsets_only, 20, predicate).status(),
                      absl::StatusCode::kInvalidArgument);
  ChunkPageIndex both = offsets_only;
  both.has_column_index = true;
  both.pages[1].first_row_index = 30;  // past the row group
  predicate.min = Bytes(int32_t{5});
  PQPAGE_EXPECT_ERROR(RowsThatMayMatch(column, both, 20, predicate).status(),
                      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqpage
