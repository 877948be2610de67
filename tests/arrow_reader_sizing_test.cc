// The Arrow reader sizes a byte array leaf's data buffer before it reads a batch, from the row
// group before or from the chunk's size statistics. Those are only guesses: a file whose statistics
// claim absurd sizes (far too many bytes, or far too few), or whose values grow from one row group
// to the next, still reads every value right, and a huge claim reserves no huge buffer.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
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

void ExpectEveryValue(const std::string& path, int64_t batch_rows) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(path));
  ArrowReadOptions options;
  options.batch_rows = batch_rows;
  OwnedStream stream;
  ASSERT_TRUE(OpenArrowStream(file, options, &stream.s).ok());
  std::vector<OwnedArray> batches = ReadAll(stream.s);  // every get_next must succeed
  int64_t row = 0;
  for (const OwnedArray& batch : batches) {
    const ArrowArray& text = *batch.a.children[0];
    for (int64_t i = 0; i < text.length; ++i, ++row) {
      ASSERT_EQ(IsValid(text, i), row % 7 != 0) << row;
      if (row % 7 != 0) ASSERT_EQ(Utf8At(text, i), ValueOfRow(row)) << row;
    }
  }
  EXPECT_EQ(row, 3 * kRowsPerGroup);
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

}  // namespace
}  // namespace pqpage::arrow_test
