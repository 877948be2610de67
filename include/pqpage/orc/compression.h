// ORC's generic compression: every part of an ORC file except the postscript is stored as a
// sequence of chunks, each with a 3-byte header (little-endian length * 2 + isOriginal) followed
// by either the chunk compressed on its own or, when compressing did not make it smaller, the
// original bytes. A chunk never inflates to more than the file's compression block size, which
// is what lets a reader size its buffers and skip chunks without inflating them. A file without
// compression (NONE) stores every stream as it is, with no chunk headers.
//
// Errors: DataLoss for a stream that cannot be trusted (a header cut short, a chunk running past
// the stream, a chunk that is corrupt or inflates beyond the block size); InvalidArgument for a
// compression kind outside the spec's list, a block size of 0 or one too large for the 23-bit chunk
// length, or a level the codec rejects.
#ifndef PQPAGE_ORC_COMPRESSION_H_
#define PQPAGE_ORC_COMPRESSION_H_

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/compression.h"

namespace pqpage::orc {

// The postscript's CompressionKind; the values are the spec's.
enum class CompressionKind : uint8_t {
  kNone = 0,
  kZlib = 1,  // raw deflate (RFC 1951), no zlib header
  kSnappy = 2,
  kLzo = 3,  // one LZO1X block per chunk (liblzo2)
  kLz4 = 4,  // one LZ4 block per chunk
  kZstd = 5,
};

// The spec's name ("ZLIB", "ZSTD"); "UNKNOWN" for a value outside the list.
std::string_view CompressionKindName(CompressionKind kind);

// A chunk's length is stored in 23 bits, so no chunk (nor, for an original chunk, any block) can
// be longer than this.
inline constexpr uint64_t kMaxChunkLength = (uint64_t{1} << 23) - 1;
// The block size ORC's writers use unless told otherwise.
inline constexpr uint64_t kDefaultCompressionBlockSize = uint64_t{256} << 10;
inline constexpr size_t kChunkHeaderSize = 3;

struct ChunkHeader {
  uint32_t length = 0;       // the stored bytes that follow the header
  bool is_original = false;  // stored as is, not compressed
};

// The 3 header bytes for `header`; `header.length` must be at most kMaxChunkLength.
std::array<uint8_t, kChunkHeaderSize> EncodeChunkHeader(ChunkHeader header);
ChunkHeader DecodeChunkHeader(const std::array<uint8_t, kChunkHeaderSize>& bytes);

// Inflates a whole stored stream (a stream, a stripe footer, the file footer or metadata) of a
// file compressed with `kind` and `block_size` into the front of *buffer, which is reused from
// stream to stream: it grows when a stream needs more (never by more than the chunks can really
// produce, so a few hostile bytes cost no large allocation) and is never shortened. For kNone
// the stream is copied as it is.
// Errors: DataLoss for a header cut short, a chunk running past the end of `stored`, an original
// chunk longer than `block_size`, or a compressed one that is corrupt or inflates to more than
// `block_size` bytes; InvalidArgument for `block_size` 0 with a compressed kind or for an unknown
// kind.
// @return the inflated stream, the first bytes of *buffer (valid until *buffer next changes).
absl::StatusOr<absl::Span<const uint8_t>> DecompressStream(CompressionKind kind,
                                                           uint64_t block_size,
                                                           absl::Span<const uint8_t> stored,
                                                           std::vector<uint8_t>* buffer);

// Appends `input`, compressed with `kind` in chunks of at most `block_size` input bytes each, to
// *out. A chunk that does not come out smaller than its input is stored as it is (isOriginal).
// For kNone `input` is appended unchanged. An empty input makes an empty stream (no chunk).
// `level` is the codec's (kDefaultCompressionLevel: zlib 6, zstd 1).
// Errors: InvalidArgument for an unknown kind, a level the codec rejects or, with a compressed
// kind, `block_size` 0 or above kMaxChunkLength. LZO ignores `level`.
absl::Status CompressStream(CompressionKind kind, uint64_t block_size,
                            absl::Span<const uint8_t> input, std::vector<uint8_t>* out,
                            int level = kDefaultCompressionLevel);

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_COMPRESSION_H_
