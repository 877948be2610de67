// Tests of DELTA_LENGTH_BYTE_ARRAY: the spec's example as exact bytes, round trips, and hostile
// pages (truncations, negative lengths, lengths past the data, missing length stream).
#include "pqpage/delta_length_byte_array.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "status_matchers.h"

namespace pqpage {
namespace {

using Bytes = std::vector<uint8_t>;

std::vector<ByteArray> Views(const std::vector<std::string>& strings) {
  std::vector<ByteArray> views;
  for (const auto& s : strings) views.emplace_back(s);
  return views;
}

Bytes Encode(const std::vector<std::string>& strings) {
  DeltaLengthByteArrayEncoder encoder;
  EXPECT_TRUE(encoder.Put(Views(strings)).ok());
  return encoder.Finish();
}

absl::StatusOr<std::vector<std::string>> DecodeAll(const Bytes& bytes, int64_t n) {
  DeltaLengthByteArrayDecoder decoder;
  absl::Status s = decoder.Reset(bytes, n);
  if (!s.ok()) return s;
  std::vector<ByteArray> views(static_cast<size_t>(n));
  s = decoder.Decode(absl::MakeSpan(views));
  if (!s.ok()) return s;
  std::vector<std::string> out;
  for (const auto& v : views) out.emplace_back(v.AsStringView());
  return out;
}

// Length stream of 4 values, lengths 5,5,6,6 in the default shape (block 128, 4 miniblocks):
// header 0x80 0x01, 4, 4, zigzag(5) = 10; deltas 0,1,0, min 0 -> zigzag 0; relative 0,1,0 need
// width 1 in miniblock 0 -> widths 1,0,0,0; body 32 values * 1 bit = 4 bytes, bits 0,1,0 -> 0x02.
const Bytes kSpecLengths = {0x80, 0x01, 4, 4, 10, 0, 1, 0, 0, 0, 0x02, 0, 0, 0};

TEST(DeltaLengthByteArraySpec, HelloWorldExactBytes) {
  const std::vector<std::string> values = {"Hello", "World", "Foobar", "ABCDEF"};
  Bytes expected = kSpecLengths;
  const std::string data = "HelloWorldFoobarABCDEF";
  expected.insert(expected.end(), data.begin(), data.end());
  EXPECT_EQ(Encode(values), expected);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoded, DecodeAll(expected, 4));
  EXPECT_EQ(decoded, values);
  // Views point into the input.
  DeltaLengthByteArrayDecoder decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(expected, 4));
  ByteArray first;
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(&first, 1)));
  EXPECT_EQ(first.data, expected.data() + kSpecLengths.size());
}

std::vector<std::vector<std::string>> Patterns(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> random(n), empty(n), equal(n, "same value"), mixed(n);
  for (auto& s : random) {
    s.resize(rng() % 40);
    for (auto& c : s) c = static_cast<char>(rng());
  }
  for (size_t i = 0; i < n; ++i) mixed[i] = std::string(i % 7 == 0 ? 3000 + i % 1000 : i % 3, 'x');
  std::vector<std::vector<std::string>> patterns = {random, empty, equal, mixed};
  // Lengths in each of the encoder's word ranges ([4, 16], [8, 32], [16, 64]).
  for (size_t word : {4, 8, 16}) {
    std::vector<std::string> ranged(n);
    for (auto& s : ranged) {
      s.resize(word + rng() % (3 * word + 1));
      for (auto& c : s) c = static_cast<char>(rng());
    }
    patterns.push_back(std::move(ranged));
  }
  return patterns;
}

TEST(DeltaLengthByteArrayRoundTrip, AllLengthsAndBatches) {
  uint64_t seed = 1;
  for (size_t n : {0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 1000, 100000}) {
    for (const auto& values : Patterns(n, seed++)) {
      const Bytes bytes = Encode(values);
      PQPAGE_ASSERT_OK_AND_ASSIGN(auto all, DecodeAll(bytes, static_cast<int64_t>(n)));
      ASSERT_EQ(all, values) << n;
      // Batches and skips.
      DeltaLengthByteArrayDecoder decoder;
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      size_t at = 0;
      for (size_t k = 0; at < n; ++k) {
        const size_t skip = std::min<size_t>(k % 5, n - at);
        PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(skip)));
        at += skip;
        const size_t take = std::min<size_t>((size_t[]){1, 7, 33, 2}[k % 4], n - at);
        std::vector<ByteArray> part(take);
        PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(part)));
        for (size_t i = 0; i < take; ++i) ASSERT_EQ(part[i].AsStringView(), values[at + i]);
        at += take;
      }
      EXPECT_EQ(decoder.values_left(), 0);
      ByteArray extra;
      PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(&extra, 1)),
                          absl::StatusCode::kInvalidArgument);
      PQPAGE_EXPECT_ERROR(decoder.Skip(1), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST(DeltaLengthByteArrayRoundTrip, StreamingPutsAndFewerValuesThanHeader) {
  const auto values = Patterns(1000, 7)[0];
  DeltaLengthByteArrayEncoder encoder;
  const auto views = Views(values);
  for (size_t at = 0; at < views.size(); at += 77) {
    PQPAGE_ASSERT_OK(encoder.Put(absl::MakeConstSpan(views).subspan(at, 77)));
  }
  EXPECT_EQ(encoder.num_values(), 1000);
  const Bytes bytes = encoder.Finish();
  EXPECT_EQ(bytes, Encode(values));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto some, DecodeAll(bytes, 600));
  EXPECT_EQ(some, std::vector<std::string>(values.begin(), values.begin() + 600));
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 1001), absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, -1), absl::StatusCode::kInvalidArgument);
}

TEST(DeltaLengthByteArrayHostile, EveryTruncationFails) {
  for (size_t n : {1, 4, 40, 300}) {
    const Bytes bytes = Encode(Patterns(n, n)[0]);
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      const Bytes part(bytes.begin(), bytes.begin() + cut);
      PQPAGE_EXPECT_ERROR(DecodeAll(part, static_cast<int64_t>(n)), absl::StatusCode::kDataLoss)
          << "cut " << cut;
    }
  }
}

TEST(DeltaLengthByteArrayHostile, MissingLengthStream) {
  PQPAGE_EXPECT_ERROR(DecodeAll({}, 3), absl::StatusCode::kDataLoss);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto none, DecodeAll({}, 0));
  EXPECT_TRUE(none.empty());
}

TEST(DeltaLengthByteArrayHostile, NegativeLength) {
  // Lengths 3, -1 (first 3 -> zigzag 6; delta -4, min -4 -> zigzag 7, width 0), then 3 bytes.
  const Bytes bytes = {0x80, 0x01, 4, 2, 6, 7, 0, 0, 0, 0, 'a', 'b', 'c'};
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 2), absl::StatusCode::kDataLoss);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto one, DecodeAll(bytes, 1));  // only the lengths read are checked
  EXPECT_EQ(one, std::vector<std::string>{"abc"});
}

TEST(DeltaLengthByteArrayHostile, LengthsBeyondTheData) {
  // Lengths 5, 5 (delta 0, width 0) but only 9 bytes of data.
  Bytes bytes = {0x80, 0x01, 4, 2, 10, 0, 0, 0, 0, 0};
  bytes.insert(bytes.end(), 9, 'z');
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 2), absl::StatusCode::kDataLoss);
  bytes.push_back('z');
  PQPAGE_EXPECT_OK(DecodeAll(bytes, 2));
}

TEST(DeltaLengthByteArrayHostile, HugeLengthsDoNotOverflowTheSum) {
  // 1000 lengths of 2^31 - 1 (first value zigzag(2^31-1) = 2^32 - 2, deltas 0): the sum is far
  // past the data, whatever its width.
  Bytes bytes = {0x80, 0x01, 4, 0xE8, 0x07, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F};
  for (int block = 0; block < 8; ++block) bytes.insert(bytes.end(), {0, 0, 0, 0, 0});
  bytes.insert(bytes.end(), 100, 'q');
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 1000), absl::StatusCode::kDataLoss);
  // The sum is exact (it is added up from its low and high 16 bits): 1000 x (2^31 - 1).
  const absl::Status status = DecodeAll(bytes, 1000).status();
  EXPECT_NE(std::string(status.message()).find("lengths sum to 2147483647000 bytes"),
            std::string::npos)
      << status;
}

TEST(DeltaLengthByteArrayRoundTrip, LengthsAcrossSixteenBitsSumExactly) {
  // Lengths on both sides of 2^16, whose sum needs both halves of the split sum.
  std::vector<std::string> strings;
  for (size_t length : {65535, 65536, 65537, 1, 131071, 0, 70000}) {
    strings.emplace_back(length, static_cast<char>('a' + strings.size()));
  }
  const Bytes bytes = Encode(strings);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto back, DecodeAll(bytes, static_cast<int64_t>(strings.size())));
  EXPECT_EQ(back, strings);
  // One byte fewer of data: the exact sum no longer fits.
  const Bytes short_by_one(bytes.begin(), bytes.end() - 1);
  PQPAGE_EXPECT_ERROR(DecodeAll(short_by_one, static_cast<int64_t>(strings.size())),
                      absl::StatusCode::kDataLoss);
}

TEST(DeltaLengthByteArrayHostile, LengthStreamWithIllegalWidth) {
  Bytes bytes = {0x80, 0x01, 4, 3, 0, 0, 40, 0, 0, 0};
  bytes.resize(bytes.size() + 32 * 40 / 8 + 100, 0);
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 3), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace pqpage
