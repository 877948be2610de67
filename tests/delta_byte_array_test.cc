// Tests of DELTA_BYTE_ARRAY: the spec's example as exact bytes, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
// round trips, and hostile pages (prefix longer than the previous value, first prefix non-zero,
// disagreeing counts, FLBA length mismatch, quadratic expansion, truncations).
#include "pqpage/delta_byte_array.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"
#include "pqpage/column_descriptor.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using Bytes = std::vector<uint8_t>;

std::vector<ByteArray> Views(const std::vector<std::string>& strings) {
  std::vector<ByteArray> views;
  for (const auto& s : strings) views.emplace_back(s);
  return views;
}

Bytes Encode(const std::vector<std::string>& strings, int type_length = kVariableLength) {
  DeltaByteArrayEncoder encoder(type_length);
  EXPECT_TRUE(encoder.Put(Views(strings)).ok());
  return encoder.Finish();
}

absl::StatusOr<std::vector<std::string>> DecodeAll(const Bytes& bytes, int64_t n,
                                                   int type_length = kVariableLength,
                                                   DeltaByteArrayOptions options = {}) {
  DeltaByteArrayDecoder decoder(type_length, options);
  absl::Status s = decoder.Reset(bytes, n);
  if (!s.ok()) return s;
  std::vector<ByteArray> views(static_cast<size_t>(n));
  s = decoder.Decode(absl::MakeSpan(views));
  if (!s.ok()) return s;
  std::vector<std::string> out;
  for (const auto& v : views) out.emplace_back(v.AsStringView());
  return out;
}

// Hand-derived streams in the default shape (block 128, 4 miniblocks of 32).
// Prefix lengths 0,2,0,3: header 0x80 0x01, 4, 4, zigzag(0)=0; deltas 2,-2,3, min -2 (zigzag 3);
// relative 4,0,5 on width 3: bits 100 000 101 -> bytes 0x44 0x01, body 32*3/8 = 12 bytes.
const Bytes kPrefixes = {0x80, 0x01, 4, 4, 0, 3, 3, 0, 0, 0, 0x44,
                         0x01, 0,    0, 0, 0, 0, 0, 0, 0, 0, 0};
// Suffix lengths 4,2,6,5: zigzag(4)=8; deltas -2,4,-1, min -2 (zigzag 3); relative 0,6,1 on width
// 3: bits 000 011 100 -> 0x70 0x00.
const Bytes kSuffixes = {0x80, 0x01, 4, 4, 8, 3, 3, 0, 0, 0, 0x70,
                         0x00, 0,    0, 0, 0, 0, 0, 0, 0, 0, 0};

Bytes Concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
Bytes Text(const std::string& s) { return Bytes(s.begin(), s.end()); }

TEST(DeltaByteArraySpec, AxisAxleBabbleBabyhoodExactBytes) {
  const std::vector<std::string> values = {"axis", "axle", "babble", "babyhood"};
  const Bytes expected = Concat({kPrefixes, kSuffixes, Text("axislebabbleyhood")});
  EXPECT_EQ(Encode(values), expected);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoded, DecodeAll(expected, 4));
  EXPECT_EQ(decoded, values);
}

TEST(DeltaByteArraySpec, ViewsStayValidUntilReset) {
  const std::vector<std::string> values = {"axis", "axle", "babble", "babyhood"};
  const Bytes bytes = Encode(values);
  DeltaByteArrayDecoder decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 4));
  std::vector<ByteArray> views(4);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(views).subspan(0, 1)));
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(views).subspan(1, 3)));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(views[i].AsStringView(), values[i]);
}

std::vector<std::vector<std::string>> Patterns(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> random(n), empty(n), equal(n, "same value"), urls(n), growing(n),
      shrinking(n);
  for (auto& s : random) {
    s.resize(rng() % 40);
    for (auto& c : s) c = static_cast<char>('a' + rng() % 3);  // small alphabet: shared prefixes
  }
  for (size_t i = 0; i < n; ++i) {
    urls[i] = "https://example.com/" + std::string(rng() % 2 ? "a/" : "bb/") + std::to_string(i);
    growing[i] = std::string(i % 300, 'g') + std::to_string(i % 3);
    shrinking[n - 1 - i] = growing[i];
  }
  return {random, empty, equal, urls, growing, shrinking};
}

void CheckRoundTrip(const std::vector<std::string>& values, int type_length = kVariableLength) {
  const Bytes bytes = Encode(values, type_length);
  const int64_t n = static_cast<int64_t>(values.size());
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto all, DecodeAll(bytes, n, type_length));
  ASSERT_EQ(all, values);
  DeltaByteArrayDecoder decoder(type_length);
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, n));
  std::vector<ByteArray> kept;  // views from several Decode calls, checked at the end
  size_t at = 0;
  std::vector<size_t> positions;
  for (size_t k = 0; at < values.size(); ++k) {
    const size_t skip = std::min<size_t>(k % 4, values.size() - at);
    PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(skip)));
    at += skip;
    const size_t take = std::min<size_t>((size_t[]){1, 7, 33, 3}[k % 4], values.size() - at);
    std::vector<ByteArray> part(take);
    PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(part)));
    for (size_t i = 0; i < take; ++i) positions.push_back(at + i);
    kept.insert(kept.end(), part.begin(), part.end());
    at += take;
  }
  for (size_t i = 0; i < kept.size(); ++i) {
    ASSERT_EQ(kept[i].AsStringView(), values[positions[i]]) << positions[i];
  }
  PQPAGE_EXPECT_ERROR(decoder.Skip(1), absl::StatusCode::kInvalidArgument);
}

TEST(DeltaByteArrayRoundTrip, ByteArrayAllLengths) {
  uint64_t seed = 1;
  for (size_t n : {0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 1000, 100000}) {
    for (const auto& values : Patterns(n, seed++)) {
      SCOPED_TRACE(n);
      CheckRoundTrip(values);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(DeltaByteArrayRoundTrip, FixedLenByteArray) {
  for (int32_t width : {0, 1, 4, 16, 33}) {
    std::mt19937_64 rng(width);
    std::vector<std::string> values(2000);
    for (auto& s : values) {
      s.resize(width);
      for (auto& c : s) c = static_cast<char>(rng() % 2);
    }
    CheckRoundTrip(values, width);
  }
}

TEST(DeltaByteArrayRoundTrip, PrefixSharedAcrossPutsResetAcrossPages) {
  const std::vector<std::string> values = Patterns(500, 3)[3];
  DeltaByteArrayEncoder encoder;
  const auto views = Views(values);
  for (size_t at = 0; at < views.size(); at += 50) {
    PQPAGE_ASSERT_OK(encoder.Put(absl::MakeConstSpan(views).subspan(at, 50)));
  }
  const Bytes page1 = encoder.Finish();
  EXPECT_EQ(page1, Encode(values));
  // The second page starts afresh: same bytes again.
  PQPAGE_ASSERT_OK(encoder.Put(views));
  EXPECT_EQ(encoder.Finish(), page1);
}

TEST(DeltaByteArrayRoundTrip, FewerValuesThanHeader) {
  const auto values = Patterns(300, 4)[0];
  const Bytes bytes = Encode(values);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto some, DecodeAll(bytes, 100));
  EXPECT_EQ(some, std::vector<std::string>(values.begin(), values.begin() + 100));
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 301), absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, -1), absl::StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------- hostile input
// A DELTA_BINARY_PACKED stream of small non-negative values, built by hand with one 8-bit
// miniblock per block so tests can state arbitrary lengths.
Bytes LengthStream(const std::vector<int>& values) {
  Bytes out = {0x80, 0x01, 4, static_cast<uint8_t>(values.size())};
  out.push_back(values.empty() ? 0 : static_cast<uint8_t>(values[0] * 2));
  if (values.size() > 1) {
    // min delta -128 (zigzag 255 = 0xFF 0x01), width 8 for miniblock 0: relative = delta + 128.
    out.insert(out.end(), {0xFF, 0x01, 8, 0, 0, 0});
    Bytes body(32, 0);
    for (size_t i = 1; i < values.size(); ++i) {
      body[i - 1] = static_cast<uint8_t>(values[i] - values[i - 1] + 128);
    }
    out.insert(out.end(), body.begin(), body.end());
  }
  return out;
}

TEST(DeltaByteArrayHostile, HandBuiltStreamsDecode) {
  const Bytes ok =
      Concat({LengthStream({0, 2, 0, 3}), LengthStream({4, 2, 6, 5}), Text("axislebabbleyhood")});
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoded, DecodeAll(ok, 4));
  EXPECT_EQ(decoded, (std::vector<std::string>{"axis", "axle", "babble", "babyhood"}));
}

TEST(DeltaByteArrayHostile, PrefixLongerThanPreviousValue) {
  // "axis" then prefix 5 > 4.
  const Bytes bytes = Concat({LengthStream({0, 5}), LengthStream({4, 1}), Text("axisz")});
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 2), absl::StatusCode::kDataLoss);
}

TEST(DeltaByteArrayHostile, FirstPrefixMustBeZero) {
  const Bytes bytes = Concat({LengthStream({1, 0}), LengthStream({4, 1}), Text("axisz")});
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 2), absl::StatusCode::kDataLoss);
  // And the decoder does not carry the previous page's last value into the next page.
  DeltaByteArrayDecoder decoder;
  const Bytes good = Encode({"axis", "axle"});
  PQPAGE_ASSERT_OK(decoder.Reset(good, 2));
  std::vector<ByteArray> out(2);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out)));
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, 2), absl::StatusCode::kDataLoss);
}

TEST(DeltaByteArrayHostile, NegativePrefixOrSuffix) {
  // Prefixes 0, -1: first 0, delta -1 -> min -1 (zigzag 1), width 0.
  const Bytes negative_prefix =
      Concat({Bytes{0x80, 0x01, 4, 2, 0, 1, 0, 0, 0, 0}, LengthStream({4, 1}), Text("axisz")});
  PQPAGE_EXPECT_ERROR(DecodeAll(negative_prefix, 2), absl::StatusCode::kDataLoss);
  const Bytes negative_suffix =
      Concat({LengthStream({0, 0}), Bytes{0x80, 0x01, 4, 2, 8, 9, 0, 0, 0, 0}, Text("axis")});
  PQPAGE_EXPECT_ERROR(DecodeAll(negative_suffix, 2), absl::StatusCode::kDataLoss);
}

TEST(DeltaByteArrayHostile, CountsMustAgree) {
  const Bytes bytes = Concat({LengthStream({0, 2, 0}), LengthStream({4, 2}), Text("axisle")});
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 2), absl::StatusCode::kDataLoss);
}

TEST(DeltaByteArrayHostile, SuffixesBeyondTheData) {
  const Bytes bytes = Concat({LengthStream({0, 2}), LengthStream({4, 2}), Text("axisl")});
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 2), absl::StatusCode::kDataLoss);
}

TEST(DeltaByteArrayHostile, MissingStreams) {
  PQPAGE_EXPECT_ERROR(DecodeAll({}, 1), absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(DecodeAll(LengthStream({0}), 1), absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_OK(DecodeAll({}, 0));
}

TEST(DeltaByteArrayHostile, FixedLenLengthMismatch) {
  // Encoder: a 3-byte value is rejected and nothing of the call is kept.
  DeltaByteArrayEncoder encoder(4);
  const std::vector<std::string> bad = {"abcd", "abc"};
  PQPAGE_EXPECT_ERROR(encoder.Put(Views(bad)), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(encoder.num_values(), 0);
  // Decoder: "axis", "axle" (4 bytes) pass; "babble" (6) does not.
  const Bytes spec = Concat({kPrefixes, kSuffixes, Text("axislebabbleyhood")});
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto two, DecodeAll(spec, 2, 4));
  EXPECT_EQ(two, (std::vector<std::string>{"axis", "axle"}));
  PQPAGE_EXPECT_ERROR(DecodeAll(spec, 3, 4), absl::StatusCode::kDataLoss);
  // A negative length other than kVariableLength is no FIXED_LEN_BYTE_ARRAY.
  PQPAGE_EXPECT_ERROR(DecodeAll(spec, 2, -2), absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(DeltaByteArrayEncoder(-2).Put(Views(bad)),
                      absl::StatusCode::kInvalidArgument);
  // The codec is for byte arrays only: an INT32 column cannot have one.
  ColumnDescriptor int32_column;
  int32_column.type = PhysicalType::kInt32;
  PQPAGE_EXPECT_ERROR(MakeDecoder<ByteArray>(Encoding::kDeltaByteArray, int32_column).status(),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(MakeEncoder<int32_t>(Encoding::kDeltaByteArray, int32_column).status(),
                      absl::StatusCode::kUnimplemented);
}

TEST(DeltaByteArrayHostile, QuadraticExpansionIsCapped) {
  // One 1000-byte value, then 5000 values each repeating it whole (prefix 1000, suffix 0): a page
  // of ~1.2 KB that decodes to 5 MB.
  std::vector<std::string> values(5001, std::string(1000, 'p'));
  const Bytes bytes = Encode(values);
  EXPECT_LT(bytes.size(), 2000u);
  DeltaByteArrayOptions options;
  options.max_decoded_bytes = 1 << 20;
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 5001, kVariableLength, options),
                      absl::StatusCode::kResourceExhausted);
  options.max_decoded_bytes = 5001 * 1000;
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoded, DecodeAll(bytes, 5001, kVariableLength, options));
  EXPECT_EQ(decoded, values);
  // The total is exact to the byte, with values past 2^16 bytes (it is added up from 16-bit
  // halves): the cap at the total passes, one byte under it fails.
  const std::vector<std::string> long_values = {std::string(70000, 'a'),
                                                std::string(70000, 'a') + "b",
                                                std::string(131072, 'c'), std::string(5, 'd')};
  const Bytes long_bytes = Encode(long_values);
  options.max_decoded_bytes = 70000 + 70001 + 131072 + 5;
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto long_decoded,
                              DecodeAll(long_bytes, 4, kVariableLength, options));
  EXPECT_EQ(long_decoded, long_values);
  options.max_decoded_bytes -= 1;
  PQPAGE_EXPECT_ERROR(DecodeAll(long_bytes, 4, kVariableLength, options),
                      absl::StatusCode::kResourceExhausted);
}

TEST(DeltaByteArrayHostile, EveryTruncationFails) {
  for (size_t n : {1, 4, 40, 300}) {
    const Bytes bytes = Encode(Patterns(n, n)[3]);
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      const Bytes part(bytes.begin(), bytes.begin() + cut);
      PQPAGE_EXPECT_ERROR(DecodeAll(part, static_cast<int64_t>(n)), absl::StatusCode::kDataLoss)
          << "cut " << cut;
    }
  }
}

TEST(DeltaByteArrayHostile, VarintThatNeverEnds) {
  Bytes bytes = {0x80, 0x01, 4};
  bytes.insert(bytes.end(), 30, 0x80);
  PQPAGE_EXPECT_ERROR(DecodeAll(bytes, 1), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace pqpage
