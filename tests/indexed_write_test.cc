// ColumnChunkWriter::WriteIndexedBatch: dictionary-encoded input (entries plus indices) must give
// the very chunk WriteBatch of the values gives, for every value type, policy, page version and
// column shape, with the dictionary filling up anywhere (inside rows too), with inputs whose
// dictionaries hold duplicate and unused entries, and with batches of both kinds mixed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "column_data_helpers.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/dictionary.h"
#include "pqpage/status_macros.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using testing::ColumnData;
using testing::Generate;
using testing::MakeColumn;
using testing::Shape;

constexpr int kFlbaLength = 5;

template <typename T>
std::string BytesOf(const T& value) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return std::string(reinterpret_cast<const char*>(value.data), value.size);
  } else {
    return std::string(reinterpret_cast<const char*>(&value), sizeof(T));
  }
}

// A dictionary for `values` as another writer might have made it: the distinct values (by their
// bytes) in a shuffled order, some of them twice (values are spread over both copies), and
// entries no value uses. ByteArray entries view `data` or `storage`.
template <typename T>
struct InputDictionary {
  std::vector<T> entries;
  std::vector<uint32_t> indices;  // one per value
};

template <typename T>
InputDictionary<T> MakeInputDictionary(const std::vector<T>& values, uint64_t seed,
                                       std::deque<std::string>* storage) {
  std::mt19937_64 rng(seed);
  std::map<std::string, std::vector<uint32_t>> slots;  // a value's bytes -> its entries
  InputDictionary<T> out;
  for (const T& value : values) {
    auto [it, added] = slots.try_emplace(BytesOf(value));
    if (added) out.entries.push_back(value);
  }
  std::shuffle(out.entries.begin(), out.entries.end(), rng);
  const size_t distinct = out.entries.size();
  for (size_t i = 0; i < distinct; ++i) {
    if (i % 4 == 1) out.entries.push_back(out.entries[i]);  // a duplicate entry
  }
  for (int extra = 0; extra < 3; ++extra) {  // entries no value uses
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (!out.entries.empty()) {
        std::string bytes = BytesOf(out.entries[0]);
        if (!bytes.empty()) bytes[0] = static_cast<char>(bytes[0] ^ (0x55 + extra));
        storage->push_back(bytes);
        if (slots.count(bytes) == 0) {
          out.entries.push_back(ByteArray(reinterpret_cast<const uint8_t*>(storage->back().data()),
                                          static_cast<uint32_t>(storage->back().size())));
        }
      }
    }
  }
  std::shuffle(out.entries.begin(), out.entries.end(), rng);
  for (size_t i = 0; i < out.entries.size(); ++i) {
    auto found = slots.find(BytesOf(out.entries[i]));
    if (found != slots.end()) found->second.push_back(static_cast<uint32_t>(i));
  }
  for (const T& value : values) {
    const std::vector<uint32_t>& choices = slots[BytesOf(value)];
    out.indices.push_back(choices[rng() % choices.size()]);
  }
  return out;
}

enum class Feed { kValues, kIndices, kMixed };

// Writes `data` in batches of random level counts, as values, as indices into `dictionary`, or
// each batch either way.
template <typename T>
absl::StatusOr<ColumnChunkData> WriteFed(const ColumnDescriptor& column,
                                         const WriterOptions& options, const ColumnData<T>& data,
                                         const InputDictionary<T>& dictionary, Feed feed,
                                         uint64_t seed) {
  ColumnChunkWriter writer(column, options);
  std::mt19937_64 rng(seed);
  std::mt19937_64 choice(seed * 31 + 7);
  const int64_t levels = data.num_levels();
  const bool has_def = column.max_definition_level > 0;
  int64_t level = 0;
  size_t value = 0;
  while (level < levels) {
    const int64_t n = std::min<int64_t>(levels - level, 1 + static_cast<int64_t>(rng() % 97));
    size_t present = static_cast<size_t>(n);
    if (has_def) {
      present = 0;
      for (int64_t i = level; i < level + n; ++i)
        present += data.def[i] == column.max_definition_level;
    }
    const auto def =
        has_def ? absl::MakeConstSpan(data.def).subspan(level, n) : absl::Span<const int16_t>();
    const auto rep = data.rep.empty() ? absl::Span<const int16_t>()
                                      : absl::MakeConstSpan(data.rep).subspan(level, n);
    const bool indexed = feed == Feed::kIndices || (feed == Feed::kMixed && choice() % 2 == 0);
    if (indexed) {
      PQPAGE_RETURN_IF_ERROR(writer.WriteIndexedBatch<T>(
          def, rep, absl::MakeConstSpan(dictionary.indices).subspan(value, present),
          absl::MakeConstSpan(dictionary.entries)));
    } else {
      PQPAGE_RETURN_IF_ERROR(
          writer.WriteBatch<T>(def, rep, absl::MakeConstSpan(data.values).subspan(value, present)));
    }
    level += n;
    value += present;
  }
  return writer.Finish(100);
}

void ExpectSameChunk(const ColumnChunkData& expected, const ColumnChunkData& actual,
                     const std::string& where) {
  EXPECT_TRUE(expected.bytes == actual.bytes) << where << ": the bytes differ";
  const ColumnMetaData& a = expected.metadata;
  const ColumnMetaData& b = actual.metadata;
  EXPECT_EQ(a.encoding_ids, b.encoding_ids) << where;
  ASSERT_TRUE(a.encoding_stats && b.encoding_stats) << where;
  EXPECT_EQ(a.encoding_stats->size(), b.encoding_stats->size()) << where;
  EXPECT_EQ(a.num_values, b.num_values) << where;
  EXPECT_EQ(expected.num_rows, actual.num_rows) << where;
  EXPECT_EQ(a.total_uncompressed_size, b.total_uncompressed_size) << where;
  EXPECT_EQ(a.dictionary_page_offset, b.dictionary_page_offset) << where;
  EXPECT_EQ(a.data_page_offset, b.data_page_offset) << where;
  ASSERT_EQ(a.statistics.has_value(), b.statistics.has_value()) << where;
  if (a.statistics.has_value()) {
    EXPECT_EQ(a.statistics->min_value, b.statistics->min_value) << where;
    EXPECT_EQ(a.statistics->max_value, b.statistics->max_value) << where;
    EXPECT_EQ(a.statistics->null_count, b.statistics->null_count) << where;
  }
  const std::vector<IndexedPage>& a_pages = expected.page_index.pages;
  const std::vector<IndexedPage>& b_pages = actual.page_index.pages;
  ASSERT_EQ(a_pages.size(), b_pages.size()) << where;
  for (size_t i = 0; i < a_pages.size(); ++i) {
    EXPECT_EQ(a_pages[i].offset, b_pages[i].offset) << where;
    EXPECT_EQ(a_pages[i].first_row_index, b_pages[i].first_row_index) << where;
    EXPECT_EQ(a_pages[i].min_value, b_pages[i].min_value) << where;
    EXPECT_EQ(a_pages[i].max_value, b_pages[i].max_value) << where;
  }
}

using MatrixParam = std::tuple<EncodingPolicy, PhysicalType, int>;
class IndexedWriteMatrixTest : public ::testing::TestWithParam<MatrixParam> {};

template <typename T>
void RunCase(EncodingPolicy policy, PhysicalType type, int version) {
  testing::ForEachWriterVariant(policy, type, version, kFlbaLength, [&](testing::WriterVariant v) {
    v.options.verify_pages = v.number % 4 == 0;
    v.options.compression = v.number % 2 == 0 ? Compression::kSnappy : Compression::kUncompressed;
    const ColumnData<T> data = Generate<T>(v.column, v.shape, 1500, 60, 500 + v.number);
    std::deque<std::string> storage;
    const InputDictionary<T> dictionary =
        MakeInputDictionary(data.values, 900 + v.number, &storage);
    auto expected = WriteFed(v.column, v.options, data, dictionary, Feed::kValues, v.number);
    ASSERT_TRUE(expected.ok()) << v.where << ": " << expected.status();
    for (Feed feed : {Feed::kIndices, Feed::kMixed}) {
      auto actual = WriteFed(v.column, v.options, data, dictionary, feed, v.number);
      ASSERT_TRUE(actual.ok()) << v.where << ": " << actual.status();
      ExpectSameChunk(*expected, *actual,
                      v.where + (feed == Feed::kIndices ? " (indices)" : " (mixed)"));
    }
  });
}

TEST_P(IndexedWriteMatrixTest, WritesTheChunkTheValuesWould) {
  const auto [policy, type, version] = GetParam();
  switch (type) {
    case PhysicalType::kInt32:
      return RunCase<int32_t>(policy, type, version);
    case PhysicalType::kInt64:
      return RunCase<int64_t>(policy, type, version);
    case PhysicalType::kInt96:
      return RunCase<Int96>(policy, type, version);
    case PhysicalType::kFloat:
      return RunCase<float>(policy, type, version);
    case PhysicalType::kDouble:
      return RunCase<double>(policy, type, version);
    default:
      return RunCase<ByteArray>(policy, type, version);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllCombinations, IndexedWriteMatrixTest,
    ::testing::Combine(::testing::Values(EncodingPolicy::kAuto, EncodingPolicy::kDictionary,
                                         EncodingPolicy::kPlain, EncodingPolicy::kDelta,
                                         EncodingPolicy::kByteStreamSplit),
                       ::testing::Values(PhysicalType::kInt32, PhysicalType::kInt64,
                                         PhysicalType::kInt96, PhysicalType::kFloat,
                                         PhysicalType::kDouble, PhysicalType::kByteArray,
                                         PhysicalType::kFixedLenByteArray),
                       ::testing::Values(1, 2)),
    [](const ::testing::TestParamInfo<MatrixParam>& info) {
      return std::string(EncodingPolicyName(std::get<0>(info.param))) + "_" +
             std::string(PhysicalTypeName(std::get<1>(info.param))) + "_v" +
             std::to_string(std::get<2>(info.param));
    });

// Each chunk of a file has its own dictionary: a writer given another entries span must not
// reuse what it learnt of the first.
TEST(IndexedWriteTest, AnotherEntriesSpanIsMappedAfresh) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kRequired);
  WriterOptions options;
  options.encoding = EncodingPolicy::kDictionary;
  const std::vector<int64_t> first = {10, 20, 30};
  const std::vector<int64_t> second = {30, 40};
  const std::vector<uint32_t> indices = {0, 1, 2, 1, 0};
  const std::vector<uint32_t> later = {1, 0, 1};
  ColumnChunkWriter indexed(column, options);
  PQPAGE_ASSERT_OK(indexed.WriteIndexedBatch<int64_t>({}, {}, indices, first));
  PQPAGE_ASSERT_OK(indexed.WriteIndexedBatch<int64_t>({}, {}, later, second));
  ColumnChunkWriter plain_values(column, options);
  const std::vector<int64_t> values = {10, 20, 30, 20, 10, 40, 30, 40};
  PQPAGE_ASSERT_OK(plain_values.WriteBatch<int64_t>({}, {}, values));
  auto a = plain_values.Finish(4);
  auto b = indexed.Finish(4);
  PQPAGE_ASSERT_OK(a.status());
  PQPAGE_ASSERT_OK(b.status());
  ExpectSameChunk(*a, *b, "two entries spans");
}

// NaN, -0.0 and +0.0 are entries of their own; the page statistics, made from each entry once
// per page, must still skip NaN and write the zero bounds as the value path does.
TEST(IndexedWriteTest, FloatStatisticsFromEntriesMatchTheValues) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kDouble, Shape::kOptional);
  WriterOptions options;
  options.encoding = EncodingPolicy::kDictionary;
  options.data_page_row_limit = 4;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> entries = {nan, -0.0, 0.0, 2.5, -7.0};
  const std::vector<uint32_t> indices = {0, 0, 1, 2, 2, 1, 3, 0, 4, 2, 0};
  std::vector<double> values;
  for (uint32_t i : indices) values.push_back(entries[i]);
  std::vector<int16_t> def = {1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1};
  ColumnChunkWriter by_index(column, options);
  ColumnChunkWriter by_value(column, options);
  PQPAGE_ASSERT_OK(by_index.WriteIndexedBatch<double>(def, {}, indices, entries));
  PQPAGE_ASSERT_OK(by_value.WriteBatch<double>(def, {}, values));
  auto a = by_value.Finish(4);
  auto b = by_index.Finish(4);
  PQPAGE_ASSERT_OK(a.status());
  PQPAGE_ASSERT_OK(b.status());
  ASSERT_TRUE(a->metadata.statistics.has_value());
  double min;
  std::memcpy(&min, a->metadata.statistics->min_value->data(), sizeof(min));
  EXPECT_EQ(min, -7.0);
  ExpectSameChunk(*a, *b, "NaN and signed zeros");
}

TEST(IndexedWriteTest, BadBatchesAreRejectedAndLeaveTheWriterUsable) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kOptional);
  ColumnChunkWriter writer(column, WriterOptions{});
  const std::vector<int32_t> entries = {5, 6};
  const std::vector<int16_t> def = {1, 0, 1};
  // An index past the entries.
  absl::Status status = writer.WriteIndexedBatch<int32_t>(def, {}, {0, 2}, entries);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("index 2 at 1 is outside the 2 entries"), std::string::npos)
      << status;
  // Indices that disagree with the definition levels.
  status = writer.WriteIndexedBatch<int32_t>(def, {}, {0}, entries);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  // The wrong value type.
  status = writer.WriteIndexedBatch<int64_t>(def, {}, {0, 1}, std::vector<int64_t>{1, 2});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_NE(status.message().find("WriteIndexedBatch"), std::string::npos) << status;
  // The writer took none of them.
  PQPAGE_ASSERT_OK(writer.WriteIndexedBatch<int32_t>(def, {}, {1, 0}, entries));
  auto chunk = writer.Finish(4);
  PQPAGE_ASSERT_OK(chunk.status());
  EXPECT_EQ(chunk->metadata.num_values, 3);
}

TEST(IndexedWriteTest, EntriesOfTheWrongLengthAreRejected) {
  const ColumnDescriptor column =
      MakeColumn(PhysicalType::kFixedLenByteArray, Shape::kRequired, kFlbaLength);
  ColumnChunkWriter writer(column, WriterOptions{});
  const std::string good = "abcde";
  const std::string bad = "abc";
  const std::vector<ByteArray> entries = {
      ByteArray(reinterpret_cast<const uint8_t*>(good.data()), 5),
      ByteArray(reinterpret_cast<const uint8_t*>(bad.data()), 3)};
  // Entry 1 is never used, but entries are checked as a whole.
  const absl::Status status = writer.WriteIndexedBatch<ByteArray>({}, {}, {0, 0}, entries);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_NE(status.message().find("value 1 has 3 bytes"), std::string::npos) << status;
  PQPAGE_ASSERT_OK(
      writer.WriteIndexedBatch<ByteArray>({}, {}, {0, 0}, absl::MakeConstSpan(entries).first(1)));
}

}  // namespace
}  // namespace pqpage
