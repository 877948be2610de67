// The page index FileWriter writes (issue 13, write side): every chunk's OffsetIndex and
// ColumnIndex, read back here with the generated Thrift structures and checked against the pages
// themselves as ColumnChunkReader finds them (locations, first rows, page statistics, levels,
// byte array bytes); truncation of long byte array bounds; chunks that cannot have a ColumnIndex;
// the footer's SizeStatistics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "column_data_helpers.h"
#include "metadata/thrift_compact.h"
#include "page/page_index_builder.h"
#include "parquet_types.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"
#include "status_matchers.h"

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

template <typename T>
std::vector<PageSeen> ReadPages(const FileReader& file, int row_group, int column) {
  const ColumnDescriptor& descriptor = file.schema().columns()[column];
  auto chunk = file.OpenColumnChunk(row_group, column);
  EXPECT_TRUE(chunk.ok()) << chunk.status();
  std::vector<PageSeen> pages;
  if (!chunk.ok()) return pages;
  std::vector<int16_t> def(64), rep(64);
  std::unique_ptr<T[]> values(new T[64]);
  int64_t page = -1;
  while (true) {
    auto counts = chunk->template ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep),
                                               absl::MakeSpan(values.get(), 64));
    EXPECT_TRUE(counts.ok()) << counts.status();
    if (!counts.ok() || counts->levels == 0) break;
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
  const std::string path = ::testing::TempDir() + "/page_index_" + std::to_string(GetParam());
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
  const std::string path = ::testing::TempDir() + "/page_index_off";
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
  ASSERT_EQ(chunk.metadata.page_index.size(), 1u);
  EXPECT_EQ(chunk.metadata.page_index[0].min_value, std::string(10, 'b'));
  EXPECT_EQ(chunk.metadata.page_index[0].max_value, std::string(8, 'y') + "z");
  EXPECT_EQ(chunk.metadata.statistics->max_value, high);
  EXPECT_EQ(chunk.metadata.page_index[0].unencoded_byte_array_data_bytes, 200);

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
  EXPECT_EQ(chunk.metadata.page_index.size(), 3u);
  EXPECT_FALSE(chunk.metadata.has_column_index);
}

}  // namespace
}  // namespace pqpage
