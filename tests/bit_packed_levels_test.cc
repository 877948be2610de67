// Data pages v1 whose level sections are BIT_PACKED (the deprecated encoding of old writers), in
// both bit orders, read through every way ColumnChunkReader hands out levels: dense batches,
// spaced batches with a validity bitmap, dictionary indices, rows sought and rows skipped. The
// levels are built by hand for every width 1..8, with nulls at known rows, so a path that reads
// one order as the other puts the nulls in the wrong rows and fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "chunk_builder.h"
#include "pqpage/bit_packed.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/status_macros.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using testing::Bytes;
using testing::ChunkBuilder;
using testing::Column;
using testing::Concat;
using testing::Fixture;
using testing::Plain;

// Both orders of the spec's example (0..7 at width 3): the format's most-significant-first bytes,
// and the least-significant-first bytes Impala, parquet-cpp and parquet-rs wrote, which are the
// hybrid's bit-packed layout (the spec's RLE example of the same values).
TEST(BitPackedLevelsTest, SpecExampleInBothOrders) {
  const std::vector<int16_t> levels = {0, 1, 2, 3, 4, 5, 6, 7};
  for (const auto& [order, bytes] :
       {std::pair{BitPackedOrder::kMostSignificantFirst, Bytes{0x05, 0x39, 0x77}},
        std::pair{BitPackedOrder::kLeastSignificantFirst, Bytes{0x88, 0xC6, 0xFA}}}) {
    BitPackedLevelEncoder encoder(3, order);
    PQPAGE_ASSERT_OK(encoder.Put(levels));
    EXPECT_EQ(encoder.Finish(), bytes);
    BitPackedLevelDecoder decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(bytes, 3, 8, order));
    std::vector<int16_t> out(8);
    PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out), 7));
    EXPECT_EQ(out, levels);
  }
}

// Width 1 is where a reader most easily takes one order for the other (the bytes are a bitmap):
// one null at row 0 of eight is 0x7F most significant bit first and 0xFE least significant first.
TEST(BitPackedLevelsTest, WidthOneNullAtRowZero) {
  const std::vector<int16_t> levels = {0, 1, 1, 1, 1, 1, 1, 1};
  for (const auto& [order, byte] : {std::pair{BitPackedOrder::kMostSignificantFirst, 0x7F},
                                    std::pair{BitPackedOrder::kLeastSignificantFirst, 0xFE}}) {
    BitPackedLevelEncoder encoder(1, order);
    PQPAGE_ASSERT_OK(encoder.Put(levels));
    EXPECT_EQ(encoder.Finish(), Bytes{static_cast<uint8_t>(byte)});
  }
}

// One column written as two v1 pages with BIT_PACKED levels, and what reading it must give.
struct LegacyChunk {
  ChunkBuilder chunk;
  ColumnDescriptor column;
  std::vector<int16_t> definition;
  std::vector<int16_t> repetition;  // empty without repetition
  std::vector<int32_t> values;      // the present values: the row number of each
  std::vector<int64_t> row_starts;  // the level index where each row begins
  int64_t num_values = 0;
};

// max_def = 2^width - 1, so the definition levels take exactly `width` bits; levels below the
// maximum (nulls at some depth) fall on every third level, with every value below the maximum
// used. With `repeated`, rows of 1..4 levels with width-1 repetition levels.
LegacyChunk MakeLegacyChunk(int width, bool repeated, BitPackedOrder order) {
  LegacyChunk out;
  const int16_t max_def = static_cast<int16_t>((1 << width) - 1);
  out.column = Column(PhysicalType::kInt32, max_def, repeated ? 1 : 0);
  int64_t row = 0;
  for (int64_t page_levels : {203, 77}) {  // neither a multiple of 8
    std::vector<int16_t> definition;
    std::vector<int16_t> repetition;
    std::vector<int32_t> values;
    for (int64_t i = 0; i < page_levels; ++i) {
      const int64_t at = out.num_values + i;
      const bool row_start = !repeated || i == 0 || at % 5 == 0 || at % 7 == 0;
      if (row_start) {
        out.row_starts.push_back(at);
        ++row;
      }
      const int16_t level = at % 3 == 0 ? static_cast<int16_t>((at / 3) % max_def) : max_def;
      definition.push_back(level);
      if (repeated) repetition.push_back(row_start ? 0 : 1);
      if (level == max_def) values.push_back(static_cast<int32_t>(at));
    }
    Bytes sections;
    if (repeated) {
      BitPackedLevelEncoder encoder(1, order);
      EXPECT_TRUE(encoder.Put(repetition).ok());
      sections = encoder.Finish();
    }
    BitPackedLevelEncoder encoder(width, order);
    EXPECT_TRUE(encoder.Put(definition).ok());
    sections = Concat({sections, encoder.Finish()});
    out.chunk.V1(Concat({sections, Plain<int32_t>(values)}), static_cast<int32_t>(page_levels),
                 format::Encoding::PLAIN, format::Encoding::BIT_PACKED);
    out.definition.insert(out.definition.end(), definition.begin(), definition.end());
    out.repetition.insert(out.repetition.end(), repetition.begin(), repetition.end());
    out.values.insert(out.values.end(), values.begin(), values.end());
    out.num_values += page_levels;
  }
  return out;
}

// Reads everything left in batches of `batch`, appending levels and values.
absl::Status ReadRest(ColumnChunkReader& reader, size_t batch, std::vector<int16_t>* definition,
                      std::vector<int16_t>* repetition, std::vector<int32_t>* values) {
  std::vector<int16_t> def(batch), rep(batch);
  std::vector<int32_t> out(batch);
  for (;;) {
    PQPAGE_ASSIGN_OR_RETURN(
        BatchCounts counts,
        reader.ReadBatch<int32_t>(absl::MakeSpan(def), absl::MakeSpan(rep), absl::MakeSpan(out)));
    if (counts.levels == 0) return absl::OkStatus();
    definition->insert(definition->end(), def.begin(), def.begin() + counts.levels);
    if (reader.column().max_repetition_level > 0) {
      repetition->insert(repetition->end(), rep.begin(), rep.begin() + counts.levels);
    }
    values->insert(values->end(), out.begin(), out.begin() + counts.values);
  }
}

class BitPackedLevelsReaderTest
    : public ::testing::TestWithParam<std::tuple<int, bool, BitPackedOrder>> {
 protected:
  int width() const { return std::get<0>(GetParam()); }
  bool repeated() const { return std::get<1>(GetParam()); }
  BitPackedOrder order() const { return std::get<2>(GetParam()); }
  Fixture Open(const LegacyChunk& legacy, BitPackedOrder as) const {
    return Fixture(legacy.chunk, legacy.column, legacy.num_values, {}, -1, false, as);
  }
  // The values present among levels [from, to).
  static std::vector<int32_t> ValuesIn(const LegacyChunk& legacy, int64_t from, int64_t to) {
    std::vector<int32_t> out;
    for (int32_t value : legacy.values) {
      if (value >= from && value < to) out.push_back(value);
    }
    return out;
  }
};

TEST_P(BitPackedLevelsReaderTest, DenseBatches) {
  const LegacyChunk legacy = MakeLegacyChunk(width(), repeated(), order());
  for (size_t batch : {1, 7, 8, 13, 64, 1000}) {
    Fixture fixture = Open(legacy, order());
    std::vector<int16_t> definition, repetition;
    std::vector<int32_t> values;
    PQPAGE_ASSERT_OK(ReadRest(*fixture.reader, batch, &definition, &repetition, &values));
    EXPECT_EQ(definition, legacy.definition) << "batch " << batch;
    EXPECT_EQ(repetition, legacy.repetition) << "batch " << batch;
    EXPECT_EQ(values, legacy.values) << "batch " << batch;
  }
}

TEST_P(BitPackedLevelsReaderTest, TheOtherOrderPutsNullsElsewhere) {
  // The test data tells the orders apart: read as the other order, the levels differ (or are
  // refused, where a level read the wrong way exceeds the maximum or the values run short).
  // At width 8 every level is one whole byte, the same in both orders.
  const LegacyChunk legacy = MakeLegacyChunk(width(), repeated(), order());
  const BitPackedOrder other = order() == BitPackedOrder::kMostSignificantFirst
                                   ? BitPackedOrder::kLeastSignificantFirst
                                   : BitPackedOrder::kMostSignificantFirst;
  Fixture fixture = Open(legacy, other);
  std::vector<int16_t> definition, repetition;
  std::vector<int32_t> values;
  const absl::Status status = ReadRest(*fixture.reader, 64, &definition, &repetition, &values);
  const bool same_bytes = width() == 8 && !repeated();
  EXPECT_EQ(status.ok() && definition == legacy.definition && repetition == legacy.repetition,
            same_bytes)
      << status;
}

TEST_P(BitPackedLevelsReaderTest, SpacedBatchesWithValidity) {
  const LegacyChunk legacy = MakeLegacyChunk(width(), repeated(), order());
  if (repeated()) {
    // The spaced form is for columns without repetition.
    Fixture fixture = Open(legacy, order());
    std::vector<int32_t> slots(8);
    std::vector<uint8_t> validity(1);
    EXPECT_EQ(fixture.reader
                  ->ReadBatchSpaced<int32_t>({}, absl::MakeSpan(slots), absl::MakeSpan(validity), 0)
                  .status()
                  .code(),
              absl::StatusCode::kInvalidArgument);
    return;
  }
  for (size_t batch : {5, 8, 64}) {
    Fixture fixture = Open(legacy, order());
    std::vector<int16_t> def(batch);
    std::vector<int32_t> slots(batch);
    std::vector<uint8_t> validity(batch / 8 + 2);
    int64_t at = 0;
    for (;;) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(
          BatchCounts counts,
          fixture.reader->ReadBatchSpaced<int32_t>(absl::MakeSpan(def), absl::MakeSpan(slots),
                                                   absl::MakeSpan(validity), 3));
      if (counts.levels == 0) break;
      for (int64_t i = 0; i < counts.levels; ++i, ++at) {
        const bool present = legacy.definition[at] == legacy.column.max_definition_level;
        const int64_t bit = 3 + i;
        ASSERT_EQ((validity[bit / 8] >> (bit % 8)) & 1, present ? 1 : 0) << "level " << at;
        if (present) ASSERT_EQ(slots[i], at);
        ASSERT_EQ(def[i], legacy.definition[at]) << "level " << at;
      }
    }
    EXPECT_EQ(at, legacy.num_values);
  }
}

TEST_P(BitPackedLevelsReaderTest, RowsSoughtAndSkipped) {
  const LegacyChunk legacy = MakeLegacyChunk(width(), repeated(), order());
  const int64_t rows = static_cast<int64_t>(legacy.row_starts.size());
  auto level_of_row = [&](int64_t row) {
    return row >= rows ? legacy.num_values : legacy.row_starts[row];
  };
  // Seek to each of several rows (forward and back), then read the rest.
  {
    Fixture fixture = Open(legacy, order());
    for (int64_t row : {int64_t{0}, rows / 2, int64_t{1}, rows - 1, rows / 3 + 1, int64_t{9}}) {
      PQPAGE_ASSERT_OK(fixture.reader->SeekToRow(row));
      std::vector<int16_t> definition, repetition;
      std::vector<int32_t> values;
      PQPAGE_ASSERT_OK(ReadRest(*fixture.reader, 11, &definition, &repetition, &values));
      const int64_t from = level_of_row(row);
      EXPECT_EQ(definition,
                std::vector<int16_t>(legacy.definition.begin() + from, legacy.definition.end()))
          << "row " << row;
      EXPECT_EQ(values, ValuesIn(legacy, from, legacy.num_values)) << "row " << row;
    }
  }
  // Alternate reading a few levels' worth of rows and skipping rows.
  Fixture fixture = Open(legacy, order());
  int64_t row = 0;
  std::vector<int32_t> values;
  std::vector<int32_t> expected;
  while (row < rows) {
    const int64_t take = std::min<int64_t>(3, rows - row);
    const int64_t from = level_of_row(row);
    const int64_t to = level_of_row(row + take);
    std::vector<int16_t> def(static_cast<size_t>(to - from)), rep(def.size());
    std::vector<int32_t> out(def.size());
    int64_t read = 0;
    while (read < to - from) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(BatchCounts counts, fixture.reader->ReadBatch<int32_t>(
                                                          absl::MakeSpan(def).subspan(read),
                                                          absl::MakeSpan(rep).subspan(read),
                                                          absl::MakeSpan(out).subspan(read)));
      ASSERT_GT(counts.levels, 0);
      values.insert(values.end(), out.begin() + read, out.begin() + read + counts.values);
      for (int64_t i = 0; i < counts.levels; ++i) {
        ASSERT_EQ(def[read + i], legacy.definition[from + read + i]) << "level " << from + read + i;
      }
      read += counts.levels;
    }
    const std::vector<int32_t> slice = ValuesIn(legacy, from, to);
    expected.insert(expected.end(), slice.begin(), slice.end());
    row += take;
    PQPAGE_ASSERT_OK_AND_ASSIGN(const int64_t skipped, fixture.reader->SkipRows(5));
    row += skipped;
    EXPECT_EQ(fixture.reader->current_row(), row);
  }
  EXPECT_EQ(values, expected);
}

std::string ParamName(const ::testing::TestParamInfo<std::tuple<int, bool, BitPackedOrder>>& info) {
  return "Width" + std::to_string(std::get<0>(info.param)) +
         (std::get<1>(info.param) ? "Repeated" : "Flat") +
         (std::get<2>(info.param) == BitPackedOrder::kMostSignificantFirst ? "MsbFirst"
                                                                           : "LsbFirst");
}

INSTANTIATE_TEST_SUITE_P(
    EveryWidth, BitPackedLevelsReaderTest,
    ::testing::Combine(::testing::Range(1, 9), ::testing::Bool(),
                       ::testing::Values(BitPackedOrder::kMostSignificantFirst,
                                         BitPackedOrder::kLeastSignificantFirst)),
    ParamName);

}  // namespace
}  // namespace pqpage
