#include "pqpage/column_chunk_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "column_data_helpers.h"
#include "metadata/thrift_compact.h"
#include "page/write/chunk_verifier.h"
#include "parquet_types.h"
#include "pqpage/byte_stream_split.h"
#include "pqpage/compression.h"
#include "pqpage/plain.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using absl::StatusCode;
using testing::ColumnData;
using testing::Generate;
using testing::MakeColumn;
using testing::ReadBack;
using testing::ReadChunk;
using testing::SameValue;
using testing::Shape;
using testing::WriteInBatches;

constexpr int kFlbaLength = 5;

// ---------------------------------------------------------------- independent oracles

// The type's sort order, written out again here so the writer's statistics are checked against
// something other than themselves.
template <typename T>
std::optional<std::pair<std::string, std::string>> ExpectedBounds(absl::Span<const T> values) {
  auto bytes_of = [](const auto& v) {
    return std::string(reinterpret_cast<const char*>(&v), sizeof(v));
  };
  if constexpr (std::is_same_v<T, Int96>) {
    return std::nullopt;
  } else if constexpr (std::is_same_v<T, ByteArray>) {
    if (values.empty()) return std::nullopt;
    auto less = [](const ByteArray& a, const ByteArray& b) {
      const size_t n = std::min(a.size, b.size);
      const int c = n == 0 ? 0 : std::memcmp(a.data, b.data, n);
      return c < 0 || (c == 0 && a.size < b.size);
    };
    auto [lo, hi] = std::minmax_element(values.begin(), values.end(), less);
    return std::make_pair(std::string(lo->AsStringView()), std::string(hi->AsStringView()));
  } else if constexpr (std::is_same_v<T, bool>) {
    if (values.empty()) return std::nullopt;
    const bool any_false = std::find(values.begin(), values.end(), false) != values.end();
    const bool any_true = std::find(values.begin(), values.end(), true) != values.end();
    return std::make_pair(std::string(1, any_false ? '\0' : '\1'),
                          std::string(1, any_true ? '\1' : '\0'));
  } else if constexpr (std::is_floating_point_v<T>) {
    std::vector<T> numbers;
    for (T v : values) {
      if (!std::isnan(v)) numbers.push_back(v);
    }
    if (numbers.empty()) return std::nullopt;
    T lo = *std::min_element(numbers.begin(), numbers.end());
    T hi = *std::max_element(numbers.begin(), numbers.end());
    if (lo == 0) lo = -T{0};
    if (hi == 0) hi = T{0};
    return std::make_pair(bytes_of(lo), bytes_of(hi));
  } else {
    if (values.empty()) return std::nullopt;
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return std::make_pair(bytes_of(*lo), bytes_of(*hi));
  }
}

template <typename T>
void ExpectStatistics(const std::optional<Statistics>& stats, absl::Span<const T> values,
                      int64_t nulls, PhysicalType type, const std::string& where) {
  ASSERT_TRUE(stats.has_value()) << where;
  EXPECT_EQ(stats->null_count, nulls) << where;
  auto bounds = ExpectedBounds<T>(values);
  if (!bounds) {
    EXPECT_FALSE(stats->min_value.has_value()) << where;
    EXPECT_FALSE(stats->max_value.has_value()) << where;
    return;
  }
  ASSERT_TRUE(stats->min_value && stats->max_value) << where;
  EXPECT_EQ(*stats->min_value, bounds->first) << where;
  EXPECT_EQ(*stats->max_value, bounds->second) << where;
  const bool legacy = type != PhysicalType::kByteArray && type != PhysicalType::kFixedLenByteArray;
  EXPECT_EQ(stats->legacy_min.has_value(), legacy) << where;
  if (legacy) {
    EXPECT_EQ(stats->legacy_min, stats->min_value) << where;
    EXPECT_EQ(stats->legacy_max, stats->max_value) << where;
  }
}

// The encodings a data page may have under a policy (before and after a dictionary fallback).
std::set<Encoding> AllowedPageEncodings(EncodingPolicy policy, PhysicalType type, int version) {
  const bool is_int = type == PhysicalType::kInt32 || type == PhysicalType::kInt64;
  const bool is_float = type == PhysicalType::kFloat || type == PhysicalType::kDouble;
  const bool is_bytes = type == PhysicalType::kByteArray;
  const bool is_fixed = type == PhysicalType::kFixedLenByteArray;
  const bool is_bool = type == PhysicalType::kBoolean;
  switch (policy) {
    case EncodingPolicy::kAuto: {
      // What pyarrow, DuckDB and polars all read (AutoEncodings::kInteroperable), both versions.
      if (is_bool) {
        if (version == 2) return {Encoding::kPlain, Encoding::kRle};
        return {Encoding::kPlain};
      }
      std::set<Encoding> out = {Encoding::kRleDictionary, Encoding::kPlain};
      if (is_int) out.insert({Encoding::kDeltaBinaryPacked, Encoding::kByteStreamSplit});
      if (is_float) out.insert(Encoding::kByteStreamSplit);
      if (is_bytes) out.insert({Encoding::kDeltaLengthByteArray, Encoding::kDeltaByteArray});
      return out;
    }
    case EncodingPolicy::kPlain:
      return {Encoding::kPlain};
    case EncodingPolicy::kDictionary:
      if (is_bool) return {Encoding::kPlain};
      return {Encoding::kRleDictionary, Encoding::kPlain};
    case EncodingPolicy::kDelta:
      if (is_int) return {Encoding::kDeltaBinaryPacked};
      if (is_bytes || is_fixed) return {Encoding::kDeltaByteArray};
      return {Encoding::kPlain};
    case EncodingPolicy::kDeltaLengthByteArray:
      return {is_bytes ? Encoding::kDeltaLengthByteArray : Encoding::kPlain};
    case EncodingPolicy::kByteStreamSplit:
      return {is_int || is_float || is_fixed ? Encoding::kByteStreamSplit : Encoding::kPlain};
  }
  return {};
}

// ---------------------------------------------------------------- the chunk as bytes

struct WalkedPage {
  int64_t offset = 0;  // within the chunk
  int64_t header_size = 0;
  format::PageHeader header;
  std::vector<uint8_t> stored;
};

std::vector<WalkedPage> WalkPages(const std::vector<uint8_t>& bytes) {
  std::vector<WalkedPage> pages;
  size_t offset = 0;
  while (offset < bytes.size()) {
    WalkedPage page;
    page.offset = static_cast<int64_t>(offset);
    auto size =
        internal::DeserializeCompact(absl::MakeConstSpan(bytes).subspan(offset), &page.header);
    EXPECT_TRUE(size.ok()) << size.status();
    if (!size.ok()) break;
    page.header_size = static_cast<int64_t>(*size);
    offset += *size;
    const size_t stored = static_cast<size_t>(page.header.compressed_page_size);
    EXPECT_LE(offset + stored, bytes.size());
    if (offset + stored > bytes.size()) break;
    page.stored.assign(bytes.begin() + offset, bytes.begin() + offset + stored);
    offset += stored;
    pages.push_back(std::move(page));
  }
  return pages;
}

// Everything ColumnChunkData and the page headers must say about a chunk, and that it reads
// back as `expected`.
template <typename T>
void CheckChunk(const ColumnDescriptor& column, const WriterOptions& options,
                const ColumnData<T>& expected, const ColumnChunkData& chunk, int64_t file_offset,
                const std::string& where, ReadBack<T>* read_back = nullptr) {
  const ColumnMetaData& meta = chunk.metadata;
  const bool v2 = options.data_page_version == 2;
  const bool has_levels = column.max_definition_level > 0 || column.max_repetition_level > 0;
  EXPECT_EQ(meta.physical_type(), column.type) << where;
  EXPECT_EQ(meta.path_in_schema, column.path) << where;
  EXPECT_EQ(meta.codec_id, static_cast<int32_t>(options.compression)) << where;
  EXPECT_EQ(meta.num_values, expected.num_levels()) << where;
  const int64_t rows = testing::CountRows(column, expected.rep, expected.num_levels());
  EXPECT_EQ(chunk.num_rows, rows) << where;
  EXPECT_EQ(meta.total_compressed_size, static_cast<int64_t>(chunk.bytes.size())) << where;

  // Page headers.
  std::vector<WalkedPage> pages = WalkPages(chunk.bytes);
  int64_t uncompressed = 0;
  bool has_dictionary = false;
  std::set<Encoding> page_encodings;
  std::map<std::pair<int, int>, int> counts;
  std::vector<const WalkedPage*> data_pages;
  bool any_v1 = false;
  for (size_t i = 0; i < pages.size(); ++i) {
    const WalkedPage& page = pages[i];
    const format::PageHeader& h = page.header;
    uncompressed += page.header_size + h.uncompressed_page_size;
    EXPECT_EQ(h.__isset.crc, options.write_checksums) << where;
    if (h.__isset.crc) {
      EXPECT_EQ(h.crc, static_cast<int32_t>(PageCrc32(page.stored))) << where << " page " << i;
    }
    if (h.type == format::PageType::DICTIONARY_PAGE) {
      EXPECT_EQ(i, 0u) << where << ": the dictionary page must come first";
      has_dictionary = true;
      EXPECT_EQ(h.dictionary_page_header.encoding, format::Encoding::PLAIN) << where;
      continue;
    }
    data_pages.push_back(&page);
    Encoding encoding;
    if (h.type == format::PageType::DATA_PAGE) {
      any_v1 = true;
      EXPECT_FALSE(v2) << where;
      encoding = static_cast<Encoding>(h.data_page_header.encoding);
      EXPECT_EQ(h.data_page_header.definition_level_encoding, format::Encoding::RLE);
      EXPECT_EQ(h.data_page_header.repetition_level_encoding, format::Encoding::RLE);
      EXPECT_EQ(h.data_page_header.__isset.statistics, options.write_statistics) << where;
      if (options.compression == Compression::kUncompressed) {
        EXPECT_EQ(h.compressed_page_size, h.uncompressed_page_size) << where;
      }
    } else {
      ASSERT_EQ(h.type, format::PageType::DATA_PAGE_V2) << where;
      EXPECT_TRUE(v2) << where;
      const format::DataPageHeaderV2& d = h.data_page_header_v2;
      encoding = static_cast<Encoding>(d.encoding);
      EXPECT_TRUE(d.__isset.is_compressed) << where << ": is_compressed must be explicit";
      if (options.compression == Compression::kUncompressed) EXPECT_FALSE(d.is_compressed);
      if (!d.is_compressed) EXPECT_EQ(h.compressed_page_size, h.uncompressed_page_size);
      if (column.max_repetition_level == 0) EXPECT_EQ(d.repetition_levels_byte_length, 0);
      if (column.max_definition_level == 0) EXPECT_EQ(d.definition_levels_byte_length, 0);
      EXPECT_EQ(d.__isset.statistics, options.write_statistics) << where;
    }
    page_encodings.insert(encoding);
    ++counts[{static_cast<int>(h.type), static_cast<int>(encoding)}];
  }
  EXPECT_EQ(meta.total_uncompressed_size, uncompressed) << where;

  // Offsets and page locations.
  EXPECT_EQ(meta.dictionary_page_offset.has_value(), has_dictionary) << where;
  if (has_dictionary) EXPECT_EQ(*meta.dictionary_page_offset, file_offset) << where;
  if (!data_pages.empty()) {
    EXPECT_EQ(meta.data_page_offset, file_offset + data_pages[0]->offset) << where;
  }
  ASSERT_EQ(chunk.page_index.pages.size(), data_pages.size()) << where;
  EXPECT_EQ(chunk.page_index.has_offset_index, !data_pages.empty()) << where;

  // Encodings and their page counts.
  std::set<Encoding> expected_encodings = page_encodings;
  if (has_dictionary) expected_encodings.insert(Encoding::kPlain);
  if (any_v1 || (v2 && has_levels && !data_pages.empty()))
    expected_encodings.insert(Encoding::kRle);
  const std::vector<Encoding> encodings = meta.encodings();
  std::set<Encoding> listed(encodings.begin(), encodings.end());
  EXPECT_EQ(listed.size(), encodings.size()) << where << ": duplicate encodings";
  EXPECT_EQ(listed, expected_encodings) << where;
  ASSERT_TRUE(meta.encoding_stats.has_value()) << where;
  const std::vector<PageEncodingStats>& encoding_stats = *meta.encoding_stats;
  size_t stat_index = 0;
  if (has_dictionary) {
    ASSERT_FALSE(encoding_stats.empty()) << where;
    EXPECT_EQ(encoding_stats[0].page_type(), PageType::kDictionaryPage) << where;
    EXPECT_EQ(encoding_stats[0].encoding(), Encoding::kPlain) << where;
    EXPECT_EQ(encoding_stats[0].count, 1) << where;
    stat_index = 1;
  }
  std::map<std::pair<int, int>, int> listed_counts;
  for (; stat_index < encoding_stats.size(); ++stat_index) {
    const PageEncodingStats& c = encoding_stats[stat_index];
    EXPECT_NE(c.page_type(), PageType::kDictionaryPage) << where;
    listed_counts[{c.page_type_id, c.encoding_id}] += c.count;
  }
  EXPECT_EQ(listed_counts, counts) << where;
  const std::set<Encoding> allowed =
      AllowedPageEncodings(options.encoding, column.type, options.data_page_version);
  for (Encoding e : page_encodings) {
    EXPECT_TRUE(allowed.count(e)) << where << ": unexpected page encoding " << EncodingName(e);
  }

  // Read back page by page.
  auto read = ReadChunk<T>(column, chunk, file_offset);
  ASSERT_TRUE(read.ok()) << where << ": " << read.status();
  ASSERT_EQ(read->pages.size(), data_pages.size()) << where;
  int64_t row = 0;
  std::vector<T> all_values;
  for (size_t p = 0; p < read->pages.size(); ++p) {
    const auto& page = read->pages[p];
    const std::string at = where + " page " + std::to_string(p);
    const IndexedPage& location = chunk.page_index.pages[p];
    EXPECT_EQ(location.offset, file_offset + data_pages[p]->offset) << at;
    EXPECT_EQ(location.compressed_page_size,
              data_pages[p]->header_size + data_pages[p]->header.compressed_page_size)
        << at;
    EXPECT_EQ(location.first_row_index, row) << at;
    ASSERT_GT(page.levels, 0) << at << ": an empty data page";
    absl::Span<const int16_t> rep =
        column.max_repetition_level > 0
            ? absl::MakeConstSpan(read->data.rep).subspan(page.first_level, page.levels)
            : absl::Span<const int16_t>();
    if (!rep.empty()) EXPECT_EQ(rep[0], 0) << at << ": a page must start a row";
    const int64_t page_rows = testing::CountRows(column, rep, page.levels);
    int64_t nulls = 0;
    if (column.max_definition_level > 0) {
      for (int64_t i = 0; i < page.levels; ++i) {
        nulls += read->data.def[page.first_level + i] < column.max_definition_level;
      }
    }
    if (v2) {
      EXPECT_EQ(page.info.num_rows, page_rows) << at;
      EXPECT_EQ(page.info.num_nulls, nulls) << at;
    }
    EXPECT_LE(page_rows, options.data_page_row_limit) << at;
    if (options.write_checksums) EXPECT_TRUE(page.info.crc_checked && page.info.crc_valid) << at;
    absl::Span<const T> page_values =
        absl::MakeConstSpan(read->data.values).subspan(page.first_value, page.values);
    if (options.write_statistics) {
      ExpectStatistics<T>(page.info.statistics, page_values, nulls, column.type, at);
    } else {
      EXPECT_FALSE(page.info.statistics.has_value()) << at;
    }
    row += page_rows;
  }
  EXPECT_EQ(row, rows) << where;

  // Levels and values.
  EXPECT_EQ(read->data.def, expected.def) << where;
  EXPECT_EQ(read->data.rep, expected.rep) << where;
  ASSERT_EQ(read->data.values.size(), expected.values.size()) << where;
  for (size_t i = 0; i < expected.values.size(); ++i) {
    if (!SameValue(read->data.values[i], expected.values[i])) {
      ADD_FAILURE() << where << ": value " << i << " differs";
      break;
    }
  }
  if (options.write_statistics) {
    ExpectStatistics<T>(meta.statistics, absl::MakeConstSpan(expected.values),
                        expected.num_levels() - static_cast<int64_t>(expected.values.size()),
                        column.type, where + " chunk");
  } else {
    EXPECT_FALSE(meta.statistics.has_value()) << where;
  }
  if (read_back != nullptr) *read_back = std::move(*read);
}

template <typename T>
ColumnChunkData WriteChunk(const ColumnDescriptor& column, const WriterOptions& options,
                           const ColumnData<T>& data, int64_t file_offset, uint64_t seed = 1) {
  ColumnChunkWriter writer(column, options);
  absl::Status status = WriteInBatches(&writer, data, seed);
  EXPECT_TRUE(status.ok()) << status;
  auto chunk = writer.Finish(file_offset);
  EXPECT_TRUE(chunk.ok()) << chunk.status();
  return chunk.ok() ? std::move(chunk).value() : ColumnChunkData();
}

// ---------------------------------------------------------------- the round-trip matrix

using MatrixParam = std::tuple<EncodingPolicy, PhysicalType, int, Compression>;

class RoundTripMatrixTest : public ::testing::TestWithParam<MatrixParam> {};

template <typename T>
void RunMatrixCase(EncodingPolicy policy, PhysicalType type, int version, Compression codec) {
  testing::ForEachWriterVariant(policy, type, version, kFlbaLength, [&](testing::WriterVariant v) {
    v.options.compression = codec;
    v.options.write_checksums = v.number % 2 == 1;
    v.options.write_statistics = v.number != 4;
    v.options.verify_pages = v.number % 3 == 0;
    const ColumnData<T> data = Generate<T>(v.column, v.shape, 1200, 60, 1000 + v.number);
    const int64_t file_offset = 4 + v.number * 11;
    const std::string where = v.where + "/" + std::string(CompressionName(codec));
    const ColumnChunkData chunk = WriteChunk(v.column, v.options, data, file_offset, v.number);
    ASSERT_FALSE(chunk.bytes.empty()) << where;
    CheckChunk(v.column, v.options, data, chunk, file_offset, where);
  });
}

TEST_P(RoundTripMatrixTest, ReadsBackWithExactMetadata) {
  const auto [policy, type, version, codec] = GetParam();
  switch (type) {
    case PhysicalType::kBoolean:
      RunMatrixCase<bool>(policy, type, version, codec);
      break;
    case PhysicalType::kInt32:
      RunMatrixCase<int32_t>(policy, type, version, codec);
      break;
    case PhysicalType::kInt64:
      RunMatrixCase<int64_t>(policy, type, version, codec);
      break;
    case PhysicalType::kInt96:
      RunMatrixCase<Int96>(policy, type, version, codec);
      break;
    case PhysicalType::kFloat:
      RunMatrixCase<float>(policy, type, version, codec);
      break;
    case PhysicalType::kDouble:
      RunMatrixCase<double>(policy, type, version, codec);
      break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      RunMatrixCase<ByteArray>(policy, type, version, codec);
      break;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllCombinations, RoundTripMatrixTest,
    ::testing::Combine(
        ::testing::Values(EncodingPolicy::kAuto, EncodingPolicy::kPlain,
                          EncodingPolicy::kDictionary, EncodingPolicy::kDelta,
                          EncodingPolicy::kDeltaLengthByteArray, EncodingPolicy::kByteStreamSplit),
        ::testing::Values(PhysicalType::kBoolean, PhysicalType::kInt32, PhysicalType::kInt64,
                          PhysicalType::kInt96, PhysicalType::kFloat, PhysicalType::kDouble,
                          PhysicalType::kByteArray, PhysicalType::kFixedLenByteArray),
        ::testing::Values(1, 2),
        ::testing::Values(Compression::kUncompressed, Compression::kSnappy, Compression::kGzip,
                          Compression::kZstd, Compression::kLz4Raw, Compression::kBrotli)),
    [](const ::testing::TestParamInfo<MatrixParam>& info) {
      return std::string(EncodingPolicyName(std::get<0>(info.param))) + "_" +
             std::string(PhysicalTypeName(std::get<1>(info.param))) + "_v" +
             std::to_string(std::get<2>(info.param)) + "_" +
             std::string(CompressionName(std::get<3>(info.param)));
    });

// ---------------------------------------------------------------- targeted behaviour

// The number of levels of each data page, in order.
template <typename T>
std::vector<int64_t> PageLevelCounts(const ColumnDescriptor& column, const ColumnChunkData& chunk) {
  auto read = ReadChunk<T>(column, chunk, 0);
  EXPECT_TRUE(read.ok()) << read.status();
  std::vector<int64_t> out;
  if (read.ok()) {
    for (const auto& page : read->pages) out.push_back(page.levels);
  }
  return out;
}

TEST(ColumnChunkWriterTest, PageEndsAtFirstRowOnceSizeIsReached) {
  // PLAIN INT64 without levels: the estimate is exact (8 bytes a value), so a 1024-byte page
  // takes exactly 128 values.
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kRequired);
  WriterOptions options;
  options.encoding = EncodingPolicy::kPlain;
  options.compression = Compression::kUncompressed;
  options.data_page_size = 1024;
  ColumnData<int64_t> data;
  for (int64_t i = 0; i < 1000; ++i) data.values.push_back(i * 3);
  const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
  const std::vector<int64_t> levels = PageLevelCounts<int64_t>(column, chunk);
  ASSERT_EQ(levels.size(), 8u);
  for (size_t i = 0; i + 1 < levels.size(); ++i) EXPECT_EQ(levels[i], 128) << i;
  EXPECT_EQ(levels.back(), 1000 - 7 * 128);
  CheckChunk(column, options, data, chunk, 0, "plain int64");
}

TEST(ColumnChunkWriterTest, RowLimitEndsPages) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kOptional);
  WriterOptions options;
  options.data_page_row_limit = 100;
  const ColumnData<int32_t> data = Generate<int32_t>(column, Shape::kOptional, 1050, 1000, 5);
  const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
  const std::vector<int64_t> levels = PageLevelCounts<int32_t>(column, chunk);
  ASSERT_EQ(levels.size(), 11u);
  for (size_t i = 0; i + 1 < levels.size(); ++i) EXPECT_EQ(levels[i], 100) << i;
  CheckChunk(column, options, data, chunk, 0, "row limit");
}

TEST(ColumnChunkWriterTest, RepeatedPagesNeverSplitRows) {
  // One long row among short ones, batches of 1..7 levels: pages may only break at rep == 0.
  for (int version : {1, 2}) {
    const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kList);
    WriterOptions options;
    options.data_page_version = version;
    options.data_page_size = 64;
    ColumnData<int64_t> data;
    for (int row = 0; row < 200; ++row) {
      const int elements = row == 50 ? 300 : row % 4;
      if (elements == 0) {
        data.def.push_back(0);
        data.rep.push_back(0);
      }
      for (int e = 0; e < elements; ++e) {
        data.rep.push_back(e == 0 ? 0 : 1);
        data.def.push_back(2);
        data.values.push_back(row * 1000 + e);
      }
    }
    ColumnChunkWriter writer(column, options);
    PQPAGE_ASSERT_OK(WriteInBatches(&writer, data, 3, 7));
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(0));
    CheckChunk(column, options, data, chunk, 0, "long row v" + std::to_string(version));
    EXPECT_GT(chunk.page_index.pages.size(), 10u);
  }
}

TEST(ColumnChunkWriterTest, V2ValuesStayUncompressedWhenCompressionDoesNotHelp) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kByteArray, Shape::kOptional);
  WriterOptions options;
  options.data_page_version = 2;
  options.encoding = EncodingPolicy::kPlain;
  options.compression = Compression::kSnappy;
  options.data_page_size = 4096;
  ColumnData<ByteArray> random;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 400; ++i) {
    if (i % 10 == 0) {
      random.def.push_back(0);
      continue;
    }
    random.def.push_back(1);
    std::string bytes(64, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    random.values.push_back(random.AddBytes(bytes));
  }
  const ColumnChunkData chunk = WriteChunk(column, options, random, 0);
  CheckChunk(column, options, random, chunk, 0, "random bytes");
  std::vector<WalkedPage> pages = WalkPages(chunk.bytes);
  ASSERT_FALSE(pages.empty());
  for (const WalkedPage& page : pages) {
    EXPECT_FALSE(page.header.data_page_header_v2.is_compressed);
    EXPECT_EQ(page.header.compressed_page_size, page.header.uncompressed_page_size);
  }

  // Repetitive values compress: is_compressed true, the levels still raw in front.
  ColumnData<ByteArray> repetitive;
  for (int i = 0; i < 400; ++i) {
    repetitive.def.push_back(1);
    repetitive.values.push_back(repetitive.AddBytes(std::string(64, 'a' + i % 3)));
  }
  const ColumnChunkData compressible = WriteChunk(column, options, repetitive, 0);
  CheckChunk(column, options, repetitive, compressible, 0, "repetitive bytes");
  for (const WalkedPage& page : WalkPages(compressible.bytes)) {
    const format::DataPageHeaderV2& d = page.header.data_page_header_v2;
    EXPECT_TRUE(d.is_compressed);
    EXPECT_LT(page.header.compressed_page_size, page.header.uncompressed_page_size);
    // The definition levels (all 1, width 1) are one RLE run stored as is: header byte + value.
    ASSERT_GT(d.definition_levels_byte_length, 0);
    std::vector<uint8_t> levels(page.stored.begin(),
                                page.stored.begin() + d.definition_levels_byte_length);
    EXPECT_EQ(levels, (std::vector<uint8_t>{static_cast<uint8_t>(d.num_values << 1), 1}));
  }
}

TEST(ColumnChunkWriterTest, V1DictionaryFallsBackToPlain) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kOptional);
  WriterOptions options;
  options.encoding = EncodingPolicy::kDictionary;
  options.data_page_size = 512;
  options.dictionary_page_size_limit = 800;  // 100 entries
  ColumnData<int64_t> data;
  for (int64_t i = 0; i < 3000; ++i) {
    data.def.push_back(i % 9 == 0 ? 0 : 1);
    if (i % 9 != 0) data.values.push_back(i * 1000003);
  }
  const ColumnChunkData chunk = WriteChunk(column, options, data, 100);
  CheckChunk(column, options, data, chunk, 100, "v1 fallback");
  const ColumnMetaData& meta = chunk.metadata;
  ASSERT_TRUE(meta.encoding_stats.has_value());
  const std::vector<PageEncodingStats>& encoding_stats = *meta.encoding_stats;
  ASSERT_TRUE(meta.dictionary_page_offset.has_value());
  EXPECT_EQ(*meta.dictionary_page_offset, 100);
  ASSERT_GE(encoding_stats.size(), 3u);
  EXPECT_EQ(encoding_stats[0].page_type(), PageType::kDictionaryPage);
  EXPECT_EQ(encoding_stats[1].encoding(), Encoding::kRleDictionary);
  EXPECT_EQ(encoding_stats[2].encoding(), Encoding::kPlain);
  EXPECT_EQ(encoding_stats[2].page_type(), PageType::kDataPage);
  // Every page after the first PLAIN one is PLAIN too.
  auto read = ReadChunk<int64_t>(column, chunk, 100);
  PQPAGE_ASSERT_OK(read);
  bool fell_back = false;
  int64_t dictionary_values = 0;
  for (const auto& page : read->pages) {
    if (page.info.encoding == Encoding::kPlain) fell_back = true;
    if (fell_back) EXPECT_EQ(page.info.encoding, Encoding::kPlain);
    if (!fell_back) dictionary_values += page.values;
  }
  EXPECT_TRUE(fell_back);
  // The dictionary took exactly its 100 entries' worth of distinct values.
  ASSERT_TRUE(read->dictionary_page.has_value());
  EXPECT_EQ(read->dictionary_page->num_values, 100);
  EXPECT_EQ(dictionary_values, 100);
}

TEST(ColumnChunkWriterTest, DictionaryFullInsideARowMovesTheRow) {
  // Lists of 40 distinct values each, batches ending mid-row: the dictionary (limit 50 entries)
  // fills up in the second row, which must move whole to the first PLAIN page.
  for (int version : {1, 2}) {
    const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kList);
    WriterOptions options;
    options.encoding = EncodingPolicy::kDictionary;
    options.data_page_version = version;
    options.max_dictionary_entries = 50;
    options.data_page_size = 1 << 20;
    options.verify_pages = true;
    ColumnData<int32_t> data;
    for (int row = 0; row < 10; ++row) {
      for (int e = 0; e < 40; ++e) {
        data.rep.push_back(e == 0 ? 0 : 1);
        data.def.push_back(2);
        data.values.push_back(row * 40 + e);
      }
    }
    ColumnChunkWriter writer(column, options);
    PQPAGE_ASSERT_OK(WriteInBatches(&writer, data, 11, 30));
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(0));
    ReadBack<int32_t> read;
    CheckChunk(column, options, data, chunk, 0, "mid-row fallback v" + std::to_string(version),
               &read);
    ASSERT_EQ(read.pages.size(), 2u);
    EXPECT_EQ(read.pages[0].info.encoding, Encoding::kRleDictionary);
    EXPECT_EQ(read.pages[0].levels, 40);
    EXPECT_NE(read.pages[1].info.encoding, Encoding::kRleDictionary);
    EXPECT_EQ(read.pages[1].levels, 360);
  }
}

TEST(ColumnChunkWriterTest, DictionaryFullInTheFirstRowWritesNoDictionary) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kByteArray, Shape::kList);
  WriterOptions options;
  options.encoding = EncodingPolicy::kDictionary;
  options.dictionary_page_size_limit = 20;
  ColumnData<ByteArray> data;
  for (int e = 0; e < 30; ++e) {
    data.rep.push_back(e == 0 ? 0 : 1);
    data.def.push_back(2);
    data.values.push_back(data.AddBytes("value number " + std::to_string(e)));
  }
  const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
  CheckChunk(column, options, data, chunk, 0, "first row");
  EXPECT_FALSE(chunk.metadata.dictionary_page_offset.has_value());
  EXPECT_EQ(chunk.metadata.encodings(), (std::vector<Encoding>{Encoding::kRle, Encoding::kPlain}));
}

TEST(ColumnChunkWriterTest, DictionaryFirstAutoFallsBackToMeasuredDelta) {
  // auto with the dictionary switched on starts as other writers do, and when the dictionary is
  // full measures the rest: delta for timestamps, in both page versions.
  for (int version : {1, 2}) {
    const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kOptional);
    WriterOptions options;
    options.dictionary = true;
    options.data_page_version = version;
    options.data_page_size = 8192;
    options.dictionary_page_size_limit = 4096;  // 512 entries
    ColumnData<int64_t> data;
    int64_t t = 1700000000000000;
    std::mt19937_64 rng(3);
    for (int i = 0; i < 20000; ++i) {
      t += 1000 + static_cast<int64_t>(rng() % 50);
      data.def.push_back(1);
      data.values.push_back(t);
    }
    const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
    CheckChunk(column, options, data, chunk, 0, "timestamps");
    const ColumnMetaData& meta = chunk.metadata;
    ASSERT_TRUE(meta.encoding_stats.has_value());
    const std::vector<PageEncodingStats>& encoding_stats = *meta.encoding_stats;
    const std::vector<Encoding> encodings = meta.encodings();
    ASSERT_GE(encoding_stats.size(), 3u);
    EXPECT_EQ(encoding_stats[1].encoding(), Encoding::kRleDictionary);
    EXPECT_EQ(encoding_stats[2].encoding(), Encoding::kDeltaBinaryPacked);
    EXPECT_EQ(encoding_stats[2].page_type(),
              version == 2 ? PageType::kDataPageV2 : PageType::kDataPage);
    EXPECT_EQ(encoding_stats.size(), 3u);
    EXPECT_NE(std::find(encodings.begin(), encodings.end(), Encoding::kDeltaBinaryPacked),
              encodings.end());
  }
}

// The bytes a v2 page stores for a values section: compressed when that is smaller.
size_t StoredV2Size(const std::vector<uint8_t>& section, Compression codec) {
  std::vector<uint8_t> compressed;
  EXPECT_TRUE(Compress(codec, section, &compressed).ok());
  return std::min(section.size(), compressed.size());
}

TEST(ColumnChunkWriterTest, V2FallbackMeasuresRandomDoubles) {
  for (Compression codec : {Compression::kSnappy, Compression::kZstd, Compression::kGzip}) {
    const ColumnDescriptor column = MakeColumn(PhysicalType::kDouble, Shape::kRequired);
    WriterOptions options;
    options.dictionary = true;
    options.auto_tie_margin = 0;  // strictly the smaller
    options.data_page_version = 2;
    options.compression = codec;
    options.data_page_size = 16384;
    options.max_dictionary_entries = 64;
    ColumnData<double> data;
    std::mt19937_64 rng(21);
    std::normal_distribution<double> normal(1000.0, 3.0);
    for (int i = 0; i < 10000; ++i) data.values.push_back(normal(rng));
    const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
    ReadBack<double> read;
    CheckChunk(column, options, data, chunk, 0, "random doubles", &read);
    // The first fallback page: recompute both candidates' stored sizes on its values.
    const testing::ReadPage<double>* first = nullptr;
    for (const auto& page : read.pages) {
      if (page.info.encoding != Encoding::kRleDictionary) {
        first = &page;
        break;
      }
    }
    ASSERT_NE(first, nullptr);
    absl::Span<const double> values =
        absl::MakeConstSpan(read.data.values).subspan(first->first_value, first->values);
    PlainEncoder<double> plain;
    PQPAGE_EXPECT_OK(plain.Put(values));
    ByteStreamSplitEncoder<double> split;
    PQPAGE_EXPECT_OK(split.Put(values));
    const size_t plain_size = StoredV2Size(plain.Finish(), codec);
    const size_t split_size = StoredV2Size(split.Finish(), codec);
    ASSERT_NE(plain_size, split_size);
    const Encoding expected =
        split_size < plain_size ? Encoding::kByteStreamSplit : Encoding::kPlain;
    EXPECT_EQ(first->info.encoding, expected)
        << CompressionName(codec) << ": plain " << plain_size << ", split " << split_size;
    // The choice holds for the rest of the chunk.
    for (const auto& page : read.pages) {
      if (&page > first) EXPECT_EQ(page.info.encoding, expected);
    }
  }
}

TEST(ColumnChunkWriterTest, BooleanEncodings) {
  // auto: PLAIN in v1 (what every reader takes there); in v2 the smaller of PLAIN and RLE, which
  // for long runs is RLE.
  const ColumnDescriptor column = MakeColumn(PhysicalType::kBoolean, Shape::kOptional);
  const ColumnData<bool> random = Generate<bool>(column, Shape::kOptional, 3000, 2, 9);
  ColumnData<bool> runs;
  for (int i = 0; i < 3000; ++i) {
    runs.def.push_back(i % 17 == 0 ? 0 : 1);
    if (i % 17 != 0) runs.values.push_back((i / 500) % 2 == 0);
  }
  for (int version : {1, 2}) {
    for (const ColumnData<bool>* data : std::vector<const ColumnData<bool>*>{&random, &runs}) {
      const std::string where =
          absl::StrCat("bool v", version, data == &runs ? " runs" : " random");
      WriterOptions options;
      options.data_page_version = version;
      // Uncompressed, RLE is clearly the smaller for runs (a codec shrinks PLAIN's runs too).
      if (data == &runs) options.compression = Compression::kUncompressed;
      const ColumnChunkData chunk = WriteChunk(column, options, *data, 0);
      CheckChunk(column, options, *data, chunk, 0, where);
      EXPECT_FALSE(chunk.metadata.dictionary_page_offset.has_value());
      for (const PageEncodingStats& count : *chunk.metadata.encoding_stats) {
        if (version == 1 || data == &runs) {
          EXPECT_EQ(count.encoding(), version == 2 ? Encoding::kRle : Encoding::kPlain) << where;
        }
      }
      if ((*chunk.metadata.encoding_stats)[0].encoding() != Encoding::kRle) continue;
      // RLE booleans carry the 4-byte length prefix.
      for (const WalkedPage& page : WalkPages(chunk.bytes)) {
        const format::DataPageHeaderV2& d = page.header.data_page_header_v2;
        ASSERT_FALSE(d.is_compressed);
        const size_t at = d.definition_levels_byte_length + d.repetition_levels_byte_length;
        ASSERT_GE(page.stored.size(), at + 4);
        uint32_t length;
        std::memcpy(&length, page.stored.data() + at, 4);
        EXPECT_EQ(length + 4 + at, page.stored.size());
      }
    }
  }
}

TEST(ColumnChunkWriterTest, AllNullChunkHasEmptyDictionaryAndNoBounds) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kDouble, Shape::kOptional);
  ColumnData<double> data;
  data.def.assign(500, 0);
  for (int version : {1, 2}) {
    WriterOptions options;
    options.data_page_version = version;
    const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
    CheckChunk(column, options, data, chunk, 0, "all null");
    ASSERT_TRUE(chunk.metadata.statistics.has_value());
    EXPECT_EQ(chunk.metadata.statistics->null_count, 500);
    EXPECT_FALSE(chunk.metadata.statistics->min_value.has_value());
  }
}

TEST(ColumnChunkWriterTest, FloatStatisticsIgnoreNaNAndSignZeros) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kFloat, Shape::kOptional);
  ColumnData<float> data;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (float v : {nan, 0.0f, 2.0f, nan, 0.0f}) {
    data.def.push_back(1);
    data.values.push_back(v);
  }
  data.def.push_back(0);
  WriterOptions options;
  const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
  CheckChunk(column, options, data, chunk, 0, "floats");
  const Statistics& s = *chunk.metadata.statistics;
  float lo;
  float hi;
  std::memcpy(&lo, s.min_value->data(), 4);
  std::memcpy(&hi, s.max_value->data(), 4);
  EXPECT_EQ(lo, 0.0f);
  EXPECT_TRUE(std::signbit(lo));
  EXPECT_EQ(hi, 2.0f);
  EXPECT_EQ(s.null_count, 1);

  ColumnData<float> only_nan;
  only_nan.def = {1, 1, 0};
  only_nan.values = {nan, nan};
  const ColumnChunkData nan_chunk = WriteChunk(column, options, only_nan, 0);
  CheckChunk(column, options, only_nan, nan_chunk, 0, "only NaN");
  EXPECT_FALSE(nan_chunk.metadata.statistics->min_value.has_value());
}

TEST(ColumnChunkWriterTest, ByteArrayStatisticsAreUnsigned) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kByteArray, Shape::kRequired);
  ColumnData<ByteArray> data;
  for (std::string s : {std::string("abc"), std::string("\xc3\xa9t\xc3\xa9"), std::string("zz"),
                        std::string("\x80", 1), std::string("ab")}) {
    data.values.push_back(data.AddBytes(s));
  }
  WriterOptions options;
  const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
  CheckChunk(column, options, data, chunk, 0, "strings");
  EXPECT_EQ(*chunk.metadata.statistics->min_value, "ab");
  EXPECT_EQ(*chunk.metadata.statistics->max_value, "\xc3\xa9t\xc3\xa9");
  EXPECT_FALSE(chunk.metadata.statistics->legacy_min.has_value());
}

TEST(ColumnChunkWriterTest, EmptyChunk) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kOptional);
  ColumnChunkWriter writer(column, WriterOptions());
  PQPAGE_ASSERT_OK(writer.WriteBatch<int32_t>({}, {}, {}));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(40));
  EXPECT_TRUE(chunk.bytes.empty());
  EXPECT_EQ(chunk.metadata.num_values, 0);
  EXPECT_EQ(chunk.num_rows, 0);
  EXPECT_EQ(chunk.metadata.data_page_offset, 40);
  EXPECT_FALSE(chunk.metadata.dictionary_page_offset.has_value());
  EXPECT_TRUE(chunk.page_index.pages.empty());
  EXPECT_FALSE(chunk.page_index.has_offset_index);
}

TEST(ColumnChunkWriterTest, EstimatedChunkSizeGrows) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kRequired);
  WriterOptions options;
  options.encoding = EncodingPolicy::kPlain;
  options.compression = Compression::kUncompressed;
  options.data_page_size = 800;
  ColumnChunkWriter writer(column, options);
  EXPECT_EQ(writer.EstimatedChunkSize(), 0);
  std::vector<int64_t> values(1000, 5);
  PQPAGE_ASSERT_OK(writer.WriteBatch<int64_t>({}, {}, values));
  const int64_t estimate = writer.EstimatedChunkSize();
  EXPECT_GE(estimate, 8000);
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(0));
  // Exact for PLAIN without levels or compression, except the header of the page being filled.
  const std::vector<WalkedPage> pages = WalkPages(chunk.bytes);
  ASSERT_EQ(pages.size(), 10u);
  EXPECT_EQ(estimate + pages.back().header_size, static_cast<int64_t>(chunk.bytes.size()));
}

TEST(ColumnChunkWriterTest, VerifyPagesPassesOnGoodChunks) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kFixedLenByteArray, Shape::kList, 5);
  const ColumnData<ByteArray> data = Generate<ByteArray>(column, Shape::kList, 5000, 300, 4);
  for (int version : {1, 2}) {
    WriterOptions options;
    options.data_page_version = version;
    options.verify_pages = true;
    options.write_checksums = true;
    options.data_page_size = 700;
    options.dictionary_page_size_limit = 700;
    const ColumnChunkData chunk = WriteChunk(column, options, data, 0);
    CheckChunk(column, options, data, chunk, 0, "verify");
  }
}

TEST(ColumnChunkWriterTest, VerifierReportsADifferenceAsInternal) {
  // verify_pages can only fail on a pqpage bug, so the verifier is checked on its own: a chunk
  // compared with other levels or values than it holds.
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kOptional);
  ColumnData<int32_t> data;
  data.def = {1, 0, 1, 1};
  data.values = {1, 2, 3};
  WriterOptions options;
  options.write_checksums = true;  // so that the corruption below is found whatever byte it hits
  const ColumnChunkData chunk = WriteChunk(column, options, data, 0);

  internal::ChunkVerifier<int32_t> same(column);
  same.Record(data.def, {}, data.values);
  PQPAGE_EXPECT_OK(same.Verify(chunk));

  internal::ChunkVerifier<int32_t> other_value(column);
  other_value.Record(data.def, {}, std::vector<int32_t>{1, 2, 4});
  PQPAGE_EXPECT_ERROR(other_value.Verify(chunk), StatusCode::kInternal);

  internal::ChunkVerifier<int32_t> other_level(column);
  other_level.Record(std::vector<int16_t>{1, 1, 0, 1}, {}, data.values);
  PQPAGE_EXPECT_ERROR(other_level.Verify(chunk), StatusCode::kInternal);

  internal::ChunkVerifier<int32_t> fewer(column);
  fewer.Record(std::vector<int16_t>{1, 0, 1}, {}, std::vector<int32_t>{1, 2});
  PQPAGE_EXPECT_ERROR(fewer.Verify(chunk), StatusCode::kInternal);

  internal::ChunkVerifier<int32_t> more(column);
  more.Record(std::vector<int16_t>{1, 0, 1, 1, 0}, {}, data.values);
  PQPAGE_EXPECT_ERROR(more.Verify(chunk), StatusCode::kInternal);

  ColumnChunkData corrupt = chunk;
  corrupt.bytes.back() ^= 0xff;
  PQPAGE_EXPECT_ERROR(same.Verify(corrupt), StatusCode::kInternal);
}

// ---------------------------------------------------------------- caller mistakes

TEST(ColumnChunkWriterTest, RejectsBadBatches) {
  const ColumnDescriptor list = MakeColumn(PhysicalType::kInt32, Shape::kList);
  ColumnChunkWriter writer(list, WriterOptions());
  const std::vector<int16_t> def = {2, 1, 2};
  const std::vector<int16_t> rep = {0, 1, 1};
  const std::vector<int32_t> two = {1, 2};
  // The wrong value type.
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int64_t>(def, rep, std::vector<int64_t>{1, 2}),
                      StatusCode::kInvalidArgument);
  // Level arrays of different lengths.
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>(def, std::vector<int16_t>{0, 1}, two),
                      StatusCode::kInvalidArgument);
  // Missing repetition levels.
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>(def, {}, two), StatusCode::kInvalidArgument);
  // Levels above their maxima, or negative.
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>(std::vector<int16_t>{3, 2, 2}, rep, two),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>(std::vector<int16_t>{-1, 2, 2}, rep, two),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>(def, std::vector<int16_t>{0, 2, 1}, two),
                      StatusCode::kInvalidArgument);
  // A value count that disagrees with the definition levels.
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>(def, rep, std::vector<int32_t>{1}),
                      StatusCode::kInvalidArgument);
  // A chunk cannot start inside a row.
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>(def, std::vector<int16_t>{1, 1, 0}, two),
                      StatusCode::kInvalidArgument);
  // None of those changed the writer: a good batch still works, then a continuation.
  PQPAGE_EXPECT_OK(writer.WriteBatch<int32_t>(def, rep, two));
  PQPAGE_EXPECT_OK(writer.WriteBatch<int32_t>(std::vector<int16_t>{2}, std::vector<int16_t>{1},
                                              std::vector<int32_t>{3}));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(0));
  EXPECT_EQ(chunk.metadata.num_values, 4);
  EXPECT_EQ(chunk.num_rows, 1);
  // The writer is spent.
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>(def, rep, two), StatusCode::kFailedPrecondition);
  PQPAGE_EXPECT_ERROR(writer.Finish(0), StatusCode::kFailedPrecondition);
}

TEST(ColumnChunkWriterTest, NamesTheFirstLevelOutsideItsRange) {
  // Long batches, so that the bad level sits among many good ones: the error names the first bad
  // level and where it is, whether it is too high or negative, at the start, middle or end.
  const ColumnDescriptor list = MakeColumn(PhysicalType::kInt32, Shape::kList);
  for (const size_t at : {size_t{0}, size_t{777}, size_t{1999}}) {
    for (const int16_t bad : {int16_t{3}, int16_t{-2}}) {
      std::vector<int16_t> def(2000, 1);
      std::vector<int16_t> rep(2000, 1);
      rep[0] = 0;
      def[at] = bad;
      if (at + 5 < def.size()) def[at + 5] = 9;  // a later bad level is not the one named
      ColumnChunkWriter writer(list, WriterOptions());
      const absl::Status status = writer.WriteBatch<int32_t>(def, rep, {});
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
      const std::string want =
          absl::StrCat("definition level ", bad, " at ", at, " is outside 0..2");
      EXPECT_NE(std::string(status.message()).find(want), std::string::npos) << status;
      std::fill(def.begin(), def.end(), int16_t{1});
      rep[at == 0 ? 1 : at] = bad;
      const absl::Status rep_status = writer.WriteBatch<int32_t>(def, rep, {});
      const std::string rep_want =
          absl::StrCat("repetition level ", bad, " at ", at == 0 ? 1 : at, " is outside 0..1");
      EXPECT_NE(std::string(rep_status.message()).find(rep_want), std::string::npos) << rep_status;
    }
  }
}

TEST(ColumnChunkWriterTest, RejectsBadValues) {
  ColumnChunkWriter fixed(MakeColumn(PhysicalType::kFixedLenByteArray, Shape::kRequired, 4),
                          WriterOptions());
  PQPAGE_EXPECT_ERROR(fixed.WriteBatch<ByteArray>(
                          {}, {}, std::vector<ByteArray>{ByteArray("abcd"), ByteArray("abc")}),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_OK(fixed.WriteBatch<ByteArray>({}, {}, std::vector<ByteArray>{ByteArray("abcd")}));

  // A byte array over 2^31 - 1 bytes (never dereferenced: rejected by its size).
  static const uint8_t kByte = 0;
  ColumnChunkWriter bytes(MakeColumn(PhysicalType::kByteArray, Shape::kRequired), WriterOptions());
  PQPAGE_EXPECT_ERROR(
      bytes.WriteBatch<ByteArray>({}, {}, std::vector<ByteArray>{ByteArray(&kByte, 0x80000000u)}),
      StatusCode::kInvalidArgument);

  // A definition array for a required column must hold zeros only.
  ColumnChunkWriter required(MakeColumn(PhysicalType::kInt32, Shape::kRequired), WriterOptions());
  PQPAGE_EXPECT_ERROR(
      required.WriteBatch<int32_t>(std::vector<int16_t>{1}, {}, std::vector<int32_t>{1}),
      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_OK(
      required.WriteBatch<int32_t>(std::vector<int16_t>{0}, {}, std::vector<int32_t>{1}));
}

TEST(ColumnChunkWriterTest, RejectsBadOptions) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kOptional);
  auto expect = [&](WriterOptions options, StatusCode code, const char* what) {
    ColumnChunkWriter writer(column, options);
    EXPECT_EQ(
        writer.WriteBatch<int32_t>(std::vector<int16_t>{1}, {}, std::vector<int32_t>{1}).code(),
        code)
        << what;
    EXPECT_EQ(writer.Finish(0).status().code(), code) << what;
  };
  WriterOptions options;
  options.data_page_version = 3;
  expect(options, StatusCode::kInvalidArgument, "page version 3");
  options = WriterOptions();
  options.data_page_version = 0;
  expect(options, StatusCode::kInvalidArgument, "page version 0");
  options = WriterOptions();
  options.data_page_size = 0;
  expect(options, StatusCode::kInvalidArgument, "page size 0");
  options = WriterOptions();
  options.data_page_row_limit = -1;
  expect(options, StatusCode::kInvalidArgument, "row limit");
  options = WriterOptions();
  options.compression = Compression::kLzo;
  expect(options, StatusCode::kUnimplemented, "LZO");
  options = WriterOptions();
  options.compression = Compression::kLz4Hadoop;
  expect(options, StatusCode::kUnimplemented, "LZ4");
  options = WriterOptions();
  options.compression = static_cast<Compression>(42);
  expect(options, StatusCode::kInvalidArgument, "codec 42");
  options = WriterOptions();
  options.encoding = static_cast<EncodingPolicy>(17);
  expect(options, StatusCode::kInvalidArgument, "policy 17");

  ColumnChunkWriter no_length(MakeColumn(PhysicalType::kFixedLenByteArray, Shape::kRequired, 0),
                              WriterOptions());
  PQPAGE_EXPECT_ERROR(no_length.Finish(0), StatusCode::kInvalidArgument);
  ColumnDescriptor impossible = MakeColumn(PhysicalType::kInt32, Shape::kRequired);
  impossible.max_repetition_level = 1;
  ColumnChunkWriter levels(impossible, WriterOptions());
  PQPAGE_EXPECT_ERROR(levels.Finish(0), StatusCode::kInvalidArgument);
}

TEST(ColumnChunkWriterTest, BadCompressionLevelIsAnErrorNotACrash) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kRequired);
  WriterOptions options;
  options.compression = Compression::kGzip;
  options.compression_level = 99;
  ColumnChunkWriter writer(column, options);
  std::vector<int32_t> values(100, 1);
  absl::Status status = writer.WriteBatch<int32_t>({}, {}, values);
  if (status.ok()) status = writer.Finish(0).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status;
}

TEST(EncodingPolicyTest, NamesRoundTrip) {
  for (EncodingPolicy policy :
       {EncodingPolicy::kAuto, EncodingPolicy::kPlain, EncodingPolicy::kDictionary,
        EncodingPolicy::kDelta, EncodingPolicy::kDeltaLengthByteArray,
        EncodingPolicy::kByteStreamSplit}) {
    EXPECT_EQ(ParseEncodingPolicy(EncodingPolicyName(policy)), policy);
  }
  EXPECT_EQ(EncodingPolicyName(EncodingPolicy::kDeltaLengthByteArray), "delta_length_byte_array");
  EXPECT_FALSE(ParseEncodingPolicy("Plain").has_value());
  EXPECT_FALSE(ParseEncodingPolicy("").has_value());
}

}  // namespace
}  // namespace pqpage
