// ColumnChunkReader::ReadByteArrayCopies against ReadBatch<ByteArray>: the same levels and values
// for every encoding a byte array page can have, optional and repeated columns, batches that end
// inside and across pages, and FIXED_LEN_BYTE_ARRAY; and its errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "chunk_builder.h"
#include "parquet_types.h"
#include "pqpage/codec_factory.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/dictionary.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using testing::Bytes;
using testing::ChunkBuilder;
using testing::Column;
using testing::Fixture;
using testing::Levels;

// What a read hands back: levels and the present values as strings.
struct ReadResult {
  std::vector<int16_t> definitions;
  std::vector<int16_t> repetitions;
  std::vector<std::string> values;
};

void KeepLevels(const ColumnChunkReader& reader, const std::vector<int16_t>& def,
                const std::vector<int16_t>& rep, int64_t levels, ReadResult* out) {
  const auto end = static_cast<std::ptrdiff_t>(levels);
  if (reader.column().max_definition_level > 0) {
    out->definitions.insert(out->definitions.end(), def.begin(), def.begin() + end);
  }
  if (reader.column().max_repetition_level > 0) {
    out->repetitions.insert(out->repetitions.end(), rep.begin(), rep.begin() + end);
  }
}

ReadResult ReadViews(ColumnChunkReader& reader, size_t batch) {
  ReadResult result;
  std::vector<int16_t> def(batch), rep(batch);
  std::vector<ByteArray> views(batch);
  for (;;) {
    absl::StatusOr<BatchCounts> counts = reader.ReadBatch<ByteArray>(
        absl::MakeSpan(def), absl::MakeSpan(rep), absl::MakeSpan(views));
    PQPAGE_EXPECT_OK(counts.status());
    if (!counts.ok() || counts->levels == 0) return result;
    KeepLevels(reader, def, rep, counts->levels, &result);
    for (int64_t i = 0; i < counts->values; ++i) {
      result.values.emplace_back(views[static_cast<size_t>(i)].AsStringView());
    }
  }
}

ReadResult ReadCopies(ColumnChunkReader& reader, size_t batch) {
  ReadResult result;
  std::vector<int16_t> def(batch), rep(batch);
  std::vector<int32_t> lengths(batch);
  for (;;) {
    std::vector<uint8_t> buffer;
    int calls = 0;
    absl::StatusOr<BatchCounts> counts = reader.ReadByteArrayCopies(
        absl::MakeSpan(def), absl::MakeSpan(rep), absl::MakeSpan(lengths), [&](size_t bytes) {
          ++calls;
          buffer.resize(bytes);
          return buffer.data();
        });
    PQPAGE_EXPECT_OK(counts.status());
    if (!counts.ok() || counts->levels == 0) return result;
    // Asked once when the batch has values, never when it has none.
    EXPECT_EQ(calls, counts->values > 0 ? 1 : 0);
    KeepLevels(reader, def, rep, counts->levels, &result);
    size_t at = 0;
    for (int64_t i = 0; i < counts->values; ++i) {
      const auto length = static_cast<size_t>(lengths[static_cast<size_t>(i)]);
      result.values.emplace_back(reinterpret_cast<const char*>(buffer.data()) + at, length);
      at += length;
    }
    EXPECT_EQ(at, buffer.size());
  }
}

std::vector<std::string> RandomStrings(size_t count, int fixed_length, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<std::string> out;
  for (size_t i = 0; i < count; ++i) {
    // A few repeats, for the dictionary; lengths from 0 to 60.
    const int length = fixed_length > 0 ? fixed_length : static_cast<int>(random() % 61);
    std::string text;
    const uint32_t letter = random() % 4;
    for (int j = 0; j < length; ++j) text.push_back(static_cast<char>('a' + (letter + j) % 26));
    out.push_back(text);
  }
  return out;
}

std::vector<ByteArray> Views(const std::vector<std::string>& strings) {
  std::vector<ByteArray> out;
  for (const std::string& text : strings) out.emplace_back(text);
  return out;
}

// A chunk of two v1 pages of `encoding` (RLE_DICTIONARY: after a dictionary page), each with
// levels: an optional column (max_def 1), or with `repeated` a list of optional values (max_def
// 2, max_rep 1).
struct TestChunk {
  ChunkBuilder chunk;
  ColumnDescriptor column;
  int64_t num_values = 0;
};

TestChunk MakeChunk(format::Encoding::type encoding, bool repeated, int fixed_length) {
  TestChunk out;
  const PhysicalType type =
      fixed_length > 0 ? PhysicalType::kFixedLenByteArray : PhysicalType::kByteArray;
  out.column = Column(type, repeated ? 2 : 1, repeated ? 1 : 0, fixed_length);
  const int16_t max_def = out.column.max_definition_level;
  std::unique_ptr<DictionaryEncoder<ByteArray>> dictionary;
  if (encoding == format::Encoding::RLE_DICTIONARY) {
    dictionary = std::make_unique<DictionaryEncoder<ByteArray>>(fixed_length > 0 ? fixed_length
                                                                                 : kVariableLength);
  }
  std::vector<Bytes> bodies;
  std::vector<int32_t> levels_per_page;
  std::mt19937 random(static_cast<uint32_t>(encoding * 10 + (repeated ? 1 : 0)));
  for (int page = 0; page < 2; ++page) {
    const int levels = 150 + page * 37;
    std::vector<int16_t> def, rep;
    for (int i = 0; i < levels; ++i) {
      def.push_back(random() % 5 == 0 ? static_cast<int16_t>(random() % max_def) : max_def);
      rep.push_back(repeated && i > 0 && random() % 3 != 0 ? 1 : 0);
    }
    size_t present = 0;
    for (const int16_t level : def) present += level == max_def ? 1 : 0;
    const std::vector<std::string> strings =
        RandomStrings(present, fixed_length, static_cast<uint32_t>(page + 1));
    const std::vector<ByteArray> values = Views(strings);
    Bytes encoded;
    if (dictionary != nullptr) {
      PQPAGE_EXPECT_OK(dictionary->Put(absl::MakeConstSpan(values)));
      encoded = dictionary->FinishDataPage();
    } else {
      absl::StatusOr<std::unique_ptr<Encoder<ByteArray>>> encoder =
          MakeEncoder<ByteArray>(static_cast<Encoding>(encoding), out.column);
      PQPAGE_EXPECT_OK(encoder.status());
      PQPAGE_EXPECT_OK((*encoder)->Put(absl::MakeConstSpan(values)));
      encoded = (*encoder)->Finish();
    }
    Bytes body = repeated ? testing::Prefixed(Levels(rep, 1)) : Bytes();
    const Bytes definitions = testing::Prefixed(Levels(def, repeated ? 2 : 1));
    body.insert(body.end(), definitions.begin(), definitions.end());
    body.insert(body.end(), encoded.begin(), encoded.end());
    bodies.push_back(body);
    levels_per_page.push_back(levels);
    out.num_values += levels;
  }
  if (dictionary != nullptr) {
    out.chunk.Dictionary(dictionary->DictionaryPage(),
                         static_cast<int32_t>(dictionary->num_entries()));
  }
  for (size_t page = 0; page < bodies.size(); ++page) {
    out.chunk.V1(bodies[page], levels_per_page[page], encoding);
  }
  return out;
}

TEST(ColumnChunkReaderCopiesTest, CopiesEqualViewsForEveryEncodingAndBatchSize) {
  struct Case {
    format::Encoding::type encoding;
    int fixed_length;
  };
  const Case cases[] = {{format::Encoding::PLAIN, 0},
                        {format::Encoding::PLAIN, 6},
                        {format::Encoding::DELTA_LENGTH_BYTE_ARRAY, 0},
                        {format::Encoding::DELTA_BYTE_ARRAY, 0},
                        {format::Encoding::DELTA_BYTE_ARRAY, 6},
                        {format::Encoding::BYTE_STREAM_SPLIT, 6},
                        {format::Encoding::RLE_DICTIONARY, 0},
                        {format::Encoding::RLE_DICTIONARY, 6}};
  for (const Case& test : cases) {
    for (const bool repeated : {false, true}) {
      const TestChunk made = MakeChunk(test.encoding, repeated, test.fixed_length);
      for (const size_t batch : {size_t{1}, size_t{7}, size_t{64}, size_t{1000}}) {
        SCOPED_TRACE(::testing::Message()
                     << "encoding " << test.encoding << " fixed " << test.fixed_length
                     << " repeated " << repeated << " batch " << batch);
        Fixture views(made.chunk, made.column, made.num_values);
        Fixture copies(made.chunk, made.column, made.num_values);
        const ReadResult expected = ReadViews(*views.reader, batch);
        const ReadResult got = ReadCopies(*copies.reader, batch);
        ASSERT_FALSE(expected.values.empty());
        EXPECT_EQ(got.definitions, expected.definitions);
        EXPECT_EQ(got.repetitions, expected.repetitions);
        EXPECT_EQ(got.values, expected.values);
      }
    }
  }
}

TEST(ColumnChunkReaderCopiesTest, OtherColumnTypesAndShortSpansAreInvalidArgument) {
  ChunkBuilder chunk;
  chunk.V1(testing::Plain<int32_t>({1, 2}), 2, format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kInt32, 0, 0), 2);
  std::vector<int32_t> lengths(2);
  const auto reserve = [](size_t) -> uint8_t* { return nullptr; };
  PQPAGE_EXPECT_ERROR(fixture.reader->ReadByteArrayCopies({}, {}, absl::MakeSpan(lengths), reserve),
                      absl::StatusCode::kInvalidArgument);

  const TestChunk made = MakeChunk(format::Encoding::PLAIN, false, 0);
  Fixture strings(made.chunk, made.column, made.num_values);
  std::vector<int16_t> def(1);
  PQPAGE_EXPECT_ERROR(strings.reader->ReadByteArrayCopies(absl::MakeSpan(def), {},
                                                          absl::MakeSpan(lengths), reserve),
                      absl::StatusCode::kInvalidArgument);
}

TEST(ColumnChunkReaderCopiesTest, ABadValueIsDataLossAndAsksForNoMemory) {
  // One PLAIN value whose length prefix claims more than the page holds.
  ChunkBuilder chunk;
  chunk.V1(Bytes{200, 0, 0, 0, 'a', 'b'}, 1, format::Encoding::PLAIN);
  Fixture fixture(chunk, Column(PhysicalType::kByteArray, 0, 0), 1);
  std::vector<int32_t> lengths(4);
  int calls = 0;
  PQPAGE_EXPECT_ERROR(fixture.reader->ReadByteArrayCopies({}, {}, absl::MakeSpan(lengths),
                                                          [&](size_t) -> uint8_t* {
                                                            ++calls;
                                                            return nullptr;
                                                          }),
                      absl::StatusCode::kDataLoss);
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace pqpage
