// One function per codec and direction over the Debian libraries; the public entry points only
// dispatch. Every decompressor writes into the caller's exact-size buffer and checks that the
// stream fills it exactly, so a lying uncompressed_page_size is caught here.
#include "pqpage/compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <libdeflate.h>
#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "common/byte_io.h"
#include "common/large_buffer.h"
#include "compression/chunk_codecs.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

absl::Status WrongSize(Compression codec, size_t got, size_t expected) {
  return absl::DataLossError(absl::StrCat(CompressionName(codec).data(), ": page inflates to ", got,
                                          " bytes, the header says ", expected));
}

// The stream produces more than the header promises; how much more is not worth inflating to find.
absl::Status TooLong(Compression codec, size_t expected) {
  return absl::DataLossError(absl::StrCat(CompressionName(codec).data(),
                                          ": page inflates to more than the ", expected,
                                          " bytes the header says"));
}

absl::Status Corrupt(Compression codec, const std::string& detail) {
  return absl::DataLossError(
      absl::StrCat(CompressionName(codec).data(), ": corrupt data (", detail, ")"));
}

bool FitsInt(size_t n) { return n <= static_cast<size_t>(std::numeric_limits<int>::max()); }

// ------------------------------------------------------------------ snappy
absl::Status SnappyDecompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out) {
  size_t length = 0;
  if (!snappy::GetUncompressedLength(reinterpret_cast<const char*>(input.data()), input.size(),
                                     &length)) {
    return Corrupt(Compression::kSnappy, "bad length header");
  }
  if (length != out.size()) return WrongSize(Compression::kSnappy, length, out.size());
  if (!snappy::RawUncompress(reinterpret_cast<const char*>(input.data()), input.size(),
                             reinterpret_cast<char*>(out.data()))) {
    return Corrupt(Compression::kSnappy, "bad stream");
  }
  return absl::OkStatus();
}

// ------------------------------------------------------------------ zstd
// One decompression context per thread, reused: creating one costs more than inflating a small
// page.
ZSTD_DCtx* ThreadZstdContext() {
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(),
                                                                          ZSTD_freeDCtx);
  return context.get();
}

absl::Status ZstdDecompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out) {
  ZSTD_DCtx* context = ThreadZstdContext();
  if (context == nullptr) return absl::ResourceExhaustedError("ZSTD: cannot create a decoder");
  ZSTD_DCtx_reset(context, ZSTD_reset_session_only);
  // Decompressing into exactly out.size() bytes: a stream that would produce more fails with
  // "destination buffer too small" instead of writing past the page.
  const size_t written =
      ZSTD_decompressDCtx(context, out.data(), out.size(), input.data(), input.size());
  if (ZSTD_isError(written)) return Corrupt(Compression::kZstd, ZSTD_getErrorName(written));
  if (written != out.size()) return WrongSize(Compression::kZstd, written, out.size());
  return absl::OkStatus();
}

// ------------------------------------------------------------------ gzip
absl::Status GzipDecompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out) {
  z_stream stream{};
  // 15 + 32: accept a gzip or a zlib header, as writers have used both.
  if (inflateInit2(&stream, 15 + 32) != Z_OK)
    return absl::InternalError("GZIP: inflateInit2 failed");
  stream.next_in = const_cast<Bytef*>(input.data());
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  absl::Status status;
  // Once the page buffer is full, inflation goes on into a one-byte spare: the trailer may still
  // be unread, and output landing in the spare means the stream is longer than the header says.
  uint8_t spare = 0;
  bool spare_in_use = false;
  // A page may hold several concatenated gzip members: inflate until the input is used up.
  while (true) {
    if (stream.avail_out == 0 && !spare_in_use) {
      stream.next_out = &spare;
      stream.avail_out = 1;
      spare_in_use = true;
    }
    const int result = inflate(&stream, Z_NO_FLUSH);
    if (spare_in_use && stream.avail_out == 0) {
      status = TooLong(Compression::kGzip, out.size());
      break;
    }
    if (result == Z_STREAM_END) {
      if (stream.avail_in == 0) break;
      if (inflateReset(&stream) != Z_OK) {
        status = Corrupt(Compression::kGzip, "cannot start the next member");
        break;
      }
      continue;
    }
    if (result != Z_OK || stream.avail_in == 0) {
      status = Corrupt(Compression::kGzip, stream.msg != nullptr ? stream.msg : "truncated stream");
      break;
    }
  }
  const size_t written = spare_in_use ? out.size() : out.size() - stream.avail_out;
  inflateEnd(&stream);
  if (!status.ok()) return status;
  if (written != out.size()) return WrongSize(Compression::kGzip, written, out.size());
  return absl::OkStatus();
}

// ------------------------------------------------------------------ brotli
absl::Status BrotliDecompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out) {
  BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
  if (state == nullptr) return absl::ResourceExhaustedError("BROTLI: cannot create a decoder");
  size_t available_in = input.size();
  const uint8_t* next_in = input.data();
  size_t available_out = out.size();
  uint8_t* next_out = out.data();
  const BrotliDecoderResult result = BrotliDecoderDecompressStream(
      state, &available_in, &next_in, &available_out, &next_out, nullptr);
  BrotliDecoderDestroyInstance(state);
  const size_t written = out.size() - available_out;
  if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
    return TooLong(Compression::kBrotli, out.size());
  }
  if (result != BROTLI_DECODER_RESULT_SUCCESS) return Corrupt(Compression::kBrotli, "bad stream");
  if (available_in != 0) return Corrupt(Compression::kBrotli, "bytes after the stream");
  if (written != out.size()) return WrongSize(Compression::kBrotli, written, out.size());
  return absl::OkStatus();
}

// ------------------------------------------------------------------ lz4
absl::Status Lz4RawDecompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out,
                              Compression codec) {
  if (!FitsInt(input.size()) || !FitsInt(out.size())) {
    return absl::InvalidArgumentError("LZ4: block over 2 GiB");
  }
  const int written = LZ4_decompress_safe(
      reinterpret_cast<const char*>(input.data()), reinterpret_cast<char*>(out.data()),
      static_cast<int>(input.size()), static_cast<int>(out.size()));
  if (written < 0) return Corrupt(codec, "bad block");
  if (static_cast<size_t>(written) != out.size()) return WrongSize(codec, written, out.size());
  return absl::OkStatus();
}

uint32_t LoadBigEndian32(const uint8_t* bytes) {
  return __builtin_bswap32(internal::LoadLittleEndian<uint32_t>(bytes));
}

// Hadoop's framing: repeated [big-endian raw size][big-endian compressed size][LZ4 block].
// Returns false (and leaves `out` in an unspecified state) when the input is not framed so.
bool Lz4HadoopDecompress(absl::Span<const uint8_t> input, absl::Span<uint8_t> out) {
  size_t in = 0, produced = 0;
  while (in < input.size()) {
    if (input.size() - in < 8) return false;
    const uint32_t raw = LoadBigEndian32(input.data() + in);
    const uint32_t compressed = LoadBigEndian32(input.data() + in + 4);
    in += 8;
    if (compressed > input.size() - in || raw > out.size() - produced) return false;
    if (!Lz4RawDecompress(input.subspan(in, compressed), out.subspan(produced, raw),
                          Compression::kLz4Hadoop)
             .ok()) {
      return false;
    }
    in += compressed;
    produced += raw;
  }
  return produced == out.size() && !input.empty();
}

// ------------------------------------------------------------------ bounded inflation
// Codecs whose output cannot be bounded from their input (a few bytes of zstd or brotli can
// legitimately stand for a GiB) are inflated into a buffer that grows with what the stream
// actually produces, so a header that lies about its size costs no more memory than the truth.
constexpr size_t kFirstGrowthStep = size_t{1} << 16;

size_t NextCapacity(size_t current, size_t input_size, size_t expected) {
  const size_t wanted = current == 0 ? std::max(kFirstGrowthStep, input_size * 4) : current * 2;
  return std::min(wanted, expected);
}

absl::Status BrotliDecompressGrowing(absl::Span<const uint8_t> input, size_t expected,
                                     std::vector<uint8_t>* out) {
  BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
  if (state == nullptr) return absl::ResourceExhaustedError("BROTLI: cannot create a decoder");
  size_t available_in = input.size();
  const uint8_t* next_in = input.data();
  size_t produced = 0;
  out->clear();
  absl::Status status;
  for (;;) {
    // Once `expected` bytes are out, one spare byte tells a finished stream from a long one.
    const bool probing = produced == out->size() && out->size() >= expected;
    if (!probing && produced == out->size()) {
      out->resize(NextCapacity(out->size(), input.size(), expected));
    }
    uint8_t probe;
    uint8_t* next_out = probing ? &probe : out->data() + produced;
    size_t available_out = probing ? 1 : out->size() - produced;
    const BrotliDecoderResult result = BrotliDecoderDecompressStream(
        state, &available_in, &next_in, &available_out, &next_out, nullptr);
    if (probing) {
      if (available_out == 0) status = TooLong(Compression::kBrotli, expected);
    } else {
      produced = out->size() - available_out;
    }
    if (!status.ok() || result == BROTLI_DECODER_RESULT_SUCCESS) break;
    if (result != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
      status = Corrupt(Compression::kBrotli, "bad or truncated stream");
      break;
    }
  }
  BrotliDecoderDestroyInstance(state);
  if (!status.ok()) return status;
  if (available_in != 0) return Corrupt(Compression::kBrotli, "bytes after the stream");
  if (produced != expected) return WrongSize(Compression::kBrotli, produced, expected);
  out->resize(produced);
  return absl::OkStatus();
}

// What a growing inflation produced: how many bytes, and whether the stream holds more than the
// limit it was given (in which case it was not inflated further).
struct GrowingInflation {
  size_t produced = 0;
  bool over_limit = false;
};

// Streams the frames of `input` into (*out)[offset, ...), keeping the bytes before `offset`; *out
// grows as output appears, never beyond offset + limit, and is never shortened. The caller has
// checked that `limit` is a size the input can produce.
absl::StatusOr<GrowingInflation> ZstdInflateGrowing(absl::Span<const uint8_t> input, size_t limit,
                                                    size_t offset, std::vector<uint8_t>* out) {
  ZSTD_DCtx* stream = ThreadZstdContext();
  if (stream == nullptr) return absl::ResourceExhaustedError("ZSTD: cannot create a decoder");
  ZSTD_DCtx_reset(stream, ZSTD_reset_session_only);
  ZSTD_inBuffer in = {input.data(), input.size(), 0};
  GrowingInflation result;
  size_t& produced = result.produced;
  // The bytes after `offset` the decoder may fill so far: growing this, not *out's size, is what
  // holds the output to `limit`.
  size_t room = 0;
  absl::Status status;
  // Frames may follow each other; the stream ends when the input is used up and the last frame
  // is complete (ZSTD_decompressStream returns 0).
  for (;;) {
    // Once `limit` bytes are out, one spare byte tells a finished stream from a long one.
    const bool probing = produced == room && room >= limit;
    if (!probing && produced == room) {
      room = NextCapacity(room, input.size(), limit);
      if (out->size() - offset < room) out->resize(offset + room);
    }
    uint8_t probe;
    ZSTD_outBuffer buffer = probing ? ZSTD_outBuffer{&probe, 1, 0}
                                    : ZSTD_outBuffer{out->data() + offset, room, produced};
    const size_t consumed_before = in.pos;
    const size_t hint = ZSTD_decompressStream(stream, &buffer, &in);
    if (ZSTD_isError(hint)) {
      status = Corrupt(Compression::kZstd, ZSTD_getErrorName(hint));
      break;
    }
    bool progressed = in.pos != consumed_before;
    if (probing) {
      if (buffer.pos > 0) {
        result.over_limit = true;
        break;
      }
    } else {
      progressed = progressed || buffer.pos != produced;
      produced = buffer.pos;
    }
    if (in.pos == in.size && hint == 0) break;
    if (!progressed) {
      status = Corrupt(Compression::kZstd, "truncated stream");
      break;
    }
  }
  ZSTD_DCtx_reset(stream, ZSTD_reset_session_only);
  if (!status.ok()) return status;
  return result;
}

// Streams the frames of `input` into *out, which grows as output appears; the caller has checked
// that `expected` is a size the input can produce.
absl::Status ZstdDecompressGrowing(absl::Span<const uint8_t> input, size_t expected,
                                   std::vector<uint8_t>* out) {
  out->clear();
  PQPAGE_ASSIGN_OR_RETURN(const GrowingInflation inflated,
                          ZstdInflateGrowing(input, expected, /*offset=*/0, out));
  if (inflated.over_limit) return TooLong(Compression::kZstd, expected);
  if (inflated.produced != expected) {
    return WrongSize(Compression::kZstd, inflated.produced, expected);
  }
  out->resize(inflated.produced);
  return absl::OkStatus();
}

// The most `input` can inflate to under a codec whose expansion is bounded (snappy states its
// length in its first bytes and makes at most 64 bytes from 3; one LZ4 byte makes at most 255,
// one deflate byte at most 1032).
size_t MaxInflatedSize(Compression codec, absl::Span<const uint8_t> input) {
  switch (codec) {
    case Compression::kSnappy: {
      size_t length = 0;
      if (!snappy::GetUncompressedLength(reinterpret_cast<const char*>(input.data()), input.size(),
                                         &length)) {
        return 0;
      }
      // The length is only the stream's claim: no snappy element makes more than 64 bytes from
      // fewer than 3, so a claim beyond 22 bytes per input byte cannot be true.
      return std::min(length, input.size() * 22);
    }
    case Compression::kLz4Raw:
    case Compression::kLz4Hadoop:
      return input.size() * 255 + 64;
    case Compression::kGzip:
      return input.size() * 1032 + 1024;
    case Compression::kZstd:
      // A zstd block inflates to at most 128 KiB from no fewer than 4 bytes (an RLE block).
      return input.size() * 32768 + (size_t{128} << 10);
    default:
      return input.size();
  }
}

}  // namespace

std::string_view CompressionName(Compression codec) {
  switch (codec) {
    case Compression::kUncompressed:
      return "UNCOMPRESSED";
    case Compression::kSnappy:
      return "SNAPPY";
    case Compression::kGzip:
      return "GZIP";
    case Compression::kLzo:
      return "LZO";
    case Compression::kBrotli:
      return "BROTLI";
    case Compression::kLz4Hadoop:
      return "LZ4";
    case Compression::kZstd:
      return "ZSTD";
    case Compression::kLz4Raw:
      return "LZ4_RAW";
  }
  return "UNKNOWN";
}

absl::Status Decompress(Compression codec, absl::Span<const uint8_t> input,
                        absl::Span<uint8_t> out) {
  switch (codec) {
    case Compression::kUncompressed:
      if (input.size() != out.size()) {
        return WrongSize(codec, input.size(), out.size());
      }
      if (!out.empty()) std::memcpy(out.data(), input.data(), out.size());
      return absl::OkStatus();
    case Compression::kSnappy:
      return SnappyDecompress(input, out);
    case Compression::kGzip:
      return GzipDecompress(input, out);
    case Compression::kBrotli:
      return BrotliDecompress(input, out);
    case Compression::kZstd:
      return ZstdDecompress(input, out);
    case Compression::kLz4Raw:
      return Lz4RawDecompress(input, out, codec);
    case Compression::kLz4Hadoop:
      if (Lz4HadoopDecompress(input, out)) return absl::OkStatus();
      return Lz4RawDecompress(input, out, codec);
    case Compression::kLzo:
      return absl::UnimplementedError("LZO is not supported");
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown compression codec ", static_cast<int>(codec)));
}

namespace {

// For the codecs whose streams bound their own output: DataLoss when `input` cannot inflate to
// `expected` bytes, before anything is allocated for them.
absl::Status CheckInflatedSize(Compression codec, absl::Span<const uint8_t> input,
                               size_t expected) {
  if (expected <= MaxInflatedSize(codec, input)) return absl::OkStatus();
  return absl::DataLossError(absl::StrCat(CompressionName(codec).data(), ": ", input.size(),
                                          " compressed bytes cannot inflate to the ", expected,
                                          " bytes the header says"));
}

// DecompressBounded's work, into the front of *buffer. With `keep_larger`, a buffer already
// longer than the page keeps its length (DecompressIntoBuffer's reuse); otherwise it ends where
// the page does.
absl::StatusOr<absl::Span<const uint8_t>> InflateBounded(Compression codec,
                                                         absl::Span<const uint8_t> input,
                                                         int64_t expected_size,
                                                         std::vector<uint8_t>* buffer,
                                                         bool keep_larger) {
  if (expected_size < 0) {
    return absl::DataLossError(absl::StrCat("negative uncompressed size ", expected_size));
  }
  const size_t expected = static_cast<size_t>(expected_size);
  // Called once the size is known to be possible, never for a number the input cannot produce.
  auto page_in_buffer = [&]() -> absl::Span<uint8_t> {
    if (keep_larger) return internal::GrowDiscarding(buffer, expected);
    buffer->resize(expected);
    return absl::MakeSpan(*buffer);
  };
  switch (codec) {
    case Compression::kBrotli:
      PQPAGE_RETURN_IF_ERROR(BrotliDecompressGrowing(input, expected, buffer));
      return absl::MakeConstSpan(*buffer);
    case Compression::kZstd: {
      PQPAGE_RETURN_IF_ERROR(CheckInflatedSize(codec, input, expected));
      // Writers record the content size in the frame: when it agrees with the page header, one
      // call into an exact buffer does it. Extra frames or bytes make it fail; the streaming
      // decoder then finds the error to report.
      if (ZSTD_getFrameContentSize(input.data(), input.size()) == expected) {
        const absl::Span<uint8_t> page = page_in_buffer();
        if (Decompress(codec, input, page).ok()) return page;
      }
      PQPAGE_RETURN_IF_ERROR(ZstdDecompressGrowing(input, expected, buffer));
      return absl::MakeConstSpan(*buffer);
    }
    case Compression::kSnappy:
    case Compression::kLz4Raw:
    case Compression::kLz4Hadoop:
    case Compression::kGzip:
      PQPAGE_RETURN_IF_ERROR(CheckInflatedSize(codec, input, expected));
      break;
    default:
      break;
  }
  const absl::Span<uint8_t> page = page_in_buffer();
  PQPAGE_RETURN_IF_ERROR(Decompress(codec, input, page));
  return page;
}

}  // namespace

absl::Status DecompressBounded(Compression codec, absl::Span<const uint8_t> input,
                               int64_t expected_size, std::vector<uint8_t>* out) {
  return InflateBounded(codec, input, expected_size, out, /*keep_larger=*/false).status();
}

absl::StatusOr<absl::Span<const uint8_t>> DecompressIntoBuffer(Compression codec,
                                                               absl::Span<const uint8_t> input,
                                                               int64_t expected_size,
                                                               std::vector<uint8_t>* buffer) {
  return InflateBounded(codec, input, expected_size, buffer, /*keep_larger=*/true);
}

namespace internal {
namespace {

absl::Status ChunkOverLimit(Compression codec, size_t max_size) {
  return absl::DataLossError(absl::StrCat(CompressionName(codec).data(),
                                          ": chunk inflates to more than its limit of ", max_size,
                                          " bytes"));
}

// One raw-deflate decompressor per thread, reused as the zstd context is.
libdeflate_decompressor* ThreadDeflateDecompressor() {
  thread_local std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)>
      decompressor(libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
  return decompressor.get();
}

// Makes (*out)[offset, offset + room) writable, keeping the bytes before `offset`.
absl::Span<uint8_t> RoomAfter(std::vector<uint8_t>* out, size_t offset, size_t room) {
  if (out->size() - offset < room) {
    ReserveKeeping(out, offset + room);
    out->resize(offset + room);
  }
  return absl::MakeSpan(out->data() + offset, room);
}

absl::StatusOr<size_t> RawInflateChunk(absl::Span<const uint8_t> input, size_t max_size,
                                       size_t offset, std::vector<uint8_t>* out) {
  libdeflate_decompressor* decompressor = ThreadDeflateDecompressor();
  if (decompressor == nullptr) {
    return absl::ResourceExhaustedError("DEFLATE: cannot create a decoder");
  }
  // Deflate's largest expansion bounds the room, so a small chunk claims no large buffer.
  const size_t room = std::min(max_size, MaxInflatedSize(Compression::kGzip, input));
  const absl::Span<uint8_t> target = RoomAfter(out, offset, room);
  size_t written = 0;
  const libdeflate_result result = libdeflate_deflate_decompress(
      decompressor, input.data(), input.size(), target.data(), target.size(), &written);
  if (result == LIBDEFLATE_INSUFFICIENT_SPACE && room == max_size) {
    return absl::DataLossError(
        absl::StrCat("DEFLATE: chunk inflates to more than its limit of ", max_size, " bytes"));
  }
  if (result != LIBDEFLATE_SUCCESS) {
    return absl::DataLossError("DEFLATE: corrupt data (bad or truncated stream)");
  }
  return written;
}

absl::StatusOr<size_t> SnappyInflateChunk(absl::Span<const uint8_t> input, size_t max_size,
                                          size_t offset, std::vector<uint8_t>* out) {
  size_t length = 0;
  if (!snappy::GetUncompressedLength(reinterpret_cast<const char*>(input.data()), input.size(),
                                     &length)) {
    return Corrupt(Compression::kSnappy, "bad length header");
  }
  if (length > max_size) return ChunkOverLimit(Compression::kSnappy, max_size);
  // Snappy stores its length up front, and a stream that lies about it fails to decode: the
  // length may be allocated once it is within the limit and what the input can produce.
  PQPAGE_RETURN_IF_ERROR(CheckInflatedSize(Compression::kSnappy, input, length));
  const absl::Span<uint8_t> target = RoomAfter(out, offset, length);
  PQPAGE_RETURN_IF_ERROR(SnappyDecompress(input, target));
  return length;
}

absl::StatusOr<size_t> Lz4InflateChunk(absl::Span<const uint8_t> input, size_t max_size,
                                       size_t offset, std::vector<uint8_t>* out) {
  const size_t room = std::min(max_size, MaxInflatedSize(Compression::kLz4Raw, input));
  if (!FitsInt(input.size()) || !FitsInt(room)) {
    return absl::InvalidArgumentError("LZ4: block over 2 GiB");
  }
  const absl::Span<uint8_t> target = RoomAfter(out, offset, room);
  const int written = LZ4_decompress_safe(
      reinterpret_cast<const char*>(input.data()), reinterpret_cast<char*>(target.data()),
      static_cast<int>(input.size()), static_cast<int>(target.size()));
  // LZ4 reports a full output buffer and a corrupt block alike.
  if (written < 0) {
    return Corrupt(Compression::kLz4Raw, room == max_size ? "bad block, or one that inflates to "
                                                            "more than the chunk limit"
                                                          : "bad block");
  }
  return static_cast<size_t>(written);
}

absl::StatusOr<size_t> ZstdInflateChunk(absl::Span<const uint8_t> input, size_t max_size,
                                        size_t offset, std::vector<uint8_t>* out) {
  const size_t bound = std::min(max_size, MaxInflatedSize(Compression::kZstd, input));
  // Writers record the content size in the frame: when it is possible, one call into an exact
  // buffer does it. Extra frames or bytes make it fail; the streaming decoder then finds the
  // error to report.
  const unsigned long long content_size = ZSTD_getFrameContentSize(input.data(), input.size());
  if (content_size != ZSTD_CONTENTSIZE_UNKNOWN && content_size != ZSTD_CONTENTSIZE_ERROR) {
    if (content_size > max_size) return ChunkOverLimit(Compression::kZstd, max_size);
    if (content_size <= bound) {
      const size_t size = static_cast<size_t>(content_size);
      const absl::Span<uint8_t> target = RoomAfter(out, offset, size);
      if (ZstdDecompress(input, target).ok()) return size;
    }
  }
  PQPAGE_ASSIGN_OR_RETURN(const GrowingInflation inflated,
                          ZstdInflateGrowing(input, bound, offset, out));
  if (inflated.over_limit) {
    if (bound == max_size) return ChunkOverLimit(Compression::kZstd, max_size);
    return Corrupt(Compression::kZstd, "inflates past the largest possible expansion");
  }
  return inflated.produced;
}

}  // namespace

absl::StatusOr<size_t> InflateChunk(ChunkCodec codec, absl::Span<const uint8_t> input,
                                    size_t max_size, size_t offset, std::vector<uint8_t>* out) {
  if (out->size() < offset) out->resize(offset);
  switch (codec) {
    case ChunkCodec::kRawDeflate:
      return RawInflateChunk(input, max_size, offset, out);
    case ChunkCodec::kSnappy:
      return SnappyInflateChunk(input, max_size, offset, out);
    case ChunkCodec::kLz4Block:
      return Lz4InflateChunk(input, max_size, offset, out);
    case ChunkCodec::kZstd:
      return ZstdInflateChunk(input, max_size, offset, out);
    case ChunkCodec::kLzo1x:
      return Lzo1xInflateChunk(input, max_size, offset, out);
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown chunk codec ", static_cast<int>(codec)));
}

}  // namespace internal

uint32_t PageCrc32(absl::Span<const uint8_t> bytes, uint32_t previous) {
  // libdeflate picks a carry-less-multiply kernel at run time: several times zlib's speed, which
  // matters because every page of a file with CRCs is checked as it is read.
  // libdeflate answers a null buffer with the initial value, which would drop `previous`.
  if (bytes.empty()) return previous;
  return libdeflate_crc32(previous, bytes.data(), bytes.size());
}

}  // namespace pqpage
