// Page compression for every codec Parquet defines, and the page checksum. A page's bytes are
// compressed after encoding (v1: the whole page; v2: the values section only) and the CRC is
// taken over the bytes as stored.
//
// Errors: DataLoss when compressed bytes are corrupt or do not inflate to exactly the size the
// page header promises; Unimplemented for LZO, which no maintained library reads; InvalidArgument
// for a codec id outside the format's list.
#ifndef PQPAGE_COMPRESSION_H_
#define PQPAGE_COMPRESSION_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pqpage {

// Parquet's compression codecs; the values are the format's Thrift enum ids.
enum class Compression : int8_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4Hadoop = 5,  // "LZ4": the Hadoop-framed legacy form, read only
  kZstd = 6,
  kLz4Raw = 7,
};

// The spec's name ("SNAPPY", "LZ4_RAW"); "UNKNOWN" otherwise.
std::string_view CompressionName(Compression codec);

// The name of a codec id as a file stores it (ColumnMetaData::codec_id), which may be one the
// format does not define.
// @return the spec's name ("ZSTD"), or "UNKNOWN(id)" for an id outside the format's list.
std::string CodecIdName(int id);

// How a user names a codec pqpage writes (the tool's --compression, the binding's arguments).
// @return the codec pqpage writes that `name` names, in any case: "uncompressed" (or "none"),
// "snappy", "gzip", "zstd", "lz4_raw", "brotli"; InvalidArgument listing those for anything else
// (LZO and the Hadoop-framed LZ4 are read, never written).
absl::StatusOr<Compression> WritableCompressionFromName(std::string_view name);
// @return the lower-case name WritableCompressionFromName reads back ("zstd", "lz4_raw", ...).
std::string WritableCompressionName(Compression codec);

// Means "the codec's usual level": zstd 1, gzip 6, brotli 8 (what Arrow C++ writes by default).
inline constexpr int kDefaultCompressionLevel = -1000;

// Checks a level before any page is written: a level the codec rejects would otherwise surface
// only at the first page, as a write error. A few bytes are compressed to find out.
// @return OK when `codec` accepts compression `level` (kDefaultCompressionLevel always does);
// InvalidArgument with the codec's message otherwise.
absl::Status CheckCompressionLevel(Compression codec, int level);

// Appends the compressed form of `input` to `out`. UNCOMPRESSED copies. Writing LZ4 (Hadoop
// framing) or LZO is Unimplemented: writers should use LZ4_RAW. InvalidArgument for a level the
// codec rejects.
absl::Status Compress(Compression codec, absl::Span<const uint8_t> input, std::vector<uint8_t>* out,
                      int level = kDefaultCompressionLevel);

// The most bytes Compress can produce from `input_size` bytes with `codec`. Unimplemented and
// InvalidArgument as Compress; InvalidArgument for an input larger than the codec can take.
absl::StatusOr<size_t> CompressBound(Compression codec, size_t input_size);

// Compress for a buffer reused page after page: the compressed form goes to the front of
// `buffer`, which grows to CompressBound() when shorter but never shrinks, so the bytes the codec
// is about to overwrite are not zero-filled again for every page. Errors as for Compress.
// @return the compressed bytes, the front of *buffer (valid until the buffer is next changed).
absl::StatusOr<absl::Span<const uint8_t>> CompressIntoBuffer(Compression codec,
                                                             absl::Span<const uint8_t> input,
                                                             std::vector<uint8_t>* buffer,
                                                             int level = kDefaultCompressionLevel);

// Inflates `input` into exactly out.size() bytes. GZIP input may hold several concatenated
// members; LZ4 (codec 5) is tried with Hadoop framing first, then as a raw block, as writers have
// produced both. DataLoss unless the result is exactly out.size() bytes.
absl::Status Decompress(Compression codec, absl::Span<const uint8_t> input,
                        absl::Span<uint8_t> out);

// Inflates `input`, which a page header says holds `expected_size` bytes, into `out` (resized to
// exactly that on success). Unlike Decompress, memory follows the bytes the stream really
// produces: snappy's own length must match, LZ4 and GZIP are held to their largest expansion, and
// ZSTD and BROTLI inflate into a buffer that grows as output appears. So a few hostile bytes
// claiming 2 GiB cost kilobytes. Errors as for Decompress.
absl::Status DecompressBounded(Compression codec, absl::Span<const uint8_t> input,
                               int64_t expected_size, std::vector<uint8_t>* out);

// DecompressBounded for a buffer reused page after page: the page is inflated into the front of
// `buffer`, which grows when a page needs more (by the same rules: never for a size the input
// cannot produce) but never shrinks, so the bytes past a smaller page are not filled again for the
// next larger one. Errors as for DecompressBounded.
// @return the inflated page, the first `expected_size` bytes of *buffer.
absl::StatusOr<absl::Span<const uint8_t>> DecompressIntoBuffer(Compression codec,
                                                               absl::Span<const uint8_t> input,
                                                               int64_t expected_size,
                                                               std::vector<uint8_t>* buffer);

// CRC-32 as Parquet page headers store it (zlib's polynomial), over `bytes`.
// `previous` continues a CRC: PageCrc32(b, PageCrc32(a)) is the CRC of a followed by b.
uint32_t PageCrc32(absl::Span<const uint8_t> bytes, uint32_t previous = 0);

}  // namespace pqpage

#endif  // PQPAGE_COMPRESSION_H_
