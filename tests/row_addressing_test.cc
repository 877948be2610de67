// ColumnChunkReader's row addressing (SeekToRow, SkipRows, SelectRows), with and without the
// chunk's offset index: whatever rows are asked for, the levels and values handed out are exactly
// that slice of the whole chunk, for every column shape, page version and several encodings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "chunk_builder.h"
#include "column_data_helpers.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/page_index.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using testing::ColumnData;
using testing::WriterVariant;

// A chunk and where each of its rows starts among its levels and values.
template <typename T>
struct WrittenChunk {
  ColumnData<T> data;
  ColumnChunkData chunk;
  std::vector<int64_t> row_level;  // row r's first level; one more entry: the level count
  std::vector<int64_t> row_value;  // the values before row r
  std::unique_ptr<ByteSource> source;

  int64_t rows() const { return static_cast<int64_t>(row_level.size()) - 1; }

  ChunkPageIndex OffsetIndex() const {
    ChunkPageIndex index = chunk.page_index;
    index.has_column_index = false;  // row addressing needs only the OffsetIndex
    return index;
  }

  ColumnChunkReader Reader(const ColumnDescriptor& column) const {
    return ColumnChunkReader(column, source.get(), testing::LocationOf(chunk));
  }
};

template <typename T>
WrittenChunk<T> Write(const WriterVariant& variant, uint64_t seed) {
  WrittenChunk<T> out;
  out.data = testing::Generate<T>(variant.column, variant.shape, 2500, 40, seed);
  ColumnChunkWriter writer(variant.column, variant.options);
  EXPECT_TRUE(testing::WriteInBatches(&writer, out.data, seed).ok());
  absl::StatusOr<ColumnChunkData> chunk = writer.Finish(0);
  EXPECT_TRUE(chunk.ok()) << chunk.status();
  out.chunk = *std::move(chunk);
  out.source = MakeMemoryByteSource(out.chunk.bytes);
  const ColumnDescriptor& column = variant.column;
  int64_t values = 0;
  for (int64_t level = 0; level < out.data.num_levels(); ++level) {
    if (column.max_repetition_level == 0 || out.data.rep[level] == 0) {
      out.row_level.push_back(level);
      out.row_value.push_back(values);
    }
    if (column.max_definition_level == 0 || out.data.def[level] == column.max_definition_level) {
      ++values;
    }
  }
  out.row_level.push_back(out.data.num_levels());
  out.row_value.push_back(values);
  return out;
}

// What a run of batches handed out.
template <typename T>
struct Read {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<T> values;
  std::deque<std::string> storage;
};

// Reads batches of random sizes until the reader reports the end (or `max_levels` are read).
template <typename T>
absl::Status ReadRest(ColumnChunkReader& reader, std::mt19937_64& rng, Read<T>* out,
                      int64_t max_levels = INT64_MAX) {
  int64_t read = 0;
  while (read < max_levels) {
    const auto batch = static_cast<size_t>(std::min<int64_t>(1 + rng() % 300, max_levels - read));
    std::vector<int16_t> def(batch);
    std::vector<int16_t> rep(batch);
    std::vector<T> values(batch);
    absl::StatusOr<BatchCounts> counts =
        reader.ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep), absl::MakeSpan(values));
    if (!counts.ok()) return counts.status();
    if (counts->levels == 0) break;
    read += counts->levels;
    out->def.insert(out->def.end(), def.begin(), def.begin() + counts->levels);
    out->rep.insert(out->rep.end(), rep.begin(), rep.begin() + counts->levels);
    for (int64_t i = 0; i < counts->values; ++i) {
      if constexpr (std::is_same_v<T, ByteArray>) {
        // Views live until the reader moves to another page: keep a copy.
        out->storage.emplace_back(values[i].AsStringView());
        out->values.push_back(ByteArray(out->storage.back()));
      } else {
        out->values.push_back(values[i]);
      }
    }
  }
  return absl::OkStatus();
}

// Appends rows [begin, end) of `chunk` to `expected`.
template <typename T>
void AppendRows(const WrittenChunk<T>& chunk, const ColumnDescriptor& column, int64_t begin,
                int64_t end, Read<T>* expected) {
  for (int64_t level = chunk.row_level[begin]; level < chunk.row_level[end]; ++level) {
    expected->def.push_back(column.max_definition_level > 0 ? chunk.data.def[level] : 0);
    expected->rep.push_back(column.max_repetition_level > 0 ? chunk.data.rep[level] : 0);
  }
  for (int64_t v = chunk.row_value[begin]; v < chunk.row_value[end]; ++v) {
    expected->values.push_back(chunk.data.values[v]);
  }
}

template <typename T>
void ExpectSame(const Read<T>& expected, const Read<T>& actual, const ColumnDescriptor& column,
                const std::string& where) {
  if (column.max_definition_level > 0) ASSERT_EQ(expected.def, actual.def) << where;
  if (column.max_repetition_level > 0) ASSERT_EQ(expected.rep, actual.rep) << where;
  ASSERT_EQ(expected.def.size(), actual.def.size()) << where;
  ASSERT_EQ(expected.values.size(), actual.values.size()) << where;
  for (size_t i = 0; i < expected.values.size(); ++i) {
    ASSERT_TRUE(testing::SameValue(expected.values[i], actual.values[i]))
        << where << " value " << i;
  }
}

// Row numbers worth asking for: the ends, every page's first row and its neighbours, and random
// ones.
template <typename T>
std::vector<int64_t> InterestingRows(const WrittenChunk<T>& chunk, std::mt19937_64& rng) {
  std::vector<int64_t> rows = {0, 1, chunk.rows() - 1, chunk.rows()};
  for (const IndexedPage& page : chunk.chunk.page_index.pages) {
    for (int64_t d : {-1, 0, 1}) rows.push_back(page.first_row_index + d);
  }
  for (int i = 0; i < 20; ++i) rows.push_back(static_cast<int64_t>(rng() % (chunk.rows() + 1)));
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](int64_t r) { return r < 0 || r > chunk.rows(); }),
             rows.end());
  return rows;
}

template <typename T>
void CheckVariant(const WriterVariant& variant, uint64_t seed) {
  const ColumnDescriptor& column = variant.column;
  const WrittenChunk<T> chunk = Write<T>(variant, seed);
  ASSERT_GT(chunk.chunk.page_index.pages.size(), 2u) << variant.where;
  std::mt19937_64 rng(seed);
  const std::vector<int64_t> interesting = InterestingRows(chunk, rng);
  for (const bool use_index : {false, true}) {
    const std::string where = variant.where + (use_index ? " with the offset index" : "");
    auto open = [&] {
      ColumnChunkReader reader = chunk.Reader(column);
      if (use_index) EXPECT_TRUE(reader.UseOffsetIndex(chunk.OffsetIndex()).ok());
      return reader;
    };
    // Ranges: random sorted sets with empty ones, single rows, the whole chunk.
    for (int trial = 0; trial < 12; ++trial) {
      std::vector<int64_t> bounds;
      const int count = 2 * (1 + static_cast<int>(rng() % 4));
      for (int i = 0; i < count; ++i) {
        bounds.push_back(trial % 2 == 0 ? interesting[rng() % interesting.size()]
                                        : static_cast<int64_t>(rng() % (chunk.rows() + 1)));
      }
      if (trial == 0) bounds = {0, chunk.rows()};
      std::sort(bounds.begin(), bounds.end());
      std::vector<RowRange> ranges;
      Read<T> expected;
      for (size_t i = 0; i < bounds.size(); i += 2) {
        ranges.push_back({bounds[i], bounds[i + 1]});
        AppendRows(chunk, column, bounds[i], bounds[i + 1], &expected);
      }
      ColumnChunkReader reader = open();
      PQPAGE_ASSERT_OK(reader.SelectRows(ranges));
      Read<T> actual;
      PQPAGE_ASSERT_OK(ReadRest(reader, rng, &actual));
      std::string text;
      for (const RowRange& r : ranges)
        text += " [" + std::to_string(r.begin) + "," + std::to_string(r.end) + ")";
      ExpectSame(expected, actual, column, where + ", rows" + text);
      if (::testing::Test::HasFatalFailure()) return;
    }
    // Seeks forward and backward, each followed by a few levels, then SkipRows.
    ColumnChunkReader reader = open();
    for (int step = 0; step < 30; ++step) {
      const int64_t row = interesting[rng() % interesting.size()];
      PQPAGE_ASSERT_OK(reader.SeekToRow(row));
      ASSERT_EQ(reader.current_row(), row) << where;
      const int64_t levels = 1 + static_cast<int64_t>(rng() % 40);
      Read<T> actual;
      PQPAGE_ASSERT_OK(ReadRest(reader, rng, &actual, levels));
      Read<T> expected;
      AppendRows(chunk, column, row, chunk.rows(), &expected);
      const size_t n = actual.def.size();
      ASSERT_EQ(n, std::min<size_t>(static_cast<size_t>(levels), expected.def.size())) << where;
      expected.def.resize(n);
      expected.rep.resize(n);
      expected.values.resize(actual.values.size());
      ExpectSame(expected, actual, column, where + ", after a seek to row " + std::to_string(row));
      if (::testing::Test::HasFatalFailure()) return;
      // The rows begun so far: those whose first level was read.
      const int64_t level_after = chunk.row_level[row] + static_cast<int64_t>(n);
      const int64_t begun =
          std::upper_bound(chunk.row_level.begin(), chunk.row_level.end() - 1, level_after - 1) -
          chunk.row_level.begin();
      ASSERT_EQ(reader.current_row(), n == 0 ? row : begun) << where;
      const int64_t skip = static_cast<int64_t>(rng() % 50);
      PQPAGE_ASSERT_OK_AND_ASSIGN(const int64_t skipped, reader.SkipRows(skip));
      const int64_t target = std::min(reader.current_row(), chunk.rows());
      ASSERT_EQ(skipped, std::min(skip, chunk.rows() - (n == 0 ? row : begun))) << where;
      Read<T> after_skip;
      PQPAGE_ASSERT_OK(ReadRest(reader, rng, &after_skip, 5));
      Read<T> expected_after;
      AppendRows(chunk, column, target, chunk.rows(), &expected_after);
      expected_after.def.resize(after_skip.def.size());
      expected_after.rep.resize(after_skip.rep.size());
      expected_after.values.resize(after_skip.values.size());
      ExpectSame(expected_after, after_skip, column,
                 where + ", after skipping " + std::to_string(skip) + " rows");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

template <typename T>
void CheckPolicy(EncodingPolicy policy, PhysicalType type) {
  for (int version : {1, 2}) {
    testing::ForEachWriterVariant(policy, type, version, 0, [&](const WriterVariant& variant) {
      CheckVariant<T>(variant, 1000 + static_cast<uint64_t>(variant.number) * 7 +
                                   static_cast<uint64_t>(version));
    });
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(RowAddressingTest, Int64Plain) {
  CheckPolicy<int64_t>(EncodingPolicy::kPlain, PhysicalType::kInt64);
}
TEST(RowAddressingTest, Int64Dictionary) {
  CheckPolicy<int64_t>(EncodingPolicy::kDictionary, PhysicalType::kInt64);
}
TEST(RowAddressingTest, Int64Delta) {
  CheckPolicy<int64_t>(EncodingPolicy::kDelta, PhysicalType::kInt64);
}
TEST(RowAddressingTest, ByteArrayDictionary) {
  CheckPolicy<ByteArray>(EncodingPolicy::kDictionary, PhysicalType::kByteArray);
}
TEST(RowAddressingTest, ByteArrayDelta) {
  CheckPolicy<ByteArray>(EncodingPolicy::kDelta, PhysicalType::kByteArray);
}
TEST(RowAddressingTest, DoubleByteStreamSplit) {
  CheckPolicy<double>(EncodingPolicy::kByteStreamSplit, PhysicalType::kDouble);
}

TEST(RowAddressingTest, BadArgumentsAreInvalidArgument) {
  testing::WriterVariant variant;
  variant.column = testing::MakeColumn(PhysicalType::kInt64, testing::Shape::kOptional);
  variant.shape = testing::Shape::kOptional;
  variant.options.data_page_size = 256;
  const WrittenChunk<int64_t> chunk = Write<int64_t>(variant, 5);
  ColumnChunkReader reader = chunk.Reader(variant.column);
  EXPECT_EQ(reader.SeekToRow(-1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reader.SeekToRow(chunk.rows() + 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reader.SkipRows(-1).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reader.SelectRows({{5, 3}}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reader.SelectRows({{0, 10}, {9, 12}}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reader.SelectRows({{-1, 2}}).code(), absl::StatusCode::kInvalidArgument);
  ChunkPageIndex index = chunk.OffsetIndex();
  ChunkPageIndex reversed = index;
  std::swap(reversed.pages[0], reversed.pages[1]);
  EXPECT_EQ(reader.UseOffsetIndex(reversed).code(), absl::StatusCode::kInvalidArgument);
  ChunkPageIndex outside = index;
  outside.pages.back().compressed_page_size += 1;
  EXPECT_EQ(reader.UseOffsetIndex(outside).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reader.UseOffsetIndex(ChunkPageIndex()).code(), absl::StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(reader.SeekToRow(3));
  EXPECT_EQ(reader.UseOffsetIndex(index).code(), absl::StatusCode::kInvalidArgument);
}

// An offset index whose pages are not where it says: a clean DataLoss when the page is reached.
TEST(RowAddressingTest, MisplacedIndexedPageIsDataLoss) {
  testing::WriterVariant variant;
  variant.column = testing::MakeColumn(PhysicalType::kInt64, testing::Shape::kList);
  variant.shape = testing::Shape::kList;
  variant.options.data_page_size = 256;
  const WrittenChunk<int64_t> chunk = Write<int64_t>(variant, 9);
  ChunkPageIndex index = chunk.OffsetIndex();
  ASSERT_GT(index.pages.size(), 3u);
  // A page offset moved by one byte: no page header there.
  index.pages[2].offset += 1;
  index.pages[2].compressed_page_size -= 1;
  ColumnChunkReader moved = chunk.Reader(variant.column);
  PQPAGE_ASSERT_OK(moved.UseOffsetIndex(index));
  const absl::Status status = moved.SeekToRow(index.pages[2].first_row_index);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.code(), absl::StatusCode::kInternal) << status;
}

// Data pages v1 of a repeated column may end inside a row, which the next page goes on with (old
// writers did this; pqpage and current pyarrow end pages at row boundaries, so the chunk is built
// by hand): rows 1 and 3 start in one page and end in the next.
TEST(RowAddressingTest, RowsThatSpanV1Pages) {
  using testing::Bytes;
  const ColumnDescriptor column = testing::Column(PhysicalType::kInt32, 1, 1);
  const std::vector<std::vector<int16_t>> rep = {{0, 1, 1, 0, 1}, {1, 1, 0, 0, 1}, {1, 0}};
  const std::vector<std::vector<int16_t>> def = {{1, 1, 1, 1, 1}, {1, 0, 1, 1, 1}, {1, 1}};
  const std::vector<std::vector<int32_t>> values = {{1, 2, 3, 4, 5}, {6, 7, 8, 9}, {10, 11}};
  testing::ChunkBuilder builder;
  Read<int32_t> all;
  for (size_t p = 0; p < rep.size(); ++p) {
    builder.V1(
        testing::Concat({testing::Prefixed(testing::Levels(rep[p], 1)),
                         testing::Prefixed(testing::Levels(def[p], 1)), testing::Plain(values[p])}),
        static_cast<int32_t>(rep[p].size()), format::Encoding::PLAIN);
    all.rep.insert(all.rep.end(), rep[p].begin(), rep[p].end());
    all.def.insert(all.def.end(), def[p].begin(), def[p].end());
    all.values.insert(all.values.end(), values[p].begin(), values[p].end());
  }
  const int64_t rows = 5;
  // Rows [a, b) of `all`.
  auto slice = [&](int64_t a, int64_t b) {
    Read<int32_t> out;
    int64_t row = -1;
    size_t value = 0;
    for (size_t i = 0; i < all.rep.size(); ++i) {
      if (all.rep[i] == 0) ++row;
      const bool present = all.def[i] == 1;
      if (row >= a && row < b) {
        out.rep.push_back(all.rep[i]);
        out.def.push_back(all.def[i]);
        if (present) out.values.push_back(all.values[value]);
      }
      value += present ? 1 : 0;
    }
    return out;
  };
  std::mt19937_64 rng(3);
  for (int64_t a = 0; a <= rows; ++a) {
    for (int64_t b = a; b <= rows; ++b) {
      const std::string where = "rows [" + std::to_string(a) + ", " + std::to_string(b) + ")";
      testing::Fixture fixture(builder, column, 12, {}, rows);
      PQPAGE_ASSERT_OK(fixture.reader->SelectRows({{a, b}}));
      Read<int32_t> actual;
      PQPAGE_ASSERT_OK(ReadRest(*fixture.reader, rng, &actual));
      ExpectSame(slice(a, b), actual, column, where);
      // The same rows after a seek, then a skip back to the start.
      testing::Fixture seeking(builder, column, 12, {}, rows);
      PQPAGE_ASSERT_OK(seeking.reader->SeekToRow(b));
      PQPAGE_ASSERT_OK(seeking.reader->SeekToRow(a));
      Read<int32_t> rest;
      PQPAGE_ASSERT_OK(ReadRest(*seeking.reader, rng, &rest));
      ExpectSame(slice(a, rows), rest, column, where + " after seeks");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  // An offset index that counts the first row starting in each page as the page's first row
  // breaks the format's rule that indexed pages start rows: reaching such a page is DataLoss.
  ChunkPageIndex index;
  index.has_offset_index = true;
  testing::Fixture walk(builder, column, 12, {}, rows);
  for (int64_t first_row : {0, 2, 4}) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(const bool more, walk.reader->NextDataPage());
    ASSERT_TRUE(more);
    IndexedPage page;
    page.offset = walk.reader->page().offset;
    page.first_row_index = first_row;
    index.pages.push_back(page);
  }
  for (size_t p = 0; p < index.pages.size(); ++p) {
    const int64_t end = p + 1 < index.pages.size() ? index.pages[p + 1].offset
                                                   : static_cast<int64_t>(builder.bytes().size());
    index.pages[p].compressed_page_size = static_cast<int32_t>(end - index.pages[p].offset);
  }
  testing::Fixture indexed(builder, column, 12, {}, rows);
  PQPAGE_ASSERT_OK(indexed.reader->UseOffsetIndex(index));
  const absl::Status status = indexed.reader->SeekToRow(2);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_NE(status.message().find("continues a row"), absl::string_view::npos) << status;
}

}  // namespace
}  // namespace pqpage
