// The Arrow reader sizes a byte array leaf's data buffer before it reads a batch, from the row
// group before or from the chunk's size statistics. Those are only guesses: a file whose statistics
// claim absurd sizes (far too many bytes, or far too few), or whose values grow from one row group
// to the next, still reads every value right, and a huge claim reserves no huge buffer. The same
// guesses cut batches to ArrowReadOptions::batch_bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arrow_c_data_checks.h"
#include "pqpage/arrow_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "pqpage/status_macros.h"
#include "pqpage/writer_options.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage::arrow_test {
namespace {

constexpr int64_t kRowsPerGroup = 3000;

// Row `row` of the file: null every seventh row, else a string whose length grows with its row
// group (group g's values are about 10 x 4^g bytes), so each group's first batch holds more than
// the group before suggests.
std::string ValueOfRow(int64_t row) {
  const int64_t group = row / kRowsPerGroup;
  const auto length = static_cast<size_t>((10 << (2 * group)) + row % 13);
  return std::string(length, static_cast<char>('a' + row % 26));
}

// Three row groups of an optional STRING column, PLAIN in pages of about 4 KiB (so a batch's
// values are copied page by page into its buffer), each chunk's size statistics replaced by
// `claims[g]` bytes.
absl::Status WriteFile(const std::string& path, const std::vector<int64_t>& claims) {
  PQPAGE_ASSIGN_OR_RETURN(Schema schema, Schema::Builder()
                                             .AddPrimitive("text", Repetition::kOptional,
                                                           PhysicalType::kByteArray, 0, "STRING")
                                             .Build());
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileWriter> file, FileWriter::Open(path, schema));
  WriterOptions options;
  options.encoding = EncodingPolicy::kPlain;
  options.data_page_size = 4096;
  for (size_t group = 0; group < claims.size(); ++group) {
    std::vector<int16_t> definition;
    std::vector<std::string> texts;
    for (int64_t i = 0; i < kRowsPerGroup; ++i) {
      const int64_t row = static_cast<int64_t>(group) * kRowsPerGroup + i;
      definition.push_back(row % 7 == 0 ? 0 : 1);
      if (row % 7 != 0) texts.push_back(ValueOfRow(row));
    }
    std::vector<ByteArray> values(texts.begin(), texts.end());
    ColumnChunkWriter writer(schema.columns()[0], options);
    PQPAGE_RETURN_IF_ERROR(writer.WriteBatch<ByteArray>(definition, {}, values));
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkData chunk, writer.Finish(file->position()));
    if (!chunk.metadata.size_statistics) chunk.metadata.size_statistics.emplace();
    chunk.metadata.size_statistics->unencoded_byte_array_data_bytes = claims[group];
    PQPAGE_RETURN_IF_ERROR(file->BeginRowGroup());
    PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(chunk));
    PQPAGE_RETURN_IF_ERROR(file->EndRowGroup());
  }
  return file->Close();
}

// One batch as read: its rows and its values' bytes.
struct BatchSize {
  int64_t rows = 0;
  int64_t bytes = 0;
};

// Reads the file and checks every value; returns each batch's size.
std::vector<BatchSize> ExpectEveryValue(const std::string& path, int64_t batch_rows,
                                        int64_t batch_bytes = 0) {
  std::vector<BatchSize> sizes;
  absl::StatusOr<std::shared_ptr<const FileReader>> file = OpenShared(path);
  EXPECT_TRUE(file.ok()) << file.status();
  if (!file.ok()) return sizes;
  ArrowReadOptions options;
  options.batch_rows = batch_rows;
  options.batch_bytes = batch_bytes;
  OwnedStream stream;
  EXPECT_TRUE(OpenArrowStream(*file, options, &stream.s).ok());
  std::vector<OwnedArray> batches = ReadAll(stream.s);  // every get_next must succeed
  int64_t row = 0;
  for (const OwnedArray& batch : batches) {
    const ArrowArray& text = *batch.a.children[0];
    const auto* offsets = static_cast<const int32_t*>(text.buffers[1]) + text.offset;
    sizes.push_back({text.length, offsets[text.length] - offsets[0]});
    for (int64_t i = 0; i < text.length; ++i, ++row) {
      EXPECT_EQ(IsValid(text, i), row % 7 != 0) << row;
      if (row % 7 != 0) EXPECT_EQ(Utf8At(text, i), ValueOfRow(row)) << row;
    }
  }
  EXPECT_EQ(row, 3 * kRowsPerGroup);
  return sizes;
}

TEST(ArrowReaderSizingTest, ValuesGrowingFromGroupToGroupReadRight) {
  const std::string path = testing::TestTempPath("growing.parquet");
  // Truthful statistics for the first group only; the later ones go by the group before.
  ASSERT_TRUE(WriteFile(path, {kRowsPerGroup * 16, 1, 1}).ok());
  ExpectEveryValue(path, 1000);
  ExpectEveryValue(path, 4096);  // a batch over a whole group
}

TEST(ArrowReaderSizingTest, AbsurdSizeStatisticsReserveNoHugeBufferAndReadRight) {
  const std::string path = testing::TestTempPath("absurd.parquet");
  // Were these taken at their word, the first batch would ask for exabytes and fail.
  constexpr int64_t kHuge = std::numeric_limits<int64_t>::max();
  ASSERT_TRUE(WriteFile(path, {kHuge, -5, kHuge}).ok());
  ExpectEveryValue(path, 1000);
  ExpectEveryValue(path, 13);
}

TEST(ArrowReaderSizingTest, BatchBytesCutsBatchesToTheirValuesSize) {
  const std::string path = testing::TestTempPath("batch_bytes.parquet");
  ASSERT_TRUE(WriteFile(path, {kRowsPerGroup * 16, kRowsPerGroup * 46, kRowsPerGroup * 166}).ok());
  // No bound: one batch a row group.
  EXPECT_EQ(ExpectEveryValue(path, kRowsPerGroup, 0).size(), 3u);
  // 8 KiB a batch: the values grow fourfold from group to group, and so does the batch count.
  constexpr int64_t kBound = 8 << 10;
  const std::vector<BatchSize> sizes = ExpectEveryValue(path, kRowsPerGroup, kBound);
  int64_t rows = 0;
  int64_t group_end = kRowsPerGroup;
  bool first_of_group = true;
  for (size_t i = 0; i < sizes.size(); ++i) {
    ASSERT_GE(sizes[i].rows, 1);
    rows += sizes[i].rows;
    ASSERT_LE(rows, group_end) << "batch " << i << " spans two row groups";
    const bool last_of_group = rows == group_end;
    // The first batch of a group goes by the statistics (here true) or the group before; the
    // others by the batches of their own group, within what one row more or less makes.
    if (!first_of_group && !last_of_group) {
      EXPECT_LE(sizes[i].bytes, kBound + kBound / 8) << "batch " << i;
      EXPECT_GE(sizes[i].bytes, kBound - kBound / 8) << "batch " << i;
    }
    first_of_group = last_of_group;
    if (last_of_group) group_end += kRowsPerGroup;
  }
  EXPECT_GT(sizes.size(), 3u * 4);
  // A bound below one row's bytes still makes batches of one row.
  const std::vector<BatchSize> single = ExpectEveryValue(path, 100, 1);
  for (const BatchSize& batch : single) EXPECT_EQ(batch.rows, 1);
}

}  // namespace
}  // namespace pqpage::arrow_test
