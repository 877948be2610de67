// Tests of the PLAIN encoding: byte-exact layouts per physical type, round trips (bit-exact floats,
// booleans of every count, empty and long byte arrays, INT96), batches, and hostile input.
#include "pqpage/plain.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "status_matchers.h"

namespace pqpage {
namespace {

using ::absl::StatusCode;

const std::vector<size_t> kLengths = {0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 100000};

template <typename T>
std::vector<uint8_t> Encode(const std::vector<T>& values) {
  PlainEncoder<T> encoder;
  PQPAGE_EXPECT_OK(encoder.Put(values));
  EXPECT_EQ(encoder.EstimatedSize(), values.size() * sizeof(T));
  return encoder.Finish();
}

// Independent little-endian serialisation of the test's values (byte by byte, no memcpy).
template <typename U>
void AppendLe(std::vector<uint8_t>* out, U value, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<uint8_t>(value >> (8 * i)));
}

TEST(PlainLayoutTest, Int32) {
  std::vector<uint8_t> bytes = Encode<int32_t>({1, -2, 0x12345678});
  EXPECT_EQ(bytes,
            (std::vector<uint8_t>{0x01, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0x78, 0x56, 0x34, 0x12}));
}

TEST(PlainLayoutTest, Int64) {
  std::vector<uint8_t> bytes = Encode<int64_t>({0x0102030405060708LL, -1});
  EXPECT_EQ(bytes, (std::vector<uint8_t>{8, 7, 6, 5, 4, 3, 2, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                         0xFF, 0xFF}));
}

TEST(PlainLayoutTest, Int96) {
  Int96 value;
  value.words[0] = 0x04030201;
  value.words[1] = 0x08070605;
  value.words[2] = 0x0C0B0A09;
  std::vector<uint8_t> bytes = Encode<Int96>({value});
  EXPECT_EQ(bytes, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
}

TEST(PlainLayoutTest, FloatAndDouble) {
  EXPECT_EQ(Encode<float>({1.0f, -0.0f}), (std::vector<uint8_t>{0, 0, 0x80, 0x3F, 0, 0, 0, 0x80}));
  EXPECT_EQ(Encode<double>({1.0}), (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
}

TEST(PlainLayoutTest, BooleanLsbFirst) {
  PlainEncoder<bool> encoder;
  std::vector<uint8_t> expected_bits = {1, 0, 1, 1, 0, 0, 0, 0, 1, 1};  // 0b00001101, 0b00000011
  std::vector<bool> values(expected_bits.begin(), expected_bits.end());
  std::unique_ptr<bool[]> raw(new bool[values.size()]);
  for (size_t i = 0; i < values.size(); ++i) raw[i] = values[i];
  PQPAGE_EXPECT_OK(encoder.Put(absl::MakeConstSpan(raw.get(), values.size())));
  EXPECT_EQ(encoder.EstimatedSize(), 2u);
  EXPECT_EQ(encoder.Finish(), (std::vector<uint8_t>{0x0D, 0x03}));
}

TEST(PlainLayoutTest, ByteArray) {
  PlainEncoder<ByteArray> encoder;
  std::vector<std::string_view> values = {"ab", "", "xyz"};
  PQPAGE_ASSERT_OK(encoder.Put(absl::MakeConstSpan(values)));
  EXPECT_EQ(encoder.Finish(),
            (std::vector<uint8_t>{2, 0, 0, 0, 'a', 'b', 0, 0, 0, 0, 3, 0, 0, 0, 'x', 'y', 'z'}));
}

TEST(PlainLayoutTest, ByteArrayTooLongIsRejectedBeforeReading) {
  // Sizes are checked before any byte is read, so a lying size needs no real 2 GiB buffer.
  const std::string small = "abc";
  std::vector<ByteArray> values = {
      ByteArray(small), ByteArray(reinterpret_cast<const uint8_t*>(small.data()), 0x80000000u)};
  PlainEncoder<ByteArray> encoder;
  PQPAGE_EXPECT_ERROR(encoder.Put(values), StatusCode::kInvalidArgument);
  EXPECT_EQ(encoder.EstimatedSize(), 0u);
}

TEST(PlainLayoutTest, FixedLenByteArray) {
  PlainEncoder<ByteArray> encoder(3);
  const std::string a = "abc", b = "def";
  std::vector<ByteArray> values = {ByteArray(a), ByteArray(b)};
  PQPAGE_ASSERT_OK(encoder.Put(values));
  EXPECT_EQ(encoder.Finish(), (std::vector<uint8_t>{'a', 'b', 'c', 'd', 'e', 'f'}));
  const std::string wrong = "ab";
  std::vector<ByteArray> bad = {ByteArray(a), ByteArray(wrong)};
  PQPAGE_EXPECT_ERROR(encoder.Put(bad), StatusCode::kInvalidArgument);
  EXPECT_EQ(encoder.EstimatedSize(), 0u);
  PQPAGE_EXPECT_ERROR(encoder.PutBytes(std::vector<uint8_t>(4)), StatusCode::kInvalidArgument);
  PlainEncoder<ByteArray> zero(0);
  PQPAGE_EXPECT_ERROR(zero.PutBytes({}), StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------- round trips
template <typename T>
std::vector<T> Patterned(size_t n, int pattern, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> values(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t bits;
    switch (pattern) {
      case 0:
        bits = rng();
        break;
      case 1:
        bits = 0x55;
        break;  // all equal
      case 2:
        bits = i * 977;
        break;  // sorted
      case 3:
        bits = (n - i) * 977;
        break;  // reversed
      default:
        bits = (i % 2) ? ~0ULL >> 1 : 1ULL << 63;
        break;  // extremes
    }
    uint8_t raw[sizeof(T)];
    for (size_t k = 0; k < sizeof(T); ++k) raw[k] = static_cast<uint8_t>(bits >> (8 * (k % 8)));
    if (sizeof(T) > 8) raw[sizeof(T) - 1] ^= static_cast<uint8_t>(i);
    std::memcpy(&values[i], raw, sizeof(T));
  }
  return values;
}

template <typename T>
bool BitEqual(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <typename T>
void RoundTripFixed() {
  for (size_t n : kLengths) {
    for (int pattern = 0; pattern < 5; ++pattern) {
      std::vector<T> values = Patterned<T>(n, pattern, n * 31 + pattern);
      std::vector<uint8_t> bytes = Encode(values);
      ASSERT_EQ(bytes.size(), n * sizeof(T));
      ASSERT_TRUE(n == 0 || std::memcmp(bytes.data(), values.data(), bytes.size()) == 0);
      PlainDecoder<T> decoder;
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      std::vector<T> all(n);
      PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(all)));
      EXPECT_TRUE(BitEqual(all, values));
      EXPECT_EQ(decoder.values_left(), 0);
      T extra;
      PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(&extra, 1)), StatusCode::kInvalidArgument);

      // In batches of assorted sizes, with skips.
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      const size_t batches[] = {1, 7, 33, 2, 128};
      size_t done = 0, b = 0;
      std::vector<T> batched(n);
      while (done < n) {
        size_t take = std::min(batches[b++ % 5], n - done);
        if (b % 4 == 0) {
          PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(take)));
          std::memcpy(&batched[done], &values[done], take * sizeof(T));
        } else {
          PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(&batched[done], take)));
        }
        done += take;
      }
      EXPECT_TRUE(BitEqual(batched, values));
    }
  }
}

TEST(PlainRoundTripTest, Int32) { RoundTripFixed<int32_t>(); }
TEST(PlainRoundTripTest, Int64) { RoundTripFixed<int64_t>(); }
TEST(PlainRoundTripTest, Int96) { RoundTripFixed<Int96>(); }
TEST(PlainRoundTripTest, Float) { RoundTripFixed<float>(); }
TEST(PlainRoundTripTest, Double) { RoundTripFixed<double>(); }

TEST(PlainRoundTripTest, SpecialFloatsBitExact) {
  std::vector<double> doubles = {std::bit_cast<double>(0x7FF8000000000001ULL),  // NaN payload
                                 std::bit_cast<double>(0xFFF0000000000123ULL),  // signalling NaN
                                 -0.0,
                                 0.0,
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::denorm_min()};
  std::vector<uint8_t> bytes = Encode(doubles);
  PlainDecoder<double> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(doubles.size())));
  std::vector<double> out(doubles.size());
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out)));
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(std::bit_cast<uint64_t>(out[i]), std::bit_cast<uint64_t>(doubles[i])) << i;
  }
  std::vector<float> floats = {std::bit_cast<float>(0x7FC00123u), std::bit_cast<float>(0xFF800001u),
                               -0.0f, std::numeric_limits<float>::infinity()};
  std::vector<uint8_t> fbytes = Encode(floats);
  PlainDecoder<float> fdecoder;
  PQPAGE_ASSERT_OK(fdecoder.Reset(fbytes, 4));
  std::vector<float> fout(4);
  PQPAGE_ASSERT_OK(fdecoder.Decode(absl::MakeSpan(fout)));
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(std::bit_cast<uint32_t>(fout[i]), std::bit_cast<uint32_t>(floats[i]));
  }
}

TEST(PlainRoundTripTest, FixedWidthHostile) {
  std::vector<uint8_t> bytes = Encode<int64_t>({1, 2, 3});
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    PlainDecoder<int64_t> decoder;
    PQPAGE_EXPECT_ERROR(decoder.Reset(absl::MakeConstSpan(bytes.data(), cut), 3),
                        StatusCode::kDataLoss);
  }
  PlainDecoder<int64_t> decoder;
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, -1), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, std::numeric_limits<int64_t>::max()),
                      StatusCode::kDataLoss);
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 2));  // extra bytes are tolerated
  PQPAGE_EXPECT_ERROR(decoder.Skip(3), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(decoder.Skip(-1), StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------- BOOLEAN
std::vector<uint8_t> ReferenceBoolBytes(const std::vector<uint8_t>& bits) {
  std::vector<uint8_t> out((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) out[i / 8] |= static_cast<uint8_t>(bits[i] << (i % 8));
  return out;
}

TEST(PlainBooleanTest, RoundTripEveryCountAndSplit) {
  std::mt19937 rng(7);
  for (size_t n = 0; n < 80; ++n) {
    std::vector<uint8_t> bits(n);
    for (auto& bit : bits) bit = rng() & 1;
    std::unique_ptr<bool[]> values(new bool[n + 1]);
    for (size_t i = 0; i < n; ++i) values[i] = bits[i];
    // Put in two calls split at every point, so unaligned appends are covered.
    for (size_t split = 0; split <= n; split += (n > 20 ? 5 : 1)) {
      PlainEncoder<bool> encoder;
      PQPAGE_EXPECT_OK(encoder.Put(absl::MakeConstSpan(values.get(), split)));
      PQPAGE_EXPECT_OK(encoder.Put(absl::MakeConstSpan(values.get() + split, n - split)));
      std::vector<uint8_t> bytes = encoder.Finish();
      ASSERT_EQ(bytes, ReferenceBoolBytes(bits)) << n << " " << split;
    }
    std::vector<uint8_t> bytes = ReferenceBoolBytes(bits);
    PlainDecoder<bool> decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
    size_t done = 0, b = 0;
    const size_t batches[] = {1, 7, 9, 3, 16};
    while (done < n) {
      size_t take = std::min(batches[b++ % 5], n - done);
      std::unique_ptr<bool[]> out(new bool[take]);
      PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out.get(), take)));
      for (size_t i = 0; i < take; ++i) ASSERT_EQ(out[i], bits[done + i] != 0);
      done += take;
    }
    bool one;
    PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(&one, 1)), StatusCode::kInvalidArgument);
    if (n > 0) {
      PQPAGE_EXPECT_ERROR(decoder.Reset(absl::MakeConstSpan(bytes.data(), bytes.size() - 1),
                                        static_cast<int64_t>(n)),
                          StatusCode::kDataLoss);
    }
  }
}

TEST(PlainBooleanTest, PaddingBitsAreNotValues) {
  // 3 values, the padding bits set: the decoder must stop at 3.
  std::vector<uint8_t> bytes = {0xFD};
  PlainDecoder<bool> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 3));
  bool out[3];
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out, 3)));
  EXPECT_TRUE(out[0]);
  EXPECT_FALSE(out[1]);
  EXPECT_TRUE(out[2]);
  EXPECT_EQ(decoder.values_left(), 0);
}

TEST(PlainBooleanTest, DecodeToBitmapAndPutBitmap) {
  std::mt19937 rng(11);
  const size_t n = 1000;
  std::vector<uint8_t> bits(n);
  for (auto& bit : bits) bit = rng() % 3 == 0;
  std::vector<uint8_t> bytes = ReferenceBoolBytes(bits);
  for (int64_t dst_offset : {0, 3, 8, 13}) {
    PlainDecoder<bool> decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(bytes, n));
    std::vector<uint8_t> bitmap(200, 0xAA);
    const std::vector<uint8_t> before = bitmap;
    int64_t position = dst_offset;
    size_t done = 0, b = 0;
    const size_t batches[] = {5, 64, 3, 100, 17};
    int64_t ones = 0, expected_ones = 0;
    while (done < n) {
      size_t take = std::min(batches[b++ % 5], n - done);
      PQPAGE_ASSERT_OK_AND_ASSIGN(
          int64_t got, decoder.DecodeToBitmap(bitmap.data(), position, static_cast<int64_t>(take)));
      ones += got;
      position += static_cast<int64_t>(take);
      done += take;
    }
    for (size_t i = 0; i < n; ++i) {
      const int64_t bit = dst_offset + static_cast<int64_t>(i);
      ASSERT_EQ((bitmap[bit / 8] >> (bit % 8)) & 1, bits[i]) << i;
      expected_ones += bits[i];
    }
    EXPECT_EQ(ones, expected_ones);
    for (int64_t bit = 0; bit < dst_offset; ++bit) {
      EXPECT_EQ((bitmap[bit / 8] >> (bit % 8)) & 1, (before[bit / 8] >> (bit % 8)) & 1);
    }
    for (int64_t bit = dst_offset + n; bit < 1600; ++bit) {
      EXPECT_EQ((bitmap[bit / 8] >> (bit % 8)) & 1, (before[bit / 8] >> (bit % 8)) & 1);
    }
    // And back through PutBitmap.
    PlainEncoder<bool> encoder;
    encoder.PutBitmap(bitmap.data(), dst_offset, 10);
    encoder.PutBitmap(bitmap.data(), dst_offset + 10, static_cast<int64_t>(n) - 10);
    EXPECT_EQ(encoder.Finish(), bytes);
  }
}

// ---------------------------------------------------------------- BYTE_ARRAY
std::vector<std::string> RandomStrings(size_t n, size_t max_length, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> out(n);
  for (auto& s : out) {
    s.resize(rng() % (max_length + 1));
    for (auto& c : s) c = static_cast<char>(rng());
  }
  return out;
}

std::vector<uint8_t> ReferenceByteArrays(const std::vector<std::string>& values) {
  std::vector<uint8_t> out;
  for (const auto& s : values) {
    AppendLe<uint32_t>(&out, static_cast<uint32_t>(s.size()), 4);
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

TEST(PlainByteArrayTest, RoundTrip) {
  for (size_t n : kLengths) {
    std::vector<std::string> strings = RandomStrings(n, n > 1000 ? 20 : 300, n);
    if (n > 3) strings[2] = std::string(70000, 'q');  // long
    if (n > 4) strings[3].clear();                    // empty
    std::vector<ByteArray> values;
    for (const auto& s : strings) values.push_back(ByteArray(s));
    PlainEncoder<ByteArray> encoder;
    PQPAGE_ASSERT_OK(encoder.Put(values));
    std::vector<uint8_t> bytes = encoder.Finish();
    ASSERT_EQ(bytes, ReferenceByteArrays(strings));

    PlainDecoder<ByteArray> decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
    size_t done = 0, b = 0;
    const size_t batches[] = {1, 7, 33, 2};
    while (done < n) {
      size_t take = std::min(batches[b++ % 4], n - done);
      if (b % 3 == 0) {
        PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(take)));
      } else {
        std::vector<ByteArray> out(take);
        PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out)));
        for (size_t i = 0; i < take; ++i) {
          ASSERT_EQ(out[i].AsStringView(), strings[done + i]);
          // Views point into the input.
          ASSERT_TRUE(out[i].size == 0 ||
                      (out[i].data >= bytes.data() &&
                       out[i].data + out[i].size <= bytes.data() + bytes.size()));
        }
      }
      done += take;
    }
    EXPECT_EQ(decoder.values_left(), 0);

    // Arrow-style.
    PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
    std::vector<int32_t> offsets;
    std::vector<uint8_t> data;
    PQPAGE_ASSERT_OK_AND_ASSIGN(int64_t got, decoder.DecodeToOffsets(n / 2, &offsets, &data));
    EXPECT_EQ(got, static_cast<int64_t>(n / 2));
    PQPAGE_ASSERT_OK_AND_ASSIGN(got, decoder.DecodeToOffsets(n - n / 2, &offsets, &data));
    EXPECT_EQ(got, static_cast<int64_t>(n - n / 2));
    ASSERT_EQ(offsets.size(), n + 1);
    EXPECT_EQ(offsets[0], 0);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(std::string(data.begin() + offsets[i], data.begin() + offsets[i + 1]), strings[i]);
    }
  }
}

// Lengths that span several of the encoder's copy branches (4 to 16 bytes, 8 to 32, 16 to 64, and
// one range no word covers), each value its own exact-size heap block so that a read past one is
// caught by the sanitizers.
TEST(PlainByteArrayTest, LayoutOfEveryLengthRange) {
  for (const auto& [shortest, longest] :
       std::vector<std::pair<size_t, size_t>>{{4, 16}, {8, 32}, {16, 64}, {3, 70}}) {
    std::vector<std::unique_ptr<uint8_t[]>> blocks;
    std::vector<ByteArray> values;
    std::vector<std::string> strings;
    for (size_t n = shortest; n <= longest; ++n) {
      for (size_t copy = 0; copy < 3; ++copy) {
        const size_t length = copy == 1 ? longest + shortest - n : n;  // mixed order
        blocks.push_back(std::make_unique<uint8_t[]>(length));
        for (size_t i = 0; i < length; ++i) blocks.back()[i] = static_cast<uint8_t>(i * 31 + n);
        values.push_back(ByteArray(blocks.back().get(), static_cast<uint32_t>(length)));
        strings.push_back(std::string(values.back().AsStringView()));
      }
    }
    PlainEncoder<ByteArray> encoder;
    PQPAGE_ASSERT_OK(encoder.Put(values));
    EXPECT_EQ(encoder.Finish(), ReferenceByteArrays(strings)) << shortest << ".." << longest;
  }
}

TEST(PlainByteArrayTest, DecodeToOffsetsStopsAtTheLimit) {
  std::vector<std::string> strings = {"aaaa", "bbb", "cc", "d"};
  std::vector<uint8_t> bytes = ReferenceByteArrays(strings);
  PlainDecoder<ByteArray> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 4));
  std::vector<int32_t> offsets;
  std::vector<uint8_t> data;
  PQPAGE_ASSERT_OK_AND_ASSIGN(int64_t got, decoder.DecodeToOffsets(4, &offsets, &data, 8));
  EXPECT_EQ(got, 2);  // 4 + 3 bytes fit in 8, 4 + 3 + 2 do not
  EXPECT_EQ(offsets, (std::vector<int32_t>{0, 4, 7}));
  EXPECT_EQ(decoder.values_left(), 2);
  offsets.clear();
  data.clear();
  PQPAGE_ASSERT_OK_AND_ASSIGN(got, decoder.DecodeToOffsets(2, &offsets, &data, 8));
  EXPECT_EQ(got, 2);
  EXPECT_EQ(std::string(data.begin(), data.end()), "ccd");
  std::vector<int32_t> bad_offsets = {0, 5};
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 4));
  PQPAGE_EXPECT_ERROR(decoder.DecodeToOffsets(1, &bad_offsets, &data),
                      StatusCode::kInvalidArgument);
}

TEST(PlainByteArrayTest, HostileInput) {
  std::vector<std::string> strings = {"hello", "", "world!"};
  std::vector<uint8_t> bytes = ReferenceByteArrays(strings);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    absl::Span<const uint8_t> truncated(bytes.data(), cut);
    PlainDecoder<ByteArray> decoder;
    absl::Status reset = decoder.Reset(truncated, 3);
    if (!reset.ok()) {
      EXPECT_EQ(reset.code(), StatusCode::kDataLoss);
      continue;
    }
    std::vector<ByteArray> out(3);
    PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out)), StatusCode::kDataLoss) << cut;
    PQPAGE_ASSERT_OK(decoder.Reset(truncated, 3));
    PQPAGE_EXPECT_ERROR(decoder.Skip(3), StatusCode::kDataLoss) << cut;
    PQPAGE_ASSERT_OK(decoder.Reset(truncated, 3));
    std::vector<int32_t> offsets;
    std::vector<uint8_t> data;
    PQPAGE_EXPECT_ERROR(decoder.DecodeToOffsets(3, &offsets, &data), StatusCode::kDataLoss);
    EXPECT_TRUE(offsets.empty());
  }
  // A length that runs past the end, and a huge one.
  for (uint32_t length : {6u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFCu}) {
    std::vector<uint8_t> lying = {0, 0, 0, 0, 'a', 'b', 'c', 'd', 'e'};
    for (int i = 0; i < 4; ++i) lying[i] = static_cast<uint8_t>(length >> (8 * i));
    PlainDecoder<ByteArray> decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(lying, 1));
    ByteArray out;
    PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(&out, 1)), StatusCode::kDataLoss);
  }
  PlainDecoder<ByteArray> decoder;
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, 1000), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, -5), StatusCode::kInvalidArgument);
}

// The walk reads each length ahead of the value that follows: an error must still name the bad
// value's own prefix and leave the decoder there, with the values before it decoded.
TEST(PlainByteArrayTest, AnErrorLeavesTheDecoderAtTheBadValue) {
  std::vector<uint8_t> lying = ReferenceByteArrays({"hello", ""});
  lying.insert(lying.end(), {100, 0, 0, 0, 'a', 'b', 'c'});
  std::vector<uint8_t> truncated = ReferenceByteArrays({"hello", ""});
  truncated.push_back(7);
  truncated.push_back(0);
  struct Case {
    const std::vector<uint8_t>* bytes;
    std::string message;
  };
  for (const Case& c : {Case{&lying, "length 100 exceeds the 3 bytes left"},
                        Case{&truncated, "prefix truncated (2 bytes left)"}}) {
    PlainDecoder<ByteArray> decoder;
    PQPAGE_ASSERT_OK(decoder.Reset(*c.bytes, 3));
    std::vector<ByteArray> out(3);
    const absl::Status decoded = decoder.Decode(absl::MakeSpan(out));
    PQPAGE_EXPECT_ERROR(decoded, StatusCode::kDataLoss);
    EXPECT_NE(std::string(decoded.message()).find(c.message), std::string::npos) << decoded;
    EXPECT_EQ(decoder.values_left(), 1);
    EXPECT_EQ(out[0].AsStringView(), "hello");
    EXPECT_EQ(out[1].AsStringView(), "");
    // Asked again, the same value fails the same way.
    const absl::Status again = decoder.Decode(absl::MakeSpan(out).first(1));
    EXPECT_NE(std::string(again.message()).find(c.message), std::string::npos) << again;

    PQPAGE_ASSERT_OK(decoder.Reset(*c.bytes, 3));
    PQPAGE_ASSERT_OK(decoder.Skip(1));
    const absl::Status skipped = decoder.Skip(2);
    EXPECT_NE(std::string(skipped.message()).find(c.message), std::string::npos) << skipped;
    EXPECT_EQ(decoder.values_left(), 1);

    PQPAGE_ASSERT_OK(decoder.Reset(*c.bytes, 3));
    std::vector<int32_t> lengths(3);
    const absl::Status copied =
        decoder.DecodeCopies(3, lengths.data(), [](size_t) -> uint8_t* { return nullptr; });
    EXPECT_NE(std::string(copied.message()).find(c.message), std::string::npos) << copied;
    EXPECT_EQ(decoder.values_left(), 3);
  }
}

// ---------------------------------------------------------------- FIXED_LEN_BYTE_ARRAY
TEST(PlainFixedLenByteArrayTest, RoundTripAndHostile) {
  for (int width : {1, 3, 16, 33}) {
    for (size_t n : {0, 1, 9, 129}) {
      std::vector<uint8_t> raw(n * width);
      for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<uint8_t>(i * 7 + width);
      PlainEncoder<ByteArray> encoder(width);
      PQPAGE_ASSERT_OK(encoder.PutBytes(raw));
      std::vector<uint8_t> bytes = encoder.Finish();
      ASSERT_EQ(bytes, raw);
      PlainDecoder<ByteArray> decoder(width);
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      size_t half = n / 2;
      std::vector<ByteArray> views(half);
      PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(views)));
      for (size_t i = 0; i < half; ++i) {
        ASSERT_EQ(views[i].size, static_cast<uint32_t>(width));
        ASSERT_EQ(std::memcmp(views[i].data, raw.data() + i * width, width), 0);
      }
      std::vector<uint8_t> rest((n - half) * width);
      PQPAGE_ASSERT_OK(decoder.DecodeBytes(absl::MakeSpan(rest)));
      ASSERT_TRUE(std::equal(rest.begin(), rest.end(), raw.begin() + half * width));
      if (n > 0) {
        for (size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 50) {
          PQPAGE_EXPECT_ERROR(decoder.Reset(absl::MakeConstSpan(bytes.data(), cut), n),
                              StatusCode::kDataLoss);
        }
      }
    }
  }
  PlainDecoder<ByteArray> decoder(4);
  std::vector<uint8_t> bytes(8);
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 2));
  std::vector<uint8_t> odd(5);
  PQPAGE_EXPECT_ERROR(decoder.DecodeBytes(absl::MakeSpan(odd)), StatusCode::kInvalidArgument);
  PlainDecoder<ByteArray> zero(0);
  PQPAGE_EXPECT_ERROR(zero.Reset(bytes, 0), StatusCode::kInvalidArgument);
}

// One class holds both byte-array types: the calls of one are refused by the other, and Skip
// moves by type_length bytes.
TEST(PlainFixedLenByteArrayTest, TypeLengthSelectsTheLayout) {
  const std::vector<uint8_t> raw = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  PlainDecoder<ByteArray> fixed(3);
  PQPAGE_ASSERT_OK(fixed.Reset(raw, 3));
  PQPAGE_ASSERT_OK(fixed.Skip(1));
  std::vector<ByteArray> views(2);
  PQPAGE_ASSERT_OK(fixed.Decode(absl::MakeSpan(views)));
  EXPECT_EQ(views[0].data, raw.data() + 3);
  EXPECT_EQ(views[1].data, raw.data() + 6);
  EXPECT_EQ(views[1].size, 3u);
  std::vector<int32_t> offsets;
  std::vector<uint8_t> data;
  PQPAGE_ASSERT_OK(fixed.Reset(raw, 3));
  PQPAGE_EXPECT_ERROR(fixed.DecodeToOffsets(1, &offsets, &data).status(),
                      StatusCode::kInvalidArgument);
  EXPECT_EQ(fixed.values_left(), 3);

  PlainDecoder<ByteArray> variable;
  EXPECT_EQ(variable.type_length(), kVariableLength);
  PQPAGE_ASSERT_OK(variable.Reset(raw, 1));
  std::vector<uint8_t> out(3);
  PQPAGE_EXPECT_ERROR(variable.DecodeBytes(absl::MakeSpan(out)), StatusCode::kInvalidArgument);
  PlainEncoder<ByteArray> variable_encoder;
  PQPAGE_EXPECT_ERROR(variable_encoder.PutBytes(raw), StatusCode::kInvalidArgument);
  EXPECT_EQ(variable_encoder.EstimatedSize(), 0u);

  // string_view values take the FIXED_LEN_BYTE_ARRAY layout too.
  PlainEncoder<ByteArray> fixed_encoder(2);
  const std::vector<std::string_view> texts = {"ab", "cd"};
  PQPAGE_ASSERT_OK(fixed_encoder.Put(absl::MakeConstSpan(texts)));
  const std::vector<std::string_view> wrong = {"abc"};
  PQPAGE_EXPECT_ERROR(fixed_encoder.Put(absl::MakeConstSpan(wrong)), StatusCode::kInvalidArgument);
  EXPECT_EQ(fixed_encoder.MaxEncodedSize(2, 4), 4u);
  EXPECT_EQ(variable_encoder.MaxEncodedSize(2, 4), 12u);
  EXPECT_EQ(fixed_encoder.Finish(), (std::vector<uint8_t>{'a', 'b', 'c', 'd'}));
}

}  // namespace
}  // namespace pqpage
