#include "pqpage/bit_packed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "status_matchers.h"

namespace pqpage {
namespace {

using absl::StatusCode;

TEST(BitPackedTest, SpecExampleZeroToSevenWidthThree) {
  BitPackedLevelEncoder encoder(3);
  const std::vector<int16_t> levels = {0, 1, 2, 3, 4, 5, 6, 7};
  PQPAGE_ASSERT_OK(encoder.Put(levels));
  EXPECT_EQ(encoder.Finish(), (std::vector<uint8_t>{0b00000101, 0b00111001, 0b01110111}));
  BitPackedLevelDecoder decoder;
  const std::vector<uint8_t> bytes = {0b00000101, 0b00111001, 0b01110111};
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 3, 8));
  std::vector<int16_t> out(8);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out), 7));
  EXPECT_EQ(out, levels);
}

TEST(BitPackedTest, ThirtyTwoBitValuesTakeEightBytesAsTheSpecSays) {
  // "to encode 30 values, we would have 30 * 2 = 60 bits = 8 bytes", last byte zero-padded.
  EXPECT_EQ(BitPackedEncodedSize(2, 30), 8u);
  BitPackedLevelEncoder encoder(2);
  PQPAGE_ASSERT_OK(encoder.Put(std::vector<int16_t>(30, 3)));
  const std::vector<uint8_t> bytes = encoder.Finish();
  ASSERT_EQ(bytes.size(), 8u);
  EXPECT_EQ(bytes[7], 0xF0);  // 4 value bits, then 4 padding zeros
}

TEST(BitPackedTest, RoundTripsInBatchesForEveryLevelWidth) {
  std::mt19937 rng(7);
  for (int width = 0; width <= 16; ++width) {
    for (size_t n : {0, 1, 7, 8, 9, 31, 33, 129, 5000}) {
      // Levels are int16: at width 16 the largest level is still 32767.
      const int16_t max_level = static_cast<int16_t>(std::min((1 << width) - 1, 32767));
      std::vector<int16_t> levels(n);
      for (auto& l : levels) l = static_cast<int16_t>(rng() % (max_level + 1u));
      BitPackedLevelEncoder encoder(width);
      PQPAGE_ASSERT_OK(encoder.Put(absl::MakeSpan(levels).first(n / 2)));
      PQPAGE_ASSERT_OK(encoder.Put(absl::MakeSpan(levels).subspan(n / 2)));
      const std::vector<uint8_t> bytes = encoder.Finish();
      ASSERT_EQ(bytes.size(), BitPackedEncodedSize(width, n));
      BitPackedLevelDecoder decoder;
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, width, n));
      std::vector<int16_t> out;
      for (size_t done = 0; done < n;) {
        const size_t k = std::min<size_t>(1 + done % 13, n - done);
        std::vector<int16_t> part(k);
        if (done % 3 == 2) {
          PQPAGE_ASSERT_OK(decoder.Skip(k));
          part.assign(levels.begin() + done, levels.begin() + done + k);
        } else if (done % 3 == 1) {
          // Counting the maximum (or 0 for width 0, where every level is the maximum).
          PQPAGE_ASSERT_OK_AND_ASSIGN(
              int64_t matches, decoder.DecodeCounting(absl::MakeSpan(part), max_level, max_level));
          EXPECT_EQ(matches, std::count(part.begin(), part.end(), max_level));
        } else {
          PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(part), max_level));
        }
        out.insert(out.end(), part.begin(), part.end());
        done += k;
      }
      ASSERT_EQ(out, levels) << "width " << width << " n " << n;
    }
  }
}

TEST(BitPackedTest, HostileInput) {
  BitPackedLevelDecoder decoder;
  const std::vector<uint8_t> bytes = {0xFF, 0xFF};
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, 3, 6), StatusCode::kDataLoss);  // needs 3 bytes
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, 17, 1), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, 1, -1), StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 2, 8));
  std::vector<int16_t> out(8);
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out), 2), StatusCode::kDataLoss);  // 3 > max 2
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 2, 8));
  std::vector<int16_t> too_many(9);
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(too_many), 3), StatusCode::kInvalidArgument);
  BitPackedLevelEncoder encoder(2);
  PQPAGE_EXPECT_ERROR(encoder.Put(std::vector<int16_t>{4}), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(encoder.Put(std::vector<int16_t>{-1}), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqpage
