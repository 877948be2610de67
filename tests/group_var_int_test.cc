// Tests of GroupVarInt (seed 003, not a Parquet encoding): the seed's byte layout, the chosen
// 64-bit header order, zero padding of the last group, round trips, batches and hostile input.
#include "pqpage/group_var_int.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "status_matchers.h"

namespace pqpage {
namespace {

using ::absl::StatusCode;

// An independent reference encoder, written from the format description byte by byte.
template <typename T>
std::vector<uint8_t> Reference(const std::vector<T>& input) {
  constexpr int kGroup = sizeof(T) == 4 ? 4 : 5;
  std::vector<T> values = input;
  while (values.size() % kGroup != 0) values.push_back(0);
  std::vector<uint8_t> out;
  for (size_t g = 0; g < values.size(); g += kGroup) {
    uint32_t header = 0;
    std::vector<uint8_t> body;
    for (int j = 0; j < kGroup; ++j) {
      using U = std::make_unsigned_t<T>;
      U value = static_cast<U>(values[g + j]);
      int length = 1;
      while (length < static_cast<int>(sizeof(T)) && (value >> (8 * length)) != 0) ++length;
      for (int b = 0; b < length; ++b) body.push_back(static_cast<uint8_t>(value >> (8 * b)));
      if (sizeof(T) == 4) {
        header |= static_cast<uint32_t>(length - 1) << (2 * (3 - j));
      } else {
        header |= static_cast<uint32_t>(length - 1) << (3 * (4 - j));
      }
    }
    out.push_back(static_cast<uint8_t>(header));
    if (sizeof(T) == 8) out.push_back(static_cast<uint8_t>(header >> 8));
    out.insert(out.end(), body.begin(), body.end());
  }
  return out;
}

template <typename T>
std::vector<uint8_t> Encode(const std::vector<T>& values) {
  GroupVarIntEncoder<T> encoder;
  PQPAGE_EXPECT_OK(encoder.Put(values));
  const size_t estimate = encoder.EstimatedSize();
  std::vector<uint8_t> bytes = encoder.Finish();
  EXPECT_EQ(estimate, bytes.size());
  EXPECT_LE(bytes.size(), GroupVarIntEncoder<T>::MaxEncodedSize(values.size()));
  return bytes;
}

template <typename T>
std::vector<T> Decode(const std::vector<uint8_t>& bytes, size_t n) {
  GroupVarIntDecoder<T> decoder;
  EXPECT_TRUE(decoder.Reset(bytes, static_cast<int64_t>(n)).ok());
  std::vector<T> out(n);
  EXPECT_TRUE(decoder.Decode(absl::MakeSpan(out)).ok());
  return out;
}

TEST(GroupVarIntTest, SeedLeadingByteExample) {
  // Lengths 1, 3, 4, 2: header 0b00101101, 11 bytes, values at offsets 1, 2, 5, 9.
  const std::vector<int32_t> values = {0x12, 0x345678, static_cast<int32_t>(0x9ABCDEF0u), 0xBEEF};
  const std::vector<uint8_t> expected = {0b00101101, 0x12, 0x78, 0x56, 0x34, 0xF0,
                                         0xDE,       0xBC, 0x9A, 0xEF, 0xBE};
  EXPECT_EQ(Encode(values), expected);
  EXPECT_EQ(Decode<int32_t>(expected, 4), values);
  // The maximal values the seed names for each offset.
  const std::vector<int32_t> maxima = {0xFF, 0xFFFFFF, -1, 0xFFFF};
  const std::vector<uint8_t> max_bytes = Encode(maxima);
  ASSERT_EQ(max_bytes.size(), 11u);
  EXPECT_EQ(max_bytes[0], 0b00101101);
  EXPECT_EQ(Decode<int32_t>(max_bytes, 4), maxima);
}

TEST(GroupVarIntTest, SeedPaddingExample) {
  // 1,2,3,4,5 is written as 1,2,3,4,5,0,0,0.
  const std::vector<uint8_t> expected = {0x00, 1, 2, 3, 4, 0x00, 5, 0, 0, 0};
  EXPECT_EQ(Encode<int32_t>({1, 2, 3, 4, 5}), expected);
  EXPECT_EQ(Encode<int32_t>({1, 2, 3, 4, 5, 0, 0, 0}), expected);
  EXPECT_EQ(Decode<int32_t>(expected, 5), (std::vector<int32_t>{1, 2, 3, 4, 5}));
}

TEST(GroupVarIntTest, SixtyFourBitHeaderOrder) {
  // Lengths 1, 2, 3, 4, 8: fields 0,1,2,3,7 with the first value in bits 12..14 -> 0x029F.
  const std::vector<int64_t> values = {0x01, 0x0302, 0x060504, 0x0A090807, -1};
  const std::vector<uint8_t> expected = {0x9F, 0x02, 0x01, 0x02, 0x03, 0x04, 0x05,
                                         0x06, 0x07, 0x08, 0x09, 0x0A, 0xFF, 0xFF,
                                         0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_EQ(Encode(values), expected);
  EXPECT_EQ(Decode<int64_t>(expected, 5), values);
  // Only the first value long: its field is the most significant one (bits 12..14).
  const std::vector<uint8_t> first_long = Encode<int64_t>({0x0102030405060708LL, 0, 0, 0, 0});
  EXPECT_EQ(first_long[0], 0x00);
  EXPECT_EQ(first_long[1], 0x70);
  // Unused msb set: rejected.
  std::vector<uint8_t> bad = expected;
  bad[1] |= 0x80;
  GroupVarIntDecoder<int64_t> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bad, 5));
  std::vector<int64_t> out(5);
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out)), StatusCode::kDataLoss);
}

template <typename T>
std::vector<T> Values(size_t n, int pattern, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> values(n);
  for (size_t i = 0; i < n; ++i) {
    switch (pattern) {
      case 0:
        values[i] = static_cast<T>(rng());
        break;
      case 1:
        values[i] = static_cast<T>(rng() >> (rng() % 64));
        break;  // mixed byte lengths
      case 2:
        values[i] = static_cast<T>(i);
        break;
      case 3:
        values[i] = static_cast<T>(n - i);
        break;
      case 4:
        values[i] = 42;
        break;
      default:
        values[i] = (i % 3 == 0)   ? std::numeric_limits<T>::min()
                    : (i % 3 == 1) ? std::numeric_limits<T>::max()
                                   : static_cast<T>(-1);
    }
  }
  return values;
}

template <typename T>
void RoundTrip() {
  for (size_t n : {0, 1, 4, 5, 7, 8, 9, 10, 31, 32, 33, 127, 128, 129, 100000}) {
    for (int pattern = 0; pattern < 6; ++pattern) {
      const std::vector<T> values = Values<T>(n, pattern, n + 100 * pattern);
      // Put in uneven parts: the encoder keeps partial groups between calls.
      GroupVarIntEncoder<T> encoder;
      size_t done = 0, p = 0;
      const size_t parts[] = {1, 3, 2, 11, 7};
      while (done < n) {
        const size_t take = std::min(parts[p++ % 5], n - done);
        PQPAGE_EXPECT_OK(encoder.Put(absl::MakeConstSpan(values.data() + done, take)));
        done += take;
      }
      const std::vector<uint8_t> bytes = encoder.Finish();
      ASSERT_EQ(bytes, Reference(values)) << n << " " << pattern;
      // Independent reference bytes must decode back too (the stream exactly as long as needed).
      ASSERT_EQ(Decode<T>(bytes, n), values);

      GroupVarIntDecoder<T> decoder;
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      const size_t batches[] = {1, 7, 33, 2, 5, 4};
      done = 0;
      size_t b = 0;
      while (done < n) {
        const size_t take = std::min(batches[b++ % 6], n - done);
        if (b % 4 == 0) {
          PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(take)));
        } else {
          std::vector<T> part(take);
          PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(part)));
          ASSERT_TRUE(std::equal(part.begin(), part.end(), values.begin() + done)) << done;
        }
        done += take;
      }
      EXPECT_EQ(decoder.values_left(), 0);
      T extra;
      PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(&extra, 1)), StatusCode::kInvalidArgument);
    }
  }
}

TEST(GroupVarIntTest, RoundTrip32) { RoundTrip<int32_t>(); }
TEST(GroupVarIntTest, RoundTrip64) { RoundTrip<int64_t>(); }

TEST(GroupVarIntTest, NegativeValuesUseFullWidth) {
  EXPECT_EQ(Encode<int32_t>({-1, 0, 0, 0}).size(), 1u + 4 + 3);
  EXPECT_EQ(Encode<int64_t>({-1, 0, 0, 0, 0}).size(), 2u + 8 + 4);
}

template <typename T>
void Hostile() {
  const std::vector<T> values = Values<T>(23, 1, 9);
  const std::vector<uint8_t> bytes = Encode(values);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    // An exact-size copy, so the sanitizer sees any read past the end.
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + cut);
    GroupVarIntDecoder<T> decoder;
    const absl::Status reset = decoder.Reset(truncated, 23);
    if (!reset.ok()) {
      EXPECT_EQ(reset.code(), StatusCode::kDataLoss);
      continue;
    }
    std::vector<T> out(23);
    PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out)), StatusCode::kDataLoss) << cut;
    PQPAGE_ASSERT_OK(decoder.Reset(truncated, 23));
    PQPAGE_EXPECT_ERROR(decoder.Skip(23), StatusCode::kDataLoss) << cut;
  }
  // Headers that announce full-width values over a buffer of minimal groups.
  std::vector<uint8_t> lying(sizeof(T) == 4 ? 20 : 40, 0xFF);
  if (sizeof(T) == 8) {
    for (size_t i = 1; i < lying.size(); i += 2) lying[i] = 0x7F;
  }
  GroupVarIntDecoder<T> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(lying, sizeof(T) == 4 ? 5 : 10));
  std::vector<T> out(sizeof(T) == 4 ? 5 : 10);
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out)), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder.Reset(lying, 100000), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder.Reset(lying, -1), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(decoder.Reset(lying, std::numeric_limits<int64_t>::max()),
                      StatusCode::kDataLoss);
}

TEST(GroupVarIntTest, Hostile32) { Hostile<int32_t>(); }
TEST(GroupVarIntTest, Hostile64) { Hostile<int64_t>(); }

}  // namespace
}  // namespace pqpage
