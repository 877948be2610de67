// One footer vocabulary, both ways: what ColumnChunkWriter::Finish says of a chunk (its
// ColumnMetaData, row count and page index) is what FileReader reads back from the file's footer
// and page index, field for field.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "column_data_helpers.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using testing::ColumnData;
using testing::Generate;
using testing::Shape;

std::string TempPath(const std::string& name) { return ::testing::TempDir() + "/" + name; }

// id: required INT64; name: optional STRING; tags: required LIST of optional INT32;
// legacy_time: optional INT96.
Schema MakeSchema() {
  auto schema =
      Schema::Builder()
          .AddPrimitive("id", Repetition::kRequired, PhysicalType::kInt64)
          .AddPrimitive("name", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
          .BeginGroup("tags", Repetition::kRequired, "LIST")
          .BeginGroup("list", Repetition::kRepeated)
          .AddPrimitive("element", Repetition::kOptional, PhysicalType::kInt32)
          .EndGroup()
          .EndGroup()
          .AddPrimitive("legacy_time", Repetition::kOptional, PhysicalType::kInt96)
          .Build();
  EXPECT_TRUE(schema.ok()) << schema.status();
  return std::move(schema).value();
}

template <typename T>
absl::StatusOr<ColumnChunkData> Finish(const ColumnDescriptor& column, Shape shape,
                                       const WriterOptions& options, int64_t file_offset,
                                       uint64_t seed) {
  const ColumnData<T> data = Generate<T>(column, shape, 3000, 200, seed, true);
  ColumnChunkWriter writer(column, options);
  PQPAGE_RETURN_IF_ERROR(testing::WriteInBatches(&writer, data, seed));
  return writer.Finish(file_offset);
}

absl::StatusOr<ColumnChunkData> FinishColumn(const ColumnDescriptor& column, int index,
                                             const WriterOptions& options, int64_t file_offset) {
  switch (index) {
    case 0:
      return Finish<int64_t>(column, Shape::kRequired, options, file_offset, 1);
    case 1:
      return Finish<ByteArray>(column, Shape::kOptional, options, file_offset, 2);
    case 2:
      return Finish<int32_t>(column, Shape::kList, options, file_offset, 3);
    default:
      return Finish<Int96>(column, Shape::kOptional, options, file_offset, 4);
  }
}

TEST(FooterRoundTripTest, WhatTheWriterSaysOfAChunkIsWhatTheReaderReads) {
  const std::string path = TempPath("footer_round_trip.parquet");
  const Schema schema = MakeSchema();
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema));
  WriterOptions options;
  options.data_page_size = 1024;  // several pages, so the page index has a list to compare
  options.compression = Compression::kZstd;
  std::vector<std::vector<ColumnChunkData>> written;
  for (int rg = 0; rg < 2; ++rg) {
    options.data_page_version = rg + 1;
    PQPAGE_ASSERT_OK(file->BeginRowGroup());
    std::vector<ColumnChunkData>& chunks = written.emplace_back();
    for (int c = 0; c < static_cast<int>(schema.columns().size()); ++c) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk,
                                  FinishColumn(schema.columns()[c], c, options, file->position()));
      PQPAGE_ASSERT_OK(file->WriteColumnChunk(chunk));
      chunks.push_back(std::move(chunk));
    }
    PQPAGE_ASSERT_OK(file->EndRowGroup());
  }
  PQPAGE_ASSERT_OK(file->Close());

  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  const FileMetaData& footer = reader->metadata();
  ASSERT_EQ(footer.row_groups.size(), written.size());
  for (size_t rg = 0; rg < written.size(); ++rg) {
    const RowGroup& group = footer.row_groups[rg];
    ASSERT_EQ(group.columns.size(), written[rg].size());
    for (size_t c = 0; c < written[rg].size(); ++c) {
      const std::string where = "row group " + std::to_string(rg) + " column " + std::to_string(c);
      const ColumnChunkData& chunk = written[rg][c];
      EXPECT_EQ(group.num_rows, chunk.num_rows) << where;
      ASSERT_TRUE(group.columns[c].meta_data.has_value()) << where;
      const ColumnMetaData& read = *group.columns[c].meta_data;
      EXPECT_TRUE(read == chunk.metadata) << where;
      // The fields the comparison covers are all set where the writer has something to say.
      ASSERT_TRUE(read.encoding_stats.has_value()) << where;
      ASSERT_TRUE(read.statistics.has_value()) << where;
      ASSERT_TRUE(read.size_statistics.has_value() || c == 0) << where;
      EXPECT_EQ(read.size_statistics.has_value() &&
                    read.size_statistics->unencoded_byte_array_data_bytes.has_value(),
                c == 1)
          << where;

      PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<ChunkPageIndex> index,
                                  reader->ReadPageIndex(static_cast<int>(rg), static_cast<int>(c)));
      ASSERT_TRUE(index.has_value()) << where;
      EXPECT_GT(index->pages.size(), 1u) << where;
      EXPECT_TRUE(*index == chunk.page_index) << where;
      // INT96 has no sort order: an OffsetIndex only.
      EXPECT_EQ(index->has_column_index, c != 3) << where;
    }
  }
  std::remove(path.c_str());
}

// A comparison that cannot tell chunks apart would pass the test above for any writer.
TEST(FooterRoundTripTest, TheComparisonSeesEveryKindOfDifference) {
  const Schema schema = MakeSchema();
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk,
                              FinishColumn(schema.columns()[1], 1, WriterOptions{}, 4));
  ColumnChunkData changed = chunk;
  changed.metadata.size_statistics->definition_level_histogram[0] += 1;
  EXPECT_FALSE(changed.metadata == chunk.metadata);
  changed = chunk;
  (*changed.metadata.encoding_stats)[0].count += 1;
  EXPECT_FALSE(changed.metadata == chunk.metadata);
  changed = chunk;
  changed.metadata.statistics->max_value->push_back('x');
  EXPECT_FALSE(changed.metadata == chunk.metadata);
  changed = chunk;
  changed.page_index.pages.back().first_row_index += 1;
  EXPECT_FALSE(changed.page_index == chunk.page_index);
  changed = chunk;
  changed.page_index.pages.front().null_count.reset();
  EXPECT_FALSE(changed.page_index == chunk.page_index);
}

}  // namespace
}  // namespace pqpage
