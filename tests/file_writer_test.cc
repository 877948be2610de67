#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "column_data_helpers.h"
#include "metadata/thrift_compact.h"
#include "parquet_types.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"
#include "schema/schema_elements.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using absl::StatusCode;
using testing::ColumnData;
using testing::Generate;
using testing::Shape;

// id: required INT64; name: optional STRING; tags: required LIST of optional INT32;
// code: optional FIXED_LEN_BYTE_ARRAY(3).
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
          .AddPrimitive("code", Repetition::kOptional, PhysicalType::kFixedLenByteArray, 3)
          .Build();
  EXPECT_TRUE(schema.ok()) << schema.status();
  return std::move(schema).value();
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// One row group's data for every column of MakeSchema().
struct RowGroupData {
  ColumnData<int64_t> id;
  ColumnData<ByteArray> name;
  ColumnData<int32_t> tags;
  ColumnData<ByteArray> code;
};

RowGroupData MakeRowGroup(const Schema& schema, int64_t rows, uint64_t seed) {
  const auto& columns = schema.columns();
  RowGroupData data;
  data.id = Generate<int64_t>(columns[0], Shape::kRequired, rows, 1 << 30, seed, true);
  data.name = Generate<ByteArray>(columns[1], Shape::kOptional, rows, 40, seed + 1, true);
  data.tags = Generate<int32_t>(columns[2], Shape::kList, rows, 100, seed + 2, true);
  data.code = Generate<ByteArray>(columns[3], Shape::kOptional, rows, 10, seed + 3, true);
  return data;
}

template <typename T>
absl::Status AddColumn(FileWriter* file, const ColumnDescriptor& column, const ColumnData<T>& data,
                       const WriterOptions& options) {
  ColumnChunkWriter writer(column, options);
  absl::Status status = testing::WriteInBatches(&writer, data, 5);
  if (!status.ok()) return status;
  return file->WriteColumnChunk(std::move(writer));
}

// Begins a row group and writes its columns, leaving it open.
absl::Status AddRowGroupColumns(FileWriter* file, const RowGroupData& data,
                                const WriterOptions& options) {
  const auto& columns = file->schema().columns();
  absl::Status status = file->BeginRowGroup();
  if (status.ok()) status = AddColumn(file, columns[0], data.id, options);
  if (status.ok()) status = AddColumn(file, columns[1], data.name, options);
  if (status.ok()) status = AddColumn(file, columns[2], data.tags, options);
  if (status.ok()) status = AddColumn(file, columns[3], data.code, options);
  return status;
}

absl::Status AddRowGroup(FileWriter* file, const RowGroupData& data, const WriterOptions& options) {
  absl::Status status = AddRowGroupColumns(file, data, options);
  if (status.ok()) status = file->EndRowGroup();
  return status;
}

template <typename T>
void ExpectColumnReadsBack(const FileReader& reader, int row_group, int column,
                           const ColumnData<T>& expected) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkReader chunk, reader.OpenColumnChunk(row_group, column));
  const ColumnDescriptor& descriptor = reader.schema().columns()[column];
  ColumnData<T> got;
  constexpr int64_t kBatch = 50;
  std::vector<int16_t> def(kBatch);
  std::vector<int16_t> rep(kBatch);
  std::unique_ptr<T[]> values(new T[kBatch]);
  while (true) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(BatchCounts counts,
                                chunk.ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep),
                                                   absl::MakeSpan(values.get(), kBatch)));
    if (counts.levels == 0) break;
    if (descriptor.max_definition_level > 0) {
      got.def.insert(got.def.end(), def.begin(), def.begin() + counts.levels);
    }
    if (descriptor.max_repetition_level > 0) {
      got.rep.insert(got.rep.end(), rep.begin(), rep.begin() + counts.levels);
    }
    for (int64_t i = 0; i < counts.values; ++i) {
      if constexpr (std::is_same_v<T, ByteArray>) {
        got.values.push_back(got.AddBytes(std::string(values[i].AsStringView())));
      } else {
        got.values.push_back(values[i]);
      }
    }
  }
  EXPECT_EQ(got.def, expected.def) << "column " << column;
  EXPECT_EQ(got.rep, expected.rep) << "column " << column;
  ASSERT_EQ(got.values.size(), expected.values.size()) << "column " << column;
  for (size_t i = 0; i < got.values.size(); ++i) {
    ASSERT_TRUE(testing::SameValue(got.values[i], expected.values[i]))
        << "column " << column << " value " << i;
  }
}

TEST(FileWriterTest, WritesAFileThatParsesAndReadsBack) {
  const std::string path = testing::TestTempPath("file_writer_round_trip.parquet");
  const Schema schema = MakeSchema();
  ASSERT_EQ(schema.columns().size(), 4u);
  FileWriterOptions file_options;
  file_options.key_value_metadata = {{"origin", "test"}, {"empty", std::nullopt}};
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema, file_options));
  EXPECT_EQ(file->position(), 4);
  const RowGroupData first = MakeRowGroup(schema, 700, 1);
  const RowGroupData second = MakeRowGroup(schema, 300, 100);
  WriterOptions options;
  options.encoding = EncodingPolicy::kDictionary;  // the footer's dictionary fields are checked
  options.data_page_size = 512;
  options.write_checksums = true;
  PQPAGE_ASSERT_OK(AddRowGroup(file.get(), first, options));
  options.data_page_version = 2;
  options.compression = Compression::kZstd;
  PQPAGE_ASSERT_OK(AddRowGroup(file.get(), second, options));
  const int64_t data_end = file->position();
  PQPAGE_ASSERT_OK(file->Close());
  PQPAGE_EXPECT_ERROR(file->BeginRowGroup(), StatusCode::kFailedPrecondition);

  // The raw layout: magic, chunks, page indexes, footer, its length, magic.
  const std::vector<uint8_t> bytes = ReadFile(path);
  ASSERT_GT(bytes.size(), 12u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "PAR1");
  EXPECT_EQ(std::string(bytes.end() - 4, bytes.end()), "PAR1");
  uint32_t footer_length;
  std::memcpy(&footer_length, bytes.data() + bytes.size() - 8, 4);
  const int64_t footer_start = static_cast<int64_t>(bytes.size()) - 8 - footer_length;
  ASSERT_GT(footer_start, data_end) << "the page indexes come between the chunks and the footer";
  format::FileMetaData footer;
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      size_t parsed, internal::DeserializeCompact(
                         absl::MakeConstSpan(bytes).subspan(footer_start, footer_length), &footer));
  for (const format::RowGroup& rg : footer.row_groups) {
    for (const format::ColumnChunk& chunk : rg.columns) {
      EXPECT_GE(chunk.offset_index_offset, data_end);
      EXPECT_LE(chunk.offset_index_offset + chunk.offset_index_length, footer_start);
    }
  }
  EXPECT_EQ(parsed, footer_length);
  EXPECT_EQ(footer.version, 1);
  EXPECT_EQ(footer.num_rows, 1000);
  EXPECT_EQ(footer.schema, internal::SchemaElements::Of(schema));
  EXPECT_EQ(footer.created_by, DefaultCreatedBy());
  EXPECT_EQ(footer.created_by.rfind("pqpage version ", 0), 0u);
  ASSERT_EQ(footer.key_value_metadata.size(), 2u);
  EXPECT_EQ(footer.key_value_metadata[0].key, "origin");
  EXPECT_EQ(footer.key_value_metadata[0].value, "test");
  EXPECT_FALSE(footer.key_value_metadata[1].__isset.value);
  ASSERT_EQ(footer.column_orders.size(), 4u);
  for (const format::ColumnOrder& order : footer.column_orders) {
    EXPECT_TRUE(order.__isset.TYPE_ORDER);
  }
  ASSERT_EQ(footer.row_groups.size(), 2u);
  int64_t offset = 4;
  for (size_t g = 0; g < footer.row_groups.size(); ++g) {
    const format::RowGroup& group = footer.row_groups[g];
    EXPECT_EQ(group.num_rows, g == 0 ? 700 : 300);
    EXPECT_EQ(group.ordinal, static_cast<int16_t>(g));
    EXPECT_EQ(group.file_offset, offset);
    ASSERT_EQ(group.columns.size(), 4u);
    int64_t uncompressed = 0;
    int64_t compressed = 0;
    for (size_t c = 0; c < group.columns.size(); ++c) {
      const format::ColumnChunk& chunk = group.columns[c];
      const format::ColumnMetaData& meta = chunk.meta_data;
      EXPECT_EQ(chunk.file_offset, offset) << g << "/" << c;
      EXPECT_EQ(meta.path_in_schema, schema.columns()[c].path);
      EXPECT_EQ(static_cast<int>(meta.type), static_cast<int>(schema.columns()[c].type));
      EXPECT_EQ(meta.codec,
                g == 0 ? format::CompressionCodec::SNAPPY : format::CompressionCodec::ZSTD);
      // Every column here fits a default dictionary, which the policy asks for.
      EXPECT_TRUE(meta.__isset.dictionary_page_offset) << g << "/" << c;
      EXPECT_LT(meta.dictionary_page_offset, meta.data_page_offset);
      EXPECT_EQ(
          meta.__isset.dictionary_page_offset ? meta.dictionary_page_offset : meta.data_page_offset,
          offset);
      EXPECT_TRUE(meta.__isset.statistics);
      EXPECT_TRUE(meta.statistics.__isset.null_count);
      EXPECT_FALSE(meta.encoding_stats.empty());
      EXPECT_FALSE(meta.encodings.empty());
      uncompressed += meta.total_uncompressed_size;
      compressed += meta.total_compressed_size;
      offset += meta.total_compressed_size;
    }
    EXPECT_EQ(group.total_byte_size, uncompressed);
    EXPECT_EQ(group.total_compressed_size, compressed);
  }
  EXPECT_EQ(offset, data_end);

  // pqpage's own reader.
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  EXPECT_EQ(reader->num_rows(), 1000);
  ASSERT_EQ(reader->num_row_groups(), 2);
  EXPECT_EQ(reader->row_group_num_rows(0), 700);
  EXPECT_EQ(reader->created_by(), DefaultCreatedBy());
  ASSERT_EQ(reader->schema().columns().size(), 4u);
  const RowGroupData* groups[2] = {&first, &second};
  for (int g = 0; g < 2; ++g) {
    ExpectColumnReadsBack(*reader, g, 0, groups[g]->id);
    ExpectColumnReadsBack(*reader, g, 1, groups[g]->name);
    ExpectColumnReadsBack(*reader, g, 2, groups[g]->tags);
    ExpectColumnReadsBack(*reader, g, 3, groups[g]->code);
  }
  std::remove(path.c_str());
}

TEST(FileWriterTest, NoKeyValueMetadataWhenThereIsNone) {
  const std::string path = testing::TestTempPath("file_writer_no_kv.parquet");
  const Schema schema = MakeSchema();
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema));
  PQPAGE_ASSERT_OK(AddRowGroup(file.get(), MakeRowGroup(schema, 10, 3), WriterOptions()));
  PQPAGE_ASSERT_OK(file->Close());
  const std::vector<uint8_t> bytes = ReadFile(path);
  uint32_t footer_length;
  std::memcpy(&footer_length, bytes.data() + bytes.size() - 8, 4);
  format::FileMetaData footer;
  PQPAGE_ASSERT_OK(internal::DeserializeCompact(
      absl::MakeConstSpan(bytes).subspan(bytes.size() - 8 - footer_length, footer_length),
      &footer));
  EXPECT_FALSE(footer.__isset.key_value_metadata);
  EXPECT_EQ(footer.num_rows, 10);
  std::remove(path.c_str());
}

TEST(FileWriterTest, ZeroRowGroups) {
  const std::string path = testing::TestTempPath("file_writer_empty.parquet");
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, MakeSchema()));
  PQPAGE_ASSERT_OK(file->Close());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  EXPECT_EQ(reader->num_rows(), 0);
  EXPECT_EQ(reader->num_row_groups(), 0);
  std::remove(path.c_str());
}

TEST(FileWriterTest, RowGroupsOfASchemaWithoutColumnsKeepTheirRows) {
  const std::string path = testing::TestTempPath("file_writer_no_columns.parquet");
  PQPAGE_ASSERT_OK_AND_ASSIGN(Schema schema, Schema::Builder().Build());
  ASSERT_TRUE(schema.columns().empty());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema));
  for (int64_t rows : {2, 0, 5}) {
    PQPAGE_ASSERT_OK(file->BeginRowGroup());
    PQPAGE_ASSERT_OK(file->EndRowGroup(rows));
  }
  PQPAGE_ASSERT_OK(file->BeginRowGroup());
  PQPAGE_EXPECT_ERROR(file->EndRowGroup(-1), absl::StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(file->EndRowGroup());  // no count: 0 rows
  PQPAGE_ASSERT_OK(file->Close());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  EXPECT_EQ(reader->num_rows(), 7);
  ASSERT_EQ(reader->num_row_groups(), 4);
  EXPECT_EQ(reader->row_group_num_rows(0), 2);
  EXPECT_EQ(reader->row_group_num_rows(2), 5);
  EXPECT_EQ(reader->row_group_num_rows(3), 0);
  std::remove(path.c_str());
}

TEST(FileWriterTest, EndRowGroupWithACountMustMatchTheColumns) {
  const std::string path = testing::TestTempPath("file_writer_row_count.parquet");
  const Schema schema = MakeSchema();
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema));
  const RowGroupData data = MakeRowGroup(schema, 10, 3);
  PQPAGE_ASSERT_OK(AddRowGroupColumns(file.get(), data, WriterOptions()));
  PQPAGE_EXPECT_ERROR(file->EndRowGroup(11), absl::StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(file->EndRowGroup(10));
  PQPAGE_ASSERT_OK(file->Close());
  std::remove(path.c_str());
}

TEST(FileWriterTest, RejectsCallsOutOfOrder) {
  const std::string path = testing::TestTempPath("file_writer_errors.parquet");
  const Schema schema = MakeSchema();
  const auto& columns = schema.columns();
  const RowGroupData data = MakeRowGroup(schema, 20, 9);
  const RowGroupData other = MakeRowGroup(schema, 21, 9);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema));
  WriterOptions options;

  // A chunk outside a row group.
  PQPAGE_EXPECT_ERROR(AddColumn(file.get(), columns[0], data.id, options),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(file->EndRowGroup(), StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(file->BeginRowGroup());
  PQPAGE_EXPECT_ERROR(file->BeginRowGroup(), StatusCode::kInvalidArgument);
  // Out of schema order.
  PQPAGE_EXPECT_ERROR(AddColumn(file.get(), columns[1], data.name, options),
                      StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(AddColumn(file.get(), columns[0], data.id, options));
  // A different row count.
  PQPAGE_EXPECT_ERROR(AddColumn(file.get(), columns[1], other.name, options),
                      StatusCode::kInvalidArgument);
  // A chunk finished for another offset.
  {
    ColumnChunkWriter writer(columns[1], options);
    PQPAGE_ASSERT_OK(testing::WriteInBatches(&writer, data.name, 1));
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(file->position() + 1));
    PQPAGE_EXPECT_ERROR(file->WriteColumnChunk(std::move(chunk)), StatusCode::kInvalidArgument);
  }
  // Missing columns.
  PQPAGE_EXPECT_ERROR(file->EndRowGroup(), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(file->Close(), StatusCode::kInvalidArgument);
  // A chunk finished for position() is accepted.
  {
    ColumnChunkWriter writer(columns[1], options);
    PQPAGE_ASSERT_OK(testing::WriteInBatches(&writer, data.name, 1));
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, writer.Finish(file->position()));
    PQPAGE_ASSERT_OK(file->WriteColumnChunk(std::move(chunk)));
  }
  PQPAGE_ASSERT_OK(AddColumn(file.get(), columns[2], data.tags, options));
  PQPAGE_ASSERT_OK(AddColumn(file.get(), columns[3], data.code, options));
  // One column too many.
  PQPAGE_EXPECT_ERROR(AddColumn(file.get(), columns[3], data.code, options),
                      StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(file->EndRowGroup());
  PQPAGE_ASSERT_OK(file->Close());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  EXPECT_EQ(reader->num_rows(), 20);
  ExpectColumnReadsBack(*reader, 0, 1, data.name);
  std::remove(path.c_str());
}

// The contract in pqpage/file.h: one FileReader serves ColumnChunkReaders on several threads at
// once, each reader used by one thread. Every chunk is read on every thread, so that the same
// chunks are decoded concurrently, not only different ones.
TEST(FileWriterTest, ChunksOfOneFileDecodeOnSeveralThreadsAtOnce) {
  const std::string path = testing::TestTempPath("file_writer_threads.parquet");
  const Schema schema = MakeSchema();
  std::vector<RowGroupData> groups;
  groups.reserve(3);  // byte array values are views into their RowGroupData: no reallocation
  {
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema));
    WriterOptions options;
    options.data_page_size = 256;  // many pages per chunk
    options.compression = Compression::kZstd;
    for (int g = 0; g < 3; ++g) {
      groups.push_back(MakeRowGroup(schema, 400 + 100 * g, 7 + 10 * g));
      options.data_page_version = 1 + g % 2;
      PQPAGE_ASSERT_OK(AddRowGroup(file.get(), groups.back(), options));
    }
    PQPAGE_ASSERT_OK(file->Close());
  }
  // Read with pread, and mapped into memory, where every page is decoded in place.
  for (const bool memory_map : {false, true}) {
    ReaderOptions reader_options;
    reader_options.memory_map = memory_map;
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path, reader_options));
    auto read_everything = [&](int first_group) {
      for (int i = 0; i < 3; ++i) {
        const int g = (first_group + i) % 3;
        ExpectColumnReadsBack(*reader, g, 0, groups[g].id);
        ExpectColumnReadsBack(*reader, g, 1, groups[g].name);
        ExpectColumnReadsBack(*reader, g, 2, groups[g].tags);
        ExpectColumnReadsBack(*reader, g, 3, groups[g].code);
      }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) threads.emplace_back(read_everything, t % 3);
    for (std::thread& thread : threads) thread.join();
  }
  std::remove(path.c_str());
}

// One footer vocabulary, both ways: what ColumnChunkWriter::Finish says of a chunk (its
// ColumnMetaData, row count and page index) is what FileReader reads back, field for field.
template <typename T>
absl::Status AddFinishedChunk(FileWriter* file, const ColumnDescriptor& column,
                              const ColumnData<T>& data, const WriterOptions& options,
                              std::vector<ColumnChunkData>* written) {
  ColumnChunkWriter writer(column, options);
  PQPAGE_RETURN_IF_ERROR(testing::WriteInBatches(&writer, data, 5));
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkData chunk, writer.Finish(file->position()));
  PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(chunk));
  written->push_back(std::move(chunk));
  return absl::OkStatus();
}

void ExpectReadBackAsWritten(const std::string& path,
                             const std::vector<std::vector<ColumnChunkData>>& written) {
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
      EXPECT_TRUE(read.encoding_stats.has_value() && read.statistics.has_value()) << where;
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<ChunkPageIndex> index,
                                  reader->ReadPageIndex(static_cast<int>(rg), static_cast<int>(c)));
      ASSERT_TRUE(index.has_value()) << where;
      EXPECT_GT(index->pages.size(), 1u) << where;
      EXPECT_TRUE(*index == chunk.page_index) << where;
    }
  }
}

TEST(FileWriterTest, WhatTheWriterSaysOfAChunkIsWhatTheReaderReads) {
  const std::string path = testing::TestTempPath("file_writer_footer_round_trip.parquet");
  const Schema schema = MakeSchema();
  const auto& columns = schema.columns();
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema));
  WriterOptions options;
  options.data_page_size = 256;  // several pages, so the page index has a list to compare
  options.compression = Compression::kZstd;
  std::vector<RowGroupData> groups;
  groups.reserve(2);  // byte array values are views into their RowGroupData: no reallocation
  std::vector<std::vector<ColumnChunkData>> written(2);
  for (int rg = 0; rg < 2; ++rg) {
    options.data_page_version = rg + 1;
    const RowGroupData& data = groups.emplace_back(MakeRowGroup(schema, 800, 3 + rg));
    PQPAGE_ASSERT_OK(file->BeginRowGroup());
    PQPAGE_ASSERT_OK(AddFinishedChunk(file.get(), columns[0], data.id, options, &written[rg]));
    PQPAGE_ASSERT_OK(AddFinishedChunk(file.get(), columns[1], data.name, options, &written[rg]));
    PQPAGE_ASSERT_OK(AddFinishedChunk(file.get(), columns[2], data.tags, options, &written[rg]));
    PQPAGE_ASSERT_OK(AddFinishedChunk(file.get(), columns[3], data.code, options, &written[rg]));
    PQPAGE_ASSERT_OK(file->EndRowGroup());
  }
  PQPAGE_ASSERT_OK(file->Close());
  // SizeStatistics where the writer has figures: value bytes of the strings, level histograms of
  // the columns with levels.
  EXPECT_FALSE(written[0][0].metadata.size_statistics.has_value());
  ASSERT_TRUE(written[0][1].metadata.size_statistics.has_value());
  EXPECT_TRUE(written[0][1].metadata.size_statistics->unencoded_byte_array_data_bytes.has_value());
  ASSERT_TRUE(written[0][2].metadata.size_statistics.has_value());
  EXPECT_EQ(written[0][2].metadata.size_statistics->repetition_level_histogram.size(), 2u);
  ExpectReadBackAsWritten(path, written);
  std::remove(path.c_str());
}

// INT96 has no sort order: its chunks get an OffsetIndex only, and say so.
TEST(FileWriterTest, AChunkWithoutColumnIndexReadsBackWithItsOffsetIndexOnly) {
  const std::string path = testing::TestTempPath("file_writer_int96_round_trip.parquet");
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const Schema schema,
      Schema::Builder().AddPrimitive("t", Repetition::kOptional, PhysicalType::kInt96).Build());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto file, FileWriter::Open(path, schema));
  WriterOptions options;
  options.data_page_size = 256;
  const ColumnData<Int96> data =
      Generate<Int96>(schema.columns()[0], Shape::kOptional, 600, 1000, 9, true);
  std::vector<std::vector<ColumnChunkData>> written(1);
  PQPAGE_ASSERT_OK(file->BeginRowGroup());
  PQPAGE_ASSERT_OK(AddFinishedChunk(file.get(), schema.columns()[0], data, options, &written[0]));
  PQPAGE_ASSERT_OK(file->EndRowGroup());
  PQPAGE_ASSERT_OK(file->Close());
  EXPECT_TRUE(written[0][0].page_index.has_offset_index);
  EXPECT_FALSE(written[0][0].page_index.has_column_index);
  EXPECT_TRUE(written[0][0].page_index.pages[0].min_value.empty());
  ExpectReadBackAsWritten(path, written);
  std::remove(path.c_str());
}

// The comparisons above must see a difference in any part.
TEST(FileWriterTest, ChunkDescriptionsCompareEveryField) {
  const Schema schema = MakeSchema();
  const RowGroupData data = MakeRowGroup(schema, 300, 1);
  WriterOptions options;
  options.data_page_size = 256;
  ColumnChunkWriter writer(schema.columns()[1], options);
  PQPAGE_ASSERT_OK(testing::WriteInBatches(&writer, data.name, 5));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ColumnChunkData chunk, writer.Finish(4));
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

TEST(FileWriterTest, OpenFailsForAMissingDirectory) {
  PQPAGE_EXPECT_ERROR(
      FileWriter::Open(testing::TestTempPath("no/such/dir/x.parquet"), MakeSchema()),
      StatusCode::kNotFound);
}

}  // namespace
}  // namespace pqpage
