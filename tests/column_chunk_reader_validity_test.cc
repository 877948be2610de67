// ColumnChunkReader::ReadBatchValidity and ReadByteArrayCopiesValidity against the level forms
// (ReadBatch, ReadByteArrayCopies): the same present values and one bit per level, set exactly
// where the level is the maximum, for level sections in RLE (the run-by-run path of width 1),
// BIT_PACKED and wider RLE, pages v1 and v2, batches that end inside and across pages, bit
// offsets inside a byte, rows selected and sought; and the errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chunk_builder.h"
#include "pqpage/bit_packed.h"
#include "pqpage/column_chunk_reader.h"
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

enum class PageForm { kV1Rle, kV1BitPacked, kV2 };

// Two pages of an INT32 column without repetition; the definition levels have long runs of
// present values, long runs of nulls and scattered nulls, so both kinds of hybrid run occur.
struct IntChunk {
  ChunkBuilder chunk;
  ColumnDescriptor column;
  int64_t num_values = 0;
};

IntChunk MakeIntChunk(PageForm form, int16_t max_def, uint32_t seed) {
  IntChunk out;
  out.column = Column(PhysicalType::kInt32, max_def, 0);
  std::mt19937 random(seed);
  int width = 0;
  while ((1 << width) <= max_def) ++width;
  for (const int levels : {300, 173}) {
    std::vector<int16_t> def;
    std::vector<int32_t> values;
    for (int i = 0; i < levels; ++i) {
      int16_t level = max_def;
      if (i >= 40 && i < 90) {
        level = 0;  // a run of nulls
      } else if (i >= 150 && random() % 4 == 0) {
        level = static_cast<int16_t>(random() % (max_def + 1));  // scattered, at every depth
      }
      def.push_back(level);
      if (level == max_def) values.push_back(static_cast<int32_t>(random()));
    }
    const int32_t nulls = static_cast<int32_t>(levels - static_cast<int>(values.size()));
    if (form == PageForm::kV2) {
      out.chunk.V2({}, max_def > 0 ? Levels(def, width) : Bytes(), Plain<int32_t>(values), levels,
                   nulls, levels, format::Encoding::PLAIN);
    } else if (form == PageForm::kV1BitPacked && max_def > 0) {
      BitPackedLevelEncoder encoder(width, BitPackedOrder::kMostSignificantFirst);
      EXPECT_TRUE(encoder.Put(def).ok());
      out.chunk.V1(Concat({encoder.Finish(), Plain<int32_t>(values)}), levels,
                   format::Encoding::PLAIN, format::Encoding::BIT_PACKED);
    } else {
      const Bytes sections = max_def > 0 ? Prefixed(Levels(def, width)) : Bytes();
      out.chunk.V1(Concat({sections, Plain<int32_t>(values)}), levels, format::Encoding::PLAIN);
    }
    out.num_values += levels;
  }
  return out;
}

// What a whole read gives: a presence flag per level and the present values.
struct Read {
  std::vector<bool> present;
  std::vector<int32_t> values;
};

Read ReadLevels(ColumnChunkReader& reader, size_t batch) {
  Read out;
  std::vector<int16_t> def(batch);
  std::vector<int32_t> values(batch);
  const int16_t max = reader.column().max_definition_level;
  for (;;) {
    absl::StatusOr<BatchCounts> counts =
        reader.ReadBatch<int32_t>(absl::MakeSpan(def), {}, absl::MakeSpan(values));
    PQPAGE_EXPECT_OK(counts.status());
    if (!counts.ok() || counts->levels == 0) return out;
    for (int64_t i = 0; i < counts->levels; ++i) {
      out.present.push_back(max == 0 || def[static_cast<size_t>(i)] == max);
    }
    out.values.insert(out.values.end(), values.begin(), values.begin() + counts->values);
  }
}

// Reads into a bitmap at `offset` whose bits are first set to a pattern: the bits outside each
// batch's must keep it.
Read ReadBits(ColumnChunkReader& reader, size_t batch, int64_t offset) {
  Read out;
  std::vector<int32_t> values(batch);
  const size_t bytes = (static_cast<size_t>(offset) + batch + 7) / 8 + 2;
  for (;;) {
    std::vector<uint8_t> bits(bytes, 0xA5);
    const std::vector<uint8_t> pattern = bits;
    absl::StatusOr<BatchCounts> counts =
        reader.ReadBatchValidity<int32_t>(absl::MakeSpan(bits), offset, absl::MakeSpan(values));
    PQPAGE_EXPECT_OK(counts.status());
    if (!counts.ok() || counts->levels == 0) return out;
    int64_t set = 0;
    for (int64_t bit = 0; bit < static_cast<int64_t>(bytes) * 8; ++bit) {
      const bool value = ((bits[bit >> 3] >> (bit & 7)) & 1) != 0;
      if (bit >= offset && bit < offset + counts->levels) {
        out.present.push_back(value);
        set += value ? 1 : 0;
      } else {
        EXPECT_EQ(value, ((pattern[bit >> 3] >> (bit & 7)) & 1) != 0) << "bit " << bit;
      }
    }
    EXPECT_EQ(set, counts->values);
    out.values.insert(out.values.end(), values.begin(), values.begin() + counts->values);
  }
}

TEST(ColumnChunkReaderValidityTest, BitsEqualLevelsForEveryLevelFormBatchAndOffset) {
  for (const PageForm form : {PageForm::kV1Rle, PageForm::kV1BitPacked, PageForm::kV2}) {
    for (const int16_t max_def : {int16_t{0}, int16_t{1}, int16_t{2}, int16_t{3}}) {
      const IntChunk made = MakeIntChunk(form, max_def, static_cast<uint32_t>(max_def + 7));
      for (const size_t batch : {size_t{1}, size_t{7}, size_t{64}, size_t{1000}}) {
        for (const int64_t offset : {int64_t{0}, int64_t{3}, int64_t{13}}) {
          SCOPED_TRACE(::testing::Message()
                       << "form " << static_cast<int>(form) << " max_def " << max_def << " batch "
                       << batch << " offset " << offset);
          Fixture levels(made.chunk, made.column, made.num_values);
          Fixture bits(made.chunk, made.column, made.num_values);
          const Read expected = ReadLevels(*levels.reader, batch);
          const Read got = ReadBits(*bits.reader, batch, offset);
          ASSERT_EQ(expected.present.size(), static_cast<size_t>(made.num_values));
          EXPECT_EQ(got.present, expected.present);
          EXPECT_EQ(got.values, expected.values);
        }
      }
    }
  }
}

TEST(ColumnChunkReaderValidityTest, SelectedAndSoughtRowsMatchTheLevelForm) {
  const IntChunk made = MakeIntChunk(PageForm::kV1Rle, 1, 3);
  const std::vector<RowRange> ranges = {{0, 5}, {38, 95}, {290, 310}, {400, 473}};
  for (const size_t batch : {size_t{1}, size_t{16}, size_t{1000}}) {
    SCOPED_TRACE(::testing::Message() << "batch " << batch);
    Fixture levels(made.chunk, made.column, made.num_values, {}, made.num_values);
    Fixture bits(made.chunk, made.column, made.num_values, {}, made.num_values);
    PQPAGE_ASSERT_OK(levels.reader->SelectRows(ranges));
    PQPAGE_ASSERT_OK(bits.reader->SelectRows(ranges));
    const Read expected = ReadLevels(*levels.reader, batch);
    const Read got = ReadBits(*bits.reader, batch, 5);
    EXPECT_EQ(expected.present.size(), size_t{5 + 57 + 20 + 73});
    EXPECT_EQ(got.present, expected.present);
    EXPECT_EQ(got.values, expected.values);
  }
  // Sought: the two forms go on alike from a row in the second page, after a batch of each.
  Fixture levels(made.chunk, made.column, made.num_values, {}, made.num_values);
  Fixture bits(made.chunk, made.column, made.num_values, {}, made.num_values);
  PQPAGE_ASSERT_OK(levels.reader->SeekToRow(333));
  PQPAGE_ASSERT_OK(bits.reader->SeekToRow(333));
  const Read expected = ReadLevels(*levels.reader, 50);
  const Read got = ReadBits(*bits.reader, 50, 0);
  EXPECT_EQ(expected.present.size(), size_t{473 - 333});
  EXPECT_EQ(got.present, expected.present);
  EXPECT_EQ(got.values, expected.values);
}

TEST(ColumnChunkReaderValidityTest, ByteArrayCopiesMatchTheLevelForm) {
  const ColumnDescriptor column = Column(PhysicalType::kByteArray, 1, 0);
  std::vector<int16_t> def;
  std::vector<ByteArray> values;
  std::vector<std::string> strings;
  for (int i = 0; i < 257; ++i) {
    def.push_back(i % 9 == 4 || (i > 100 && i < 140) ? 0 : 1);
    if (def.back() == 1) strings.push_back(std::string(static_cast<size_t>(i % 13), 'a' + i % 26));
  }
  for (const std::string& text : strings) values.emplace_back(text);
  ChunkBuilder chunk;
  chunk.V1(Concat({Prefixed(Levels(def, 1)), Plain<ByteArray>(values)}), 257,
           format::Encoding::PLAIN);
  for (const size_t batch : {size_t{5}, size_t{100}, size_t{300}}) {
    Fixture level_form(chunk, column, 257);
    Fixture bit_form(chunk, column, 257);
    std::vector<int16_t> levels(batch);
    std::vector<int32_t> lengths(batch);
    std::vector<uint8_t> bits((batch + 7) / 8 + 1);
    int64_t done = 0;
    for (;;) {
      std::vector<uint8_t> expected_bytes, got_bytes;
      absl::StatusOr<BatchCounts> expected = level_form.reader->ReadByteArrayCopies(
          absl::MakeSpan(levels), {}, absl::MakeSpan(lengths), [&](size_t bytes) {
            expected_bytes.resize(bytes);
            return expected_bytes.data();
          });
      std::vector<int32_t> got_lengths(batch);
      absl::StatusOr<BatchCounts> got = bit_form.reader->ReadByteArrayCopiesValidity(
          absl::MakeSpan(bits), 1, absl::MakeSpan(got_lengths), [&](size_t bytes) {
            got_bytes.resize(bytes);
            return got_bytes.data();
          });
      PQPAGE_ASSERT_OK(expected.status());
      PQPAGE_ASSERT_OK(got.status());
      ASSERT_EQ(got->levels, expected->levels);
      ASSERT_EQ(got->values, expected->values);
      if (got->levels == 0) break;
      for (int64_t i = 0; i < got->levels; ++i) {
        const int64_t bit = 1 + i;
        EXPECT_EQ(((bits[bit >> 3] >> (bit & 7)) & 1) != 0, levels[static_cast<size_t>(i)] == 1)
            << "level " << done + i;
      }
      got_lengths.resize(static_cast<size_t>(got->values));
      EXPECT_EQ(got_lengths, std::vector<int32_t>(lengths.begin(), lengths.begin() + got->values));
      EXPECT_EQ(got_bytes, expected_bytes);
      done += got->levels;
    }
    EXPECT_EQ(done, 257);
  }
}

// The status code of one ReadBatchValidity call of `count` values of T, at bit `offset` of a
// bitmap of `bitmap_bytes` bytes.
template <typename T>
absl::StatusCode BitsCode(ColumnChunkReader& reader, size_t bitmap_bytes, int64_t offset,
                          size_t count) {
  std::vector<uint8_t> bits(bitmap_bytes);
  std::vector<T> values(count);
  return reader.ReadBatchValidity<T>(absl::MakeSpan(bits), offset, absl::MakeSpan(values))
      .status()
      .code();
}

TEST(ColumnChunkReaderValidityTest, Errors) {
  // A repeated column has no bitmap form.
  {
    ChunkBuilder chunk;
    chunk.V1(
        Concat({Prefixed(Levels({0, 1}, 1)), Prefixed(Levels({1, 1}, 1)), Plain<int32_t>({1, 2})}),
        2, format::Encoding::PLAIN);
    Fixture fixture(chunk, Column(PhysicalType::kInt32, 1, 1), 2);
    EXPECT_EQ(BitsCode<int32_t>(*fixture.reader, 1, 0, 2), absl::StatusCode::kInvalidArgument);
  }
  const IntChunk made = MakeIntChunk(PageForm::kV1Rle, 1, 5);
  Fixture fixture(made.chunk, made.column, made.num_values);
  // 16 bits from offset 1 do not fit in 2 bytes; nor does a negative offset; nor int64 values.
  EXPECT_EQ(BitsCode<int32_t>(*fixture.reader, 2, 1, 16), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BitsCode<int32_t>(*fixture.reader, 2, -1, 16), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BitsCode<int64_t>(*fixture.reader, 2, 0, 16), absl::StatusCode::kInvalidArgument);
  // ... and none of these consumed a level: the whole chunk still reads.
  EXPECT_EQ(ReadBits(*fixture.reader, 100, 0).present.size(), static_cast<size_t>(made.num_values));
  // An RLE run of level 2 where the maximum is 1 (width 1): DataLoss, as in the level form. In a
  // v2 page stating its nulls the levels are not counted first: the bitmap path meets the run.
  for (const bool v2 : {false, true}) {
    for (const bool as_bits : {false, true}) {
      ChunkBuilder damaged;
      const Bytes run = {static_cast<uint8_t>(4 << 1), 2};  // 4 levels of value 2
      if (v2) {
        damaged.V2({}, run, Plain<int32_t>({1, 2, 3, 4}), 4, 0, 4, format::Encoding::PLAIN);
      } else {
        damaged.V1(Concat({Prefixed(run), Plain<int32_t>({1, 2, 3, 4})}), 4,
                   format::Encoding::PLAIN);
      }
      Fixture bad(damaged, Column(PhysicalType::kInt32, 1, 0), 4);
      std::vector<int16_t> def(4);
      std::vector<int32_t> values(4);
      const absl::StatusCode code =
          as_bits ? BitsCode<int32_t>(*bad.reader, 1, 0, 4)
                  : bad.reader->ReadBatch<int32_t>(absl::MakeSpan(def), {}, absl::MakeSpan(values))
                        .status()
                        .code();
      EXPECT_EQ(code, absl::StatusCode::kDataLoss) << "v2 " << v2 << " bits " << as_bits;
    }
  }
  // A v2 header whose nulls disagree with the levels: DataLoss.
  ChunkBuilder lying;
  lying.V2({}, Levels({1, 0, 1, 1}, 1), Plain<int32_t>({1, 2}), 4, 2, 4, format::Encoding::PLAIN);
  Fixture bad(lying, Column(PhysicalType::kInt32, 1, 0), 4);
  EXPECT_EQ(BitsCode<int32_t>(*bad.reader, 1, 0, 4), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace pqpage
