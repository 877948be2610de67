// How many bytes the page decoder reads from its source: a whole chunk reads each byte once (the
// read-ahead window keeps what a page running past it already holds, and a page larger than the
// window reuses what the window read of it), and rows selected through the offset index read
// only the pages that hold them, with the dictionary page.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "column_data_helpers.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/page_index.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

// Reads through ReadAt only, counting the bytes asked for.
class CountingSource final : public ByteSource {
 public:
  explicit CountingSource(absl::Span<const uint8_t> bytes) : bytes_(bytes) {}
  int64_t size() const override { return static_cast<int64_t>(bytes_.size()); }
  absl::Status ReadAt(int64_t offset, absl::Span<uint8_t> out) const override {
    if (offset < 0 || offset > size() - static_cast<int64_t>(out.size())) {
      return absl::DataLossError("read outside the source");
    }
    read_ += static_cast<int64_t>(out.size());
    std::copy_n(bytes_.data() + offset, out.size(), out.data());
    return absl::OkStatus();
  }
  int64_t read() const { return read_; }

 private:
  absl::Span<const uint8_t> bytes_;
  mutable int64_t read_ = 0;
};

// A chunk of random (incompressible) INT64 values in pages of about `page_size` bytes, after a
// dictionary page when `dictionary`.
ColumnChunkData WriteChunk(const ColumnDescriptor& column, int64_t values, int64_t page_size,
                           bool dictionary) {
  WriterOptions options;
  options.encoding = dictionary ? EncodingPolicy::kDictionary : EncodingPolicy::kPlain;
  options.compression = Compression::kUncompressed;
  options.data_page_size = page_size;
  options.data_page_row_limit = 1 << 30;
  options.dictionary_page_size_limit = 1 << 30;
  std::mt19937_64 rng(7);
  std::vector<int64_t> data(static_cast<size_t>(values));
  for (int64_t& v : data) v = static_cast<int64_t>(rng() % (dictionary ? 5000 : UINT64_MAX));
  ColumnChunkWriter writer(column, options);
  EXPECT_TRUE(writer.WriteBatch<int64_t>({}, {}, data).ok());
  absl::StatusOr<ColumnChunkData> chunk = writer.Finish(0);
  EXPECT_TRUE(chunk.ok()) << chunk.status();
  return *std::move(chunk);
}

int64_t ReadAll(ColumnChunkReader& reader) {
  std::vector<int64_t> values(10000);
  int64_t total = 0;
  for (;;) {
    absl::StatusOr<BatchCounts> counts = reader.ReadBatch<int64_t>({}, {}, absl::MakeSpan(values));
    EXPECT_TRUE(counts.ok()) << counts.status();
    if (!counts.ok() || counts->levels == 0) return total;
    total += counts->levels;
  }
}

ColumnDescriptor Int64Column() {
  ColumnDescriptor column;
  column.path = {"v"};
  column.type = PhysicalType::kInt64;
  return column;
}

TEST(BytesReadTest, AWholeChunkIsReadOnce) {
  const ColumnDescriptor column = Int64Column();
  // Pages smaller than the 1 MiB read-ahead that do not divide it, and pages larger than it.
  for (const int64_t page_size : {int64_t{300} << 10, int64_t{700} << 10, int64_t{3} << 20}) {
    const ColumnChunkData chunk = WriteChunk(column, 2'000'000, page_size, false);
    CountingSource source(chunk.bytes);
    ColumnChunkReader reader(column, &source, testing::LocationOf(chunk));
    EXPECT_EQ(ReadAll(reader), 2'000'000);
    EXPECT_EQ(source.read(), chunk.metadata.total_compressed_size) << "pages of " << page_size;
  }
}

TEST(BytesReadTest, SelectedRowsReadOnlyTheirPagesAndTheDictionary) {
  const ColumnDescriptor column = Int64Column();
  const ColumnChunkData chunk = WriteChunk(column, 2'000'000, int64_t{64} << 10, true);
  const ChunkPageIndex& index = chunk.page_index;
  ASSERT_TRUE(index.has_offset_index);
  ASSERT_GT(index.pages.size(), 10u);
  const size_t target = index.pages.size() / 2;
  const int64_t first = index.pages[target].first_row_index;
  CountingSource source(chunk.bytes);
  ColumnChunkReader reader(column, &source, testing::LocationOf(chunk));
  PQPAGE_ASSERT_OK(reader.UseOffsetIndex(index));
  PQPAGE_ASSERT_OK(reader.SelectRows({{first + 1, first + 3}}));
  EXPECT_EQ(ReadAll(reader), 2);
  const int64_t dictionary = index.pages[0].offset - testing::LocationOf(chunk).offset;
  EXPECT_EQ(source.read(), dictionary + index.pages[target].compressed_page_size);
}

}  // namespace
}  // namespace pqpage
