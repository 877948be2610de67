// The buffer pools: what they keep, what they refuse, and that readers and writers really
// recycle.
#include "common/buffer_pool.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "column_data_helpers.h"
#include "page/read/pooled_buffer.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage::internal {
namespace {

TEST(BufferPoolTest, KeepsBuffersUpToItsLimits) {
  BufferPool pool;
  EXPECT_TRUE(pool.Take(0).empty());
  pool.Give({});  // nothing to keep
  EXPECT_EQ(pool.kept_bytes(), 0u);
  std::vector<uint8_t> first(1000, 1);
  std::vector<uint8_t> second(3000, 2);
  const size_t first_capacity = first.capacity();
  const size_t second_capacity = second.capacity();
  pool.Give(std::move(first));
  pool.Give(std::move(second));
  EXPECT_EQ(pool.kept_bytes(), first_capacity + second_capacity);
  // The best fit comes back, with its size and contents as they were: the smallest that holds
  // the size asked for, or the largest when none does.
  std::vector<uint8_t> taken = pool.Take(2000);
  ASSERT_EQ(taken.size(), 3000u);
  EXPECT_EQ(taken[0], 2);
  EXPECT_EQ(pool.kept_bytes(), first_capacity);
  pool.Give(std::move(taken));
  taken = pool.Take(10);
  ASSERT_EQ(taken.size(), 1000u);
  pool.Give(std::move(taken));
  taken = pool.Take(5000);
  ASSERT_EQ(taken.size(), 3000u);
  // A buffer over the per-buffer limit is freed, not kept.
  std::vector<uint8_t> huge;
  huge.reserve(BufferPool::kMaxKeptBufferBytes + 1);
  pool.Give(std::move(huge));
  EXPECT_EQ(pool.kept_bytes(), first_capacity);
  // So is one that would take the pool past its total.
  for (size_t kept = pool.kept_bytes();
       kept + BufferPool::kMaxKeptBufferBytes <= BufferPool::kMaxKeptBytes;
       kept += BufferPool::kMaxKeptBufferBytes) {
    std::vector<uint8_t> big;
    big.reserve(BufferPool::kMaxKeptBufferBytes);
    pool.Give(std::move(big));
  }
  const size_t full = pool.kept_bytes();
  EXPECT_LE(full, BufferPool::kMaxKeptBytes);
  std::vector<uint8_t> one_more;
  one_more.reserve(BufferPool::kMaxKeptBufferBytes);
  pool.Give(std::move(one_more));
  EXPECT_EQ(pool.kept_bytes(), full);
  pool.Release();
  EXPECT_EQ(pool.kept_bytes(), 0u);
  EXPECT_TRUE(pool.Take(0).empty());
}

// A compressed chunk of several pages, written by the page builder.
ColumnChunkData CompressedChunk(const ColumnDescriptor& column, uint64_t seed) {
  const testing::ColumnData<int64_t> data =
      testing::Generate<int64_t>(column, testing::Shape::kOptional, 20000, 1 << 20, seed, true);
  WriterOptions options;
  options.compression = Compression::kZstd;
  options.encoding = EncodingPolicy::kPlain;
  options.data_page_size = 16 << 10;
  ColumnChunkWriter writer(column, options);
  EXPECT_TRUE(testing::WriteInBatches(&writer, data, 1000).ok());
  absl::StatusOr<ColumnChunkData> chunk = writer.Finish(0);
  EXPECT_TRUE(chunk.ok()) << chunk.status();
  return *std::move(chunk);
}

int64_t ReadAll(const ColumnDescriptor& column, const ColumnChunkData& chunk) {
  auto source = MakeMemoryByteSource(chunk.bytes);
  ColumnChunkLocation location;
  location.length = static_cast<int64_t>(chunk.bytes.size());
  location.codec = Compression::kZstd;
  ColumnChunkReader reader(column, source.get(), location);
  std::vector<int64_t> values(4096);
  int64_t total = 0;
  for (;;) {
    absl::StatusOr<BatchCounts> counts = reader.ReadBatch<int64_t>({}, {}, absl::MakeSpan(values));
    EXPECT_TRUE(counts.ok()) << counts.status();
    if (!counts.ok() || counts->levels == 0) return total;
    total += counts->values;
  }
}

TEST(BufferPoolTest, ReadersGiveTheirPageBuffersBackAndTheNextOneTakesThem) {
  ColumnDescriptor column;
  column.path = {"v"};
  column.type = PhysicalType::kInt64;
  column.max_definition_level = 1;
  const ColumnChunkData chunk = CompressedChunk(column, 3);
  ReleaseReaderBuffers();
  ASSERT_EQ(ReaderBufferPool().kept_bytes(), 0u);
  const int64_t values = ReadAll(column, chunk);
  EXPECT_GT(values, 0);
  // The decompressed page buffer (at least one page of 16 KiB) went back to the pool.
  const size_t kept = ReaderBufferPool().kept_bytes();
  EXPECT_GE(kept, size_t{16} << 10);
  // Reading again takes them and gives them back: nothing new is kept, and the values agree.
  EXPECT_EQ(ReadAll(column, chunk), values);
  EXPECT_EQ(ReaderBufferPool().kept_bytes(), kept);
  ReleaseReaderBuffers();
  EXPECT_EQ(ReaderBufferPool().kept_bytes(), 0u);
}

// A file of one dictionary-encoded INT64 column of 200,000 rows, written through
// FileWriter::WriteColumnChunk(ColumnChunkWriter); its bytes.
std::string WriteDictionaryFile(const std::string& name) {
  absl::StatusOr<Schema> schema =
      Schema::Builder().AddPrimitive("v", Repetition::kOptional, PhysicalType::kInt64).Build();
  EXPECT_TRUE(schema.ok()) << schema.status();
  const std::string path = pqpage::testing::TestTempPath(name);
  absl::StatusOr<std::unique_ptr<FileWriter>> file = FileWriter::Open(path, *schema);
  EXPECT_TRUE(file.ok()) << file.status();
  const ColumnDescriptor& column = schema->columns()[0];
  const testing::ColumnData<int64_t> data =
      testing::Generate<int64_t>(column, testing::Shape::kOptional, 200000, 5000, 7, true);
  WriterOptions options;
  options.encoding = EncodingPolicy::kDictionary;
  options.compression = Compression::kUncompressed;
  ColumnChunkWriter writer(column, options);
  PQPAGE_EXPECT_OK((*file)->BeginRowGroup());
  PQPAGE_EXPECT_OK(testing::WriteInBatches(&writer, data, 11, 4096));
  const absl::Status written = (*file)->WriteColumnChunk(std::move(writer));
  PQPAGE_EXPECT_OK(written);
  PQPAGE_EXPECT_OK((*file)->EndRowGroup());
  PQPAGE_EXPECT_OK((*file)->Close());
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(BufferPoolTest, WritersGiveTheirBlocksAndChunksBackAndTheNextOneTakesThem) {
  ReleaseWriterBuffers();
  ASSERT_EQ(WriterBufferPool().kept_bytes(), 0u);
  const std::string first = WriteDictionaryFile("pool_first.parquet");
  // The block the data pages waited in (4 MiB at least), handed to the file behind the dictionary
  // page without a copy, came back with the dictionary page's buffer once the file had them.
  const size_t kept = WriterBufferPool().kept_bytes();
  EXPECT_GE(kept, size_t{4} << 20);
  EXPECT_LT(kept, (size_t{4} << 20) + first.size());  // no second copy of the chunk
  // Writing again takes them and gives them back: nothing new is kept, and the bytes agree.
  EXPECT_EQ(WriteDictionaryFile("pool_second.parquet"), first);
  EXPECT_EQ(WriterBufferPool().kept_bytes(), kept);
  ReleaseWriterBuffers();
  EXPECT_EQ(WriterBufferPool().kept_bytes(), 0u);
}

}  // namespace
}  // namespace pqpage::internal
