// Tests of DELTA_BINARY_PACKED: the spec's examples as exact bytes, round trips over every shape
// and block layout, and hostile streams. Expectations come from hand-derived bytes and from a
// bit-at-a-time reference decoder written here, independent of the library's kernels.
//
// The spec's examples use block size 8, which the spec itself calls invalid. Decision: the decoder
// has no leniency for them; the tests show the spec's bytes are rejected with DataLoss, and
// re-encode the same values with a legal block size (exact bytes derived by hand) and decode them.
#include "pqpage/delta_binary_packed.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "delta_stream_checks.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

// ---------------------------------------------------------------- independent reference decoder
uint64_t RefUleb(const Bytes& b, size_t* pos) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t byte = b.at((*pos)++);
    v |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) return v;
  }
}
int64_t RefZigZag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

struct RefStream {
  std::vector<int64_t> values;  // as the physical type, sign-extended
  std::vector<int> widths;      // every width byte, used or not
  bool padding_zero = true;
  size_t end = 0;
};

// Decodes bit by bit; `bits` is the physical width (32/64).
RefStream RefDecode(const Bytes& b, int bits) {
  RefStream r;
  size_t pos = 0;
  const uint64_t block = RefUleb(b, &pos), minis = RefUleb(b, &pos), total = RefUleb(b, &pos);
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  uint64_t last = static_cast<uint64_t>(RefZigZag(RefUleb(b, &pos))) & mask;
  auto emit = [&](uint64_t v) {
    r.values.push_back(bits == 64 ? static_cast<int64_t>(v) : static_cast<int32_t>(v));
  };
  if (total > 0) emit(last);
  uint64_t left = total > 0 ? total - 1 : 0;
  const uint64_t per_mini = block / minis;
  while (left > 0) {
    const uint64_t min_delta = static_cast<uint64_t>(RefZigZag(RefUleb(b, &pos)));
    std::vector<int> w(minis);
    for (auto& x : w) x = b.at(pos++);
    r.widths.insert(r.widths.end(), w.begin(), w.end());
    for (uint64_t m = 0; m < minis && left > 0; ++m) {
      size_t bit = pos * 8;
      for (uint64_t i = 0; i < per_mini; ++i) {
        uint64_t v = 0;
        for (int k = 0; k < w[m]; ++k, ++bit) {
          v |= static_cast<uint64_t>((b.at(bit / 8) >> (bit % 8)) & 1) << k;
        }
        if (left > 0) {
          last = (last + v + min_delta) & mask;
          emit(last);
          --left;
        } else if (v != 0) {
          r.padding_zero = false;
        }
      }
      pos += per_mini * w[m] / 8;
    }
  }
  r.end = pos;
  return r;
}

// ---------------------------------------------------------------- helpers
template <typename T>
Bytes Encode(const std::vector<T>& values, int64_t block = 128, int64_t minis = 4) {
  auto encoder = DeltaBinaryPackedEncoder<T>::Make(block, minis);
  EXPECT_TRUE(encoder.ok()) << encoder.status();
  PQPAGE_EXPECT_OK(encoder->Put(values));
  return encoder->Finish();
}

const size_t kLengths[] = {0,   1,   2,   7,   8,   9,   31,   32,    33,
                           127, 128, 129, 255, 256, 257, 1000, 100000};

// ---------------------------------------------------------------- spec examples
TEST(DeltaBinaryPackedSpec, Example1BlockSize8IsRejected) {
  // Header 8 (block), 1 (miniblock), 5 (count), zigzag(1)=2; block: zigzag(1)=2, width 0.
  const Bytes spec = {8, 1, 5, 2, 2, 0};
  DeltaBinaryPackedDecoder<int32_t> decoder;
  PQPAGE_EXPECT_ERROR(decoder.Reset(spec, 5), absl::StatusCode::kDataLoss);
}

TEST(DeltaBinaryPackedSpec, Example1LegalBlockExactBytes) {
  const std::vector<int32_t> values = {1, 2, 3, 4, 5};
  // Block 128 (0x80 0x01), 1 miniblock, 5 values, first 1 (zigzag 2); min delta 1 (zigzag 2),
  // width 0, no body.
  const Bytes one_miniblock = {0x80, 0x01, 1, 5, 2, 2, 0};
  EXPECT_EQ(Encode(values, 128, 1), one_miniblock);
  // Default shape: 4 width bytes, all 0.
  const Bytes standard = {0x80, 0x01, 4, 5, 2, 2, 0, 0, 0, 0};
  EXPECT_EQ(Encode(values), standard);
  for (const Bytes& bytes : {one_miniblock, standard}) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoded, DecodeAll<int32_t>(bytes, 5));
    EXPECT_EQ(decoded, values);
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoded64, DecodeAll<int64_t>(bytes, 5));
    EXPECT_EQ(decoded64, (std::vector<int64_t>{1, 2, 3, 4, 5}));
  }
}

TEST(DeltaBinaryPackedSpec, Example2BlockSize8IsRejected) {
  // The old draft prints min delta 0; it is -2 (zigzag 3). Relative deltas 0,0,0,3,3,3,3 on 2 bits,
  // LSB first: 0xC0 0x3F.
  const Bytes spec = {8, 1, 8, 14, 3, 2, 0xC0, 0x3F};
  DeltaBinaryPackedDecoder<int32_t> decoder;
  PQPAGE_EXPECT_ERROR(decoder.Reset(spec, 8), absl::StatusCode::kDataLoss);
}

TEST(DeltaBinaryPackedSpec, Example2LegalBlockExactBytes) {
  const std::vector<int32_t> values = {7, 5, 3, 1, 2, 3, 4, 5};
  Bytes one_miniblock = {0x80, 0x01, 1, 8, 14, 3, 2, 0xC0, 0x3F};
  one_miniblock.resize(one_miniblock.size() + 30, 0);  // 128 values * 2 bits = 32 bytes of body
  EXPECT_EQ(Encode(values, 128, 1), one_miniblock);
  Bytes standard = {0x80, 0x01, 4, 8, 14, 3, 2, 0, 0, 0, 0xC0, 0x3F};
  standard.resize(standard.size() + 6, 0);  // 32 values * 2 bits = 8 bytes
  EXPECT_EQ(Encode(values), standard);
  for (const Bytes& bytes : {one_miniblock, standard}) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoded, DecodeAll<int32_t>(bytes, 8));
    EXPECT_EQ(decoded, values);
  }
}

TEST(DeltaBinaryPackedSpec, HeaderWrittenForZeroValues) {
  DeltaBinaryPackedEncoder<int64_t> encoder;
  const Bytes expected = {0x80, 0x01, 4, 0, 0};
  EXPECT_EQ(encoder.Finish(), expected);
  DeltaBinaryPackedDecoder<int64_t> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(expected, 0));
  EXPECT_EQ(decoder.values_left(), 0);
  PQPAGE_ASSERT_OK_AND_ASSIGN(size_t end, decoder.SkipToStreamEnd());
  EXPECT_EQ(end, expected.size());
  PQPAGE_EXPECT_ERROR(decoder.Reset(expected, 1), absl::StatusCode::kDataLoss);
}

// ---------------------------------------------------------------- round trips
template <typename T>
void CheckRoundTrip(const std::vector<T>& values, int64_t block, int64_t minis) {
  const int bits = sizeof(T) * 8;
  const Bytes bytes = Encode(values, block, minis);
  // Independent check of the encoder: reference decode, zero padding, unused widths 0, minimal
  // widths never above the physical width.
  const RefStream ref = RefDecode(bytes, bits);
  ASSERT_EQ(ref.values.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(ref.values[i], values[i]) << i;
  EXPECT_TRUE(ref.padding_zero);
  EXPECT_EQ(ref.end, bytes.size());
  const size_t deltas = values.empty() ? 0 : values.size() - 1;
  const size_t per_mini = static_cast<size_t>(block / minis);
  const size_t used = (deltas + per_mini - 1) / per_mini;
  for (size_t m = 0; m < ref.widths.size(); ++m) {
    EXPECT_LE(ref.widths[m], bits);
    if (m >= used) EXPECT_EQ(ref.widths[m], 0) << "unused miniblock " << m;
  }

  CheckDecodePaths(bytes, values);
}

template <typename T>
void RoundTripAllShapes() {
  const int64_t shapes[][2] = {{128, 4}, {128, 1}, {256, 8}, {256, 4}, {256, 1}, {512, 2}};
  uint64_t seed = 1;
  for (size_t n : kLengths) {
    for (const auto& values : Patterns<T>(n, seed++)) {
      for (const auto& shape : shapes) {
        SCOPED_TRACE(::testing::Message() << "n=" << n << " block=" << shape[0]
                                          << " minis=" << shape[1] << " seed=" << seed);
        CheckRoundTrip(values, shape[0], shape[1]);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(DeltaBinaryPackedRoundTrip, Int32AllShapes) { RoundTripAllShapes<int32_t>(); }
TEST(DeltaBinaryPackedRoundTrip, Int64AllShapes) { RoundTripAllShapes<int64_t>(); }

TEST(DeltaBinaryPackedRoundTrip, ExtremesUseFullWidth) {
  // INT_MIN/INT_MAX alternating: deltas wrap, -1 and +1 after wrapping; the span needs 32 bits.
  std::vector<int32_t> v32;
  std::vector<int64_t> v64;
  for (int i = 0; i < 300; ++i) {
    v32.push_back(i % 2 ? std::numeric_limits<int32_t>::max()
                        : std::numeric_limits<int32_t>::min());
    v64.push_back(i % 2 ? std::numeric_limits<int64_t>::max()
                        : std::numeric_limits<int64_t>::min());
  }
  v32[100] = 0;
  v64[100] = 0;
  const Bytes b32 = Encode(v32), b64 = Encode(v64);
  const RefStream r32 = RefDecode(b32, 32), r64 = RefDecode(b64, 64);
  EXPECT_EQ(*std::max_element(r32.widths.begin(), r32.widths.end()), 32);
  EXPECT_EQ(*std::max_element(r64.widths.begin(), r64.widths.end()), 64);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto d32, DecodeAll<int32_t>(b32, 300));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto d64, DecodeAll<int64_t>(b64, 300));
  EXPECT_EQ(d32, v32);
  EXPECT_EQ(d64, v64);
}

TEST(DeltaBinaryPackedRoundTrip, StreamingPutsEqualOnePut) {
  const auto values = Patterns<int64_t>(5000, 99)[0];
  DeltaBinaryPackedEncoder<int64_t> streaming;
  size_t at = 0;
  for (size_t k = 1; at < values.size(); k = k * 3 % 251 + 1) {
    const size_t take = std::min(k, values.size() - at);
    PQPAGE_EXPECT_OK(streaming.Put(absl::MakeConstSpan(values.data() + at, take)));
    at += take;
    EXPECT_LE(streaming.EstimatedSize(),
              DeltaBinaryPackedEncoder<int64_t>::MaxEncodedSize(static_cast<int64_t>(at)) + 1000);
  }
  const Bytes bytes = streaming.Finish();
  EXPECT_EQ(bytes, Encode(values));
  EXPECT_LE(bytes.size(), DeltaBinaryPackedEncoder<int64_t>::MaxEncodedSize(5000));
  // The encoder is reset by Finish.
  PQPAGE_EXPECT_OK(streaming.Put(values));
  EXPECT_EQ(streaming.Finish(), bytes);
}

TEST(DeltaBinaryPackedRoundTrip, MakeRejectsIllegalShapes) {
  PQPAGE_EXPECT_ERROR(DeltaBinaryPackedEncoder<int32_t>::Make(100, 4),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(DeltaBinaryPackedEncoder<int32_t>::Make(128, 8),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(DeltaBinaryPackedEncoder<int32_t>::Make(128, 0),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(DeltaBinaryPackedEncoder<int32_t>::Make(0, 1),
                      absl::StatusCode::kInvalidArgument);
}

TEST(DeltaBinaryPackedRoundTrip, HeaderCountAboveNumValuesIsTolerated) {
  const std::vector<int32_t> values = {10, 20, 30, 40, 50};
  const Bytes bytes = Encode(values);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto three, DecodeAll<int32_t>(bytes, 3));
  EXPECT_EQ(three, (std::vector<int32_t>{10, 20, 30}));
  DeltaBinaryPackedDecoder<int32_t> decoder;
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, 6), absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, -1), absl::StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------- lenient reading
TEST(DeltaBinaryPackedLenient, GarbageInUnusedWidthsAndPadding) {
  // 40 values in the default shape: deltas 39 -> miniblocks 0 and 1 used, 2 and 3 unused.
  std::vector<int32_t> values(40);
  for (int i = 0; i < 40; ++i) values[i] = i * 3 + (i % 2);
  Bytes bytes = Encode(values);
  const RefStream ref = RefDecode(bytes, 32);
  // Widths at bytes: header is 0x80 0x01 4 40 zigzag(0) = 5 bytes, then min delta (1 byte).
  ASSERT_EQ(bytes[3], 40);
  const size_t widths_at = 6;
  EXPECT_EQ(bytes[widths_at + 2], 0);
  EXPECT_EQ(bytes[widths_at + 3], 0);
  bytes[widths_at + 2] = 0xFF;  // would be an illegal width if it were used
  bytes[widths_at + 3] = 33;
  // Padding: miniblock 1 holds 7 real deltas; its last byte holds only padding bits.
  const int w1 = ref.widths[1];
  ASSERT_GT(w1, 0);
  bytes.back() = 0xFF;
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoded, DecodeAll<int32_t>(bytes, 40));
  EXPECT_EQ(decoded, values);
}

TEST(DeltaBinaryPackedLenient, HandBuiltMiniblockOf256Values) {
  // Block 256, 1 miniblock of 256 values, 3 values: 100, 101, 99: deltas 1, -2; min -2 (zigzag 3);
  // relative 3, 0 on width 2 -> byte 0x03, then 63 bytes of padding (256*2/8 = 64 bytes).
  Bytes bytes = {0x80, 0x02, 1, 3, 200, 1, 3, 2, 0x03};
  bytes.resize(bytes.size() + 63, 0xAA);  // padding bits may hold anything
  for (auto t : {0, 1}) {
    if (t == 0) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(auto d, DecodeAll<int32_t>(bytes, 3));
      EXPECT_EQ(d, (std::vector<int32_t>{100, 101, 99}));
    } else {
      PQPAGE_ASSERT_OK_AND_ASSIGN(auto d, DecodeAll<int64_t>(bytes, 3));
      EXPECT_EQ(d, (std::vector<int64_t>{100, 101, 99}));
    }
  }
  DeltaBinaryPackedDecoder<int32_t> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 3));
  PQPAGE_ASSERT_OK(decoder.Skip(2));
  int32_t last;
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(&last, 1)));
  EXPECT_EQ(last, 99);
  EXPECT_EQ(decoder.bytes_consumed(), bytes.size());
}

TEST(DeltaBinaryPackedLenient, FirstValueAndMinDeltaWrapToWidth) {
  // INT32 stream whose first value is written as 2^32 + 5 and min delta as 2^32 + 1.
  // zigzag(2^32 + 5) = 2^33 + 10; zigzag(2^32 + 1) = 2^33 + 2.
  Bytes bytes = {0x80, 0x01, 1, 3};
  auto uleb = [&](uint64_t v) {
    while (v >= 0x80) bytes.push_back(static_cast<uint8_t>(v | 0x80)), v >>= 7;
    bytes.push_back(static_cast<uint8_t>(v));
  };
  uleb((uint64_t{1} << 33) + 10);
  uleb((uint64_t{1} << 33) + 2);
  bytes.push_back(0);  // width 0
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto d, DecodeAll<int32_t>(bytes, 3));
  EXPECT_EQ(d, (std::vector<int32_t>{5, 6, 7}));
}

// ---------------------------------------------------------------- hostile input
TEST(DeltaBinaryPackedHostile, EveryTruncationFails) {
  for (size_t n : {1, 5, 33, 129, 300}) {
    for (const auto& values : Patterns<int32_t>(n, n))
      CheckEveryTruncationFails<int32_t>(Encode(values), n);
    for (const auto& values : Patterns<int64_t>(n, n)) {
      CheckEveryTruncationFails<int64_t>(Encode(values, 256, 1), n);
    }
  }
}

TEST(DeltaBinaryPackedHostile, WidthAboveThePhysicalWidth) {
  // 3 values, block 128 / 1 miniblock, min delta 0, one width byte, body present. One bit more
  // than the type is legal (PARQUET-2435; delta_binary_packed_wide_test.cc checks the values);
  // anything wider is corruption.
  for (int width : {33, 34, 64, 65, 66, 255}) {
    Bytes bytes = {0x80, 0x01, 1, 3, 0, 0, static_cast<uint8_t>(width)};
    bytes.resize(bytes.size() + 128 * 8 * 4, 0);  // more body than any width needs
    DeltaBinaryPackedDecoder<int32_t> d32;
    PQPAGE_ASSERT_OK(d32.Reset(bytes, 3));
    std::vector<int32_t> o32(3);
    const absl::Status s = d32.Decode(absl::MakeSpan(o32));
    if (width <= 33) {
      PQPAGE_EXPECT_OK(s);
    } else {
      PQPAGE_EXPECT_ERROR(s, absl::StatusCode::kDataLoss);
      EXPECT_NE(s.message().find("miniblock bit width " + std::to_string(width) +
                                 " exceeds 33 for INT32"),
                std::string::npos)
          << s;
    }
    DeltaBinaryPackedDecoder<int64_t> d64;
    PQPAGE_ASSERT_OK(d64.Reset(bytes, 3));
    std::vector<int64_t> o64(3);
    if (width <= 65) {
      PQPAGE_EXPECT_OK(d64.Decode(absl::MakeSpan(o64)));
    } else {
      PQPAGE_EXPECT_ERROR(d64.Decode(absl::MakeSpan(o64)), absl::StatusCode::kDataLoss);
    }
  }
}

TEST(DeltaBinaryPackedHostile, IllegalBlockAndMiniblockSizes) {
  const Bytes cases[] = {
      {100, 1, 3, 0, 0, 0},                  // block size 100
      {0, 1, 3, 0, 0, 0},                    // block size 0
      {0x80, 0x01, 8, 3, 0, 0, 0},           // 8 miniblocks of 16 values
      {0x80, 0x01, 0, 3, 0, 0, 0},           // 0 miniblocks
      {0x80, 0x01, 3, 3, 0, 0, 0},           // 128 / 3 is not whole
      {0x80, 0x01, 0x80, 0x01, 3, 0, 0, 0},  // 128 miniblocks of 1 value
  };
  for (const Bytes& bytes : cases) {
    DeltaBinaryPackedDecoder<int32_t> decoder;
    PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, 3), absl::StatusCode::kDataLoss);
  }
}

TEST(DeltaBinaryPackedHostile, VarintsThatNeverEnd) {
  const Bytes endless(40, 0x80);
  for (size_t field = 0; field < 5; ++field) {
    Bytes bytes = {0x80, 0x01, 4, 3, 0};
    bytes.resize(field);
    bytes.insert(bytes.end(), endless.begin(), endless.end());
    DeltaBinaryPackedDecoder<int64_t> decoder;
    absl::Status s = decoder.Reset(bytes, field == 4 ? 3 : 0);
    if (s.ok()) {
      std::vector<int64_t> out(3);
      s = decoder.Decode(absl::MakeSpan(out));  // the min delta never ends
    }
    PQPAGE_EXPECT_ERROR(s, absl::StatusCode::kDataLoss);
  }
}

TEST(DeltaBinaryPackedHostile, LyingCountWithZeroWidthsIsBoundedByTime) {
  // A header announcing 2^40 values in 0-bit miniblocks: the decoder reads only what it is asked
  // for and allocates nothing per announced value.
  Bytes bytes = {0x80, 0x01, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0, 0, 0};
  DeltaBinaryPackedDecoder<int32_t> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 1000));
  EXPECT_EQ(decoder.header_value_count(), int64_t{1} << 40);
  std::vector<int32_t> out(1000);
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out)), absl::StatusCode::kDataLoss);
}

TEST(DeltaBinaryPackedHostile, ZeroWidthMiniblocksEverywhere) {
  // 1000 equal deltas of -7 in 0-bit miniblocks: header plus min delta and widths per block.
  std::vector<int64_t> values(1000);
  for (int i = 0; i < 1000; ++i) values[i] = 5000 - 7 * i;
  const Bytes bytes = Encode(values);
  EXPECT_EQ(bytes.size(), 2 + 1 + 2 + 2 + 8 * (1 + 4));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto d, DecodeAll<int64_t>(bytes, 1000));
  EXPECT_EQ(d, values);
}

}  // namespace
}  // namespace pqpage
