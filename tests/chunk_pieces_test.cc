// ColumnChunkWriter::FinishInPieces: a chunk handed over in the blocks its pages were built in
// holds, piece after piece, exactly the bytes Finish() copies into one buffer, with the same
// metadata and page index; FileWriter stores either form as the same file, in the clear and
// encrypted; RecycleChunkBuffers gives every piece back to the writers' pool.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "column_data_helpers.h"
#include "common/buffer_pool.h"
#include "encryption_test_helpers.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/encryption.h"
#include "pqpage/file.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using testing::ColumnData;
using testing::Generate;
using testing::MakeColumn;
using testing::Shape;
using testing::WriteInBatches;

struct Case {
  const char* name;
  EncodingPolicy encoding;
  int64_t levels;
  uint64_t cardinality;
};

// Chunks of one block and of several (data pages wait in blocks of 4 MiB), with and without a
// dictionary page, and a chunk with no levels at all.
const Case kCases[] = {
    {"plain_several_blocks", EncodingPolicy::kPlain, 1'500'000, uint64_t{1} << 40},
    {"dictionary_several_blocks", EncodingPolicy::kDictionary, 3'000'000, 60'000},
    {"plain_one_block", EncodingPolicy::kPlain, 20'000, uint64_t{1} << 40},
    {"dictionary_one_block", EncodingPolicy::kDictionary, 20'000, 100},
    {"empty", EncodingPolicy::kPlain, 0, 1},
};

WriterOptions OptionsFor(const Case& c) {
  WriterOptions options;
  options.encoding = c.encoding;
  options.compression = Compression::kUncompressed;  // so that the data fills several blocks
  return options;
}

absl::StatusOr<ColumnChunkData> WriteChunk(const ColumnDescriptor& column, const Case& c,
                                           const ColumnData<int64_t>& data, bool in_pieces,
                                           int64_t file_offset) {
  ColumnChunkWriter writer(column, OptionsFor(c));
  if (c.levels > 0) PQPAGE_RETURN_IF_ERROR(WriteInBatches(&writer, data, 3, 65536));
  return in_pieces ? writer.FinishInPieces(file_offset) : writer.Finish(file_offset);
}

TEST(ChunkPiecesTest, PiecesHoldTheBytesOfTheWholeChunk) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kOptional);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const ColumnData<int64_t> data =
        Generate<int64_t>(column, Shape::kOptional, c.levels, c.cardinality, 11);
    PQPAGE_ASSERT_OK_AND_ASSIGN(const ColumnChunkData whole, WriteChunk(column, c, data, false, 4));
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData pieces, WriteChunk(column, c, data, true, 4));
    EXPECT_TRUE(whole.more_bytes.empty());
    EXPECT_EQ(whole.stored_size(), static_cast<int64_t>(whole.bytes.size()));
    EXPECT_EQ(pieces.stored_size(), whole.stored_size());
    EXPECT_EQ(pieces.metadata.total_compressed_size, whole.stored_size());
    // More than one block, or a dictionary page in front of one: the blocks are not copied.
    const bool several = whole.stored_size() > (int64_t{5} << 20);
    const bool dictionary = whole.metadata.dictionary_page_offset.has_value();
    EXPECT_EQ(!pieces.more_bytes.empty(), several || dictionary) << pieces.more_bytes.size();
    if (several) EXPECT_GE(pieces.more_bytes.size(), 2u);
    EXPECT_EQ(pieces.metadata, whole.metadata);
    EXPECT_EQ(pieces.page_index, whole.page_index);
    EXPECT_EQ(pieces.num_rows, whole.num_rows);
    pieces.Flatten();
    EXPECT_TRUE(pieces.more_bytes.empty());
    EXPECT_EQ(pieces.bytes, whole.bytes);
  }
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A file of two row groups of `column` (schema "c", optional INT64), written through
// FileWriter::WriteColumnChunk(const ColumnChunkData&) from chunks finished whole or in pieces.
std::string WriteFile(const std::string& name, bool in_pieces,
                      std::shared_ptr<const FileEncryptionProperties> encryption) {
  absl::StatusOr<Schema> schema =
      Schema::Builder().AddPrimitive("c", Repetition::kOptional, PhysicalType::kInt64).Build();
  EXPECT_TRUE(schema.ok()) << schema.status();
  const std::string path = testing::TestTempPath(name);
  FileWriterOptions file_options;
  file_options.encryption = std::move(encryption);
  absl::StatusOr<std::unique_ptr<FileWriter>> file = FileWriter::Open(path, *schema, file_options);
  EXPECT_TRUE(file.ok()) << file.status();
  if (!file.ok()) return "";
  const ColumnDescriptor& column = schema->columns()[0];
  for (const Case& c : {kCases[1], kCases[0]}) {
    const ColumnData<int64_t> data =
        Generate<int64_t>(column, Shape::kOptional, c.levels, c.cardinality, 5);
    PQPAGE_EXPECT_OK((*file)->BeginRowGroup());
    absl::StatusOr<ColumnChunkData> chunk =
        WriteChunk(column, c, data, in_pieces, (*file)->position());
    EXPECT_TRUE(chunk.ok()) << chunk.status();
    if (!chunk.ok()) return "";
    PQPAGE_EXPECT_OK((*file)->WriteColumnChunk(*chunk));
    RecycleChunkBuffers(&*chunk);
    EXPECT_TRUE(chunk->bytes.empty());
    EXPECT_TRUE(chunk->more_bytes.empty());
    PQPAGE_EXPECT_OK((*file)->EndRowGroup());
  }
  PQPAGE_EXPECT_OK((*file)->Close());
  return ReadFileBytes(path);
}

TEST(ChunkPiecesTest, FileWriterStoresPiecesAsTheWholeChunk) {
  const std::string whole = WriteFile("pieces_whole.parquet", false, nullptr);
  ASSERT_GT(whole.size(), size_t{8} << 20);
  EXPECT_EQ(WriteFile("pieces_pieces.parquet", true, nullptr), whole);
}

TEST(ChunkPiecesTest, EncryptedPiecesReadAsTheEncryptedWholeChunk) {
  // Each page gets a fresh random nonce, so the two files differ byte for byte: they are compared
  // through what they decrypt to.
  auto encryption = std::make_shared<FileEncryptionProperties>();
  encryption->algorithm = EncryptionAlgorithm::kAesGcmV1;
  encryption->footer_key = std::string(16, 'k');
  encryption->encrypted_footer = true;
  ASSERT_FALSE(WriteFile("pieces_whole_encrypted.parquet", false, encryption).empty());
  ASSERT_FALSE(WriteFile("pieces_pieces_encrypted.parquet", true, encryption).empty());
  auto keys = std::make_shared<FileDecryptionProperties>();
  keys->footer_key = encryption->footer_key;
  PQPAGE_ASSERT_OK_AND_ASSIGN(const testing::Columns whole,
                              testing::OpenAndReadAllColumns(
                                  testing::TestTempPath("pieces_whole_encrypted.parquet"), keys));
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_GT(whole.begin()->second.size(), size_t{8} << 20);
  PQPAGE_EXPECT_OK_AND_EQ(testing::OpenAndReadAllColumns(
                              testing::TestTempPath("pieces_pieces_encrypted.parquet"), keys),
                          whole);
}

TEST(ChunkPiecesTest, RecycledPiecesGoBackToTheWritersPool) {
  internal::WriterBufferPool().Release();
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kOptional);
  const ColumnData<int64_t> data =
      Generate<int64_t>(column, Shape::kOptional, kCases[0].levels, kCases[0].cardinality, 11);
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkData chunk, WriteChunk(column, kCases[0], data, true, 0));
  ASSERT_GE(chunk.more_bytes.size(), 2u);
  size_t capacity = chunk.bytes.capacity();
  for (const std::vector<uint8_t>& piece : chunk.more_bytes) capacity += piece.capacity();
  // The builder's blocks are all in the chunk: the pool holds nothing until the chunk comes back.
  EXPECT_EQ(internal::WriterBufferPool().kept_bytes(), 0u);
  RecycleChunkBuffers(&chunk);
  EXPECT_EQ(internal::WriterBufferPool().kept_bytes(), capacity);
  ReleaseWriterBuffers();
}

}  // namespace
}  // namespace pqpage
