// Bloom filters through the page builder and the file: WriterOptions::bloom_filter makes one per
// chunk (sized by the chunk's own distinct values or by the count given), FileWriter stores it
// after the row group, and FileReader::ReadBloomFilter reads back a filter that holds every
// value written.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "column_data_helpers.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using testing::ColumnData;

constexpr int64_t kRows = 3000;

Schema MakeSchema() {
  auto schema = Schema::Builder()
                    .AddPrimitive("id", Repetition::kRequired, PhysicalType::kInt64)
                    .AddPrimitive("name", Repetition::kOptional, PhysicalType::kByteArray)
                    .AddPrimitive("price", Repetition::kRequired, PhysicalType::kDouble)
                    .AddPrimitive("flag", Repetition::kRequired, PhysicalType::kBoolean)
                    .AddPrimitive("code", Repetition::kRequired, PhysicalType::kInt32)
                    .Build();
  EXPECT_TRUE(schema.ok());
  return *schema;
}

struct Columns {
  ColumnData<int64_t> id;
  ColumnData<ByteArray> name;
  ColumnData<double> price;
  ColumnData<bool> flag;
  ColumnData<int32_t> code;
};

// Row r of row group g: id r*7 + g, names from 500 distinct ones, every 9th null, prices from
// 40 distinct ones, codes from 3.
Columns MakeColumns(int group) {
  Columns c;
  for (int64_t r = 0; r < kRows; ++r) {
    c.id.values.push_back(r * 7 + group);
    if (r % 9 == 0) {
      c.name.def.push_back(0);
    } else {
      c.name.def.push_back(1);
      c.name.values.push_back(c.name.AddBytes(absl::StrCat("name-", (r * 31) % 500)));
    }
    c.price.values.push_back(static_cast<double>(r % 40) * 0.25);
    c.flag.values.push_back(r % 2 == 0);
    c.code.values.push_back(static_cast<int32_t>(r % 3));
  }
  return c;
}

std::string WriteFile(const WriterOptions& options, int groups = 2) {
  const std::string path = testing::TestTempPath("bloom.parquet");
  const Schema schema = MakeSchema();
  auto file = FileWriter::Open(path, schema);
  EXPECT_TRUE(file.ok()) << file.status();
  for (int g = 0; g < groups; ++g) {
    const Columns c = MakeColumns(g);
    PQPAGE_EXPECT_OK(
        testing::WriteRowGroup(**file, schema, options, c.id, c.name, c.price, c.flag, c.code));
  }
  PQPAGE_EXPECT_OK((*file)->Close());
  return path;
}

WriterOptions WithFilters() {
  WriterOptions options;
  options.bloom_filter.enabled = true;
  options.bloom_filter.fpp = 0.01;
  return options;
}

TEST(BloomFilterFileTest, EveryValueWrittenIsInItsChunksFilter) {
  const std::string path = WriteFile(WithFilters());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  for (int g = 0; g < 2; ++g) {
    const Columns c = MakeColumns(g);
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> id, reader->ReadBloomFilter(g, 0));
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> name, reader->ReadBloomFilter(g, 1));
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> price, reader->ReadBloomFilter(g, 2));
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> flag, reader->ReadBloomFilter(g, 3));
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> code, reader->ReadBloomFilter(g, 4));
    ASSERT_TRUE(id && name && price && code);
    EXPECT_FALSE(flag.has_value()) << "BOOLEAN columns get no filter";
    for (const int64_t v : c.id.values) ASSERT_TRUE(id->MayContain(v)) << v;
    for (const ByteArray& v : c.name.values) ASSERT_TRUE(name->MayContain(v));
    for (const double v : c.price.values) ASSERT_TRUE(price->MayContain(v)) << v;
    for (const int32_t v : c.code.values) ASSERT_TRUE(code->MayContain(v)) << v;
    // Each filter is the smallest that holds the chunk's distinct values at 1%.
    EXPECT_EQ(id->num_bytes(), BloomFilter::OptimalBytes(kRows, 0.01));
    EXPECT_EQ(name->num_bytes(), BloomFilter::OptimalBytes(500, 0.01));
    EXPECT_EQ(price->num_bytes(), BloomFilter::OptimalBytes(40, 0.01));
    EXPECT_EQ(code->num_bytes(), BloomFilter::OptimalBytes(3, 0.01));
    // Absent ids (the other row group's residue) are mostly ruled out: within 2x of 1%.
    int false_positives = 0;
    for (int64_t r = 0; r < 10'000; ++r) false_positives += id->MayContain(r * 7 + 3);
    EXPECT_LE(false_positives, 200);
    // The footer points at the filter: offset after the row group's chunks, length set.
    const ColumnMetaData& meta = *reader->metadata().row_groups[g].columns[0].meta_data;
    ASSERT_TRUE(meta.bloom_filter_offset.has_value());
    ASSERT_TRUE(meta.bloom_filter_length.has_value());
    EXPECT_GT(*meta.bloom_filter_length, id->num_bytes());
    const ColumnMetaData& last = *reader->metadata().row_groups[g].columns[4].meta_data;
    EXPECT_GE(
        *meta.bloom_filter_offset,
        last.dictionary_page_offset.value_or(last.data_page_offset) + last.total_compressed_size);
  }
}

TEST(BloomFilterFileTest, AGivenDistinctCountIsTheMostAndOverridesTurnItOff) {
  WriterOptions options = WithFilters();
  options.bloom_filter.distinct_values = 100'000;
  ColumnWriterOverride no_filter;
  no_filter.bloom_filter = BloomFilterOptions{};  // enabled = false
  options.column_overrides["code"] = no_filter;
  ColumnWriterOverride small;
  small.bloom_filter = options.bloom_filter;
  small.bloom_filter->max_bytes = 512;  // the 500 names would ask for 1024
  options.column_overrides["name"] = small;
  const std::string path = WriteFile(options, 1);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> id, reader->ReadBloomFilter(0, 0));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> name, reader->ReadBloomFilter(0, 1));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> code, reader->ReadBloomFilter(0, 4));
  ASSERT_TRUE(id.has_value() && name.has_value());
  // 100,000 is the most: the chunk's 3,000 ids get the filter their count asks for.
  EXPECT_EQ(id->num_bytes(), BloomFilter::OptimalBytes(kRows, 0.01));
  EXPECT_EQ(name->num_bytes(), 512);
  EXPECT_FALSE(code.has_value());
  EXPECT_FALSE(reader->metadata().row_groups[0].columns[4].meta_data->bloom_filter_offset);
}

// A count given below the chunk's distinct values sizes the filter: more values than it was made
// for raise the rate, never the size.
TEST(BloomFilterFileTest, AGivenDistinctCountBelowTheChunksKeepsItsSize) {
  WriterOptions options = WithFilters();
  options.bloom_filter.distinct_values = 100;
  const std::string path = WriteFile(options, 1);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> id, reader->ReadBloomFilter(0, 0));
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->num_bytes(), BloomFilter::OptimalBytes(100, 0.01));
  for (const int64_t v : MakeColumns(0).id.values) ASSERT_TRUE(id->MayContain(v)) << v;
}

// Once the distinct values would need more than max_bytes, the filter stops growing and still
// holds every value.
TEST(BloomFilterFileTest, ManyDistinctValuesFillAFilterOfTheLargestSize) {
  WriterOptions options = WithFilters();
  options.bloom_filter.max_bytes = 1024;
  const std::string path = WriteFile(options, 1);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> id, reader->ReadBloomFilter(0, 0));
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->num_bytes(), 1024);
  for (const int64_t v : MakeColumns(0).id.values) ASSERT_TRUE(id->MayContain(v)) << v;
}

// Past a few thousand distinct values the count moves into a filter of the largest size, folded
// down at the end: the chunk still gets the filter its distinct values ask for, bit for bit.
TEST(BloomFilterFileTest, ManyDistinctValuesAreCountedAndFoldedToTheirSize) {
  ColumnDescriptor column = MakeSchema().columns()[0];
  std::vector<int64_t> values;
  for (int64_t v = 0; v < 40000; ++v) values.push_back(v * 13 % 20011 + (v / 20011) * 100000);
  ColumnChunkWriter writer(column, WithFilters());
  PQPAGE_ASSERT_OK(writer.WriteBatch<int64_t>({}, {}, values));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(4));
  ASSERT_TRUE(chunk.bloom_filter.has_value());
  const std::set<int64_t> distinct(values.begin(), values.end());
  const int64_t bytes = BloomFilter::OptimalBytes(static_cast<int64_t>(distinct.size()), 0.01);
  ASSERT_EQ(chunk.bloom_filter->num_bytes(), bytes);
  BloomFilter direct(bytes);
  for (const int64_t v : distinct) direct.InsertHash(BloomFilter::Hash(v));
  EXPECT_EQ(*chunk.bloom_filter, direct);
}

TEST(BloomFilterFileTest, IndexedBatchesMakeTheSameFilterAsValues) {
  const ColumnDescriptor column = MakeSchema().columns()[1];
  std::vector<std::string> words;
  for (int i = 0; i < 50; ++i) words.push_back(absl::StrCat("word", i));
  std::vector<ByteArray> entries;
  for (const std::string& w : words) entries.emplace_back(w);
  std::vector<uint32_t> indices;
  std::vector<ByteArray> values;
  for (uint32_t i = 0; i < 400; ++i) {
    indices.push_back((i * 7) % 30);
    values.push_back(entries[indices.back()]);
  }
  const std::vector<int16_t> def(400, 1);
  ColumnChunkWriter by_value(column, WithFilters());
  ColumnChunkWriter by_index(column, WithFilters());
  PQPAGE_ASSERT_OK(by_value.WriteBatch<ByteArray>(def, {}, values));
  for (size_t start = 0; start < indices.size(); start += 100) {
    PQPAGE_ASSERT_OK(by_index.WriteIndexedBatch<ByteArray>(
        absl::MakeConstSpan(def).subspan(start, 100), {},
        absl::MakeConstSpan(indices).subspan(start, 100), entries));
  }
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData a, by_value.Finish(4));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData b, by_index.Finish(4));
  ASSERT_TRUE(a.bloom_filter.has_value() && b.bloom_filter.has_value());
  EXPECT_EQ(*a.bloom_filter, *b.bloom_filter);
  EXPECT_EQ(a.bloom_filter->num_bytes(), BloomFilter::OptimalBytes(30, 0.01));
  // Entries no index used are not in it.
  int unused_found = 0;
  for (size_t e = 30; e < entries.size(); ++e)
    unused_found += b.bloom_filter->MayContain(entries[e]);
  EXPECT_LT(unused_found, 5);
}

TEST(BloomFilterFileTest, OptionsOutOfRangeAreRefused) {
  const ColumnDescriptor column = MakeSchema().columns()[0];
  for (const double fpp : {0.0, 1.0, -0.5}) {
    WriterOptions options = WithFilters();
    options.bloom_filter.fpp = fpp;
    ColumnChunkWriter writer(column, options);
    PQPAGE_EXPECT_ERROR(writer.Finish(4), absl::StatusCode::kInvalidArgument);
  }
  WriterOptions too_big = WithFilters();
  too_big.bloom_filter.max_bytes = BloomFilter::kMaxBytes + 1;
  ColumnChunkWriter writer(column, too_big);
  PQPAGE_EXPECT_ERROR(writer.Finish(4), absl::StatusCode::kInvalidArgument);
  WriterOptions no_values = WithFilters();
  no_values.bloom_filter.distinct_values = 0;
  ColumnChunkWriter zero(column, no_values);
  PQPAGE_EXPECT_ERROR(zero.Finish(4), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqpage
