// ORC's chunked compression (pqpage/orc/compression.h): the spec's header examples, round trips
// through every codec with compressible and incompressible chunks, and streams that must be
// refused without crashing or allocating what they claim.
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pqpage/orc/compression.h"
#include "status_matchers.h"

namespace pqpage::orc {
namespace {

using absl::StatusCode;

const CompressionKind kCompressed[] = {CompressionKind::kZlib, CompressionKind::kSnappy,
                                       CompressionKind::kLzo, CompressionKind::kLz4,
                                       CompressionKind::kZstd};

std::vector<uint8_t> Sample(size_t n, bool compressible) {
  std::mt19937 rng(static_cast<uint32_t>(n) + 17);
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) {
    bytes[i] = compressible ? static_cast<uint8_t>("orc stripes "[i % 12] + (i / 700) % 3)
                            : static_cast<uint8_t>(rng());
  }
  return bytes;
}

// The chunks of a compressed stream, as (header, stored bytes).
std::vector<std::pair<ChunkHeader, size_t>> ChunksOf(const std::vector<uint8_t>& stream) {
  std::vector<std::pair<ChunkHeader, size_t>> chunks;
  for (size_t at = 0; at + kChunkHeaderSize <= stream.size();) {
    const ChunkHeader header = DecodeChunkHeader({stream[at], stream[at + 1], stream[at + 2]});
    chunks.push_back({header, at + kChunkHeaderSize});
    at += kChunkHeaderSize + header.length;
  }
  return chunks;
}

TEST(OrcCompressionTest, ChunkHeadersAreTheSpecsExamples) {
  // "the header for a chunk that compressed to 100,000 bytes would be [0x40, 0x0d, 0x03]".
  EXPECT_EQ(EncodeChunkHeader({100000, false}), (std::array<uint8_t, 3>{0x40, 0x0d, 0x03}));
  // "The header for 5 bytes that did not compress would be [0x0b, 0x00, 0x00]".
  EXPECT_EQ(EncodeChunkHeader({5, true}), (std::array<uint8_t, 3>{0x0b, 0x00, 0x00}));
  const ChunkHeader compressed = DecodeChunkHeader({0x40, 0x0d, 0x03});
  EXPECT_EQ(compressed.length, 100000u);
  EXPECT_FALSE(compressed.is_original);
  const ChunkHeader original = DecodeChunkHeader({0x0b, 0x00, 0x00});
  EXPECT_EQ(original.length, 5u);
  EXPECT_TRUE(original.is_original);
  const ChunkHeader largest = DecodeChunkHeader(EncodeChunkHeader({kMaxChunkLength, true}));
  EXPECT_EQ(largest.length, kMaxChunkLength);
  EXPECT_TRUE(largest.is_original);
}

TEST(OrcCompressionTest, TheSpecsOriginalChunkDecompressesToItsBytes) {
  const std::vector<uint8_t> stream = {0x0b, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o'};
  for (CompressionKind kind : kCompressed) {
    std::vector<uint8_t> buffer;
    PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> out,
                                DecompressStream(kind, 5, stream, &buffer));
    EXPECT_EQ(std::string(out.begin(), out.end()), "hello");
  }
  std::vector<uint8_t> buffer;
  // One byte short of the original: past the block size.
  PQPAGE_EXPECT_ERROR(DecompressStream(CompressionKind::kZlib, 4, stream, &buffer),
                      StatusCode::kDataLoss);
}

TEST(OrcCompressionTest, EveryCodecRoundTripsInChunksOfAtMostTheBlockSize) {
  for (CompressionKind kind : kCompressed) {
    for (uint64_t block_size : {uint64_t{1}, uint64_t{1000}, kDefaultCompressionBlockSize}) {
      for (size_t n : {size_t{0}, size_t{1}, size_t{999}, size_t{1000}, size_t{1001}, size_t{3500},
                       size_t{600000}}) {
        if (block_size == 1 && n > 1001) continue;  // a chunk a byte: slow, and no news
        for (bool compressible : {true, false}) {
          SCOPED_TRACE(absl::StrCat(CompressionKindName(kind).data(), " block ", block_size, " n ",
                                    n, " compressible ", compressible));
          const std::vector<uint8_t> input = Sample(n, compressible);
          std::vector<uint8_t> stream = {42};  // CompressStream appends
          PQPAGE_ASSERT_OK(CompressStream(kind, block_size, input, &stream));
          stream.erase(stream.begin());
          const auto chunks = ChunksOf(stream);
          EXPECT_EQ(chunks.size(), (n + block_size - 1) / block_size);
          for (const auto& [header, at] : chunks) {
            EXPECT_LE(header.length, block_size);
            // Incompressible bytes are stored as they are.
            if (!compressible) EXPECT_TRUE(header.is_original);
          }
          // Compressible ones are not, unless the chunk is too small for any codec to win.
          if (compressible && block_size >= 1000 && n >= 1000) {
            EXPECT_FALSE(chunks[0].first.is_original);
          }
          std::vector<uint8_t> buffer;
          PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> out,
                                      DecompressStream(kind, block_size, stream, &buffer));
          EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), input);
          EXPECT_EQ(out.data(), buffer.data());
        }
      }
    }
  }
}

TEST(OrcCompressionTest, NoneStoresTheStreamAsItIs) {
  const std::vector<uint8_t> input = Sample(5000, true);
  std::vector<uint8_t> stream;
  PQPAGE_ASSERT_OK(CompressStream(CompressionKind::kNone, 0, input, &stream));
  EXPECT_EQ(stream, input);
  std::vector<uint8_t> buffer;
  PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> out,
                              DecompressStream(CompressionKind::kNone, 0, stream, &buffer));
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), input);
}

TEST(OrcCompressionTest, ZlibChunksAreRawDeflateBothWays) {
  const std::vector<uint8_t> input = Sample(20000, true);
  // pqpage's chunk, inflated by zlib as raw deflate (window bits -15: no header).
  std::vector<uint8_t> stream;
  PQPAGE_ASSERT_OK(CompressStream(CompressionKind::kZlib, 65536, input, &stream));
  const ChunkHeader header = DecodeChunkHeader({stream[0], stream[1], stream[2]});
  ASSERT_FALSE(header.is_original);
  z_stream inflater{};
  ASSERT_EQ(inflateInit2(&inflater, -15), Z_OK);
  std::vector<uint8_t> inflated(input.size());
  inflater.next_in = stream.data() + 3;
  inflater.avail_in = header.length;
  inflater.next_out = inflated.data();
  inflater.avail_out = static_cast<uInt>(inflated.size());
  EXPECT_EQ(inflate(&inflater, Z_FINISH), Z_STREAM_END);
  inflateEnd(&inflater);
  EXPECT_EQ(inflated, input);

  // zlib's raw deflate, inflated by pqpage.
  z_stream deflater{};
  ASSERT_EQ(deflateInit2(&deflater, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::vector<uint8_t> compressed(deflateBound(&deflater, input.size()));
  deflater.next_in = const_cast<uint8_t*>(input.data());
  deflater.avail_in = static_cast<uInt>(input.size());
  deflater.next_out = compressed.data();
  deflater.avail_out = static_cast<uInt>(compressed.size());
  ASSERT_EQ(deflate(&deflater, Z_FINISH), Z_STREAM_END);
  compressed.resize(deflater.total_out);
  deflateEnd(&deflater);
  const std::array<uint8_t, 3> zlib_header =
      EncodeChunkHeader({static_cast<uint32_t>(compressed.size()), false});
  std::vector<uint8_t> zlib_stream(zlib_header.begin(), zlib_header.end());
  zlib_stream.insert(zlib_stream.end(), compressed.begin(), compressed.end());
  std::vector<uint8_t> buffer;
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      absl::Span<const uint8_t> out,
      DecompressStream(CompressionKind::kZlib, 65536, zlib_stream, &buffer));
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), input);
}

TEST(OrcCompressionTest, TheBufferIsReusedAndNeverShrinks) {
  for (CompressionKind kind : {CompressionKind::kZlib, CompressionKind::kZstd}) {
    std::vector<uint8_t> buffer;
    size_t largest = 0;
    for (size_t n : {size_t{300000}, size_t{10}, size_t{70000}, size_t{0}}) {
      const std::vector<uint8_t> input = Sample(n, true);
      std::vector<uint8_t> stream;
      PQPAGE_ASSERT_OK(CompressStream(kind, 65536, input, &stream));
      PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> out,
                                  DecompressStream(kind, 65536, stream, &buffer));
      EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), input);
      largest = std::max(largest, n);
      EXPECT_GE(buffer.size(), largest);
    }
  }
}

TEST(OrcCompressionTest, HostileChunkHeadersAreRefused) {
  for (CompressionKind kind : kCompressed) {
    SCOPED_TRACE(CompressionKindName(kind).data());
    std::vector<uint8_t> buffer;
    // A header cut short.
    for (const std::vector<uint8_t>& stream :
         {std::vector<uint8_t>{0x0b}, std::vector<uint8_t>{0x0b, 0x00}}) {
      PQPAGE_EXPECT_ERROR(DecompressStream(kind, 1000, stream, &buffer), StatusCode::kDataLoss);
    }
    // Chunk lengths past the end of the stream, original and compressed.
    PQPAGE_EXPECT_ERROR(DecompressStream(kind, 1000, {0x0b, 0x00, 0x00, 'a', 'b'}, &buffer),
                        StatusCode::kDataLoss);
    PQPAGE_EXPECT_ERROR(DecompressStream(kind, 1u << 22, {0xfe, 0xff, 0xff, 1, 2, 3}, &buffer),
                        StatusCode::kDataLoss);
    // A good chunk followed by a header that claims more than is left.
    std::vector<uint8_t> stream;
    PQPAGE_ASSERT_OK(CompressStream(kind, 1000, Sample(1000, true), &stream));
    stream.insert(stream.end(), {0x41, 0x00, 0x00, 0x00});
    PQPAGE_EXPECT_ERROR(DecompressStream(kind, 1000, stream, &buffer), StatusCode::kDataLoss);
    // Garbage where a compressed chunk should be.
    PQPAGE_EXPECT_ERROR(
        DecompressStream(kind, 1000, {0x08, 0x00, 0x00, 0xff, 0xfe, 0xfd, 0xfc}, &buffer),
        StatusCode::kDataLoss);
    // An empty compressed chunk is no codec's valid output.
    PQPAGE_EXPECT_ERROR(DecompressStream(kind, 1000, {0x00, 0x00, 0x00}, &buffer),
                        StatusCode::kDataLoss);
  }
}

TEST(OrcCompressionTest, ChunksInflatingBeyondTheBlockSizeAreRefused) {
  for (CompressionKind kind : kCompressed) {
    for (size_t n : {size_t{1001}, size_t{5000}, size_t{200000}}) {
      SCOPED_TRACE(absl::StrCat(CompressionKindName(kind).data(), " ", n));
      std::vector<uint8_t> stream;
      PQPAGE_ASSERT_OK(CompressStream(kind, kMaxChunkLength, Sample(n, true), &stream));
      ASSERT_FALSE(ChunksOf(stream)[0].first.is_original);
      std::vector<uint8_t> buffer;
      PQPAGE_EXPECT_ERROR(DecompressStream(kind, 1000, stream, &buffer), StatusCode::kDataLoss);
      PQPAGE_EXPECT_ERROR(DecompressStream(kind, n - 1, stream, &buffer), StatusCode::kDataLoss);
      PQPAGE_EXPECT_OK(DecompressStream(kind, n, stream, &buffer));
    }
  }
}

TEST(OrcCompressionTest, MemoryFollowsWhatTheChunksCanProduceNotTheBlockSize) {
  // A block size far beyond memory: a small chunk still costs only what it can inflate to.
  const uint64_t huge_block = uint64_t{1} << 40;
  for (CompressionKind kind : kCompressed) {
    SCOPED_TRACE(CompressionKindName(kind).data());
    std::vector<uint8_t> stream;
    PQPAGE_ASSERT_OK(CompressStream(kind, 1000, Sample(1000, true), &stream));
    std::vector<uint8_t> buffer;
    PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> out,
                                DecompressStream(kind, huge_block, stream, &buffer));
    EXPECT_EQ(out.size(), 1000u);
    EXPECT_LE(buffer.size(), size_t{1} << 20);
    // Garbage that claims nothing still costs nothing large.
    std::vector<uint8_t> garbage_buffer;
    EXPECT_FALSE(DecompressStream(kind, huge_block, {0x08, 0x00, 0x00, 0xff, 0xff, 0xff, 0x7f},
                                  &garbage_buffer)
                     .ok());
    EXPECT_LE(garbage_buffer.size(), size_t{1} << 20);
  }
}

TEST(OrcCompressionTest, ZstdFramesWithoutAContentSizeStillInflate) {
  // A frame streamed out (no content size in its header) goes through the growing decoder.
  const std::vector<uint8_t> input = Sample(50000, true);
  ZSTD_CCtx* context = ZSTD_createCCtx();
  std::vector<uint8_t> compressed(ZSTD_compressBound(input.size()));
  ZSTD_outBuffer out = {compressed.data(), compressed.size(), 0};
  ZSTD_inBuffer in = {input.data(), input.size(), 0};
  ASSERT_EQ(ZSTD_compressStream2(context, &out, &in, ZSTD_e_continue), 0u);
  ASSERT_EQ(ZSTD_compressStream2(context, &out, &in, ZSTD_e_end), 0u);
  ZSTD_freeCCtx(context);
  compressed.resize(out.pos);
  ASSERT_EQ(ZSTD_getFrameContentSize(compressed.data(), compressed.size()),
            ZSTD_CONTENTSIZE_UNKNOWN);
  const std::array<uint8_t, 3> header =
      EncodeChunkHeader({static_cast<uint32_t>(compressed.size()), false});
  std::vector<uint8_t> stream(header.begin(), header.end());
  stream.insert(stream.end(), compressed.begin(), compressed.end());
  std::vector<uint8_t> buffer;
  PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> inflated,
                              DecompressStream(CompressionKind::kZstd, 65536, stream, &buffer));
  EXPECT_EQ(std::vector<uint8_t>(inflated.begin(), inflated.end()), input);
  PQPAGE_EXPECT_ERROR(DecompressStream(CompressionKind::kZstd, 49999, stream, &buffer),
                      StatusCode::kDataLoss);
}

TEST(OrcCompressionTest, KindsAndBlockSizesOutsideTheRulesAreRefused) {
  std::vector<uint8_t> buffer;
  const std::vector<uint8_t> input = Sample(100, true);
  PQPAGE_EXPECT_ERROR(
      DecompressStream(static_cast<CompressionKind>(9), 1000, {0x0b, 0, 0, 1, 2, 3, 4, 5}, &buffer),
      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(
      DecompressStream(CompressionKind::kZlib, 0, {0x0b, 0, 0, 1, 2, 3, 4, 5}, &buffer),
      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(CompressStream(CompressionKind::kZstd, 0, input, &buffer),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(CompressStream(CompressionKind::kZstd, kMaxChunkLength + 1, input, &buffer),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(CompressStream(CompressionKind::kZlib, 1000, input, &buffer, 13),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(CompressStream(CompressionKind::kZstd, 1000, input, &buffer, 99),
                      StatusCode::kInvalidArgument);
  EXPECT_EQ(CompressionKindName(CompressionKind::kZstd), "ZSTD");
  EXPECT_EQ(CompressionKindName(CompressionKind::kZlib), "ZLIB");
  EXPECT_EQ(CompressionKindName(static_cast<CompressionKind>(6)), "UNKNOWN");
}

}  // namespace
}  // namespace pqpage::orc
