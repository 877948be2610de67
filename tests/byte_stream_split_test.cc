// Tests of BYTE_STREAM_SPLIT: the seed's byte example, round trips for every type and FLBA width,
// decoding from the middle of a page, AVX2 against scalar kernels, and hostile page sizes.
#include "pqpage/byte_stream_split.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "common/cpu_features.h"
#include "encodings/byte_stream_split_internal.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using ::absl::StatusCode;

const std::vector<size_t> kLengths = {0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129, 100000};

// The definition, written independently of the kernels: byte k of value i at k * n + i.
std::vector<uint8_t> ReferenceEncode(const uint8_t* values, size_t n, size_t width) {
  std::vector<uint8_t> out(n * width);
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < width; ++k) out[k * n + i] = values[i * width + k];
  }
  return out;
}

TEST(ByteStreamSplitTest, SeedExample) {
  const std::vector<uint8_t> raw = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11,
                                    0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  const std::vector<uint8_t> expected = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4,
                                         0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  std::vector<float> floats(3);
  std::memcpy(floats.data(), raw.data(), 12);
  ByteStreamSplitEncoder<float> encoder;
  PQPAGE_EXPECT_OK(encoder.Put(floats));
  EXPECT_EQ(encoder.EstimatedSize(), 12u);
  EXPECT_EQ(encoder.Finish(), expected);

  ByteStreamSplitDecoder<float> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(expected, 3));
  std::vector<float> out(3);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out)));
  EXPECT_EQ(std::memcmp(out.data(), raw.data(), 12), 0);

  // The same bytes as INT32 and as FIXED_LEN_BYTE_ARRAY(4).
  std::vector<int32_t> ints(3);
  std::memcpy(ints.data(), raw.data(), 12);
  ByteStreamSplitEncoder<int32_t> int_encoder;
  PQPAGE_EXPECT_OK(int_encoder.Put(ints));
  EXPECT_EQ(int_encoder.Finish(), expected);
  ByteStreamSplitEncoder<ByteArray> flba_encoder(4);
  PQPAGE_ASSERT_OK(flba_encoder.PutBytes(raw));
  EXPECT_EQ(flba_encoder.Finish(), expected);
}

template <typename T>
std::vector<T> Values(size_t n, int pattern, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> values(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t bits = 0;
    switch (pattern) {
      case 0:
        bits = rng();
        break;
      case 1:
        bits = 0x1234567887654321ULL;
        break;
      case 2:
        bits = i * 12345;
        break;
      default:
        bits = (i % 3 == 0) ? ~0ULL : (i % 3 == 1 ? 0 : 1ULL << 63);
        break;
    }
    std::memcpy(&values[i], &bits, sizeof(T));
  }
  return values;
}

template <typename T>
void RoundTrip() {
  for (size_t n : kLengths) {
    for (int pattern = 0; pattern < 4; ++pattern) {
      const std::vector<T> values = Values<T>(n, pattern, n * 7 + pattern);
      ByteStreamSplitEncoder<T> encoder;
      // Put in two parts: the encoder streams.
      PQPAGE_EXPECT_OK(encoder.Put(absl::MakeConstSpan(values.data(), n / 3)));
      PQPAGE_EXPECT_OK(encoder.Put(absl::MakeConstSpan(values.data() + n / 3, n - n / 3)));
      std::vector<uint8_t> prefix = {0xEE};
      encoder.FinishInto(&prefix);
      std::vector<uint8_t> bytes(prefix.begin() + 1, prefix.end());
      ASSERT_EQ(bytes,
                ReferenceEncode(reinterpret_cast<const uint8_t*>(values.data()), n, sizeof(T)));
      EXPECT_EQ(encoder.EstimatedSize(), 0u);

      ByteStreamSplitDecoder<T> decoder;
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      EXPECT_EQ(decoder.stream_length(), static_cast<int64_t>(n));
      std::vector<T> all(n);
      PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(all)));
      ASSERT_TRUE(n == 0 || std::memcmp(all.data(), values.data(), n * sizeof(T)) == 0);

      // Batches from the middle of the page, with skips.
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      const size_t batches[] = {1, 7, 33, 2, 64, 100};
      size_t done = 0, b = 0;
      while (done < n) {
        const size_t take = std::min(batches[b++ % 6], n - done);
        if (b % 5 == 0) {
          PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(take)));
        } else {
          std::vector<T> part(take);
          PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(part)));
          ASSERT_EQ(std::memcmp(part.data(), values.data() + done, take * sizeof(T)), 0) << done;
        }
        done += take;
      }
      T extra;
      PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(&extra, 1)), StatusCode::kInvalidArgument);
    }
  }
}

TEST(ByteStreamSplitTest, RoundTripFloat) { RoundTrip<float>(); }
TEST(ByteStreamSplitTest, RoundTripDouble) { RoundTrip<double>(); }
TEST(ByteStreamSplitTest, RoundTripInt32) { RoundTrip<int32_t>(); }
TEST(ByteStreamSplitTest, RoundTripInt64) { RoundTrip<int64_t>(); }

TEST(ByteStreamSplitTest, SpecialFloatsBitExact) {
  const std::vector<double> doubles = {
      std::bit_cast<double>(0x7FF8000000000ABCULL), std::bit_cast<double>(0xFFF0000000000001ULL),
      -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  ByteStreamSplitEncoder<double> encoder;
  PQPAGE_EXPECT_OK(encoder.Put(doubles));
  const std::vector<uint8_t> bytes = encoder.Finish();
  ByteStreamSplitDecoder<double> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 5));
  std::vector<double> out(5);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out)));
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(std::bit_cast<uint64_t>(out[i]), std::bit_cast<uint64_t>(doubles[i]));
  }
  const std::vector<float> floats = {std::bit_cast<float>(0x7FC00ABCu), -0.0f,
                                     std::numeric_limits<float>::infinity()};
  ByteStreamSplitEncoder<float> fencoder;
  PQPAGE_EXPECT_OK(fencoder.Put(floats));
  const std::vector<uint8_t> fbytes = fencoder.Finish();
  ByteStreamSplitDecoder<float> fdecoder;
  PQPAGE_ASSERT_OK(fdecoder.Reset(fbytes, 3));
  std::vector<float> fout(3);
  PQPAGE_ASSERT_OK(fdecoder.Decode(absl::MakeSpan(fout)));
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(std::bit_cast<uint32_t>(fout[i]), std::bit_cast<uint32_t>(floats[i]));
  }
}

TEST(ByteStreamSplitTest, FixedLenByteArrayEveryWidth) {
  for (int width : {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 33}) {
    for (size_t n : {0, 1, 7, 33, 129, 1000}) {
      std::vector<uint8_t> raw(n * width);
      std::mt19937 rng(width * 1000 + static_cast<int>(n));
      for (auto& byte : raw) byte = static_cast<uint8_t>(rng());
      ByteStreamSplitEncoder<ByteArray> encoder(width);
      // Half as views, half as contiguous bytes.
      std::vector<ByteArray> views;
      for (size_t i = 0; i < n / 2; ++i) views.push_back(ByteArray(raw.data() + i * width, width));
      PQPAGE_ASSERT_OK(encoder.Put(views));
      PQPAGE_ASSERT_OK(encoder.PutBytes(absl::MakeConstSpan(raw).subspan((n / 2) * width)));
      const std::vector<uint8_t> bytes = encoder.Finish();
      ASSERT_EQ(bytes, ReferenceEncode(raw.data(), n, width)) << width << " " << n;

      ByteStreamSplitDecoder<ByteArray> decoder(width);
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      std::vector<uint8_t> out(n * width);
      size_t done = 0;
      while (done < n) {
        const size_t take = std::min<size_t>(done % 2 ? 13 : 1, n - done);
        PQPAGE_ASSERT_OK(
            decoder.DecodeBytes(absl::MakeSpan(out).subspan(done * width, take * width)));
        done += take;
      }
      ASSERT_EQ(out, raw);
      if (width > 1) {
        std::vector<uint8_t> odd(width + 1);
        PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
        PQPAGE_EXPECT_ERROR(decoder.DecodeBytes(absl::MakeSpan(odd)), StatusCode::kInvalidArgument);
      }
    }
  }
  ByteStreamSplitEncoder<ByteArray> encoder(3);
  std::vector<uint8_t> two(2);
  std::vector<ByteArray> wrong = {ByteArray(two.data(), 2)};
  PQPAGE_EXPECT_ERROR(encoder.Put(wrong), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(encoder.PutBytes(two), StatusCode::kInvalidArgument);
  ByteStreamSplitDecoder<ByteArray> zero(0);
  PQPAGE_EXPECT_ERROR(zero.Reset(two, 0), StatusCode::kInvalidArgument);
}

// FIXED_LEN_BYTE_ARRAY values as views: gathered into the decoder's buffer, every view of a page
// stays valid while the page is read on (in batches, with skips and byte copies in between).
TEST(ByteStreamSplitTest, FixedLenByteArrayViews) {
  for (int width : {1, 3, 4, 8, 16, 17}) {
    const size_t n = 300;
    std::vector<uint8_t> raw(n * width);
    std::mt19937 rng(width);
    for (auto& byte : raw) byte = static_cast<uint8_t>(rng());
    ByteStreamSplitEncoder<ByteArray> encoder(width);
    PQPAGE_ASSERT_OK(encoder.PutBytes(raw));
    EXPECT_EQ(encoder.MaxEncodedSize(n), raw.size());
    const std::vector<uint8_t> bytes = encoder.Finish();
    ByteStreamSplitDecoder<ByteArray> decoder(width);
    for (int page = 0; page < 2; ++page) {
      PQPAGE_ASSERT_OK(decoder.Reset(bytes, static_cast<int64_t>(n)));
      std::vector<ByteArray> views(n);
      size_t done = 0;
      for (size_t step = 1; done < n; ++step) {
        const size_t take = std::min(step * 7 % 50, n - done);
        if (step % 3 == 0) {
          PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(take)));
          for (size_t i = done; i < done + take; ++i)
            views[i] = ByteArray(raw.data() + i * width, width);
        } else if (step % 5 == 0) {
          std::vector<uint8_t> copy(take * width);
          PQPAGE_ASSERT_OK(decoder.DecodeBytes(absl::MakeSpan(copy)));
          ASSERT_TRUE(std::equal(copy.begin(), copy.end(), raw.begin() + done * width));
          for (size_t i = done; i < done + take; ++i)
            views[i] = ByteArray(raw.data() + i * width, width);
        } else {
          PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(views).subspan(done, take)));
        }
        done += take;
      }
      EXPECT_EQ(decoder.values_left(), 0);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(views[i], ByteArray(raw.data() + i * width, width)) << width << " " << i;
      }
      std::vector<ByteArray> one(1);
      PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(one)), StatusCode::kInvalidArgument);
    }
  }
}

// The numeric codecs take and give PLAIN-order bytes too.
// The encoder scatters values to its streams as they come and keeps its regions from page to page:
// puts of every size, regions that grow while they hold values, pages smaller and larger than
// the one before, and a refused put between good ones all give the reference bytes.
TEST(ByteStreamSplitTest, PutsAndPagesOfEverySize) {
  const std::vector<int64_t> all = Values<int64_t>(20000, 0, 5);
  const auto* raw = reinterpret_cast<const uint8_t*>(all.data());
  ByteStreamSplitEncoder<int64_t> encoder;
  ByteStreamSplitEncoder<ByteArray> flba(8);
  std::mt19937 rng(3);
  for (size_t page_values : {size_t{5000}, size_t{3}, size_t{20000}, size_t{0}, size_t{1500}}) {
    size_t put = 0;
    while (put < page_values) {
      const size_t take = std::min<size_t>(page_values - put, 1 + rng() % 700);
      PQPAGE_ASSERT_OK(encoder.Put(absl::MakeConstSpan(all).subspan(put, take)));
      std::vector<ByteArray> views;
      for (size_t i = put; i < put + take; ++i) views.push_back(ByteArray(raw + i * 8, 8));
      if (take % 2 == 0) {
        std::vector<ByteArray> wrong = views;
        wrong.back().size = 7;
        PQPAGE_EXPECT_ERROR(flba.Put(wrong), StatusCode::kInvalidArgument);
      }
      PQPAGE_ASSERT_OK(flba.Put(views));
      put += take;
      ASSERT_EQ(encoder.EstimatedSize(), put * 8);
    }
    const std::vector<uint8_t> want = ReferenceEncode(raw, page_values, 8);
    std::vector<uint8_t> behind = {1, 2, 3};
    encoder.FinishInto(&behind);
    ASSERT_EQ(std::vector<uint8_t>(behind.begin() + 3, behind.end()), want) << page_values;
    ASSERT_EQ(flba.Finish(), want) << page_values;
    EXPECT_EQ(encoder.EstimatedSize(), 0u);
  }
}

TEST(ByteStreamSplitTest, NumbersAsBytes) {
  const std::vector<double> values = {1.5, -2.25, 1e300};
  std::vector<uint8_t> raw(values.size() * 8);
  std::memcpy(raw.data(), values.data(), raw.size());
  ByteStreamSplitEncoder<double> from_bytes;
  PQPAGE_ASSERT_OK(from_bytes.PutBytes(raw));
  PQPAGE_EXPECT_ERROR(from_bytes.PutBytes(std::vector<uint8_t>(3)), StatusCode::kInvalidArgument);
  ByteStreamSplitEncoder<double> from_values;
  PQPAGE_ASSERT_OK(from_values.Put(values));
  const std::vector<uint8_t> bytes = from_values.Finish();
  EXPECT_EQ(from_bytes.Finish(), bytes);
  ByteStreamSplitDecoder<double> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 3));
  std::vector<uint8_t> out(raw.size());
  PQPAGE_ASSERT_OK(decoder.DecodeBytes(absl::MakeSpan(out)));
  EXPECT_EQ(out, raw);
}

// Nulls are not stored: N (bytes / K) may exceed the values the caller reads, never fall short.
TEST(ByteStreamSplitTest, StreamLengthVersusCount) {
  const std::vector<int32_t> values = {1, 2, 3, 4, 5};
  ByteStreamSplitEncoder<int32_t> encoder;
  PQPAGE_EXPECT_OK(encoder.Put(values));
  const std::vector<uint8_t> bytes = encoder.Finish();
  ByteStreamSplitDecoder<int32_t> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 3));
  std::vector<int32_t> out(3);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out)));
  EXPECT_EQ(out, (std::vector<int32_t>{1, 2, 3}));  // the stride is still N = 5
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, 6), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder.Reset(bytes, -1), StatusCode::kInvalidArgument);
}

TEST(ByteStreamSplitTest, HostileSizes) {
  const std::vector<double> values = Values<double>(20, 0, 3);
  ByteStreamSplitEncoder<double> encoder;
  PQPAGE_EXPECT_OK(encoder.Put(values));
  const std::vector<uint8_t> bytes = encoder.Finish();
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    ByteStreamSplitDecoder<double> decoder;
    const absl::Status status = decoder.Reset(absl::MakeConstSpan(bytes.data(), cut), 20);
    // Either not a multiple of 8 bytes, or too few values: DataLoss both ways.
    PQPAGE_EXPECT_ERROR(status, StatusCode::kDataLoss) << cut;
    if (cut % 8 != 0) {
      PQPAGE_EXPECT_ERROR(decoder.Reset(absl::MakeConstSpan(bytes.data(), cut), 0),
                          StatusCode::kDataLoss);
    }
  }
  for (int width : {3, 16}) {
    ByteStreamSplitDecoder<ByteArray> decoder(width);
    std::vector<uint8_t> page(width * 4 + 1);
    PQPAGE_EXPECT_ERROR(decoder.Reset(page, 1), StatusCode::kDataLoss);
  }
}

// The SIMD kernels must produce exactly the scalar kernels' bytes, at every count (every tail
// length after the 32- or 64-value steps) and offset.
TEST(ByteStreamSplitTest, SimdMatchesScalar) {
  std::vector<const internal::ByteStreamSplitKernels*> twins;
  if (internal::UseAvx2Twins()) twins.push_back(&internal::Avx2ByteStreamSplitKernels());
  if (twins.empty()) GTEST_SKIP() << "no SIMD tier on this CPU (or PQPAGE_SIMD_TIER)";
  const auto& scalar = internal::ScalarByteStreamSplitKernels();
  for (const internal::ByteStreamSplitKernels* twin : twins) {
    std::mt19937 rng(5);
    for (int width : {4, 8}) {
      for (int64_t n : {0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 191, 1000, 4099}) {
        std::vector<uint8_t> raw(n * width);
        for (auto& byte : raw) byte = static_cast<uint8_t>(rng());
        std::vector<uint8_t> a(raw.size() + 1, 0x5A), b(raw.size() + 1, 0x5A);
        (width == 4 ? scalar.encode4 : scalar.encode8)(raw.data(), n, n, a.data());
        (width == 4 ? twin->encode4 : twin->encode8)(raw.data(), n, n, b.data());
        ASSERT_EQ(a, b) << twin->name << " " << width << " " << n;
        std::vector<uint8_t> expected = ReferenceEncode(raw.data(), n, width);
        expected.push_back(0x5A);
        ASSERT_EQ(a, expected);
        for (int64_t offset : {int64_t{0}, int64_t{1}, n / 3}) {
          if (offset > n) continue;
          std::vector<uint8_t> da((n - offset) * width + 1, 0x77), db(da);
          (width == 4 ? scalar.decode4 : scalar.decode8)(a.data() + offset, n, n - offset,
                                                         da.data());
          (width == 4 ? twin->decode4 : twin->decode8)(a.data() + offset, n, n - offset, db.data());
          ASSERT_EQ(da, db) << twin->name << " " << width << " " << n << " " << offset;
          ASSERT_TRUE(std::equal(da.begin(), da.end() - 1, raw.begin() + offset * width));
          ASSERT_EQ(da.back(), 0x77);
        }
      }
    }
  }
}

}  // namespace
}  // namespace pqpage
