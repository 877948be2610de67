// ORC's byte RLE and boolean RLE: the spec's examples both ways, the encoder's run rule, round
// trips in batches with skips, the validity-bitmap form, and hostile streams.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "pqpage/orc/boolean_rle.h"
#include "pqpage/orc/byte_rle.h"
#include "status_matchers.h"

namespace pqpage::orc {
namespace {

using ::absl::StatusCode;

std::vector<uint8_t> EncodeBytes(const std::vector<uint8_t>& bytes) {
  ByteRleEncoder encoder;
  encoder.PutBytes(bytes);
  const size_t estimate = encoder.EstimatedSize();
  std::vector<uint8_t> out = encoder.Finish();
  EXPECT_EQ(estimate, out.size());
  return out;
}

std::vector<uint8_t> DecodeBytes(const std::vector<uint8_t>& stream, size_t count) {
  ByteRleDecoder decoder;
  EXPECT_TRUE(decoder.Reset(stream, static_cast<int64_t>(count)).ok());
  std::vector<uint8_t> out(count);
  const absl::Status status = decoder.DecodeBytes(absl::MakeSpan(out));
  EXPECT_TRUE(status.ok()) << status;
  return out;
}

TEST(OrcByteRleTest, SpecExamples) {
  const std::vector<uint8_t> zeros(100, 0);
  EXPECT_EQ(EncodeBytes(zeros), (std::vector<uint8_t>{0x61, 0x00}));
  EXPECT_EQ(DecodeBytes({0x61, 0x00}, 100), zeros);
  EXPECT_EQ(EncodeBytes({0x44, 0x45}), (std::vector<uint8_t>{0xfe, 0x44, 0x45}));
  EXPECT_EQ(DecodeBytes({0xfe, 0x44, 0x45}, 2), (std::vector<uint8_t>{0x44, 0x45}));
}

TEST(OrcByteRleTest, RunsOfThreeSplitLiterals) {
  // 1 2 then three 7s then 9: literals [1 2], run [7 x3], literal [9].
  EXPECT_EQ(EncodeBytes({1, 2, 7, 7, 7, 9}), (std::vector<uint8_t>{0xfe, 1, 2, 0x00, 7, 0xff, 9}));
  // Two equal bytes stay literals; 131 equal bytes are a run of 130 and a literal.
  EXPECT_EQ(EncodeBytes({5, 5}), (std::vector<uint8_t>{0xfe, 5, 5}));
  EXPECT_EQ(EncodeBytes(std::vector<uint8_t>(131, 4)), (std::vector<uint8_t>{0x7f, 4, 0xff, 4}));
  // 129 distinct bytes are a literal group of 128 and one of 1.
  std::vector<uint8_t> distinct(129);
  for (int i = 0; i < 129; ++i) distinct[i] = static_cast<uint8_t>(i);
  const std::vector<uint8_t> stream = EncodeBytes(distinct);
  EXPECT_EQ(stream[0], 0x80);
  EXPECT_EQ(stream[129], 0xff);
  EXPECT_EQ(DecodeBytes(stream, 129), distinct);
}

TEST(OrcByteRleTest, RoundTripsInBatchesWithSkips) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<int8_t> values;
    while (values.size() < 5000) {
      const auto value = static_cast<int8_t>(rng() % (trial % 5 == 0 ? 256 : 4));
      const size_t repeat = rng() % 3 == 0 ? rng() % 300 : 1;
      values.insert(values.end(), repeat, value);
    }
    ByteRleEncoder encoder;
    for (size_t at = 0; at < values.size();) {
      const size_t take = std::min<size_t>(values.size() - at, 1 + rng() % 200);
      PQPAGE_ASSERT_OK(encoder.Put(absl::MakeConstSpan(values.data() + at, take)));
      at += take;
    }
    const std::vector<uint8_t> stream = encoder.Finish();
    ByteRleDecoder decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(stream, static_cast<int64_t>(values.size())));
    for (size_t at = 0; at < values.size();) {
      const size_t take = std::min<size_t>(values.size() - at, 1 + rng() % 300);
      if (rng() % 3 == 0) {
        PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(take)));
      } else {
        std::vector<int8_t> got(take);
        PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(got)));
        ASSERT_EQ(got, std::vector<int8_t>(values.begin() + at, values.begin() + at + take));
      }
      at += take;
    }
    EXPECT_EQ(decoder.values_left(), 0);
  }
}

TEST(OrcByteRleTest, HostileStreams) {
  ByteRleDecoder decoder;
  std::vector<uint8_t> out(200);
  // A run longer than the values asked for.
  const std::vector<uint8_t> run = {0x61, 0x00};
  PQPAGE_ASSERT_OK(decoder.Reset(run, 50));
  PQPAGE_EXPECT_ERROR(decoder.DecodeBytes(absl::MakeSpan(out.data(), 50)), StatusCode::kDataLoss);
  // A literal group longer than the values asked for.
  const std::vector<uint8_t> literals = {0xfd, 1, 2, 3};
  PQPAGE_ASSERT_OK(decoder.Reset(literals, 2));
  PQPAGE_EXPECT_ERROR(decoder.DecodeBytes(absl::MakeSpan(out.data(), 2)), StatusCode::kDataLoss);
  // Every truncation of a stream.
  const std::vector<uint8_t> stream = EncodeBytes({1, 2, 7, 7, 7, 9, 9, 9, 9, 3});
  for (size_t length = 0; length < stream.size(); ++length) {
    const std::vector<uint8_t> cut(stream.begin(), stream.begin() + length);
    PQPAGE_ASSERT_OK(decoder.Reset(cut, 10));
    PQPAGE_EXPECT_ERROR(decoder.DecodeBytes(absl::MakeSpan(out.data(), 10)), StatusCode::kDataLoss);
  }
  // Requests the caller should not make.
  PQPAGE_EXPECT_ERROR(decoder.Reset(stream, -1), StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(decoder.Reset(stream, 10));
  PQPAGE_EXPECT_ERROR(decoder.DecodeBytes(absl::MakeSpan(out.data(), 11)),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(decoder.Skip(-1), StatusCode::kInvalidArgument);
}

std::vector<bool> RandomBools(size_t count, uint32_t seed, int true_per_mille) {
  std::mt19937 rng(seed);
  std::vector<bool> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<int>(rng() % 1000) < true_per_mille;
  return values;
}

std::vector<uint8_t> EncodeBools(const std::vector<bool>& values) {
  BooleanRleEncoder encoder;
  const std::unique_ptr<bool[]> plain(new bool[values.size()]);
  for (size_t i = 0; i < values.size(); ++i) plain[i] = values[i];
  EXPECT_TRUE(encoder.Put(absl::MakeConstSpan(plain.get(), values.size())).ok());
  const size_t estimate = encoder.EstimatedSize();
  std::vector<uint8_t> out = encoder.Finish();
  EXPECT_GE(estimate, out.size());
  return out;
}

TEST(OrcBooleanRleTest, SpecExample) {
  // [0xff, 0x80]: a literal group of one byte, 0x80: one true then seven false.
  std::vector<bool> expected = {true, false, false, false, false, false, false, false};
  EXPECT_EQ(EncodeBools(expected), (std::vector<uint8_t>{0xff, 0x80}));
  BooleanRleDecoder decoder;
  const std::vector<uint8_t> stream = {0xff, 0x80};  // decoders keep a view: not a temporary
  PQPAGE_ASSERT_OK(decoder.Reset(stream, 8));
  bool got[8];
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(got)));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], expected[i]) << i;
}

TEST(OrcBooleanRleTest, RoundTripsAndBitmapsAtEveryOffset) {
  for (const int density : {0, 20, 500, 990, 1000}) {
    for (const size_t count :
         {size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{1000}, size_t{4099}}) {
      const std::vector<bool> values = RandomBools(count, density * 31 + count, density);
      const std::vector<uint8_t> stream = EncodeBools(values);
      // Bools, in uneven batches with skips.
      BooleanRleDecoder decoder;
      PQPAGE_ASSERT_OK(decoder.Reset(stream, static_cast<int64_t>(count)));
      std::mt19937 rng(static_cast<uint32_t>(count));
      for (size_t at = 0; at < count;) {
        const size_t take = std::min<size_t>(count - at, 1 + rng() % 37);
        if (rng() % 4 == 0) {
          PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(take)));
        } else {
          const std::unique_ptr<bool[]> got(new bool[take]);
          PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(got.get(), take)));
          for (size_t i = 0; i < take; ++i) ASSERT_EQ(got[i], values[at + i]) << at + i;
        }
        at += take;
      }
      // Bitmaps, starting at every bit offset, in batches, keeping the bits around them.
      for (int offset = 0; offset < 8; ++offset) {
        PQPAGE_ASSERT_OK(decoder.Reset(stream, static_cast<int64_t>(count)));
        std::vector<uint8_t> bitmap((offset + count + 7) / 8 + 1, 0xA5);
        int64_t ones = 0;
        for (size_t at = 0; at < count;) {
          const size_t take = std::min<size_t>(count - at, 1 + rng() % 700);
          PQPAGE_ASSERT_OK_AND_ASSIGN(
              const int64_t batch_ones,
              decoder.DecodeToBitmap(bitmap.data(), static_cast<int64_t>(offset + at),
                                     static_cast<int64_t>(take)));
          ones += batch_ones;
          at += take;
        }
        int64_t expected_ones = 0;
        for (size_t i = 0; i < count; ++i) {
          const size_t bit = offset + i;
          ASSERT_EQ(((bitmap[bit / 8] >> (bit % 8)) & 1) != 0, values[i]) << i;
          expected_ones += values[i] ? 1 : 0;
        }
        EXPECT_EQ(ones, expected_ones);
        for (int bit = 0; bit < offset; ++bit) EXPECT_EQ((bitmap[0] >> bit) & 1, (0xA5 >> bit) & 1);
        const size_t end = offset + count;
        for (size_t bit = end; bit < bitmap.size() * 8; ++bit) {
          EXPECT_EQ((bitmap[bit / 8] >> (bit % 8)) & 1, (0xA5 >> (bit % 8)) & 1) << bit;
        }
      }
    }
  }
}

TEST(OrcBooleanRleTest, HostileStreams) {
  // 9 values need 2 bytes; the stream holds one.
  BooleanRleDecoder decoder;
  const std::vector<uint8_t> one_byte = {0xff, 0x80};
  PQPAGE_ASSERT_OK(decoder.Reset(one_byte, 9));
  bool got[9];
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(got)), StatusCode::kDataLoss);
  // A run of 3 bytes where 1 byte (8 values) is asked for.
  const std::vector<uint8_t> three_bytes = {0x00, 0xff};
  PQPAGE_ASSERT_OK(decoder.Reset(three_bytes, 8));
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(got, 8)), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder.Reset({}, -3), StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(decoder.Reset(one_byte, 8));
  uint8_t bitmap[2] = {};
  PQPAGE_EXPECT_ERROR(decoder.DecodeToBitmap(bitmap, 0, 9).status(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqpage::orc
