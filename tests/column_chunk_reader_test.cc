// The page decoder over column chunks built page by page in the test, so that every header field
// (and every lie a header can tell) is under the test's control.
#include "pqpage/column_chunk_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "chunk_builder.h"
#include "metadata/thrift_compact.h"
#include "parquet_types.h"
#include "pqpage/bit_packed.h"
#include "pqpage/compression.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/dictionary.h"
#include "pqpage/plain.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using testing::Bytes;
using testing::ChunkBuilder;
using testing::Column;
using testing::Concat;
using testing::Fixture;
using testing::Levels;
using testing::Plain;
using testing::Prefixed;

// Reads the whole chunk in batches of `batch` levels.
template <typename T>
absl::Status ReadAll(ColumnChunkReader& reader, int64_t batch, std::vector<int16_t>* definition,
                     std::vector<int16_t>* repetition, std::vector<T>* values) {
  std::vector<int16_t> def(static_cast<size_t>(batch));
  std::vector<int16_t> rep(static_cast<size_t>(batch));
  std::unique_ptr<T[]> out(new T[static_cast<size_t>(batch)]);
  for (;;) {
    absl::StatusOr<BatchCounts> counts =
        reader.ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep),
                            absl::MakeSpan(out.get(), static_cast<size_t>(batch)));
    if (!counts.ok()) return counts.status();
    if (counts->levels == 0) return absl::OkStatus();
    if (reader.column().max_definition_level > 0) {
      definition->insert(definition->end(), def.begin(), def.begin() + counts->levels);
    }
    if (reader.column().max_repetition_level > 0) {
      repetition->insert(repetition->end(), rep.begin(), rep.begin() + counts->levels);
    }
    values->insert(values->end(), out.get(), out.get() + counts->values);
  }
}

TEST(ColumnChunkReaderTest, V1OptionalColumnWithNullsInSmallBatches) {
  const std::vector<int16_t> def = {1, 0, 1, 1, 0, 0, 1};
  ChunkBuilder chunk;
  chunk.V1(Concat({Prefixed(Levels(def, 1)), Plain<int32_t>({10, 20, 30, 40})}), 7,
           format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kInt32, 1, 0), 7, {}, 7);
  std::vector<int16_t> definition, repetition;
  std::vector<int32_t> values;
  PQPAGE_ASSERT_OK(ReadAll(*fixture.reader, 3, &definition, &repetition, &values));
  EXPECT_EQ(definition, def);
  EXPECT_EQ(values, (std::vector<int32_t>{10, 20, 30, 40}));
  EXPECT_EQ(fixture.reader->page().type, PageType::kDataPage);
}

TEST(ColumnChunkReaderTest, V2ListLevelsAcrossPagesWithCompression) {
  // [[1, 2], [], null, [3]] then [[null, 4]]: max_def 2 (list optional? no: required list of
  // optional elements with an optional list: def 0 null list, 1 empty, 2 null element... here
  // max_def 3).
  const std::vector<int16_t> def1 = {3, 3, 1, 0, 3};
  const std::vector<int16_t> rep1 = {0, 1, 0, 0, 0};
  const std::vector<int16_t> def2 = {2, 3};
  const std::vector<int16_t> rep2 = {0, 1};
  ChunkBuilder chunk(Compression::kSnappy);
  chunk.V2(Levels(rep1, 1), Levels(def1, 2), Plain<int64_t>({1, 2, 3}), 5, 2, 4,
           format::Encoding::PLAIN);
  chunk.V2(Levels(rep2, 1), Levels(def2, 2), Plain<int64_t>({4}), 2, 1, 1, format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kInt64, 3, 1), 7, {}, 5);
  std::vector<int16_t> definition, repetition;
  std::vector<int64_t> values;
  PQPAGE_ASSERT_OK(ReadAll(*fixture.reader, 2, &definition, &repetition, &values));
  EXPECT_EQ(definition, (std::vector<int16_t>{3, 3, 1, 0, 3, 2, 3}));
  EXPECT_EQ(repetition, (std::vector<int16_t>{0, 1, 0, 0, 0, 0, 1}));
  EXPECT_EQ(values, (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(ColumnChunkReaderTest, RowCountDisagreeingWithRowGroupIsDataLoss) {
  const std::vector<int16_t> rep = {0, 1, 0};
  ChunkBuilder chunk;
  chunk.V2(Levels(rep, 1), Levels({1, 1, 1}, 1), Plain<int32_t>({1, 2, 3}), 3, 0, 2,
           format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kInt32, 1, 1), 3, {}, /*num_rows=*/3);
  std::vector<int16_t> definition, repetition;
  std::vector<int32_t> values;
  PQPAGE_EXPECT_ERROR(ReadAll(*fixture.reader, 16, &definition, &repetition, &values),
                      absl::StatusCode::kDataLoss);
}

TEST(ColumnChunkReaderTest, DictionaryThenPlainFallbackWithIndices) {
  ChunkBuilder chunk;
  chunk.Dictionary(Plain<int64_t>({100, 200, 300}), 3);
  Bytes indices = {2};  // bit width 2
  const Bytes stream = Levels({2, 0, 1, 2}, 2);
  indices.insert(indices.end(), stream.begin(), stream.end());
  chunk.V1(indices, 4, format::Encoding::RLE_DICTIONARY);
  chunk.V1(Plain<int64_t>({7, 8}), 2, format::Encoding::PLAIN);
  {
    Fixture fixture(chunk, Column(PhysicalType::kInt64, 0, 0), 6);
    std::vector<int16_t> definition, repetition;
    std::vector<int64_t> values;
    PQPAGE_ASSERT_OK(ReadAll(*fixture.reader, 100, &definition, &repetition, &values));
    EXPECT_EQ(values, (std::vector<int64_t>{300, 100, 200, 300, 7, 8}));
    ASSERT_NE(fixture.reader->dictionary_page(), nullptr);
    EXPECT_EQ(fixture.reader->dictionary_page()->num_values, 3);
  }
  Fixture fixture(chunk, Column(PhysicalType::kInt64, 0, 0), 6);
  PQPAGE_ASSERT_OK_AND_ASSIGN(bool dictionary_encoded,
                              fixture.reader->NextBatchIsDictionaryEncoded());
  EXPECT_TRUE(dictionary_encoded);
  uint32_t out[8];
  PQPAGE_ASSERT_OK_AND_ASSIGN(BatchCounts counts,
                              fixture.reader->ReadIndices({}, {}, absl::MakeSpan(out)));
  EXPECT_EQ(counts.values, 4);
  EXPECT_EQ(std::vector<uint32_t>(out, out + 4), (std::vector<uint32_t>{2, 0, 1, 2}));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto entries, fixture.reader->Dictionary<int64_t>());
  EXPECT_EQ(std::vector<int64_t>(entries.begin(), entries.end()),
            (std::vector<int64_t>{100, 200, 300}));
  // The fallback page is PLAIN: indices cannot be handed out for it.
  PQPAGE_EXPECT_ERROR(fixture.reader->ReadIndices({}, {}, absl::MakeSpan(out)),
                      absl::StatusCode::kInvalidArgument);
}

TEST(ColumnChunkReaderTest, SpacedReadPutsValuesAtTheirSlots) {
  const std::vector<int16_t> def = {0, 1, 1, 0, 1};
  ChunkBuilder chunk;
  chunk.V1(Concat({Prefixed(Levels(def, 1)), Plain<double>({1.5, 2.5, 3.5})}), 5,
           format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kDouble, 1, 0), 5);
  double values[5] = {-1, -1, -1, -1, -1};
  uint8_t validity[2] = {0xff, 0xff};
  PQPAGE_ASSERT_OK_AND_ASSIGN(BatchCounts counts,
                              fixture.reader->ReadBatchSpaced<double>({}, absl::MakeSpan(values),
                                                                      absl::MakeSpan(validity), 3));
  EXPECT_EQ(counts.levels, 5);
  EXPECT_EQ(counts.values, 3);
  EXPECT_EQ(values[1], 1.5);
  EXPECT_EQ(values[2], 2.5);
  EXPECT_EQ(values[4], 3.5);
  // Bits 3..7: 0 1 1 0 1; bits 0..2 untouched.
  EXPECT_EQ(validity[0], 0b10110111);
  EXPECT_EQ(validity[1], 0xff);
}

TEST(ColumnChunkReaderTest, LegacyBitPackedLevels) {
  BitPackedLevelEncoder levels(1);
  PQPAGE_ASSERT_OK(levels.Put(std::vector<int16_t>{1, 1, 0, 1}));
  ChunkBuilder chunk;
  chunk.V1(Concat({levels.Finish(), Plain<float>({1.0f, 2.0f, 3.0f})}), 4, format::Encoding::PLAIN,
           format::Encoding::BIT_PACKED);
  Fixture fixture(chunk, Column(PhysicalType::kFloat, 1, 0), 4);
  std::vector<int16_t> definition, repetition;
  std::vector<float> values;
  PQPAGE_ASSERT_OK(ReadAll(*fixture.reader, 10, &definition, &repetition, &values));
  EXPECT_EQ(definition, (std::vector<int16_t>{1, 1, 0, 1}));
  EXPECT_EQ(values, (std::vector<float>{1.0f, 2.0f, 3.0f}));
}

TEST(ColumnChunkReaderTest, V2AllNullPageIsNotDecompressed) {
  ChunkBuilder chunk(Compression::kSnappy);
  chunk.V2({}, Levels({0, 0, 0}, 1), {}, 3, 3, 3, format::Encoding::PLAIN, /*compress=*/true);
  chunk.V2({}, Levels({1}, 1), Plain<int32_t>({5}), 1, 0, 1, format::Encoding::PLAIN,
           /*compress=*/false);
  Fixture fixture(chunk, Column(PhysicalType::kInt32, 1, 0), 4);
  std::vector<int16_t> definition, repetition;
  std::vector<int32_t> values;
  PQPAGE_ASSERT_OK(ReadAll(*fixture.reader, 10, &definition, &repetition, &values));
  EXPECT_EQ(definition, (std::vector<int16_t>{0, 0, 0, 1}));
  EXPECT_EQ(values, (std::vector<int32_t>{5}));
}

TEST(ColumnChunkReaderTest, RleBooleansCarryTheirLengthPrefix) {
  ChunkBuilder chunk;
  chunk.V1(Prefixed(Levels({1, 0, 1, 1}, 1)), 4, format::Encoding::RLE);
  Fixture fixture(chunk, Column(PhysicalType::kBoolean, 0, 0), 4);
  std::vector<int16_t> definition, repetition;
  std::vector<bool> values;
  bool out[4];
  PQPAGE_ASSERT_OK_AND_ASSIGN(BatchCounts counts,
                              fixture.reader->ReadBatch<bool>({}, {}, absl::MakeSpan(out)));
  EXPECT_EQ(counts.values, 4);
  EXPECT_EQ(std::vector<bool>(out, out + 4), (std::vector<bool>{true, false, true, true}));
}

TEST(ColumnChunkReaderTest, IndexAndUnknownPagesArePassedOver) {
  ChunkBuilder chunk;
  format::PageHeader index = chunk.Header(format::PageType::INDEX_PAGE, {1, 2, 3});
  chunk.Raw(index, {1, 2, 3});
  format::PageHeader unknown = chunk.Header(42, {9});
  chunk.Raw(unknown, {9});
  chunk.V1(Plain<int32_t>({1, 2}), 2, format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kInt32, 0, 0), 2);
  std::vector<int16_t> definition, repetition;
  std::vector<int32_t> values;
  PQPAGE_ASSERT_OK(ReadAll(*fixture.reader, 10, &definition, &repetition, &values));
  EXPECT_EQ(values, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(fixture.reader->page_index(), 2);
}

TEST(ColumnChunkReaderTest, ChecksumsAreVerifiedOnlyWhenAsked) {
  for (bool corrupt : {false, true}) {
    ChunkBuilder chunk(Compression::kZstd);
    chunk.WithCrc(corrupt).V1(Plain<int32_t>({1, 2, 3}), 3, format::Encoding::PLAIN);
    for (bool verify : {true, false}) {
      Fixture fixture(chunk, Column(PhysicalType::kInt32, 0, 0), 3,
                      ReaderOptions{.verify_checksums = verify});
      std::vector<int16_t> definition, repetition;
      std::vector<int32_t> values;
      absl::Status status = ReadAll(*fixture.reader, 10, &definition, &repetition, &values);
      if (corrupt && verify) {
        EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
        EXPECT_NE(status.message().find("CRC"), absl::string_view::npos) << status;
      } else {
        PQPAGE_EXPECT_OK(status);
        EXPECT_TRUE(fixture.reader->page().crc_checked);
        EXPECT_EQ(fixture.reader->page().crc_valid, !corrupt);
      }
    }
  }
}

// Reads the chunk to its end and returns the status.
absl::Status ReadChunk(const ChunkBuilder& chunk, const ColumnDescriptor& column,
                       int64_t num_values, ReaderOptions options = {}) {
  Fixture fixture(chunk, column, num_values, options);
  std::vector<int16_t> definition, repetition;
  switch (column.type) {
    case PhysicalType::kInt32: {
      std::vector<int32_t> values;
      return ReadAll(*fixture.reader, 64, &definition, &repetition, &values);
    }
    case PhysicalType::kFloat: {
      std::vector<float> values;
      return ReadAll(*fixture.reader, 64, &definition, &repetition, &values);
    }
    default: {
      std::vector<int64_t> values;
      return ReadAll(*fixture.reader, 64, &definition, &repetition, &values);
    }
  }
}

TEST(ColumnChunkReaderTest, HostileHeadersAreCleanErrors) {
  const ColumnDescriptor required = Column(PhysicalType::kInt32, 0, 0);
  const ColumnDescriptor optional = Column(PhysicalType::kInt32, 1, 0);
  const ColumnDescriptor repeated = Column(PhysicalType::kInt32, 1, 1);
  const Bytes three = Plain<int32_t>({1, 2, 3});
  {
    SCOPED_TRACE("negative num_values");
    ChunkBuilder chunk;
    chunk.V1(three, -3, format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, -1), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("more values than the page holds");
    ChunkBuilder chunk;
    chunk.V1(three, 4, format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 4), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("page values past the chunk's metadata");
    ChunkBuilder chunk;
    chunk.V1(three, 3, format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 2), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("fewer values than the chunk's metadata");
    ChunkBuilder chunk;
    chunk.V1(three, 3, format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 5), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("definition level above its maximum");
    ChunkBuilder chunk;
    // Max 2 means width 2, which can also hold the illegal 3.
    chunk.V1(Concat({Prefixed(Levels({2, 3, 2}, 2)), three}), 3, format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, Column(PhysicalType::kInt32, 2, 0), 3),
                        absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("first repetition level not 0");
    ChunkBuilder chunk;
    chunk.V1(Concat({Prefixed(Levels({1, 0, 1}, 1)), Prefixed(Levels({1, 1, 1}, 1)), three}), 3,
             format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, repeated, 3), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("level section prefix longer than the page");
    ChunkBuilder chunk;
    chunk.V1(Concat({Bytes{0xff, 0, 0, 0}, three}), 3, format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, optional, 3), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("two dictionary pages");
    ChunkBuilder chunk;
    chunk.Dictionary(three, 3).Dictionary(three, 3);
    chunk.V1(Bytes{1, 0x03, 0x00}, 1, format::Encoding::RLE_DICTIONARY);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 1), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("dictionary page after a data page");
    ChunkBuilder chunk;
    chunk.V1(three, 3, format::Encoding::PLAIN).Dictionary(three, 3);
    chunk.V1(Bytes{1, 0x03, 0x00}, 1, format::Encoding::RLE_DICTIONARY);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 4), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("dictionary indices without a dictionary");
    ChunkBuilder chunk;
    chunk.V1(Bytes{1, 0x06, 0x00}, 3, format::Encoding::RLE_DICTIONARY);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 3), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("dictionary index out of range");
    ChunkBuilder chunk;
    chunk.Dictionary(three, 3);
    chunk.V1(Concat({Bytes{2}, Levels({3}, 2)}), 1, format::Encoding::RLE_DICTIONARY);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 1), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("dictionary claims more entries than its page holds");
    ChunkBuilder chunk;
    chunk.Dictionary(three, 1 << 30);
    chunk.V1(Bytes{1, 0x03, 0x00}, 1, format::Encoding::RLE_DICTIONARY);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 1), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("unknown encoding id");
    ChunkBuilder chunk;
    chunk.V1(three, 3, 42);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 3), absl::StatusCode::kUnimplemented);
  }
  {
    SCOPED_TRACE("encoding the type cannot have");
    ChunkBuilder chunk;
    chunk.V1(three, 3, format::Encoding::DELTA_BINARY_PACKED);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, Column(PhysicalType::kFloat, 0, 0), 3),
                        absl::StatusCode::kUnimplemented);
  }
  {
    // A v2 page's present values are taken from its header's num_nulls, and the levels checked
    // against it as they are decoded: every disagreement says so, whichever way it goes and
    // wherever the values section notices it first.
    const Bytes two = Concat({Plain<int32_t>({4}), Plain<int32_t>({5})});
    struct Case {
      const char* what;
      std::vector<int16_t> levels;
      const Bytes* values;
      int32_t num_nulls;
      const char* message;
    };
    const Case cases[] = {
        {"fewer nulls in the levels", {1, 1, 1}, &three, 1, "nulls but the levels hold fewer"},
        {"more nulls in the levels", {1, 0, 1}, &two, 0, "says 0 nulls but the levels hold 1"},
        {"more nulls, values enough for the header",
         {1, 0, 1},
         &three,
         0,
         "says 0 nulls but the levels hold 1"},
        {"negative num_nulls", {1, 1, 1}, &three, -1, "impossible v2 counts"},
        {"num_nulls over num_values", {1, 1, 1}, &three, 4, "impossible v2 counts"},
    };
    for (const Case& c : cases) {
      SCOPED_TRACE(c.what);
      ChunkBuilder chunk;
      chunk.V2({}, Levels(c.levels, 1), *c.values, 3, c.num_nulls, 3, format::Encoding::PLAIN);
      absl::Status status = ReadChunk(chunk, optional, 3);
      EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
      EXPECT_NE(std::string(status.message()).find(c.message), std::string::npos) << status;
    }
  }
  {
    SCOPED_TRACE("v2 level lengths past the page");
    ChunkBuilder chunk;
    format::PageHeader header = chunk.Header(format::PageType::DATA_PAGE_V2, three);
    format::DataPageHeaderV2 page;
    page.__set_num_values(3);
    page.__set_num_nulls(0);
    page.__set_num_rows(3);
    page.__set_encoding(format::Encoding::PLAIN);
    page.__set_definition_levels_byte_length(1000);
    page.__set_repetition_levels_byte_length(0);
    header.__set_data_page_header_v2(page);
    chunk.Raw(header, three);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, optional, 3), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("uncompressed size that the codec does not produce");
    ChunkBuilder chunk(Compression::kGzip);
    Bytes compressed;
    PQPAGE_ASSERT_OK(Compress(Compression::kGzip, three, &compressed));
    format::PageHeader header = chunk.Header(format::PageType::DATA_PAGE, three);
    header.__set_uncompressed_page_size(20);
    format::DataPageHeader page;
    page.__set_num_values(3);
    page.__set_encoding(format::Encoding::PLAIN);
    page.__set_definition_level_encoding(format::Encoding::RLE);
    page.__set_repetition_level_encoding(format::Encoding::RLE);
    header.__set_data_page_header(page);
    chunk.Raw(header, compressed);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 3), absl::StatusCode::kDataLoss);
  }
  {
    SCOPED_TRACE("page larger than the reader's limit");
    ChunkBuilder chunk;
    chunk.V1(three, 3, format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, required, 3, ReaderOptions{.max_page_bytes = 8}),
                        absl::StatusCode::kResourceExhausted);
  }
  {
    SCOPED_TRACE("a billion levels in a few bytes of RLE, in a chunk of three");
    ChunkBuilder chunk;
    const Bytes huge = {0xfe, 0xff, 0xff, 0xff, 0x07, 0x00};  // one RLE run of 2^30 - 1 zeros
    chunk.V1(Concat({Prefixed(huge), three}), (1 << 30) - 1, format::Encoding::PLAIN);
    PQPAGE_EXPECT_ERROR(ReadChunk(chunk, optional, 3), absl::StatusCode::kDataLoss);
  }
}

TEST(ColumnChunkReaderTest, ErrorsNameColumnContextAndPage) {
  ChunkBuilder chunk;
  chunk.V1(Plain<int32_t>({1, 2, 3}), 3, format::Encoding::PLAIN);
  chunk.V1(Plain<int32_t>({1}), 2, format::Encoding::PLAIN);
  absl::Status status = ReadChunk(chunk, Column(PhysicalType::kInt32, 0, 0), 5);
  ASSERT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(status.message().find("column 'group.leaf'"), absl::string_view::npos) << status;
  EXPECT_NE(status.message().find("test chunk"), absl::string_view::npos) << status;
  EXPECT_NE(status.message().find("page 1 at offset"), absl::string_view::npos) << status;
}

TEST(ColumnChunkReaderTest, EveryTruncationIsAnError) {
  ChunkBuilder chunk(Compression::kSnappy);
  chunk.WithCrc().Dictionary(Plain<int64_t>({5, 6}), 2);
  chunk.V1(Concat({Prefixed(Levels({1, 0, 1}, 1)), Bytes{1}, Levels({1, 0}, 1)}), 3,
           format::Encoding::RLE_DICTIONARY);
  chunk.V2({}, Levels({1, 1}, 1), Plain<int64_t>({7, 8}), 2, 0, 2, format::Encoding::PLAIN);
  const ColumnDescriptor column = Column(PhysicalType::kInt64, 1, 0);
  PQPAGE_ASSERT_OK(ReadChunk(chunk, column, 5));
  const Bytes full = chunk.bytes();
  for (size_t length = 0; length < full.size(); ++length) {
    const Bytes cut(full.begin(), full.begin() + static_cast<ptrdiff_t>(length));
    auto source = MakeMemoryByteSource(cut);
    ColumnChunkLocation location;
    location.length = static_cast<int64_t>(cut.size());
    location.codec = Compression::kSnappy;
    location.num_values = 5;
    ColumnChunkReader reader(column, source.get(), location);
    std::vector<int16_t> definition, repetition;
    std::vector<int64_t> values;
    EXPECT_FALSE(ReadAll(reader, 2, &definition, &repetition, &values).ok()) << length;
  }
}

// A DELTA_BYTE_ARRAY page body from explicit prefix lengths and suffixes.
Bytes DeltaByteArrayPage(const std::vector<int32_t>& prefixes,
                         const std::vector<std::string>& suffixes) {
  DeltaBinaryPackedEncoder<int32_t> prefix_encoder, suffix_encoder;
  std::vector<int32_t> suffix_lengths;
  Bytes suffix_bytes;
  for (const std::string& suffix : suffixes) {
    suffix_lengths.push_back(static_cast<int32_t>(suffix.size()));
    suffix_bytes.insert(suffix_bytes.end(), suffix.begin(), suffix.end());
  }
  PQPAGE_EXPECT_OK(prefix_encoder.Put(prefixes));
  PQPAGE_EXPECT_OK(suffix_encoder.Put(suffix_lengths));
  return Concat({prefix_encoder.Finish(), suffix_encoder.Finish(), suffix_bytes});
}

TEST(ColumnChunkReaderTest, OldParquetMrCarriesDeltaByteArrayStateAcrossPages) {
  // Page 2's first prefix (4) refers to page 1's last value, as parquet-mr < 1.8.0 wrote.
  ChunkBuilder chunk;
  chunk.V1(DeltaByteArrayPage({0, 2}, {"axis", "le"}), 2, format::Encoding::DELTA_BYTE_ARRAY);
  chunk.V1(DeltaByteArrayPage({4, 0}, {"s", "b"}), 2, format::Encoding::DELTA_BYTE_ARRAY);
  const ColumnDescriptor column = Column(PhysicalType::kByteArray, 0, 0);
  {
    // The file layer sets this for "parquet-mr version 1.7.0" (file_reader_test checks which
    // created_by strings do).
    Fixture fixture(chunk, column, 4, {}, -1, /*carry_delta_prefix=*/true);
    std::vector<int16_t> definition, repetition;
    std::vector<ByteArray> values;
    std::vector<std::string> text;
    // Batches of one: each view is copied before the next call may move pages.
    ByteArray out[1];
    for (;;) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(
          BatchCounts counts, fixture.reader->ReadBatch<ByteArray>({}, {}, absl::MakeSpan(out)));
      if (counts.levels == 0) break;
      text.emplace_back(out[0].AsStringView());
    }
    EXPECT_EQ(text, (std::vector<std::string>{"axis", "axle", "axles", "b"}));
  }
  {
    Fixture fixture(chunk, column, 4, {}, -1, /*carry_delta_prefix=*/false);
    ByteArray out[4];
    absl::Status status;
    for (int i = 0; i < 4 && status.ok(); ++i) {
      status = fixture.reader->ReadBatch<ByteArray>({}, {}, absl::MakeSpan(out, 1)).status();
    }
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  }
}

TEST(ColumnChunkReaderTest, ShortSpansAreInvalidArgumentNotOverruns) {
  ChunkBuilder chunk;
  chunk.V1(Plain<int32_t>({1, 2, 3, 4}), 4, format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kInt32, 0, 0), 4);
  int32_t values[4];
  int16_t levels[2];
  // A level span shorter than the batch (values.size()) would be written past its end.
  PQPAGE_EXPECT_ERROR(
      fixture.reader->ReadBatch<int32_t>(absl::MakeSpan(levels), {}, absl::MakeSpan(values)),
      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(
      fixture.reader->ReadBatch<int32_t>({}, absl::MakeSpan(levels), absl::MakeSpan(values)),
      absl::StatusCode::kInvalidArgument);
  // So would a validity bitmap too short for offset + batch bits (5 + 4 > 8).
  uint8_t validity[1];
  PQPAGE_EXPECT_ERROR(fixture.reader->ReadBatchSpaced<int32_t>({}, absl::MakeSpan(values),
                                                               absl::MakeSpan(validity), 5),
                      absl::StatusCode::kInvalidArgument);
  uint32_t indices[4];
  PQPAGE_EXPECT_ERROR(
      fixture.reader->ReadIndices(absl::MakeSpan(levels), {}, absl::MakeSpan(indices)),
      absl::StatusCode::kInvalidArgument);
  // Nothing was consumed: the whole chunk still reads.
  PQPAGE_ASSERT_OK_AND_ASSIGN(BatchCounts counts,
                              fixture.reader->ReadBatch<int32_t>({}, {}, absl::MakeSpan(values)));
  EXPECT_EQ(counts.values, 4);
  EXPECT_EQ(std::vector<int32_t>(values, values + 4), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST(ColumnChunkReaderTest, WrongValueTypeIsInvalidArgument) {
  ChunkBuilder chunk;
  chunk.V1(Plain<int32_t>({1}), 1, format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kInt32, 0, 0), 1);
  float out[1];
  PQPAGE_EXPECT_ERROR(fixture.reader->ReadBatch<float>({}, {}, absl::MakeSpan(out)),
                      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqpage
