// Codec entry points for formats that frame their compressed chunks themselves and record no
// inflated size for them (ORC): a chunk is only known to inflate to at most a limit, so its output
// is sized by what the compressed bytes can really produce, never by the limit alone. Also raw
// deflate (RFC 1951 without the zlib or gzip wrapper), which ORC's ZLIB means and Parquet has no
// use for.
#ifndef PQPAGE_COMPRESSION_CHUNK_CODECS_H_
#define PQPAGE_COMPRESSION_CHUNK_CODECS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/compression.h"

namespace pqpage::internal {

enum class ChunkCodec : uint8_t {
  kRawDeflate,
  kSnappy,
  kLz4Block,  // one LZ4 block, as Parquet's LZ4_RAW
  kZstd,      // one or more zstd frames
  kLzo1x,     // one LZO1X block (lzo_chunks.cc)
};

// Inflates `input`, one self-contained chunk of `codec`, into (*out)[offset, offset + n) and
// returns n. The first `offset` bytes of *out are kept; *out grows as needed (it is never
// shortened) but only by what `input` can produce: snappy's own length, LZ4 and deflate's largest
// expansion, zstd's frame size or, failing that, a buffer that grows with the output.
// Errors: DataLoss when the chunk is corrupt or would inflate to more than `max_size` bytes.
absl::StatusOr<size_t> InflateChunk(ChunkCodec codec, absl::Span<const uint8_t> input,
                                    size_t max_size, size_t offset, std::vector<uint8_t>* out);

// InflateChunk for kLzo1x, through lzo1x_decompress_safe.
absl::StatusOr<size_t> Lzo1xInflateChunk(absl::Span<const uint8_t> input, size_t max_size,
                                         size_t offset, std::vector<uint8_t>* out);

// Compresses `input` as one LZO1X-1 block into *out (reused; its old contents are discarded).
// Errors: Internal when liblzo2 fails to initialise or compress.
// @return the compressed bytes, the front of *out.
absl::StatusOr<absl::Span<const uint8_t>> Lzo1xCompress(absl::Span<const uint8_t> input,
                                                        std::vector<uint8_t>* out);

// Raw-deflates `input` into `out` at the given level (libdeflate's 0..12;
// kDefaultCompressionLevel means 6, zlib's default).
// Errors: InvalidArgument for a level outside 0..12; ResourceExhausted when no compressor can be
// made.
// @return the compressed size, or 0 when it does not fit in `out` (which the caller can use to
// stop at "not smaller than the input" by passing an `out` one byte shorter than it).
absl::StatusOr<size_t> RawDeflate(absl::Span<const uint8_t> input, absl::Span<uint8_t> out,
                                  int level = kDefaultCompressionLevel);

}  // namespace pqpage::internal

#endif  // PQPAGE_COMPRESSION_CHUNK_CODECS_H_
