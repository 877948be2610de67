// pqpage recode IN.orc OUT.orc: the ORC options turned into OrcRecodeOptions (pqpage/orc/recode.h,
// which decodes every stripe's columns and encodes them again), and its outcome printed. A
// reference reader that reads OUT as it reads IN proves pqpage's encoders; --verify has pqpage read
// OUT back itself.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "cli/cli_args.h"
#include "cli/cli_orc.h"
#include "cli/cli_str.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/metadata.h"
#include "pqpage/orc/recode.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "recode";

absl::StatusOr<orc::CompressionKind> CompressionFromText(const std::string& text) {
  const std::string name = absl::AsciiStrToLower(text);
  if (name == "none" || name == "uncompressed") return orc::CompressionKind::kNone;
  if (name == "zlib") return orc::CompressionKind::kZlib;
  if (name == "snappy") return orc::CompressionKind::kSnappy;
  if (name == "lz4") return orc::CompressionKind::kLz4;
  if (name == "zstd") return orc::CompressionKind::kZstd;
  if (name == "lzo") return orc::CompressionKind::kLzo;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown ORC compression '", text, "' (none, zlib, snappy, lzo, lz4 or zstd)"));
}

// The settings from the options, with the input's compression and block size as defaults.
absl::StatusOr<orc::OrcRecodeOptions> SettingsFrom(const ParsedArgs& parsed,
                                                   const orc::OrcFileReader& input) {
  orc::OrcRecodeOptions settings = orc::RecodeOptionsLike(input);
  if (std::optional<std::string> rle = parsed.Value("rle")) {
    PQPAGE_ASSIGN_OR_RETURN(int64_t version, ParseIntegerOption("rle", *rle, 1, 2));
    settings.rle_version = static_cast<int>(version);
  }
  if (std::optional<std::string> name = parsed.Value("compression")) {
    PQPAGE_ASSIGN_OR_RETURN(settings.compression, CompressionFromText(*name));
  }
  if (std::optional<std::string> size = parsed.Value("block-size")) {
    PQPAGE_ASSIGN_OR_RETURN(
        int64_t bytes,
        ParseIntegerOption("block-size", *size, 1, static_cast<int64_t>(orc::kMaxChunkLength)));
    settings.block_size = static_cast<uint64_t>(bytes);
  }
  if (std::optional<std::string> level = parsed.Value("compression-level")) {
    PQPAGE_ASSIGN_OR_RETURN(int64_t value,
                            ParseIntegerOption("compression-level", *level, -131072, 22));
    settings.compression_level = static_cast<int>(value);
    // A level the codec rejects would otherwise surface at the first stream, after OUT was
    // created; compressing a few bytes finds it first.
    std::vector<uint8_t> scratch;
    const uint8_t probe[16] = {};
    absl::Status status = orc::CompressStream(settings.compression, settings.block_size, probe,
                                              &scratch, settings.compression_level);
    if (!status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("option '--compression-level' ", value, ": ", status.message()));
    }
  }
  settings.statistics = !parsed.Has("no-statistics");
  settings.verify = parsed.Has("verify");
  return settings;
}

int64_t FileSize(const std::string& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  return error ? -1 : static_cast<int64_t>(size);
}

}  // namespace

int RecodeOrc(const ParsedArgs& parsed, const std::vector<OptionSpec>& specs) {
  static const std::set<std::string, std::less<>> kOrcOptions = {
      "rle", "compression", "compression-level", "block-size", "no-statistics", "verify", "mmap"};
  absl::Status rejected = RejectOptionsOutside(parsed, specs, kOrcOptions);
  if (!rejected.ok()) return UsageError(kCommand, rejected);
  const std::string& in_path = parsed.positional()[0];
  const std::string& out_path = parsed.positional()[1];
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<orc::OrcFileReader>> opened = OpenOrc(in_path, parsed.Has("mmap"));
  if (!opened.ok()) return FailureExit(kCommand, opened.status());
  const orc::OrcFileReader& input = **opened;
  absl::StatusOr<orc::OrcRecodeOptions> settings = SettingsFrom(parsed, input);
  if (!settings.ok()) return UsageError(kCommand, settings.status());

  if (input.encryption()) {
    // pqpage holds no keys: the encrypted columns are read, and so written, as their masks give
    // them to readers without keys, and the output has no encryption.
    std::fprintf(stderr,
                 "pqpage recode: note: %s has %zu encrypted column%s; %s gets their masked "
                 "values, unencrypted\n",
                 in_path.c_str(), input.encryption()->variants.size(),
                 input.encryption()->variants.size() == 1 ? "" : "s", out_path.c_str());
  }
  absl::Status status = orc::RecodeOrcFile(input, in_path, out_path, *settings);
  if (!status.ok()) return FailureExit(kCommand, status);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t in_size = input.source().size();
  const int64_t out_size = FileSize(out_path);
  const std::string compression =
      settings->compression == orc::CompressionKind::kNone
          ? "NONE"
          : absl::StrCat(Str(orc::CompressionKindName(settings->compression)), " (block ",
                         settings->block_size, ")");
  std::printf(
      "recoded %s (%lld bytes) -> %s (%lld bytes, %.1f%%): %d stripe%s, %zu column%s, RLE v%d, "
      "%s%s in %.3f s\n",
      in_path.c_str(), static_cast<long long>(in_size), out_path.c_str(),
      static_cast<long long>(out_size),
      in_size > 0 ? 100.0 * static_cast<double>(out_size) / static_cast<double>(in_size) : 0.0,
      input.num_stripes(), input.num_stripes() == 1 ? "" : "s", input.types().size(),
      input.types().size() == 1 ? "" : "s", settings->rle_version, compression.c_str(),
      settings->verify ? ", verified" : "", seconds);
  if (std::fflush(stdout) != 0) return FailureExit(kCommand, "cannot write to standard output");
  return 0;
}

}  // namespace pqpage::cli
