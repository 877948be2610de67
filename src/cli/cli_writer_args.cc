#include "cli/cli_writer_args.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"

namespace pqpage::cli {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

absl::StatusOr<Compression> CodecFromText(const std::string& name) {
  const std::string lower = Lower(name);
  if (lower == "none") return Compression::kUncompressed;
  // Only the codecs pqpage writes: LZO is not, and Hadoop-framed LZ4 has LZ4_RAW instead.
  for (const Compression codec :
       {Compression::kUncompressed, Compression::kSnappy, Compression::kGzip, Compression::kZstd,
        Compression::kLz4Raw, Compression::kBrotli}) {
    if (lower == CodecFlag(codec)) return codec;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown compression '", name, "' (uncompressed, snappy, gzip, zstd, lz4_raw, brotli)"));
}

std::string CodecFlag(Compression codec) { return Lower(CompressionName(codec)); }

absl::StatusOr<EncodingPolicy> PolicyFromText(const std::string& name) {
  std::optional<EncodingPolicy> policy = ParseEncodingPolicy(Lower(name));
  if (!policy) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown encoding '", name,
        "' (auto, plain, dictionary, delta, delta_length_byte_array, byte_stream_split)"));
  }
  return *policy;
}

absl::Status CheckCompressionLevel(Compression codec, int level) {
  if (level == kDefaultCompressionLevel) return absl::OkStatus();
  std::vector<uint8_t> probe;
  const uint8_t sample[] = {'p', 'q'};
  absl::Status level_ok = Compress(codec, absl::MakeConstSpan(sample), &probe, level);
  if (!level_ok.ok()) return absl::InvalidArgumentError(level_ok.message());
  return absl::OkStatus();
}

}  // namespace pqpage::cli
