// The page index both ways. FileWriter's: every chunk's OffsetIndex and ColumnIndex, read back
// with the generated Thrift structures and checked against the pages themselves as
// ColumnChunkReader finds them (locations, first rows, page statistics, levels, byte array
// bytes); truncation of long byte array bounds; chunks that cannot have a ColumnIndex; the
// footer's SizeStatistics. FileReader::ReadPageIndex: the same checks on what it returns, for
// pqpage's files and the reference files that carry an index, and hostile indexes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "column_data_helpers.h"
#include "file/page_index_read.h"
#include "metadata/thrift_compact.h"
#include "page/write/page_index_builder.h"
#include "parquet_types.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using testing::ColumnData;

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

format::FileMetaData Footer(const std::vector<uint8_t>& file) {
  format::FileMetaData footer;
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  const auto status = internal::DeserializeCompact(
      absl::MakeConstSpan(file).subspan(file.size() - 8 - length, length), &footer);
  EXPECT_TRUE(status.ok()) << status.status();
  return footer;
}

template <typename Index>
Index ReadIndex(const std::vector<uint8_t>& file, int64_t offset, int32_t length) {
  Index index;
  const auto read = internal::DeserializeCompact(
      absl::MakeConstSpan(file).subspan(static_cast<size_t>(offset), static_cast<size_t>(length)),
      &index);
  EXPECT_TRUE(read.ok()) << read.status();
  if (read.ok()) EXPECT_EQ(*read, static_cast<size_t>(length)) << "the index fills its length";
  return index;
}

// What one data page holds, as ColumnChunkReader reads it.
struct PageSeen {
  int64_t offset = 0;
  std::optional<Statistics> statistics;
  int64_t levels = 0;
  int64_t values = 0;
  int64_t rows = 0;
  int64_t value_bytes = 0;
  std::vector<int64_t> definition_histogram;
  std::vector<int64_t> repetition_histogram;
};

// The pages of a chunk as ColumnChunkReader reads them; empty when it cannot (with `quiet`, not
// a test failure: reference files pqpage cannot decode are checked elsewhere).
template <typename T>
std::vector<PageSeen> ReadPages(const FileReader& file, int row_group, int column,
                                bool quiet = false) {
  const ColumnDescriptor& descriptor = file.schema().columns()[column];
  auto chunk = file.OpenColumnChunk(row_group, column);
  EXPECT_TRUE(chunk.ok() || quiet) << chunk.status();
  std::vector<PageSeen> pages;
  if (!chunk.ok()) return pages;
  std::vector<int16_t> def(64), rep(64);
  std::unique_ptr<T[]> values(new T[64]);
  int64_t page = -1;
  while (true) {
    auto counts = chunk->template ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep),
                                               absl::MakeSpan(values.get(), 64));
    if (!counts.ok()) {
      EXPECT_TRUE(quiet) << counts.status();
      return {};
    }
    if (counts->levels == 0) break;
    if (chunk->page_index() != page) {
      page = chunk->page_index();
      PageSeen seen;
      seen.offset = chunk->page().offset;
      seen.statistics = chunk->page().statistics;
      seen.definition_histogram.assign(descriptor.max_definition_level + 1, 0);
      seen.repetition_histogram.assign(descriptor.max_repetition_level + 1, 0);
      pages.push_back(seen);
    }
    PageSeen& seen = pages.back();
    seen.levels += counts->levels;
    seen.values += counts->values;
    for (int64_t i = 0; i < counts->levels; ++i) {
      if (descriptor.max_definition_level > 0) ++seen.definition_histogram[def[i]];
      if (descriptor.max_repetition_level > 0) {
        ++seen.repetition_histogram[rep[i]];
        seen.rows += rep[i] == 0;
      } else {
        ++seen.rows;
      }
    }
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (int64_t i = 0; i < counts->values; ++i) seen.value_bytes += values[i].size;
    }
  }
  return pages;
}

Schema IndexSchema() {
  auto schema =
      Schema::Builder()
          .AddPrimitive("up", Repetition::kRequired, PhysicalType::kInt64)
          .AddPrimitive("down", Repetition::kOptional, PhysicalType::kInt32)
          .AddPrimitive("name", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
          .BeginGroup("tags", Repetition::kOptional, "LIST")
          .BeginGroup("list", Repetition::kRepeated)
          .AddPrimitive("element", Repetition::kOptional, PhysicalType::kInt32)
          .EndGroup()
          .EndGroup()
          .AddPrimitive("code", Repetition::kOptional, PhysicalType::kFixedLenByteArray, 3)
          .AddPrimitive("stamp", Repetition::kOptional, PhysicalType::kInt96)
          .Build();
  EXPECT_TRUE(schema.ok()) << schema.status();
  return std::move(schema).value();
}

template <typename T>
absl::Status AddColumn(FileWriter* file, int column, const ColumnData<T>& data,
                       const WriterOptions& options) {
  ColumnChunkWriter writer(file->schema().columns()[column], options);
  PQPAGE_RETURN_IF_ERROR(testing::WriteInBatches(&writer, data, 3));
  return file->WriteColumnChunk(std::move(writer));
}

// Two row groups of IndexSchema(): `up` ascending, `down` descending with nulls, the others as
// the helpers generate them (several pages each at this page size).
void WriteIndexFile(const std::string& path, const WriterOptions& options,
                    const FileWriterOptions& file_options = {}) {
  const Schema schema = IndexSchema();
  const auto& columns = schema.columns();
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema, file_options));
  for (int rg = 0; rg < 2; ++rg) {
    const int64_t rows = 700 + rg * 50;
    ColumnData<int64_t> up;
    ColumnData<int32_t> down;
    for (int64_t i = 0; i < rows; ++i) {
      up.values.push_back(rg * 10000 + i * 3);
      if (i % 9 == 4 || (i >= 300 && i < 420)) {  // a run of nulls: a null page or two
        down.def.push_back(0);
      } else {
        down.def.push_back(1);
        down.values.push_back(static_cast<int32_t>(5000 - i));
      }
    }
    const auto name =
        testing::Generate<ByteArray>(columns[2], testing::Shape::kOptional, rows, 50, rg + 7, true);
    ColumnData<int32_t> tags;
    {
      auto list =
          testing::Generate<int32_t>(columns[3], testing::Shape::kList, rows, 30, rg + 8, true);
      // Optional lists: max_def 3. Shift the generated levels (0 empty, 1 null element, 2 value)
      // up by one and make every 11th row a null list.
      int64_t row = -1;
      size_t value = 0;
      for (size_t i = 0; i < list.def.size(); ++i) {
        if (list.rep[i] == 0) ++row;
        if (row % 11 == 5) {
          if (list.rep[i] == 0) {
            tags.def.push_back(0);
            tags.rep.push_back(0);
          }
          if (list.def[i] == 2) ++value;
          continue;
        }
        tags.def.push_back(static_cast<int16_t>(list.def[i] + 1));
        tags.rep.push_back(list.rep[i]);
        if (list.def[i] == 2) tags.values.push_back(list.values[value++]);
      }
    }
    const auto code =
        testing::Generate<ByteArray>(columns[4], testing::Shape::kOptional, rows, 20, rg + 9, true);
    const auto stamp =
        testing::Generate<Int96>(columns[5], testing::Shape::kOptional, rows, 20, rg + 10, true);
    PQPAGE_ASSERT_OK(file->BeginRowGroup());
    PQPAGE_ASSERT_OK(AddColumn(file.get(), 0, up, options));
    PQPAGE_ASSERT_OK(AddColumn(file.get(), 1, down, options));
    PQPAGE_ASSERT_OK(AddColumn(file.get(), 2, name, options));
    PQPAGE_ASSERT_OK(AddColumn(file.get(), 3, tags, options));
    PQPAGE_ASSERT_OK(AddColumn(file.get(), 4, code, options));
    PQPAGE_ASSERT_OK(AddColumn(file.get(), 5, stamp, options));
    PQPAGE_ASSERT_OK(file->EndRowGroup());
  }
  PQPAGE_ASSERT_OK(file->Close());
}

// What ReadPageIndex returned against the pages as read.
void ExpectIndexMatchesPages(const ChunkPageIndex& index, const std::vector<PageSeen>& pages,
                             const std::string& where) {
  ASSERT_EQ(index.pages.size(), pages.size()) << where;
  int64_t first_row = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    const IndexedPage& entry = index.pages[p];
    const PageSeen& page = pages[p];
    const std::string at = where + " page " + std::to_string(p);
    if (index.has_offset_index) {
      EXPECT_EQ(entry.offset, page.offset) << at;
      EXPECT_EQ(entry.first_row_index, first_row) << at;
      if (entry.unencoded_byte_array_data_bytes) {
        EXPECT_EQ(*entry.unencoded_byte_array_data_bytes, page.value_bytes) << at;
      }
    }
    if (index.has_column_index) {
      EXPECT_EQ(entry.null_page, page.values == 0) << at;
      if (entry.null_count) EXPECT_EQ(*entry.null_count, page.levels - page.values) << at;
      if (!entry.definition_level_histogram.empty()) {
        EXPECT_EQ(entry.definition_level_histogram, page.definition_histogram) << at;
      }
      if (!entry.repetition_level_histogram.empty()) {
        EXPECT_EQ(entry.repetition_level_histogram, page.repetition_histogram) << at;
      }
    }
    first_row += page.rows;
  }
}

template <typename T>
void CheckChunkIndexes(const std::vector<uint8_t>& bytes, const FileReader& reader,
                       const format::ColumnChunk& chunk, int rg, int c, const std::string& where) {
  const ColumnDescriptor& column = reader.schema().columns()[c];
  const std::vector<PageSeen> pages = ReadPages<T>(reader, rg, c);
  ASSERT_FALSE(pages.empty()) << where;
  ASSERT_TRUE(chunk.__isset.offset_index_offset && chunk.__isset.offset_index_length) << where;
  const auto offsets =
      ReadIndex<format::OffsetIndex>(bytes, chunk.offset_index_offset, chunk.offset_index_length);
  ASSERT_EQ(offsets.page_locations.size(), pages.size()) << where;
  int64_t first_row = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    EXPECT_EQ(offsets.page_locations[p].offset, pages[p].offset) << where << " page " << p;
    EXPECT_EQ(offsets.page_locations[p].first_row_index, first_row) << where << " page " << p;
    const int64_t next =
        p + 1 < pages.size()
            ? pages[p + 1].offset
            : chunk.meta_data.data_page_offset + chunk.meta_data.total_compressed_size -
                  (chunk.meta_data.__isset.dictionary_page_offset
                       ? chunk.meta_data.data_page_offset - chunk.meta_data.dictionary_page_offset
                       : 0);
    EXPECT_EQ(offsets.page_locations[p].compressed_page_size, next - pages[p].offset) << where;
    first_row += pages[p].rows;
  }
  const bool byte_array = column.type == PhysicalType::kByteArray;
  EXPECT_EQ(offsets.__isset.unencoded_byte_array_data_bytes, byte_array) << where;

  // SizeStatistics: the pages summed.
  const format::SizeStatistics& size = chunk.meta_data.size_statistics;
  std::vector<int64_t> def_total(column.max_definition_level + 1, 0);
  std::vector<int64_t> rep_total(column.max_repetition_level + 1, 0);
  int64_t bytes_total = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    for (size_t l = 0; l < def_total.size(); ++l) def_total[l] += pages[p].definition_histogram[l];
    for (size_t l = 0; l < rep_total.size(); ++l) rep_total[l] += pages[p].repetition_histogram[l];
    bytes_total += pages[p].value_bytes;
    if (byte_array) {
      EXPECT_EQ(offsets.unencoded_byte_array_data_bytes[p], pages[p].value_bytes) << where;
    }
  }
  if (column.max_definition_level > 0) {
    EXPECT_EQ(size.definition_level_histogram, def_total) << where;
  } else {
    EXPECT_FALSE(size.__isset.definition_level_histogram) << where;
  }
  if (column.max_repetition_level > 0) {
    EXPECT_EQ(size.repetition_level_histogram, rep_total) << where;
  } else {
    EXPECT_FALSE(size.__isset.repetition_level_histogram) << where;
  }
  EXPECT_EQ(size.__isset.unencoded_byte_array_data_bytes, byte_array) << where;
  if (byte_array) EXPECT_EQ(size.unencoded_byte_array_data_bytes, bytes_total) << where;

  // FileReader::ReadPageIndex returns the same.
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<ChunkPageIndex> read, reader.ReadPageIndex(rg, c));
  ASSERT_TRUE(read.has_value()) << where;
  EXPECT_TRUE(read->has_offset_index) << where;
  EXPECT_EQ(read->has_column_index, column.type != PhysicalType::kInt96) << where;
  ExpectIndexMatchesPages(*read, pages, where);

  if (column.type == PhysicalType::kInt96) {
    EXPECT_FALSE(chunk.__isset.column_index_offset) << where << ": INT96 has no order";
    return;
  }
  ASSERT_TRUE(chunk.__isset.column_index_offset && chunk.__isset.column_index_length) << where;
  const auto index =
      ReadIndex<format::ColumnIndex>(bytes, chunk.column_index_offset, chunk.column_index_length);
  ASSERT_EQ(index.null_pages.size(), pages.size()) << where;
  ASSERT_EQ(index.null_counts.size(), pages.size()) << where;
  std::vector<int64_t> def_lists, rep_lists;
  for (size_t p = 0; p < pages.size(); ++p) {
    const PageSeen& page = pages[p];
    EXPECT_EQ(index.null_pages[p], page.values == 0) << where << " page " << p;
    EXPECT_EQ(index.null_counts[p], page.levels - page.values) << where << " page " << p;
    ASSERT_TRUE(page.statistics.has_value()) << where;
    if (page.values == 0) {
      EXPECT_EQ(index.min_values[p], "") << where;
      EXPECT_EQ(index.max_values[p], "") << where;
    } else {
      EXPECT_EQ(index.min_values[p], page.statistics->min_value.value_or("?")) << where;
      EXPECT_EQ(index.max_values[p], page.statistics->max_value.value_or("?")) << where;
    }
    def_lists.insert(def_lists.end(), page.definition_histogram.begin(),
                     page.definition_histogram.end());
    rep_lists.insert(rep_lists.end(), page.repetition_histogram.begin(),
                     page.repetition_histogram.end());
  }
  if (column.max_definition_level > 0) {
    EXPECT_EQ(index.definition_level_histograms, def_lists) << where;
  } else {
    EXPECT_FALSE(index.__isset.definition_level_histograms) << where;
  }
  if (column.max_repetition_level > 0) {
    EXPECT_EQ(index.repetition_level_histograms, rep_lists) << where;
  } else {
    EXPECT_FALSE(index.__isset.repetition_level_histograms) << where;
  }
  // The order, worked out again from the page statistics; `up` and `down` are built sorted.
  auto less = [&](const std::string& a, const std::string& b) {
    if (column.type == PhysicalType::kInt64) {
      int64_t x, y;
      std::memcpy(&x, a.data(), 8);
      std::memcpy(&y, b.data(), 8);
      return x < y;
    }
    if (column.type == PhysicalType::kInt32) {
      int32_t x, y;
      std::memcpy(&x, a.data(), 4);
      std::memcpy(&y, b.data(), 4);
      return x < y;
    }
    return a < b;  // char_traits compares bytes as unsigned
  };
  bool ascending = true, descending = true;
  const PageSeen* previous = nullptr;
  for (const PageSeen& page : pages) {
    if (page.values == 0) continue;
    if (previous != nullptr) {
      const auto& a = *previous->statistics;
      const auto& b = *page.statistics;
      if (less(*b.min_value, *a.min_value) || less(*b.max_value, *a.max_value)) ascending = false;
      if (less(*a.min_value, *b.min_value) || less(*a.max_value, *b.max_value)) descending = false;
    }
    previous = &page;
  }
  const int32_t expected = ascending    ? format::BoundaryOrder::ASCENDING
                           : descending ? format::BoundaryOrder::DESCENDING
                                        : format::BoundaryOrder::UNORDERED;
  EXPECT_EQ(index.boundary_order, expected) << where;
  if (column.PathString() == "down") {
    EXPECT_NE(std::find(index.null_pages.begin(), index.null_pages.end(), true),
              index.null_pages.end())
        << where << ": no null page to test";
  }
  if (column.PathString() == "up") EXPECT_EQ(expected, format::BoundaryOrder::ASCENDING);
  if (column.PathString() == "down") EXPECT_EQ(expected, format::BoundaryOrder::DESCENDING);
  if (column.PathString() == "name") EXPECT_EQ(expected, format::BoundaryOrder::UNORDERED);
}

class PageIndexWriteTest : public ::testing::TestWithParam<int> {};

TEST_P(PageIndexWriteTest, IndexesDescribeThePages) {
  const std::string path = testing::TestTempPath("page_index_" + std::to_string(GetParam()));
  WriterOptions options;
  options.data_page_version = GetParam();
  options.data_page_size = 300;
  options.data_page_row_limit = 50;  // so that `down`'s run of nulls fills whole pages
  options.encoding = EncodingPolicy::kPlain;
  WriteIndexFile(path, options);
  const std::vector<uint8_t> bytes = ReadFile(path);
  const format::FileMetaData footer = Footer(bytes);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  // The indexes lie between the last chunk and the footer: column indexes first.
  int64_t end_of_chunks = 0;
  for (const auto& rg : footer.row_groups) {
    for (const auto& chunk : rg.columns) {
      const int64_t start = chunk.meta_data.__isset.dictionary_page_offset
                                ? chunk.meta_data.dictionary_page_offset
                                : chunk.meta_data.data_page_offset;
      end_of_chunks = std::max(end_of_chunks, start + chunk.meta_data.total_compressed_size);
    }
  }
  int64_t last_column_index_end = end_of_chunks;
  for (size_t rg = 0; rg < footer.row_groups.size(); ++rg) {
    for (size_t c = 0; c < footer.row_groups[rg].columns.size(); ++c) {
      const format::ColumnChunk& chunk = footer.row_groups[rg].columns[c];
      const std::string where = "v" + std::to_string(GetParam()) + " row group " +
                                std::to_string(rg) + " column " + std::to_string(c);
      if (chunk.__isset.column_index_offset) {
        EXPECT_GE(chunk.column_index_offset, end_of_chunks) << where;
        last_column_index_end =
            std::max(last_column_index_end, chunk.column_index_offset + chunk.column_index_length);
      }
      EXPECT_GE(chunk.offset_index_offset, end_of_chunks) << where;
      VisitValueType(reader->schema().columns()[c].type, [&](auto tag) {
        CheckChunkIndexes<typename decltype(tag)::Type>(bytes, *reader, chunk, rg, c, where);
      });
    }
  }
  for (const auto& rg : footer.row_groups) {
    for (const auto& chunk : rg.columns)
      EXPECT_GE(chunk.offset_index_offset, last_column_index_end);
  }
}

INSTANTIATE_TEST_SUITE_P(PageVersions, PageIndexWriteTest, ::testing::Values(1, 2));

TEST(PageIndexWriteTest, NoIndexesWhenTurnedOff) {
  const std::string path = testing::TestTempPath("page_index_off");
  FileWriterOptions file_options;
  file_options.write_page_index = false;
  WriteIndexFile(path, WriterOptions{}, file_options);
  const format::FileMetaData footer = Footer(ReadFile(path));
  for (const auto& rg : footer.row_groups) {
    for (const auto& chunk : rg.columns) {
      EXPECT_FALSE(chunk.__isset.column_index_offset || chunk.__isset.offset_index_offset);
    }
  }
}

TEST(PageIndexWriteTest, LongByteArrayBoundsAreTruncatedAndStillBound) {
  EXPECT_EQ(internal::TruncatedMin("abcdef", 3), "abc");
  EXPECT_EQ(internal::TruncatedMax("abcdef", 3), "abd");
  EXPECT_EQ(internal::TruncatedMax("ab\xff\xff"
                                   "z",
                                   4),
            "ac");
  EXPECT_EQ(internal::TruncatedMax("\xff\xff\xff"
                                   "a",
                                   3),
            "\xff\xff\xff"
            "a")
      << "kept whole";
  EXPECT_EQ(internal::TruncatedMax("abc", 3), "abc") << "not longer: unchanged";
  EXPECT_EQ(internal::TruncatedMin("", 3), "");

  // Through the writer: 100-byte strings, bounds cut to 10 bytes; the chunk statistics keep the
  // whole values.
  ColumnDescriptor column =
      testing::MakeColumn(PhysicalType::kByteArray, testing::Shape::kRequired);
  WriterOptions options;
  options.page_index_truncate_length = 10;
  const std::string low = std::string(100, 'b');
  const std::string high = std::string(9, 'y') + std::string(91, '\xff');
  ColumnChunkWriter writer(column, options);
  const std::vector<ByteArray> values = {ByteArray(high), ByteArray(low)};
  PQPAGE_ASSERT_OK(writer.WriteBatch<ByteArray>({}, {}, values));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(4));
  ASSERT_EQ(chunk.page_index.pages.size(), 1u);
  EXPECT_EQ(chunk.page_index.pages[0].min_value, std::string(10, 'b'));
  EXPECT_EQ(chunk.page_index.pages[0].max_value, std::string(8, 'y') + "z");
  EXPECT_EQ(chunk.metadata.statistics->max_value, high);
  EXPECT_EQ(chunk.page_index.pages[0].unencoded_byte_array_data_bytes, 200);
  ASSERT_TRUE(chunk.metadata.size_statistics.has_value());
  EXPECT_EQ(chunk.metadata.size_statistics->unencoded_byte_array_data_bytes, 200);

  WriterOptions bad;
  bad.page_index_truncate_length = 0;
  ColumnChunkWriter refused(column, bad);
  PQPAGE_EXPECT_ERROR(refused.WriteBatch<ByteArray>({}, {}, values),
                      absl::StatusCode::kInvalidArgument);
}

// A page of only NaN has values but no bounds, which a ColumnIndex cannot express: the chunk gets
// an OffsetIndex only.
TEST(PageIndexWriteTest, APageOfOnlyNaNLeavesTheColumnIndexOut) {
  ColumnDescriptor column = testing::MakeColumn(PhysicalType::kDouble, testing::Shape::kRequired);
  WriterOptions options;
  options.encoding = EncodingPolicy::kPlain;
  options.data_page_row_limit = 2;
  ColumnChunkWriter writer(column, options);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> values = {1.0, 2.0, nan, nan, 3.0};
  PQPAGE_ASSERT_OK(writer.WriteBatch<double>({}, {}, values));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(4));
  EXPECT_EQ(chunk.page_index.pages.size(), 3u);
  EXPECT_TRUE(chunk.page_index.has_offset_index);
  EXPECT_FALSE(chunk.page_index.has_column_index);
}

// The reference files that carry a page index (parquet-mr, parquet-rs): ReadPageIndex accepts
// every one, and it agrees with the pages.
TEST(PageIndexReadTest, ReferenceFilesIndexesAgreeWithTheirPages) {
  const std::string data = std::string(PQPAGE_SHARED_DIR) + "/parquet-testing/data/";
  if (!std::filesystem::is_directory(data)) {
    GTEST_SKIP() << "no ../shared/parquet-testing (" << data << "; see README: reference files)";
  }
  int files_with_index = 0;
  int chunks_compared = 0;
  for (const char* name :
       {"alltypes_tiny_pages_plain.parquet", "binary_truncated_min_max.parquet",
        "data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet",
        "delta_encoding_required_column.parquet", "floating_orders_nan_count.parquet",
        "hadoop_lz4_compressed_larger.parquet", "int96_from_spark.parquet", "map_no_value.parquet",
        "old_list_structure.parquet", "plain-dict-uncompressed-checksum.parquet",
        "repeated_primitive_no_list.parquet"}) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(data + name));
    bool any = false;
    for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
      for (int c = 0; c < static_cast<int>(reader->schema().columns().size()); ++c) {
        const std::string where =
            std::string(name) + " row group " + std::to_string(rg) + " column " + std::to_string(c);
        PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<ChunkPageIndex> index,
                                    reader->ReadPageIndex(rg, c));
        if (!index) continue;
        any = true;
        VisitValueType(reader->schema().columns()[c].type, [&](auto tag) {
          const auto pages = ReadPages<typename decltype(tag)::Type>(*reader, rg, c, true);
          if (pages.empty()) return;
          ++chunks_compared;
          ExpectIndexMatchesPages(*index, pages, where);
        });
      }
    }
    files_with_index += any;
  }
  EXPECT_EQ(files_with_index, 12);
  EXPECT_GE(chunks_compared, 60);

  // parquet-mr's checksum test files mark every page of their required columns null (it kept no
  // statistics): an index that would prune pages full of values is refused; the data reads.
  for (const char* name : {"datapage_v1-snappy-compressed-checksum.parquet",
                           "datapage_v1-uncompressed-checksum.parquet"}) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(data + name));
    absl::StatusOr<std::optional<ChunkPageIndex>> index = reader->ReadPageIndex(0, 0);
    ASSERT_FALSE(index.ok()) << name;
    EXPECT_EQ(index.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_NE(index.status().message().find("required column is marked a null page"),
              std::string::npos)
        << index.status();
    EXPECT_FALSE(ReadPages<int32_t>(*reader, 0, 0).empty()) << name;
  }
}

// Index bytes built field by field, for the checks that real writers do not trip.
std::vector<uint8_t> Serialized(const format::OffsetIndex& index) {
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(internal::SerializeCompact(index, &bytes).ok());
  return bytes;
}
std::vector<uint8_t> Serialized(const format::ColumnIndex& index) {
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(internal::SerializeCompact(index, &bytes).ok());
  return bytes;
}

format::OffsetIndex TwoPages() {
  format::OffsetIndex index;
  index.page_locations.resize(2);
  index.page_locations[0].__set_offset(100);
  index.page_locations[0].__set_compressed_page_size(50);
  index.page_locations[0].__set_first_row_index(0);
  index.page_locations[1].__set_offset(150);
  index.page_locations[1].__set_compressed_page_size(50);
  index.page_locations[1].__set_first_row_index(10);
  return index;
}

format::ColumnIndex TwoInt32Bounds() {
  format::ColumnIndex index;
  const std::string one("\x01\0\0\0", 4);
  const std::string two("\x02\0\0\0", 4);
  index.__set_null_pages({false, false});
  index.__set_min_values({one, two});
  index.__set_max_values({two, two});
  index.__set_boundary_order(format::BoundaryOrder::ASCENDING);
  index.__set_null_counts({0, 3});
  index.__set_definition_level_histograms({10, 0, 7, 3});  // max_def 1: two counts a page
  return index;
}

TEST(PageIndexReadTest, HostileIndexesAreDataLoss) {
  ColumnDescriptor column = testing::MakeColumn(PhysicalType::kInt32, testing::Shape::kOptional);
  const internal::PageIndexChunk chunk{100, 200, 20};
  auto parse = [&](const format::ColumnIndex* column_index, const format::OffsetIndex* offsets) {
    const std::vector<uint8_t> column_bytes =
        column_index != nullptr ? Serialized(*column_index) : std::vector<uint8_t>();
    const std::vector<uint8_t> offset_bytes =
        offsets != nullptr ? Serialized(*offsets) : std::vector<uint8_t>();
    return internal::ParsePageIndex(
        column, chunk,
        column_index != nullptr ? std::optional<absl::Span<const uint8_t>>(column_bytes)
                                : std::nullopt,
        offsets != nullptr ? std::optional<absl::Span<const uint8_t>>(offset_bytes) : std::nullopt);
  };
  const format::OffsetIndex good_offsets = TwoPages();
  const format::ColumnIndex good_bounds = TwoInt32Bounds();
  {
    PQPAGE_ASSERT_OK_AND_ASSIGN(ChunkPageIndex index, parse(&good_bounds, &good_offsets));
    ASSERT_EQ(index.pages.size(), 2u);
    EXPECT_EQ(index.pages[1].first_row_index, 10);
    EXPECT_EQ(index.pages[1].null_count, 3);
    EXPECT_EQ(index.pages[1].definition_level_histogram, (std::vector<int64_t>{7, 3}));
    EXPECT_EQ(index.boundary_order, BoundaryOrder::kAscending);
  }
  auto expect_loss = [&](const format::ColumnIndex* bounds, const format::OffsetIndex* offsets,
                         const std::string& needle) {
    absl::StatusOr<ChunkPageIndex> parsed = parse(bounds, offsets);
    ASSERT_FALSE(parsed.ok()) << needle;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kDataLoss) << parsed.status();
    EXPECT_NE(parsed.status().message().find(needle), std::string::npos) << parsed.status();
  };
  format::OffsetIndex offsets = good_offsets;
  offsets.page_locations[1].offset = 120;  // overlaps page 0
  expect_loss(nullptr, &offsets, "outside the chunk");
  offsets = good_offsets;
  offsets.page_locations[1].compressed_page_size = 51;  // past the chunk's end
  expect_loss(nullptr, &offsets, "outside the chunk");
  offsets = good_offsets;
  offsets.page_locations[0].offset = 90;  // before the chunk
  expect_loss(nullptr, &offsets, "outside the chunk");
  offsets = good_offsets;
  offsets.page_locations[1].compressed_page_size = 0;
  expect_loss(nullptr, &offsets, "has size 0");
  offsets = good_offsets;
  offsets.page_locations[0].first_row_index = 1;
  expect_loss(nullptr, &offsets, "starts at row 1");
  offsets = good_offsets;
  offsets.page_locations[1].first_row_index = 20;  // the row group has 20 rows
  expect_loss(nullptr, &offsets, "starts at row 20");
  offsets = good_offsets;
  offsets.__set_unencoded_byte_array_data_bytes({5, 6});  // an INT32 column
  expect_loss(nullptr, &offsets, "unencoded byte array sizes");
  offsets = good_offsets;
  offsets.page_locations.clear();
  expect_loss(nullptr, &offsets, "no pages for 20 rows");

  format::ColumnIndex bounds = good_bounds;
  bounds.min_values.pop_back();
  expect_loss(&bounds, nullptr, "lists of one length");
  bounds = good_bounds;
  bounds.boundary_order = 3;
  expect_loss(&bounds, nullptr, "unknown boundary order 3");
  bounds = good_bounds;
  bounds.min_values[0] = std::string(3, '\0');  // an INT32 bound of 3 bytes
  expect_loss(&bounds, nullptr, "bounds of 3 and 4 bytes");
  bounds = good_bounds;
  bounds.definition_level_histograms.pop_back();
  expect_loss(&bounds, nullptr, "3 definition histogram counts for 2 pages");
  bounds = good_bounds;
  bounds.null_counts[1] = -1;  // parquet-mr's "not counted": unknown, not an error
  {
    PQPAGE_ASSERT_OK_AND_ASSIGN(ChunkPageIndex index, parse(&bounds, nullptr));
    EXPECT_EQ(index.pages[0].null_count, 0);
    EXPECT_FALSE(index.pages[1].null_count.has_value());
  }
  offsets = good_offsets;
  offsets.page_locations.pop_back();
  offsets.page_locations[0].compressed_page_size = 100;
  expect_loss(&good_bounds, &offsets, "2 pages, but the OffsetIndex has 1");

  // Every truncation of valid index bytes is an error or an index, never a crash.
  const std::vector<uint8_t> column_bytes = Serialized(good_bounds);
  const std::vector<uint8_t> offset_bytes = Serialized(good_offsets);
  for (size_t cut = 0; cut < column_bytes.size(); ++cut) {
    EXPECT_FALSE(internal::ParsePageIndex(
                     column, chunk, absl::MakeConstSpan(column_bytes).first(cut), std::nullopt)
                     .ok())
        << "ColumnIndex cut to " << cut;
  }
  for (size_t cut = 0; cut < offset_bytes.size(); ++cut) {
    EXPECT_FALSE(internal::ParsePageIndex(column, chunk, std::nullopt,
                                          absl::MakeConstSpan(offset_bytes).first(cut))
                     .ok())
        << "OffsetIndex cut to " << cut;
  }
}

// FileReader checks where the footer says the index lies before reading it.
TEST(PageIndexReadTest, AnIndexOutsideTheFileIsDataLossAndTheChunkStillReads) {
  const std::string path = testing::TestTempPath("page_index_moved");
  WriteIndexFile(path, WriterOptions{});
  std::vector<uint8_t> bytes = ReadFile(path);
  format::FileMetaData footer = Footer(bytes);
  footer.row_groups[0].columns[0].offset_index_offset = static_cast<int64_t>(bytes.size()) - 6;
  footer.row_groups[0].columns[1].column_index_length = -1;
  uint32_t old_length = 0;
  std::memcpy(&old_length, bytes.data() + bytes.size() - 8, 4);
  bytes.resize(bytes.size() - 8 - old_length);
  std::vector<uint8_t> serialized;
  PQPAGE_ASSERT_OK(internal::SerializeCompact(footer, &serialized));
  const auto length = static_cast<uint32_t>(serialized.size());
  bytes.insert(bytes.end(), serialized.begin(), serialized.end());
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(length >> (8 * i)));
  bytes.insert(bytes.end(), {'P', 'A', 'R', '1'});
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  for (int c : {0, 1}) {
    absl::StatusOr<std::optional<ChunkPageIndex>> index = reader->ReadPageIndex(0, c);
    ASSERT_FALSE(index.ok()) << c;
    EXPECT_EQ(index.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_NE(index.status().message().find("is not inside the file's data"), std::string::npos)
        << index.status();
  }
  EXPECT_FALSE(ReadPages<int64_t>(*reader, 0, 0).empty()) << "the chunk reads without its index";
}

}  // namespace
}  // namespace pqpage
