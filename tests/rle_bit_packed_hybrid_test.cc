#include "pqpage/rle_bit_packed_hybrid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "status_matchers.h"

namespace pqpage {
namespace {

using absl::StatusCode;

std::vector<uint8_t> Encode(const std::vector<uint32_t>& values, int width) {
  RleBitPackedHybridEncoder encoder(width);
  EXPECT_TRUE(encoder.Put(values).ok());
  return encoder.Finish();
}

std::vector<uint32_t> DecodeAll(const std::vector<uint8_t>& bytes, int width, size_t count) {
  RleBitPackedHybridDecoder decoder;
  EXPECT_TRUE(decoder.Reset(bytes, width, count).ok());
  std::vector<uint32_t> out(count);
  absl::Status status = decoder.Decode(absl::MakeSpan(out));
  EXPECT_TRUE(status.ok()) << status;
  return out;
}

// Seed 001's worked example: a bit-packed run of two groups, then an RLE run of eight 1s.
const std::vector<uint8_t> kSeedStream = {0b00000101, 0b11101011, 0b00000010, 0b00010000,
                                          0b00000001};
const std::vector<uint32_t> kSeedValues = {1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0,
                                           0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};

TEST(RleBitPackedHybridTest, SeedExampleDecodes) {
  EXPECT_EQ(DecodeAll(kSeedStream, 1, 24), kSeedValues);
}

TEST(RleBitPackedHybridTest, SeedExampleAsLevelsBooleansAndBitmap) {
  RleBitPackedHybridDecoder decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(kSeedStream, 1, 24));
  std::vector<int16_t> levels(24);
  PQPAGE_ASSERT_OK(decoder.DecodeLevels(absl::MakeSpan(levels), 1));
  for (size_t i = 0; i < 24; ++i) EXPECT_EQ(levels[i], static_cast<int16_t>(kSeedValues[i]));

  PQPAGE_ASSERT_OK(decoder.Reset(kSeedStream, 1, 24));
  bool booleans[24];
  PQPAGE_ASSERT_OK(decoder.DecodeBooleans(absl::MakeSpan(booleans, 24)));
  for (size_t i = 0; i < 24; ++i) EXPECT_EQ(booleans[i], kSeedValues[i] == 1);

  // Into a bitmap at an odd offset, with the surrounding bits set: they must survive.
  for (int offset : {0, 3, 8, 13}) {
    PQPAGE_ASSERT_OK(decoder.Reset(kSeedStream, 1, 24));
    std::vector<uint8_t> bitmap(8, 0xFF);
    PQPAGE_ASSERT_OK_AND_ASSIGN(int64_t ones, decoder.DecodeToBitmap(bitmap.data(), offset, 24));
    EXPECT_EQ(ones, 15);
    for (int bit = 0; bit < 64; ++bit) {
      const bool expected = bit < offset || bit >= offset + 24 || kSeedValues[bit - offset] == 1;
      EXPECT_EQ(((bitmap[bit / 8] >> (bit % 8)) & 1) != 0, expected)
          << "offset " << offset << " bit " << bit;
    }
  }
}

TEST(RleBitPackedHybridTest, OnlyTheLowestBitOfABooleanRunValueCounts) {
  // RLE runs of 4 with values 0x03 and 0x02: as booleans true and false; as integers of width 1
  // the values do not fit, which is corruption.
  const std::vector<uint8_t> stream = {0x08, 0x03, 0x08, 0x02};
  RleBitPackedHybridDecoder decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(stream, 1, 8));
  bool booleans[8];
  PQPAGE_ASSERT_OK(decoder.DecodeBooleans(absl::MakeSpan(booleans, 8)));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(booleans[i], i < 4) << i;
  PQPAGE_ASSERT_OK(decoder.Reset(stream, 1, 8));
  uint32_t values[8];
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(values, 8)), StatusCode::kDataLoss);
}

TEST(RleBitPackedHybridTest, SeedValuesReencodeToADecodableStream) {
  const std::vector<uint8_t> bytes = Encode(kSeedValues, 1);
  EXPECT_EQ(DecodeAll(bytes, 1, kSeedValues.size()), kSeedValues);
  EXPECT_LE(bytes.size(), kSeedStream.size());
}

std::vector<uint32_t> Pattern(const std::string& shape, size_t n, int width, uint32_t seed) {
  std::mt19937 rng(seed);
  const uint64_t max = width == 32 ? 0xFFFFFFFFull : (uint64_t{1} << width) - 1;
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    if (shape == "random") v[i] = static_cast<uint32_t>(rng() & max);
    if (shape == "equal") v[i] = static_cast<uint32_t>(max);
    if (shape == "runs") v[i] = static_cast<uint32_t>(((i / (1 + seed % 37)) * 2654435761u) & max);
    if (shape == "sparse") v[i] = (rng() % 50 == 0) ? static_cast<uint32_t>(max) : 0;
    if (shape == "mixed") v[i] = (i / 100) % 2 ? static_cast<uint32_t>(rng() & max) : 1 & max;
  }
  return v;
}

TEST(RleBitPackedHybridTest, RoundTripsEveryWidthShapeAndLength) {
  const std::vector<size_t> lengths = {0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 1000, 70000};
  for (int width = 0; width <= 32; ++width) {
    for (const char* shape : {"random", "equal", "runs", "sparse", "mixed"}) {
      for (size_t n : lengths) {
        const std::vector<uint32_t> values = Pattern(shape, n, width, width * 131 + n);
        const std::vector<uint8_t> bytes = Encode(values, width);
        ASSERT_EQ(DecodeAll(bytes, width, n), values) << shape << " width " << width << " n " << n;
        ASSERT_LE(bytes.size(), RleBitPackedHybridEncoder::MaxEncodedSize(width, n));
      }
    }
  }
}

TEST(RleBitPackedHybridTest, BatchedDecodeAndSkipMatchOneShot) {
  for (int width : {1, 3, 8, 17, 32}) {
    const std::vector<uint32_t> values = Pattern("mixed", 5000, width, width);
    const std::vector<uint8_t> bytes = Encode(values, width);
    RleBitPackedHybridDecoder decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(bytes, width, values.size()));
    std::vector<uint32_t> got;
    size_t position = 0;
    const size_t batches[] = {1, 7, 33, 2, 8, 100, 5, 1024};
    for (size_t b = 0; position < values.size(); ++b) {
      const size_t n = std::min(batches[b % 8], values.size() - position);
      if (b % 5 == 4) {
        PQPAGE_ASSERT_OK(decoder.Skip(n));
        got.insert(got.end(), values.begin() + position, values.begin() + position + n);
      } else {
        std::vector<uint32_t> part(n);
        PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(part)));
        got.insert(got.end(), part.begin(), part.end());
      }
      position += n;
    }
    EXPECT_EQ(got, values) << "width " << width;
    EXPECT_EQ(decoder.values_left(), 0);
    uint32_t extra;
    PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(&extra, 1)), StatusCode::kInvalidArgument);
  }
}

TEST(RleBitPackedHybridTest, BitmapDecodeMatchesValuesForManyOffsets) {
  const std::vector<uint32_t> values = Pattern("mixed", 3000, 1, 5);
  const std::vector<uint8_t> bytes = Encode(values, 1);
  for (int offset = 0; offset < 16; ++offset) {
    RleBitPackedHybridDecoder decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(bytes, 1, values.size()));
    std::vector<uint8_t> bitmap((offset + values.size() + 7) / 8 + 1, 0xA5);
    const std::vector<uint8_t> before = bitmap;
    int64_t ones = 0;
    // In uneven batches, so runs are split at every kind of boundary.
    for (size_t done = 0; done < values.size();) {
      const size_t n = std::min<size_t>(1 + done % 97, values.size() - done);
      PQPAGE_ASSERT_OK_AND_ASSIGN(int64_t part,
                                  decoder.DecodeToBitmap(bitmap.data(), offset + done, n));
      ones += part;
      done += n;
    }
    int64_t expected_ones = 0;
    for (size_t bit = 0; bit < bitmap.size() * 8; ++bit) {
      const bool got = (bitmap[bit / 8] >> (bit % 8)) & 1;
      if (bit < static_cast<size_t>(offset) || bit >= offset + values.size()) {
        ASSERT_EQ(got, ((before[bit / 8] >> (bit % 8)) & 1) != 0) << "bit " << bit;
      } else {
        ASSERT_EQ(got, values[bit - offset] == 1) << "offset " << offset << " bit " << bit;
        expected_ones += values[bit - offset];
      }
    }
    EXPECT_EQ(ones, expected_ones);
  }
}

TEST(RleBitPackedHybridTest, CountMaxLevelsMatchesTheDecodedLevels) {
  // Width 1 takes the popcount path for bit-packed runs; wider levels the unpacking one. After a
  // partial decode the count covers what is left, from inside a run.
  for (int width : {1, 2, 3}) {
    const auto max_level = static_cast<int16_t>((1 << width) - 1);
    for (const char* shape : {"random", "equal", "runs", "sparse", "mixed"}) {
      for (size_t n : {0, 1, 7, 9, 64, 1000, 70001}) {
        const std::vector<uint32_t> values = Pattern(shape, n, width, width * 7 + n);
        const std::vector<uint8_t> bytes = Encode(values, width);
        for (size_t first : {size_t{0}, n / 3}) {
          RleBitPackedHybridDecoder decoder;
          PQPAGE_ASSERT_OK(decoder.Reset(bytes, width, n));
          std::vector<int16_t> head(first);
          PQPAGE_ASSERT_OK(decoder.DecodeLevels(absl::MakeSpan(head), max_level));
          PQPAGE_ASSERT_OK_AND_ASSIGN(int64_t counted, decoder.CountMaxLevels(max_level));
          const auto expected = std::count(values.begin() + first, values.end(), max_level);
          ASSERT_EQ(counted, expected) << shape << " width " << width << " n " << n;
          EXPECT_EQ(decoder.values_left(), 0);
        }
      }
    }
  }
  // A level above the maximum, in an RLE run and in a bit-packed one, is DataLoss.
  RleBitPackedHybridDecoder decoder;
  const std::vector<uint8_t> threes = {0x10, 0x03};  // the decoder keeps a view of its input
  PQPAGE_ASSERT_OK(decoder.Reset(threes, 2, 8));
  PQPAGE_EXPECT_ERROR(decoder.CountMaxLevels(2), StatusCode::kDataLoss);
  EXPECT_EQ(decoder.values_left(), 0);
  const std::vector<uint8_t> packed = Encode({0, 1, 3, 2, 1, 0, 1, 2}, 2);
  PQPAGE_ASSERT_OK(decoder.Reset(packed, 2, 8));
  PQPAGE_EXPECT_ERROR(decoder.CountMaxLevels(2), StatusCode::kDataLoss);
  // A stream that ends before the values announced is DataLoss too.
  const std::vector<uint8_t> eight_ones = {0x10, 0x01};
  PQPAGE_ASSERT_OK(decoder.Reset(eight_ones, 1, 9));
  PQPAGE_EXPECT_ERROR(decoder.CountMaxLevels(1), StatusCode::kDataLoss);
}

TEST(RleBitPackedHybridTest, DecodeLevelsCountingCountsWhatItDecodes) {
  // Batches of odd sizes start and end inside runs and groups; the count is of the batch alone,
  // for the maximum (present values), 0 (row starts) and a level in between.
  for (int width : {1, 2, 3}) {
    const auto max_level = static_cast<int16_t>((1 << width) - 1);
    for (const char* shape : {"random", "equal", "runs", "sparse", "mixed"}) {
      const size_t n = 20011;
      const std::vector<uint32_t> values = Pattern(shape, n, width, width * 11 + 5);
      const std::vector<uint8_t> bytes = Encode(values, width);
      for (const int16_t counted : {max_level, int16_t{0}, static_cast<int16_t>(max_level / 2)}) {
        RleBitPackedHybridDecoder decoder;
        PQPAGE_ASSERT_OK(decoder.Reset(bytes, width, n));
        size_t done = 0;
        for (size_t batch = 1; done < n; batch = batch * 3 + 5) {
          const size_t take = std::min(batch, n - done);
          std::vector<int16_t> out(take);
          PQPAGE_ASSERT_OK_AND_ASSIGN(
              int64_t matches,
              decoder.DecodeLevelsCounting(absl::MakeSpan(out), max_level, counted));
          for (size_t i = 0; i < take; ++i) {
            ASSERT_EQ(out[i], static_cast<int16_t>(values[done + i])) << shape << " " << i;
          }
          ASSERT_EQ(matches, std::count(values.begin() + done, values.begin() + done + take,
                                        static_cast<uint32_t>(counted)))
              << shape << " width " << width << " counted " << counted << " at " << done;
          done += take;
        }
      }
    }
  }
  // The check against the maximum still holds.
  RleBitPackedHybridDecoder decoder;
  const std::vector<uint8_t> threes = {0x10, 0x03};
  PQPAGE_ASSERT_OK(decoder.Reset(threes, 2, 8));
  std::vector<int16_t> out(8);
  PQPAGE_EXPECT_ERROR(decoder.DecodeLevelsCounting(absl::MakeSpan(out), 2, 2),
                      StatusCode::kDataLoss);
}

TEST(RleBitPackedHybridTest, EncoderPicksTheSmallerRunKind) {
  // One million equal values: a single RLE run (3-byte varint header + 1 value byte).
  EXPECT_EQ(Encode(std::vector<uint32_t>(1000000, 5), 3).size(), 4u);
  // Width 0: every value is 0; one run header.
  EXPECT_EQ(Encode(std::vector<uint32_t>(1000, 0), 0).size(), 2u);
  // Random values of width 5: all bit-packed, ~5 bits per value plus 2-byte headers.
  const std::vector<uint32_t> random = Pattern("random", 80000, 5, 1);
  EXPECT_LE(Encode(random, 5).size(), 80000 * 5 / 8 + 2 * (80000 / 65528 + 1));
  // A lone odd value between two long repeats is three RLE runs, not a bit-packed group:
  // (7 x 100: 2-byte header + 1), (3 x 1: 1 + 1), (7 x 99: 2 + 1) = 8 bytes.
  std::vector<uint32_t> lone(200, 7);
  lone[100] = 3;
  EXPECT_EQ(Encode(lone, 8).size(), 8u);
  // Short repeats at width 1 are cheaper bit-packed: 64 alternating pairs fit 16 bytes + header.
  std::vector<uint32_t> pairs;
  for (int i = 0; i < 64; ++i) pairs.insert(pairs.end(), {1, 1, 0, 0});
  EXPECT_EQ(Encode(pairs, 1).size(), 1u + 32u);
}

TEST(RleBitPackedHybridTest, RunsLongerThanTheFormatLimitAreSplit) {
  // 2^31 + 10 equal values must become two RLE runs, each at most 2^31 - 1 long.
  RleBitPackedHybridEncoder encoder(1);
  const std::vector<uint32_t> chunk(1 << 20, 1);
  const uint64_t total = (uint64_t{1} << 31) + (1 << 20);
  for (uint64_t done = 0; done < total; done += chunk.size()) PQPAGE_ASSERT_OK(encoder.Put(chunk));
  const std::vector<uint8_t> bytes = encoder.Finish();
  // First run: header varint((2^31 - 1) << 1) = 5 bytes + 1 value byte; second run of 2^20 + 1
  // values: header varint(2^21 + 2) = 4 bytes + 1 value byte.
  ASSERT_EQ(bytes.size(), 6u + 5u);
  EXPECT_EQ(bytes[0], 0xFE);
  EXPECT_EQ(bytes[4], 0x0F);
  RleBitPackedHybridDecoder decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 1, static_cast<int64_t>(total)));
  PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(total) - 3));
  uint32_t tail[3];
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(tail, 3)));
  EXPECT_EQ(tail[0] + tail[1] + tail[2], 3u);
}

TEST(RleBitPackedHybridTest, BitWidthZeroStillHasRunHeaders) {
  // An RLE run of 10 zeros (header 20, no value bytes) and a bit-packed run of 2 groups (header 5).
  const std::vector<uint8_t> bytes = {20, 5};
  EXPECT_EQ(DecodeAll(bytes, 0, 26), std::vector<uint32_t>(26, 0));
}

TEST(RleBitPackedHybridTest, LastBitPackedGroupMayBePartlyUsedOrCutShort) {
  // A run announcing 2 groups of width 4 whose stream stops after 5 of the 8 bytes (10 values).
  const std::vector<uint8_t> bytes = {0x05, 0x21, 0x43, 0x65, 0x87, 0xA9};
  EXPECT_EQ(DecodeAll(bytes, 4, 10), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  RleBitPackedHybridDecoder decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 4, 11));
  std::vector<uint32_t> out(11);
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out)), StatusCode::kDataLoss);
}

TEST(RleBitPackedHybridTest, LengthPrefix) {
  std::vector<uint8_t> framed;
  AppendLengthPrefixed(kSeedStream, &framed);
  framed.push_back(0xEE);  // whatever follows the stream in the page
  size_t consumed = 0;
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto stream, SplitLengthPrefixed(framed, &consumed));
  EXPECT_EQ(consumed, 4 + kSeedStream.size());
  EXPECT_EQ(std::vector<uint8_t>(stream.begin(), stream.end()), kSeedStream);
  const std::vector<uint8_t> lying = {9, 0, 0, 0, 1, 2};
  PQPAGE_EXPECT_ERROR(SplitLengthPrefixed(lying, &consumed), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(SplitLengthPrefixed(absl::MakeSpan(lying.data(), 3), &consumed),
                      StatusCode::kDataLoss);
}

TEST(RleBitPackedHybridTest, HostileStreamsAreErrors) {
  RleBitPackedHybridDecoder decoder;
  std::vector<uint32_t> out(64);
  auto decode = [&](std::vector<uint8_t> bytes, int width, size_t n) {
    absl::Status status = decoder.Reset(bytes, width, n);
    if (!status.ok()) return status;
    return decoder.Decode(absl::MakeSpan(out.data(), n));
  };
  PQPAGE_EXPECT_ERROR(decode({0x80, 0x80, 0x80, 0x80, 0x80, 0x80}, 3, 8), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decode({0x80, 0x80, 0x80, 0x80, 0x7F}, 3, 8), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decode({0x00, 0x01}, 3, 8), StatusCode::kDataLoss);  // run of length 0
  PQPAGE_EXPECT_ERROR(decode({0x10, 0x09}, 3, 8), StatusCode::kDataLoss);  // RLE value 9 > 3 bits
  PQPAGE_EXPECT_ERROR(decode({0x10}, 3, 8), StatusCode::kDataLoss);        // RLE value missing
  PQPAGE_EXPECT_ERROR(decode({0x03}, 3, 8), StatusCode::kDataLoss);        // packed bytes missing
  PQPAGE_EXPECT_ERROR(decode({0x10, 0x01}, 3, 9),
                      StatusCode::kDataLoss);  // fewer values than asked
  PQPAGE_EXPECT_ERROR(decode({}, 33, 0), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(decoder.Reset({}, 1, -1), StatusCode::kInvalidArgument);
  std::vector<int16_t> levels(8);
  const std::vector<uint8_t> threes = {0x10, 0x03};
  PQPAGE_ASSERT_OK(decoder.Reset(threes, 2, 8));
  PQPAGE_EXPECT_ERROR(decoder.DecodeLevels(absl::MakeSpan(levels), 2), StatusCode::kDataLoss);
}

TEST(RleBitPackedHybridTest, EveryTruncationIsAnErrorNotACrash) {
  for (int width : {1, 2, 7, 13, 32}) {
    const std::vector<uint32_t> values = Pattern("mixed", 500, width, 3);
    const std::vector<uint8_t> bytes = Encode(values, width);
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      // Exact-size copies, so the sanitizer catches any read past the cut.
      std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + cut);
      RleBitPackedHybridDecoder decoder;
      PQPAGE_ASSERT_OK(decoder.Reset(truncated, width, values.size()));
      std::vector<uint32_t> out(values.size());
      EXPECT_FALSE(decoder.Decode(absl::MakeSpan(out)).ok()) << "width " << width << " cut " << cut;
    }
  }
}

TEST(RleBitPackedHybridTest, EncoderRejectsValuesWiderThanItsWidth) {
  RleBitPackedHybridEncoder encoder(3);
  const std::vector<uint32_t> too_wide = {1, 2, 8};
  PQPAGE_EXPECT_ERROR(encoder.Put(too_wide), StatusCode::kInvalidArgument);
  const std::vector<int16_t> negative = {1, -1};
  PQPAGE_EXPECT_ERROR(encoder.Put(negative), StatusCode::kInvalidArgument);
  EXPECT_TRUE(encoder.Finish().empty());  // nothing of a rejected call was kept
  RleBitPackedHybridEncoder bad_width(40);
  PQPAGE_EXPECT_ERROR(bad_width.Put(std::vector<uint32_t>{1}), StatusCode::kInvalidArgument);
}

TEST(RleBitPackedHybridTest, EncoderIsReusableAfterFinish) {
  RleBitPackedHybridEncoder encoder(4);
  const std::vector<uint32_t> a = Pattern("mixed", 300, 4, 1);
  const std::vector<uint32_t> b = Pattern("random", 77, 4, 2);
  PQPAGE_ASSERT_OK(encoder.Put(a));
  const std::vector<uint8_t> first = encoder.Finish();
  PQPAGE_ASSERT_OK(encoder.Put(b));
  const std::vector<uint8_t> second = encoder.Finish();
  EXPECT_EQ(DecodeAll(first, 4, a.size()), a);
  EXPECT_EQ(DecodeAll(second, 4, b.size()), b);
}

}  // namespace
}  // namespace pqpage
