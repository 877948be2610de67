// Codec names apart from the codecs: what a codec id read from a file is called, how users name the
// codecs pqpage writes, and whether a level suits a codec (the checks a tool or binding makes on
// its arguments before any file is touched).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "pqpage/compression.h"

namespace pqpage {

std::string CodecIdName(int id) {
  if (id >= 0 && id <= 7) return std::string(CompressionName(static_cast<Compression>(id)));
  return absl::StrCat("UNKNOWN(", id, ")");
}

absl::StatusOr<Compression> WritableCompressionFromName(std::string_view name) {
  const std::string lower = absl::AsciiStrToLower(std::string(name));
  if (lower == "none") return Compression::kUncompressed;
  // Only the codecs pqpage writes: LZO is not, and Hadoop-framed LZ4 has LZ4_RAW instead.
  for (const Compression codec :
       {Compression::kUncompressed, Compression::kSnappy, Compression::kGzip, Compression::kZstd,
        Compression::kLz4Raw, Compression::kBrotli}) {
    if (lower == WritableCompressionName(codec)) return codec;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown compression '", std::string(name),
                   "' (uncompressed, snappy, gzip, zstd, lz4_raw, brotli)"));
}

std::string WritableCompressionName(Compression codec) {
  return absl::AsciiStrToLower(std::string(CompressionName(codec)));
}

absl::Status CheckCompressionLevel(Compression codec, int level) {
  if (level == kDefaultCompressionLevel) return absl::OkStatus();
  std::vector<uint8_t> probe;
  const uint8_t sample[] = {'p', 'q'};
  const absl::Status level_ok = Compress(codec, absl::MakeConstSpan(sample), &probe, level);
  if (!level_ok.ok()) return absl::InvalidArgumentError(level_ok.message());
  return absl::OkStatus();
}

}  // namespace pqpage
