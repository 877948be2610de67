#include "pqpage/compression.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using absl::StatusCode;

const Compression kWritable[] = {Compression::kUncompressed, Compression::kSnappy,
                                 Compression::kGzip,         Compression::kBrotli,
                                 Compression::kZstd,         Compression::kLz4Raw};

std::vector<uint8_t> Sample(size_t n, bool compressible) {
  std::mt19937 rng(static_cast<uint32_t>(n));
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) {
    bytes[i] = compressible ? static_cast<uint8_t>("parquet pages "[i % 14] + (i / 1000) % 3)
                            : static_cast<uint8_t>(rng());
  }
  return bytes;
}

TEST(CompressionTest, EveryWritableCodecRoundTrips) {
  for (Compression codec : kWritable) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{70000}, size_t{1} << 20}) {
      for (bool compressible : {true, false}) {
        const std::vector<uint8_t> input = Sample(n, compressible);
        std::vector<uint8_t> compressed = {0xEE};  // Compress appends
        PQPAGE_ASSERT_OK(Compress(codec, input, &compressed));
        ASSERT_EQ(compressed[0], 0xEE);
        compressed.erase(compressed.begin());
        if (compressible && n >= 70000 && codec != Compression::kUncompressed) {
          EXPECT_LT(compressed.size(), n / 4) << CompressionName(codec);
        }
        std::vector<uint8_t> back(n);
        PQPAGE_ASSERT_OK(Decompress(codec, compressed, absl::MakeSpan(back)));
        ASSERT_EQ(back, input) << CompressionName(codec) << " n " << n;
      }
    }
  }
}

TEST(CompressionTest, LevelsAreHonouredAndChecked) {
  const std::vector<uint8_t> input = Sample(200000, true);
  std::vector<uint8_t> fast, small;
  PQPAGE_ASSERT_OK(Compress(Compression::kZstd, input, &fast, 1));
  PQPAGE_ASSERT_OK(Compress(Compression::kZstd, input, &small, 19));
  EXPECT_LE(small.size(), fast.size());
  std::vector<uint8_t> out;
  PQPAGE_EXPECT_ERROR(Compress(Compression::kZstd, input, &out, 99), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(Compress(Compression::kGzip, input, &out, 10), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(Compress(Compression::kBrotli, input, &out, 12),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(Compress(Compression::kLzo, input, &out), StatusCode::kUnimplemented);
  PQPAGE_EXPECT_ERROR(Compress(Compression::kLz4Hadoop, input, &out), StatusCode::kUnimplemented);
  PQPAGE_EXPECT_ERROR(Decompress(Compression::kLzo, input, absl::MakeSpan(out)),
                      StatusCode::kUnimplemented);
  PQPAGE_EXPECT_ERROR(Compress(static_cast<Compression>(42), input, &out),
                      StatusCode::kInvalidArgument);
}

TEST(CompressionTest, ASizeOtherThanTheHeaderSaysIsAnError) {
  const std::vector<uint8_t> input = Sample(5000, true);
  for (Compression codec : kWritable) {
    std::vector<uint8_t> compressed;
    PQPAGE_ASSERT_OK(Compress(codec, input, &compressed));
    for (size_t wrong : {size_t{4999}, size_t{5001}, size_t{0}, size_t{100000}}) {
      std::vector<uint8_t> out(wrong);
      PQPAGE_EXPECT_ERROR(Decompress(codec, compressed, absl::MakeSpan(out)), StatusCode::kDataLoss)
          << CompressionName(codec) << " " << wrong;
    }
  }
}

TEST(CompressionTest, CorruptAndTruncatedStreamsAreErrors) {
  const std::vector<uint8_t> input = Sample(3000, true);
  for (Compression codec : kWritable) {
    if (codec == Compression::kUncompressed) continue;
    std::vector<uint8_t> compressed;
    PQPAGE_ASSERT_OK(Compress(codec, input, &compressed));
    for (size_t cut = 0; cut < compressed.size(); ++cut) {
      const std::vector<uint8_t> truncated(compressed.begin(), compressed.begin() + cut);
      std::vector<uint8_t> out(input.size());
      EXPECT_FALSE(Decompress(codec, truncated, absl::MakeSpan(out)).ok())
          << CompressionName(codec) << " cut " << cut;
    }
    std::mt19937 rng(1);
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<uint8_t> damaged = compressed;
      damaged[rng() % damaged.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      std::vector<uint8_t> out(input.size());
      // Damage may go unnoticed by codecs without checksums, but must never crash.
      (void)Decompress(codec, damaged, absl::MakeSpan(out));
    }
  }
}

TEST(CompressionTest, GzipReadsConcatenatedMembers) {
  const std::vector<uint8_t> first = Sample(4000, true);
  const std::vector<uint8_t> second = Sample(3000, false);
  std::vector<uint8_t> compressed;
  PQPAGE_ASSERT_OK(Compress(Compression::kGzip, first, &compressed));
  PQPAGE_ASSERT_OK(Compress(Compression::kGzip, second, &compressed));
  std::vector<uint8_t> out(first.size() + second.size());
  PQPAGE_ASSERT_OK(Decompress(Compression::kGzip, compressed, absl::MakeSpan(out)));
  std::vector<uint8_t> expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  EXPECT_EQ(out, expected);
}

void AppendBigEndian32(std::vector<uint8_t>* out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<uint8_t>(value >> shift));
}

TEST(CompressionTest, LegacyLz4ReadsHadoopFramingAndRawBlocks) {
  const std::vector<uint8_t> a = Sample(6000, true);
  const std::vector<uint8_t> b = Sample(2000, false);
  std::vector<uint8_t> block_a, block_b;
  PQPAGE_ASSERT_OK(Compress(Compression::kLz4Raw, a, &block_a));
  PQPAGE_ASSERT_OK(Compress(Compression::kLz4Raw, b, &block_b));
  // Two Hadoop frames: [raw size][compressed size][block], sizes big-endian.
  std::vector<uint8_t> framed;
  AppendBigEndian32(&framed, static_cast<uint32_t>(a.size()));
  AppendBigEndian32(&framed, static_cast<uint32_t>(block_a.size()));
  framed.insert(framed.end(), block_a.begin(), block_a.end());
  AppendBigEndian32(&framed, static_cast<uint32_t>(b.size()));
  AppendBigEndian32(&framed, static_cast<uint32_t>(block_b.size()));
  framed.insert(framed.end(), block_b.begin(), block_b.end());
  std::vector<uint8_t> out(a.size() + b.size());
  PQPAGE_ASSERT_OK(Decompress(Compression::kLz4Hadoop, framed, absl::MakeSpan(out)));
  std::vector<uint8_t> expected = a;
  expected.insert(expected.end(), b.begin(), b.end());
  EXPECT_EQ(out, expected);
  // Some writers put a bare block behind codec LZ4; it is read as such when the framing fails.
  std::vector<uint8_t> raw_out(a.size());
  PQPAGE_ASSERT_OK(Decompress(Compression::kLz4Hadoop, block_a, absl::MakeSpan(raw_out)));
  EXPECT_EQ(raw_out, a);
}

TEST(CompressionTest, EmptySpansWithANullPointerAreHandledByEveryCodec) {
  // An empty vector's data() may be null; an empty values section (a v2 page of nulls), an empty
  // dictionary or an empty page body hands such a span to the codecs. Each must answer (OK or
  // DataLoss) without arithmetic on the null pointer, which clang's UBSan in CI halts on.
  const absl::Span<const uint8_t> empty(nullptr, 0);
  const Compression readable[] = {Compression::kUncompressed, Compression::kSnappy,
                                  Compression::kGzip,         Compression::kBrotli,
                                  Compression::kZstd,         Compression::kLz4Hadoop,
                                  Compression::kLz4Raw};
  for (Compression codec : readable) {
    SCOPED_TRACE(CompressionName(codec));
    const absl::Status to_nothing = Decompress(codec, empty, absl::Span<uint8_t>(nullptr, 0));
    EXPECT_TRUE(to_nothing.ok() || to_nothing.code() == StatusCode::kDataLoss) << to_nothing;
    std::vector<uint8_t> ten(10);
    PQPAGE_EXPECT_ERROR(Decompress(codec, empty, absl::MakeSpan(ten)), StatusCode::kDataLoss);
    std::vector<uint8_t> out;
    const absl::Status bounded = DecompressBounded(codec, empty, 0, &out);
    EXPECT_TRUE(bounded.ok() || bounded.code() == StatusCode::kDataLoss) << bounded;
    PQPAGE_EXPECT_ERROR(DecompressBounded(codec, empty, 10, &out), StatusCode::kDataLoss);
  }
  for (Compression codec : kWritable) {
    SCOPED_TRACE(CompressionName(codec));
    std::vector<uint8_t> compressed;
    PQPAGE_ASSERT_OK(Compress(codec, empty, &compressed));
    std::vector<uint8_t> back;
    PQPAGE_EXPECT_OK(DecompressBounded(codec, compressed, 0, &back));
    EXPECT_TRUE(back.empty());
  }
  EXPECT_EQ(PageCrc32(empty), 0u);
}

TEST(CompressionTest, PageCrcIsZlibCrc32) {
  // The CRC-32 check value: crc32("123456789") = 0xCBF43926.
  const std::string check = "123456789";
  EXPECT_EQ(PageCrc32(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(check.data()), 9)),
            0xCBF43926u);
  EXPECT_EQ(PageCrc32({}), 0u);
  // Against zlib's crc32 (the reference the format names) on lengths and offsets that reach the
  // vector kernel's head, body and tail.
  std::mt19937 rng(5);
  std::vector<uint8_t> bytes(70000);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  for (size_t offset : {0, 1, 7, 13}) {
    for (size_t n : {1, 15, 16, 63, 64, 65, 255, 4096, 65537}) {
      const uint8_t* data = bytes.data() + offset;
      const auto zlib =
          static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), data, static_cast<uInt>(n)));
      EXPECT_EQ(PageCrc32(absl::MakeConstSpan(data, n)), zlib) << "offset " << offset << " n " << n;
    }
  }
}

TEST(CompressionTest, PageCrcContinuesAcrossPieces) {
  std::mt19937 rng(9);
  std::vector<uint8_t> bytes(5000);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  const uint32_t whole = PageCrc32(bytes);
  for (size_t cut : {size_t{0}, size_t{1}, size_t{64}, size_t{4999}, size_t{5000}}) {
    const absl::Span<const uint8_t> all(bytes);
    // An empty piece, null or not, between the others changes nothing.
    uint32_t crc = PageCrc32(all.first(cut));
    crc = PageCrc32({}, crc);
    crc = PageCrc32(all.subspan(cut, 0), crc);
    crc = PageCrc32(all.subspan(cut), crc);
    EXPECT_EQ(crc, whole) << "cut at " << cut;
  }
}

TEST(CompressionTest, CompressionIntoAReusedBufferMatchesCompress) {
  for (Compression codec : kWritable) {
    std::vector<uint8_t> buffer;
    size_t largest = 0;
    // Large, then small, then large again: the buffer keeps its length and what it holds past
    // the compressed bytes does not matter.
    for (size_t n : {size_t{300000}, size_t{0}, size_t{1000}, size_t{300000}, size_t{70}}) {
      for (bool compressible : {true, false}) {
        SCOPED_TRACE(absl::StrCat(CompressionName(codec).data(), " ", n, " ", compressible));
        const std::vector<uint8_t> input = Sample(n, compressible);
        std::vector<uint8_t> expected = {7};  // Compress appends after what is there
        PQPAGE_ASSERT_OK(Compress(codec, input, &expected));
        PQPAGE_ASSERT_OK_AND_ASSIGN(const absl::Span<const uint8_t> got,
                                    CompressIntoBuffer(codec, input, &buffer));
        EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.end()),
                  std::vector<uint8_t>(expected.begin() + 1, expected.end()));
        EXPECT_EQ(got.data(), buffer.data());
        PQPAGE_ASSERT_OK_AND_ASSIGN(const size_t bound, CompressBound(codec, n));
        EXPECT_LE(got.size(), bound);
        largest = std::max(largest, bound);
        EXPECT_GE(buffer.size(), largest);
      }
    }
  }
  std::vector<uint8_t> buffer;
  EXPECT_EQ(CompressIntoBuffer(Compression::kLz4Hadoop, {}, &buffer).status().code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(CompressBound(Compression::kLzo, 10).status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(CompressBound(Compression::kLz4Raw, size_t{3} << 30).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CompressIntoBuffer(Compression::kZstd, {}, &buffer, 99).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CompressionTest, BoundedInflationRoundTripsEveryCodec) {
  for (Compression codec : kWritable) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{300000}}) {
      for (bool compressible : {true, false}) {
        SCOPED_TRACE(absl::StrCat(CompressionName(codec).data(), " ", n, " ", compressible));
        const std::vector<uint8_t> input = Sample(n, compressible);
        std::vector<uint8_t> compressed;
        PQPAGE_ASSERT_OK(Compress(codec, input, &compressed));
        std::vector<uint8_t> out = {1, 2, 3};  // overwritten, not appended to
        PQPAGE_ASSERT_OK(DecompressBounded(codec, compressed, static_cast<int64_t>(n), &out));
        EXPECT_EQ(out, input);
        if (codec == Compression::kUncompressed) continue;
        PQPAGE_EXPECT_ERROR(DecompressBounded(codec, compressed, static_cast<int64_t>(n) + 1, &out),
                            absl::StatusCode::kDataLoss);
        if (n > 0) {
          PQPAGE_EXPECT_ERROR(
              DecompressBounded(codec, compressed, static_cast<int64_t>(n) - 1, &out),
              absl::StatusCode::kDataLoss);
        }
      }
    }
  }
}

TEST(CompressionTest, InflationIntoAReusedBufferGrowsItButNeverShrinksIt) {
  for (Compression codec : kWritable) {
    SCOPED_TRACE(CompressionName(codec).data());
    std::vector<uint8_t> buffer;
    size_t largest = 0;
    // Pages of changing sizes, as a column chunk has them; each comes back whole and exact.
    for (size_t n : {size_t{5000}, size_t{300000}, size_t{17}, size_t{120000}, size_t{0}}) {
      const std::vector<uint8_t> page = Sample(n, n % 2 == 0);
      std::vector<uint8_t> compressed;
      PQPAGE_ASSERT_OK(Compress(codec, page, &compressed));
      PQPAGE_ASSERT_OK_AND_ASSIGN(
          absl::Span<const uint8_t> inflated,
          DecompressIntoBuffer(codec, compressed, static_cast<int64_t>(n), &buffer));
      ASSERT_EQ(inflated.size(), n);
      EXPECT_TRUE(std::equal(inflated.begin(), inflated.end(), page.begin()));
      largest = std::max(largest, n);
      // The growing decoders (brotli) size the buffer to the page; the others keep the largest.
      if (codec != Compression::kBrotli && codec != Compression::kUncompressed) {
        EXPECT_EQ(buffer.size(), largest) << n;
      }
    }
    if (codec == Compression::kUncompressed) continue;
    // The same refusals as DecompressBounded: sizes the stream does not produce.
    for (size_t n : {size_t{0}, size_t{5000}}) {
      std::vector<uint8_t> compressed;
      PQPAGE_ASSERT_OK(Compress(codec, Sample(n, true), &compressed));
      PQPAGE_EXPECT_ERROR(
          DecompressIntoBuffer(codec, compressed, static_cast<int64_t>(n) + 1, &buffer),
          absl::StatusCode::kDataLoss);
      PQPAGE_EXPECT_ERROR(DecompressIntoBuffer(codec, compressed, -1, &buffer),
                          absl::StatusCode::kDataLoss);
    }
    // A header claiming far more than the input can produce allocates nothing for it.
    std::vector<uint8_t> compressed;
    PQPAGE_ASSERT_OK(Compress(codec, Sample(100, false), &compressed));
    std::vector<uint8_t> small;
    PQPAGE_EXPECT_ERROR(DecompressIntoBuffer(codec, compressed, int64_t{1} << 31, &small),
                        absl::StatusCode::kDataLoss);
    EXPECT_LT(small.capacity(), size_t{1} << 20);
  }
}

TEST(CompressionTest, BoundedInflationRefusesImpossibleSizesWithoutAllocatingThem) {
  // 64 MiB of zeros compresses to a few hundred bytes under zstd and brotli: a header claiming
  // 2 GiB must fail after inflating what is there, and the bounded codecs fail before inflating.
  const std::vector<uint8_t> zeros(size_t{64} << 20, 0);
  for (Compression codec : kWritable) {
    if (codec == Compression::kUncompressed) continue;
    SCOPED_TRACE(CompressionName(codec).data());
    std::vector<uint8_t> compressed;
    PQPAGE_ASSERT_OK(Compress(codec, zeros, &compressed));
    std::vector<uint8_t> out;
    PQPAGE_EXPECT_ERROR(DecompressBounded(codec, compressed, INT32_MAX, &out),
                        absl::StatusCode::kDataLoss);
    EXPECT_LE(out.capacity(), size_t{128} << 20);
    PQPAGE_EXPECT_ERROR(DecompressBounded(codec, std::vector<uint8_t>{1, 2, 3}, INT32_MAX, &out),
                        absl::StatusCode::kDataLoss);
    EXPECT_LE(out.capacity(), size_t{128} << 20);
    PQPAGE_EXPECT_ERROR(DecompressBounded(codec, compressed, -1, &out),
                        absl::StatusCode::kDataLoss);
  }
}

TEST(CompressionTest, BoundedZstdReadsConcatenatedFrames) {
  const std::vector<uint8_t> first = Sample(5000, true);
  const std::vector<uint8_t> second = Sample(7000, false);
  std::vector<uint8_t> compressed;
  PQPAGE_ASSERT_OK(Compress(Compression::kZstd, first, &compressed));
  PQPAGE_ASSERT_OK(Compress(Compression::kZstd, second, &compressed));
  std::vector<uint8_t> out;
  PQPAGE_ASSERT_OK(DecompressBounded(Compression::kZstd, compressed, 12000, &out));
  std::vector<uint8_t> both = first;
  both.insert(both.end(), second.begin(), second.end());
  EXPECT_EQ(out, both);
  // Cut inside the second frame.
  compressed.resize(compressed.size() - 5);
  PQPAGE_EXPECT_ERROR(DecompressBounded(Compression::kZstd, compressed, 12000, &out),
                      absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace pqpage
