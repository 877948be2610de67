// Per-column writer settings (WriterOptions::column_overrides): precedence over the shared
// options, the column a ColumnChunkWriter applies, and finding keys that name no column.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pqpage/column_chunk_writer.h"
#include "pqpage/schema.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

ColumnDescriptor Column(std::vector<std::string> path, PhysicalType type) {
  ColumnDescriptor column;
  column.path = std::move(path);
  column.type = type;
  return column;
}

TEST(WriterOverridesTest, AnOverrideWinsOnlyForItsColumnAndOnlyWhereSet) {
  WriterOptions options;
  options.encoding = EncodingPolicy::kDictionary;
  options.compression = Compression::kSnappy;
  options.data_page_size = 4096;
  options.dictionary_page_size_limit = 8192;
  options.column_overrides["a.b"].encoding = EncodingPolicy::kDelta;
  options.column_overrides["a.b"].data_page_size = 100;
  options.column_overrides["a.b"].dictionary = false;

  const WriterOptions ab = options.ForColumn("a.b");
  EXPECT_EQ(ab.encoding, EncodingPolicy::kDelta);
  EXPECT_EQ(ab.data_page_size, 100);
  EXPECT_EQ(ab.dictionary, std::optional<bool>(false));
  EXPECT_EQ(ab.compression, Compression::kSnappy);  // not set: shared
  EXPECT_EQ(ab.dictionary_page_size_limit, 8192);   // not set: shared
  EXPECT_TRUE(ab.column_overrides.empty());

  const WriterOptions other = options.ForColumn("a");  // a prefix is not the column
  EXPECT_EQ(other.encoding, EncodingPolicy::kDictionary);
  EXPECT_EQ(other.data_page_size, 4096);
  EXPECT_FALSE(other.dictionary.has_value());
}

TEST(WriterOverridesTest, ANewCodecWithoutALevelTakesItsOwnDefaultLevel) {
  WriterOptions options;
  options.compression = Compression::kZstd;
  options.compression_level = 19;
  options.column_overrides["x"].compression = Compression::kGzip;
  options.column_overrides["y"].compression = Compression::kZstd;  // the same codec: level kept
  options.column_overrides["z"].compression = Compression::kBrotli;
  options.column_overrides["z"].compression_level = 3;
  EXPECT_EQ(options.ForColumn("x").compression, Compression::kGzip);
  EXPECT_EQ(options.ForColumn("x").compression_level, kDefaultCompressionLevel);
  EXPECT_EQ(options.ForColumn("y").compression_level, 19);
  EXPECT_EQ(options.ForColumn("z").compression, Compression::kBrotli);
  EXPECT_EQ(options.ForColumn("z").compression_level, 3);
}

TEST(WriterOverridesTest, UnknownOverrideColumnsListsKeysThatNameNoColumn) {
  const std::vector<ColumnDescriptor> columns = {
      Column({"id"}, PhysicalType::kInt64),
      Column({"tags", "list", "element"}, PhysicalType::kByteArray)};
  WriterOptions options;
  options.column_overrides["id"].encoding = EncodingPolicy::kDelta;
  options.column_overrides["tags.list.element"].encoding = EncodingPolicy::kPlain;
  EXPECT_TRUE(UnknownOverrideColumns(options, columns).empty());
  options.column_overrides["tags"].encoding = EncodingPolicy::kPlain;
  options.column_overrides["Id"].encoding = EncodingPolicy::kPlain;
  EXPECT_EQ(UnknownOverrideColumns(options, columns), (std::vector<std::string>{"Id", "tags"}));
}

// The writer applies its own column's entry: the same options give two columns different
// encodings and codecs.
TEST(WriterOverridesTest, AColumnChunkWriterWritesWithItsColumnsOverride) {
  WriterOptions options;
  options.encoding = EncodingPolicy::kPlain;
  options.compression = Compression::kUncompressed;
  options.column_overrides["sorted"].encoding = EncodingPolicy::kDelta;
  options.column_overrides["sorted"].compression = Compression::kZstd;
  std::vector<int64_t> values(5000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 1000 + static_cast<int64_t>(i) * 7;

  ColumnChunkWriter sorted(Column({"sorted"}, PhysicalType::kInt64), options);
  PQPAGE_ASSERT_OK(sorted.WriteBatch<int64_t>({}, {}, values));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData sorted_chunk, sorted.Finish(4));
  EXPECT_EQ(sorted_chunk.metadata.codec_id, static_cast<int32_t>(Compression::kZstd));
  const std::vector<Encoding> sorted_encodings = sorted_chunk.metadata.encodings();
  EXPECT_NE(
      std::find(sorted_encodings.begin(), sorted_encodings.end(), Encoding::kDeltaBinaryPacked),
      sorted_encodings.end());

  ColumnChunkWriter plain(Column({"plain"}, PhysicalType::kInt64), options);
  PQPAGE_ASSERT_OK(plain.WriteBatch<int64_t>({}, {}, values));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData plain_chunk, plain.Finish(4));
  EXPECT_EQ(plain_chunk.metadata.codec_id, static_cast<int32_t>(Compression::kUncompressed));
  const std::vector<Encoding> plain_encodings = plain_chunk.metadata.encodings();
  EXPECT_EQ(std::find(plain_encodings.begin(), plain_encodings.end(), Encoding::kDeltaBinaryPacked),
            plain_encodings.end());
  EXPECT_GT(plain_chunk.bytes.size(), 10 * sorted_chunk.bytes.size());
}

}  // namespace
}  // namespace pqpage
