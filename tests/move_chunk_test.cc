// MoveChunk: a chunk finished at offset 0 and moved equals the same chunk finished in place, for
// chunks with and without a dictionary page, over many pages (the recode pipeline and the Arrow
// writer finish chunks on their threads at 0 and place them in file order).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "pqpage/column_chunk_writer.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

ColumnChunkWriter WriterWithValues(EncodingPolicy encoding) {
  ColumnDescriptor column;
  column.path = {"x"};
  column.type = PhysicalType::kInt64;
  column.max_definition_level = 1;
  WriterOptions options;
  options.encoding = encoding;
  options.compression = Compression::kZstd;
  options.data_page_size = 512;  // many pages, so the page index has many offsets
  ColumnChunkWriter writer(column, options);
  std::vector<int16_t> def;
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 5000; ++i) {
    def.push_back(i % 7 == 0 ? 0 : 1);
    if (def.back() == 1) values.push_back((i * 7919) % 301);
  }
  PQPAGE_EXPECT_OK(writer.WriteBatch<int64_t>(def, {}, values));
  return writer;
}

TEST(MoveChunkTest, MovedChunkEqualsChunkFinishedInPlace) {
  for (EncodingPolicy encoding : {EncodingPolicy::kDictionary, EncodingPolicy::kPlain}) {
    for (int64_t offset : {int64_t{4}, int64_t{123457}, int64_t{1} << 40}) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData in_place,
                                  WriterWithValues(encoding).Finish(offset));
      PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData moved, WriterWithValues(encoding).Finish(0));
      ASSERT_GT(moved.page_index.pages.size(), 3u);
      ASSERT_EQ(moved.metadata.dictionary_page_offset.has_value(),
                encoding == EncodingPolicy::kDictionary);
      PQPAGE_ASSERT_OK(MoveChunk(&moved, offset));
      EXPECT_EQ(moved.bytes, in_place.bytes);
      EXPECT_EQ(moved.metadata, in_place.metadata) << "offset " << offset;
      EXPECT_EQ(moved.page_index, in_place.page_index) << "offset " << offset;
      // And back again, from a non-zero start.
      PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData at_zero, WriterWithValues(encoding).Finish(0));
      PQPAGE_ASSERT_OK(MoveChunk(&moved, 0));
      EXPECT_EQ(moved.metadata, at_zero.metadata);
      EXPECT_EQ(moved.page_index, at_zero.page_index);
    }
  }
}

TEST(MoveChunkTest, EmptyChunkAndNegativeOffset) {
  ColumnDescriptor column;
  column.path = {"x"};
  column.type = PhysicalType::kInt32;
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData empty, ColumnChunkWriter(column).Finish(0));
  PQPAGE_ASSERT_OK(MoveChunk(&empty, 77));
  EXPECT_EQ(empty.metadata.data_page_offset, 77);
  EXPECT_TRUE(empty.page_index.pages.empty());
  PQPAGE_EXPECT_ERROR(MoveChunk(&empty, -1), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(empty.metadata.data_page_offset, 77);  // unchanged by the refused move
}

}  // namespace
}  // namespace pqpage
