// The reader buffer pool: what it keeps, what it refuses, and that readers really recycle.
#include "page/read/buffer_pool.h"

#include <gtest/gtest.h>

#include <vector>

#include "column_data_helpers.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "status_matchers.h"

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

}  // namespace
}  // namespace pqpage::internal
