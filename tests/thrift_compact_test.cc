// The compact-protocol layer over the generated metadata classes: round trips, unknown fields,
// and hostile bytes (truncation, lying lengths, deep nesting) as errors without large allocations.
#include "metadata/thrift_compact.h"

#include <gtest/gtest.h>

#include <vector>

#include "parquet_types.h"
#include "status_matchers.h"

namespace pqpage::internal {
namespace {

using absl::StatusCode;

format::PageHeader SampleHeader() {
  format::PageHeader header;
  header.type = format::PageType::DATA_PAGE_V2;
  header.uncompressed_page_size = 1234;
  header.compressed_page_size = 567;
  header.__set_crc(-12345);
  format::DataPageHeaderV2 v2;
  v2.num_values = 100;
  v2.num_nulls = 7;
  v2.num_rows = 100;
  v2.encoding = format::Encoding::DELTA_BINARY_PACKED;
  v2.definition_levels_byte_length = 10;
  v2.repetition_levels_byte_length = 0;
  v2.__set_is_compressed(false);
  format::Statistics stats;
  stats.__set_null_count(7);
  stats.__set_min_value(std::string("\x01\x00\x00\x00", 4));
  v2.__set_statistics(stats);
  header.__set_data_page_header_v2(v2);
  return header;
}

TEST(ThriftCompactTest, PageHeaderRoundTrips) {
  std::vector<uint8_t> bytes;
  PQPAGE_ASSERT_OK(SerializeCompact(SampleHeader(), &bytes));
  bytes.push_back(0xAB);  // the page body follows the header
  format::PageHeader back;
  PQPAGE_ASSERT_OK_AND_ASSIGN(size_t consumed, DeserializeCompact(bytes, &back));
  EXPECT_EQ(consumed, bytes.size() - 1);
  EXPECT_EQ(back, SampleHeader());
  EXPECT_FALSE(back.data_page_header_v2.is_compressed);
}

TEST(ThriftCompactTest, IsCompressedDefaultsToTrueWhenAbsent) {
  format::PageHeader header = SampleHeader();
  header.data_page_header_v2.__isset.is_compressed = false;
  std::vector<uint8_t> bytes;
  PQPAGE_ASSERT_OK(SerializeCompact(header, &bytes));
  format::PageHeader back;
  PQPAGE_ASSERT_OK(DeserializeCompact(bytes, &back));
  EXPECT_TRUE(back.data_page_header_v2.is_compressed);
}

TEST(ThriftCompactTest, UnknownFieldsAreSkipped) {
  std::vector<uint8_t> bytes;
  PQPAGE_ASSERT_OK(SerializeCompact(SampleHeader(), &bytes));
  // Replace the final stop byte with field 20 (delta 20 > 15, so long form: type i32 = 5, then
  // zigzag varint id 40), value 7 (zigzag 14), and the stop byte again.
  ASSERT_EQ(bytes.back(), 0);
  bytes.pop_back();
  bytes.insert(bytes.end(), {0x05, 40, 14, 0x00});
  format::PageHeader back;
  PQPAGE_ASSERT_OK(DeserializeCompact(bytes, &back));
  EXPECT_EQ(back, SampleHeader());
}

TEST(ThriftCompactTest, EveryTruncationIsAnError) {
  std::vector<uint8_t> bytes;
  PQPAGE_ASSERT_OK(SerializeCompact(SampleHeader(), &bytes));
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + cut);
    format::PageHeader back;
    PQPAGE_EXPECT_ERROR(DeserializeCompact(truncated, &back), StatusCode::kDataLoss);
  }
}

TEST(ThriftCompactTest, EmptyInputIsAnErrorForEveryStructure) {
  // An empty span whose data() is null, as an empty vector gives: every structure pqpage reads
  // (footer, page header, column metadata, both page index structures) refuses it before Thrift's
  // buffer does pointer arithmetic on null.
  const absl::Span<const uint8_t> empty(nullptr, 0);
  format::PageHeader header;
  format::FileMetaData footer;
  format::ColumnMetaData column;
  format::OffsetIndex offset_index;
  format::ColumnIndex column_index;
  PQPAGE_EXPECT_ERROR(DeserializeCompact(empty, &header), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(DeserializeCompact(empty, &footer), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(DeserializeCompact(empty, &column), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(DeserializeCompact(empty, &offset_index), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(DeserializeCompact(empty, &column_index), StatusCode::kDataLoss);
}

TEST(ThriftCompactTest, LyingLengthsAreErrorsNotAllocations) {
  // KeyValue { 1: key } whose string claims 2^31 - 1 bytes with 3 present.
  const std::vector<uint8_t> long_string = {0x18, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 'a', 'b', 'c'};
  format::FileMetaData footer;
  // FileMetaData { 2: list<SchemaElement> } claiming 2^30 elements in 8 bytes.
  const std::vector<uint8_t> long_list = {0x15, 0x02, 0x29, 0xFC, 0x80, 0x80, 0x80, 0x04, 0x00};
  PQPAGE_EXPECT_ERROR(DeserializeCompact(long_list, &footer), StatusCode::kDataLoss);
  format::PageHeader header;
  PQPAGE_EXPECT_ERROR(DeserializeCompact(long_string, &header), StatusCode::kDataLoss);
}

TEST(ThriftCompactTest, DeepNestingIsAnError) {
  // LogicalType -> TimestampType -> TimeUnit ... cannot nest deeply, so nest unknown structs: a
  // PageHeader field 20 of type struct, containing field 1 of type struct, and so on.
  std::vector<uint8_t> bytes = {0x0C, 40};
  for (int i = 0; i < 10000; ++i) bytes.push_back(0x1C);
  format::PageHeader header;
  PQPAGE_EXPECT_ERROR(DeserializeCompact(bytes, &header), StatusCode::kDataLoss);
}

}  // namespace
}  // namespace pqpage::internal
