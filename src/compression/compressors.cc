// The compressing direction, one function per codec over the Debian libraries. Each writes into a
// caller's span at least CompressBound() long, so that a writer can compress page after page into
// one reused buffer: growing a std::vector to the bound for every page zero-fills a megabyte the
// codec is about to overwrite, which cost as much as a tenth of a recode.
#include <brotli/encode.h>
#include <libdeflate.h>
#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "common/large_buffer.h"
#include "compression/chunk_codecs.h"
#include "pqpage/compression.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

// gzip's wrapper (10-byte header, 8-byte trailer) is larger than the zlib one compressBound()
// allows for; this covers the difference.
constexpr size_t kGzipWrapperSlack = 32;

absl::Status CheckLevel(Compression codec, int level, int low, int high) {
  if (level >= low && level <= high) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(CompressionName(codec).data(), ": level ", level,
                                                 " is outside ", low, "..", high));
}

absl::StatusOr<size_t> SnappyCompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out) {
  size_t written = 0;
  snappy::RawCompress(reinterpret_cast<const char*>(input.data()), input.size(),
                      reinterpret_cast<char*>(out.data()), &written);
  return written;
}

// One compression context per thread, kept: ZSTD_compress() makes and frees one per call, and
// setting up its tables costs about as much as compressing a small page.
ZSTD_CCtx* ThreadZstdCompressor() {
  thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> context(ZSTD_createCCtx(),
                                                                          ZSTD_freeCCtx);
  return context.get();
}

absl::StatusOr<size_t> ZstdCompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out,
                                    int level) {
  if (level == kDefaultCompressionLevel) level = 1;
  PQPAGE_RETURN_IF_ERROR(CheckLevel(Compression::kZstd, level, ZSTD_minCLevel(), ZSTD_maxCLevel()));
  ZSTD_CCtx* context = ThreadZstdCompressor();
  if (context == nullptr) return absl::ResourceExhaustedError("ZSTD: cannot create an encoder");
  // ZSTD_compressCCtx starts a new frame with only `level` set, whatever the context did before.
  const size_t written =
      ZSTD_compressCCtx(context, out.data(), out.size(), input.data(), input.size(), level);
  if (ZSTD_isError(written)) {
    return absl::InternalError(absl::StrCat("ZSTD: ", ZSTD_getErrorName(written)));
  }
  return written;
}

absl::StatusOr<size_t> GzipCompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out,
                                    int level) {
  if (level == kDefaultCompressionLevel) level = 6;
  PQPAGE_RETURN_IF_ERROR(CheckLevel(Compression::kGzip, level, 0, 9));
  z_stream stream{};
  // 15 window bits + 16 selects the gzip wrapper that Parquet's GZIP means.
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return absl::InternalError("GZIP: deflateInit2 failed");
  }
  stream.next_in = const_cast<Bytef*>(input.data());
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  const size_t written = stream.total_out;
  deflateEnd(&stream);
  if (result != Z_STREAM_END) return absl::InternalError("GZIP: deflate did not finish");
  return written;
}

absl::StatusOr<size_t> BrotliCompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out,
                                      int level) {
  if (level == kDefaultCompressionLevel) level = 8;
  PQPAGE_RETURN_IF_ERROR(
      CheckLevel(Compression::kBrotli, level, BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY));
  size_t written = out.size();
  if (!BrotliEncoderCompress(level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, input.size(),
                             input.data(), &written, out.data())) {
    return absl::InternalError("BROTLI: compression failed");
  }
  return written;
}

absl::StatusOr<size_t> Lz4RawCompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out) {
  // An empty input still makes a one-byte block, which readers expect.
  const int written = LZ4_compress_default(
      reinterpret_cast<const char*>(input.data()), reinterpret_cast<char*>(out.data()),
      static_cast<int>(input.size()), static_cast<int>(out.size()));
  if (written <= 0 && !input.empty()) return absl::InternalError("LZ4_RAW: compression failed");
  return static_cast<size_t>(std::max(written, 0));
}

// `out` is at least CompressBound(codec, input.size()) long.
absl::StatusOr<size_t> CompressIntoSpan(Compression codec, absl::Span<const uint8_t> input,
                                        absl::Span<uint8_t> out, int level) {
  switch (codec) {
    case Compression::kUncompressed:
      if (!input.empty()) std::memcpy(out.data(), input.data(), input.size());
      return input.size();
    case Compression::kSnappy:
      return SnappyCompress(input, out);
    case Compression::kGzip:
      return GzipCompress(input, out, level);
    case Compression::kBrotli:
      return BrotliCompress(input, out, level);
    case Compression::kZstd:
      return ZstdCompress(input, out, level);
    case Compression::kLz4Raw:
      return Lz4RawCompress(input, out);
    case Compression::kLz4Hadoop:
    case Compression::kLzo:
      break;  // CompressBound refused these
  }
  return absl::InternalError("unreachable codec");
}

}  // namespace

absl::StatusOr<size_t> CompressBound(Compression codec, size_t input_size) {
  switch (codec) {
    case Compression::kUncompressed:
      return input_size;
    case Compression::kSnappy:
      return snappy::MaxCompressedLength(input_size);
    case Compression::kGzip:
      if (input_size > std::numeric_limits<uInt>::max() / 2) break;
      return compressBound(static_cast<uLong>(input_size)) + kGzipWrapperSlack;
    case Compression::kBrotli: {
      const size_t bound = BrotliEncoderMaxCompressedSize(input_size);
      // 0 means the library cannot give a bound for an input this large.
      if (bound == 0) break;
      return bound;
    }
    case Compression::kZstd: {
      const size_t bound = ZSTD_compressBound(input_size);
      if (ZSTD_isError(bound)) break;
      return bound;
    }
    case Compression::kLz4Raw:
      if (input_size > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) break;
      return static_cast<size_t>(LZ4_compressBound(static_cast<int>(input_size)));
    case Compression::kLz4Hadoop:
      return absl::UnimplementedError("writing LZ4 (Hadoop framing) is not supported: use LZ4_RAW");
    case Compression::kLzo:
      return absl::UnimplementedError("LZO is not supported");
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("unknown compression codec ", static_cast<int>(codec)));
  }
  return absl::InvalidArgumentError(absl::StrCat(CompressionName(codec).data(), ": input of ",
                                                 input_size, " bytes is too large to compress"));
}

absl::Status Compress(Compression codec, absl::Span<const uint8_t> input, std::vector<uint8_t>* out,
                      int level) {
  PQPAGE_ASSIGN_OR_RETURN(const size_t bound, CompressBound(codec, input.size()));
  const size_t start = out->size();
  out->resize(start + bound);
  absl::StatusOr<size_t> written =
      CompressIntoSpan(codec, input, absl::MakeSpan(out->data() + start, bound), level);
  out->resize(start + (written.ok() ? *written : 0));
  return written.status();
}

absl::StatusOr<absl::Span<const uint8_t>> CompressIntoBuffer(Compression codec,
                                                             absl::Span<const uint8_t> input,
                                                             std::vector<uint8_t>* buffer,
                                                             int level) {
  PQPAGE_ASSIGN_OR_RETURN(const size_t bound, CompressBound(codec, input.size()));
  const absl::Span<uint8_t> room = internal::GrowDiscarding(buffer, bound);
  PQPAGE_ASSIGN_OR_RETURN(const size_t written, CompressIntoSpan(codec, input, room, level));
  return absl::MakeConstSpan(buffer->data(), written);
}

namespace internal {

absl::StatusOr<size_t> RawDeflate(absl::Span<const uint8_t> input, absl::Span<uint8_t> out,
                                  int level) {
  if (level == kDefaultCompressionLevel) level = 6;
  constexpr int kMaxLevel = 12;
  if (level < 0 || level > kMaxLevel) {
    return absl::InvalidArgumentError(
        absl::StrCat("DEFLATE: level ", level, " is outside 0..", kMaxLevel));
  }
  // A compressor holds its level's match-finder tables (up to a few hundred KiB): one per level
  // and thread, made on first use, so that a stream of small chunks does not rebuild them.
  struct FreeCompressor {
    void operator()(libdeflate_compressor* compressor) const {
      libdeflate_free_compressor(compressor);
    }
  };
  using CompressorPointer = std::unique_ptr<libdeflate_compressor, FreeCompressor>;
  thread_local std::array<CompressorPointer, kMaxLevel + 1> compressors;
  CompressorPointer& compressor = compressors[level];
  if (compressor == nullptr) compressor.reset(libdeflate_alloc_compressor(level));
  if (compressor == nullptr) {
    return absl::ResourceExhaustedError("DEFLATE: cannot create a compressor");
  }
  // libdeflate answers 0 both for "does not fit" and, with no room at all, for any input.
  if (out.empty()) return 0;
  return libdeflate_deflate_compress(compressor.get(), input.data(), input.size(), out.data(),
                                     out.size());
}

}  // namespace internal

}  // namespace pqpage
