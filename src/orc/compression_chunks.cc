// ORC's chunked compression over the compression layer: the chunk headers and their bounds here,
// the codecs (raw deflate, snappy, one LZ4 block, zstd frames, one LZO1X block) in src/compression.
#include <algorithm>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "common/large_buffer.h"
#include "compression/chunk_codecs.h"
#include "pqpage/orc/compression.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {
namespace {

using internal::ChunkCodec;

// The compression layer's codec for a compressed kind; the Status for the others.
absl::StatusOr<ChunkCodec> ChunkCodecOf(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kZlib:
      return ChunkCodec::kRawDeflate;
    case CompressionKind::kSnappy:
      return ChunkCodec::kSnappy;
    case CompressionKind::kLz4:
      return ChunkCodec::kLz4Block;
    case CompressionKind::kZstd:
      return ChunkCodec::kZstd;
    case CompressionKind::kLzo:
      return ChunkCodec::kLzo1x;
    case CompressionKind::kNone:
      break;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("ORC: unknown compression kind ", static_cast<int>(kind)));
}

// The bytes past `size` that hold the stream: kept when they are already there, grown (keeping
// what is before) when not.
absl::Span<uint8_t> AppendRoom(std::vector<uint8_t>* buffer, size_t size, size_t room) {
  if (buffer->size() - size < room) {
    internal::ReserveKeeping(buffer, size + room);
    buffer->resize(size + room);
  }
  return absl::MakeSpan(buffer->data() + size, room);
}

// Compresses one chunk's input with the compression layer into *scratch.
// @return the compressed bytes, or an empty span when they would not be smaller than `input`.
absl::StatusOr<absl::Span<const uint8_t>> CompressChunk(ChunkCodec codec,
                                                        absl::Span<const uint8_t> input, int level,
                                                        std::vector<uint8_t>* scratch) {
  absl::Span<const uint8_t> compressed;
  switch (codec) {
    case ChunkCodec::kRawDeflate: {
      // One byte short of the input: libdeflate stops as soon as the output cannot be smaller.
      if (input.size() < 2) return absl::Span<const uint8_t>();
      const absl::Span<uint8_t> room = internal::GrowDiscarding(scratch, input.size() - 1);
      PQPAGE_ASSIGN_OR_RETURN(const size_t written, internal::RawDeflate(input, room, level));
      compressed = room.first(written);
      break;
    }
    case ChunkCodec::kSnappy:
    case ChunkCodec::kLz4Block:
    case ChunkCodec::kZstd: {
      const Compression layer_codec = codec == ChunkCodec::kSnappy ? Compression::kSnappy
                                      : codec == ChunkCodec::kZstd ? Compression::kZstd
                                                                   : Compression::kLz4Raw;
      PQPAGE_ASSIGN_OR_RETURN(compressed, CompressIntoBuffer(layer_codec, input, scratch, level));
      break;
    }
    case ChunkCodec::kLzo1x:
      // LZO1X-1 has no levels; ORC's writers use it as it is.
      PQPAGE_ASSIGN_OR_RETURN(compressed, internal::Lzo1xCompress(input, scratch));
      break;
  }
  if (compressed.empty() || compressed.size() >= input.size()) return absl::Span<const uint8_t>();
  return compressed;
}

}  // namespace

std::string_view CompressionKindName(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone:
      return "NONE";
    case CompressionKind::kZlib:
      return "ZLIB";
    case CompressionKind::kSnappy:
      return "SNAPPY";
    case CompressionKind::kLzo:
      return "LZO";
    case CompressionKind::kLz4:
      return "LZ4";
    case CompressionKind::kZstd:
      return "ZSTD";
  }
  return "UNKNOWN";
}

std::array<uint8_t, kChunkHeaderSize> EncodeChunkHeader(ChunkHeader header) {
  const uint32_t value = header.length * 2 + (header.is_original ? 1 : 0);
  return {static_cast<uint8_t>(value & 0xFF), static_cast<uint8_t>((value >> 8) & 0xFF),
          static_cast<uint8_t>((value >> 16) & 0xFF)};
}

ChunkHeader DecodeChunkHeader(const std::array<uint8_t, kChunkHeaderSize>& bytes) {
  const uint32_t value =
      uint32_t{bytes[0]} | (uint32_t{bytes[1]} << 8) | (uint32_t{bytes[2]} << 16);
  return {value >> 1, (value & 1) != 0};
}

absl::StatusOr<absl::Span<const uint8_t>> DecompressStream(CompressionKind kind,
                                                           uint64_t block_size,
                                                           absl::Span<const uint8_t> stored,
                                                           std::vector<uint8_t>* buffer) {
  if (kind == CompressionKind::kNone) {
    const absl::Span<uint8_t> out = AppendRoom(buffer, 0, stored.size());
    if (!stored.empty()) std::memcpy(out.data(), stored.data(), stored.size());
    return absl::MakeConstSpan(out);
  }
  PQPAGE_ASSIGN_OR_RETURN(const ChunkCodec codec, ChunkCodecOf(kind));
  if (block_size == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ORC: compression block size 0 with ", CompressionKindName(kind).data(), " compression"));
  }
  // A block size beyond memory is as good as no limit: the codecs bound what they allocate by
  // what their input can produce.
  const size_t max_chunk =
      static_cast<size_t>(std::min<uint64_t>(block_size, std::numeric_limits<size_t>::max()));
  size_t produced = 0;
  size_t position = 0;
  while (position < stored.size()) {
    if (stored.size() - position < kChunkHeaderSize) {
      return absl::DataLossError(absl::StrCat("ORC: chunk header at byte ", position, " of a ",
                                              stored.size(), "-byte stream is cut short"));
    }
    const ChunkHeader header =
        DecodeChunkHeader({stored[position], stored[position + 1], stored[position + 2]});
    position += kChunkHeaderSize;
    if (header.length > stored.size() - position) {
      return absl::DataLossError(absl::StrCat(
          "ORC: chunk of ", header.length, " bytes at byte ", position - kChunkHeaderSize,
          " runs past the end of the ", stored.size(), "-byte stream"));
    }
    const absl::Span<const uint8_t> chunk = stored.subspan(position, header.length);
    position += header.length;
    if (header.is_original) {
      if (chunk.size() > block_size) {
        return absl::DataLossError(absl::StrCat("ORC: original chunk of ", chunk.size(),
                                                " bytes is larger than the compression block size ",
                                                block_size));
      }
      const absl::Span<uint8_t> out = AppendRoom(buffer, produced, chunk.size());
      if (!chunk.empty()) std::memcpy(out.data(), chunk.data(), chunk.size());
      produced += chunk.size();
      continue;
    }
    absl::StatusOr<size_t> inflated =
        internal::InflateChunk(codec, chunk, max_chunk, produced, buffer);
    if (!inflated.ok()) {
      return absl::Status(
          inflated.status().code(),
          absl::StrCat("ORC: chunk at byte ", position - chunk.size() - kChunkHeaderSize, ": ",
                       inflated.status().message()));
    }
    produced += *inflated;
  }
  return absl::MakeConstSpan(buffer->data(), produced);
}

absl::Status CompressStream(CompressionKind kind, uint64_t block_size,
                            absl::Span<const uint8_t> input, std::vector<uint8_t>* out, int level) {
  if (kind == CompressionKind::kNone) {
    out->insert(out->end(), input.begin(), input.end());
    return absl::OkStatus();
  }
  PQPAGE_ASSIGN_OR_RETURN(const ChunkCodec codec, ChunkCodecOf(kind));
  if (block_size == 0 || block_size > kMaxChunkLength) {
    return absl::InvalidArgumentError(absl::StrCat("ORC: compression block size ", block_size,
                                                   " is outside 1..", kMaxChunkLength));
  }
  std::vector<uint8_t> scratch;
  for (size_t position = 0; position < input.size();) {
    const absl::Span<const uint8_t> block =
        input.subspan(position, std::min<size_t>(block_size, input.size() - position));
    position += block.size();
    PQPAGE_ASSIGN_OR_RETURN(const absl::Span<const uint8_t> compressed,
                            CompressChunk(codec, block, level, &scratch));
    const bool is_original = compressed.empty();
    const absl::Span<const uint8_t> stored = is_original ? block : compressed;
    const std::array<uint8_t, kChunkHeaderSize> header =
        EncodeChunkHeader({static_cast<uint32_t>(stored.size()), is_original});
    out->insert(out->end(), header.begin(), header.end());
    out->insert(out->end(), stored.begin(), stored.end());
  }
  return absl::OkStatus();
}

}  // namespace pqpage::orc
