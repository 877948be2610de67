// pqpage recode IN.orc OUT.orc: every stripe's columns decoded with pqpage's ORC codecs and
// encoded again with its encoders (integer RLE version 1 or 2, the chosen compression), written as
// a new ORC file with the same schema (type attributes included), stripes (same rows each), user
// metadata, writer timezone and statistics (copied as they are: the values do not change). An
// encrypted column is written as readers without keys see it: its masked values, unencrypted.
// A reference reader that reads OUT as it reads IN proves pqpage's encoders; --verify has pqpage
// read OUT back itself.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
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
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "cli/cli_args.h"
#include "cli/cli_orc.h"
#include "cli/cli_value_text.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/file_writer.h"
#include "pqpage/orc/metadata.h"
#include "pqpage/orc/stripe_columns.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "recode";

struct RecodeSettings {
  int rle_version = 2;
  orc::CompressionKind compression = orc::CompressionKind::kNone;
  uint64_t block_size = orc::kDefaultCompressionBlockSize;
  int level = kDefaultCompressionLevel;
  bool statistics = true;
  bool verify = false;
};

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
absl::StatusOr<RecodeSettings> SettingsFrom(const ParsedArgs& parsed,
                                            const orc::OrcFileReader& input) {
  RecodeSettings settings;
  settings.compression = input.compression();
  settings.block_size = input.compression_block_size();
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
    settings.level = static_cast<int>(value);
    // A level the codec rejects would otherwise surface at the first stream, after OUT was
    // created; compressing a few bytes finds it first.
    std::vector<uint8_t> scratch;
    const uint8_t probe[16] = {};
    absl::Status status = orc::CompressStream(settings.compression, settings.block_size, probe,
                                              &scratch, settings.level);
    if (!status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("option '--compression-level' ", value, ": ", status.message()));
    }
  }
  settings.statistics = !parsed.Has("no-statistics");
  settings.verify = parsed.Has("verify");
  return settings;
}

// `status` with `context` before its message, so the one-line error says where it happened.
absl::Status Prefixed(const std::string& context, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(context, status.message()));
}

// Statistics are all or nothing for the writer: the input's are copied only when it has them
// for every stripe and column.
bool HasAllStripeStatistics(const orc::OrcFileReader& input) {
  if (input.num_stripe_statistics() != input.num_stripes()) return false;
  for (int s = 0; s < input.num_stripes(); ++s) {
    if (input.StripeStatistics(s).size() != input.types().size()) return false;
  }
  return true;
}

// An error of the output: named by its path, once (the writer's I/O errors name it already).
absl::Status OfOutput(const std::string& out_path, const std::string& context,
                      const absl::Status& status) {
  if (absl::StartsWith(status.message(), out_path + ": ")) return status;
  return Prefixed(absl::StrCat(out_path, ": ", context), status);
}

// Reads every stripe of `input` (at `in_path`) and writes it to `out_path`. Errors name the file
// at fault: the input's (whose messages already say the stripe) or the output's.
absl::Status WriteOutput(const orc::OrcFileReader& input, const std::string& in_path,
                         const std::string& out_path, const RecodeSettings& settings,
                         bool* created) {
  orc::OrcWriterOptions options;
  options.compression = settings.compression;
  options.compression_block_size = settings.block_size;
  options.compression_level = settings.level;
  options.file_version =
      settings.rle_version == 1 ? std::vector<uint32_t>{0, 11} : std::vector<uint32_t>{0, 12};
  // The copied statistics are in the state the input's writer version says.
  options.writer_version = input.writer_version();
  options.user_metadata = input.user_metadata();
  absl::StatusOr<std::unique_ptr<orc::OrcFileWriter>> created_writer =
      orc::OrcFileWriter::Create(out_path, input.types(), options);
  if (!created_writer.ok()) return OfOutput(out_path, "", created_writer.status());
  orc::OrcFileWriter& writer = **created_writer;
  *created = true;
  const std::string in_context = in_path + ": ";
  const bool stripe_statistics = settings.statistics && HasAllStripeStatistics(input);
  for (int s = 0; s < input.num_stripes(); ++s) {
    const std::string out_context = absl::StrCat("stripe ", s, ": ");
    absl::StatusOr<std::vector<orc::ColumnValues>> columns = orc::ReadStripeColumns(input, s);
    if (!columns.ok()) return Prefixed(in_context, columns.status());
    absl::StatusOr<orc::StripeFooterInfo> footer = input.ReadStripeFooter(s);
    if (!footer.ok()) return Prefixed(in_context, footer.status());
    absl::StatusOr<orc::EncodedStripe> encoded =
        orc::EncodeStripeColumns(input.types(), *columns, settings.rle_version);
    if (!encoded.ok()) return OfOutput(out_path, out_context, encoded.status());
    orc::OrcStripeInput stripe;
    stripe.num_rows = input.stripes()[static_cast<size_t>(s)].num_rows;
    stripe.streams = encoded->streams;
    stripe.encodings = encoded->encodings;
    stripe.writer_timezone = footer->writer_timezone;
    if (stripe_statistics) stripe.statistics = input.StripeStatistics(s);
    absl::Status status = writer.WriteStripe(stripe);
    if (!status.ok()) return OfOutput(out_path, out_context, status);
  }
  const std::vector<std::string> file_statistics = input.FileStatistics();
  if (settings.statistics && file_statistics.size() == input.types().size()) {
    absl::Status status = writer.SetFileStatistics(file_statistics);
    if (!status.ok()) return OfOutput(out_path, "", status);
  }
  absl::Status status = writer.Close();
  if (!status.ok()) return OfOutput(out_path, "", status);
  return absl::OkStatus();
}

bool SameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// Which part of two decodings of the same column differs, or "" when none does. The encodings
// may differ (that is the point of a recode); a PRESENT stream of all ones and none are the same.
std::string ColumnDifference(const orc::ColumnValues& a, const orc::ColumnValues& b) {
  if (a.kind != b.kind) return "kind";
  if (a.slots != b.slots || a.num_present != b.num_present) return "slot or present count";
  const auto all_present = [](const orc::ColumnValues& c) {
    return std::all_of(c.present.begin(), c.present.end(), [](uint8_t p) { return p != 0; });
  };
  if (a.present.empty() || b.present.empty()) {
    if (!all_present(a) || !all_present(b)) return "nulls";
  } else if (a.present != b.present) {
    return "nulls";
  }
  if (a.integers != b.integers) return "integers";
  if (!SameBits(a.reals, b.reals)) return "floating point values";
  if (a.bytes != b.bytes || a.offsets != b.offsets) return "byte values";
  if (a.decimals != b.decimals || a.scales != b.scales) return "decimals";
  if (a.seconds != b.seconds || a.nanos != b.nanos) return "timestamps";
  return "";
}

absl::Status VerifyOutput(const orc::OrcFileReader& input, const std::string& in_path,
                          const std::string& out_path) {
  absl::StatusOr<std::unique_ptr<orc::OrcFileReader>> opened = OpenOrc(out_path, false);
  if (!opened.ok()) {
    return absl::DataLossError(
        absl::StrCat("verify: cannot read back: ", opened.status().message()));
  }
  const orc::OrcFileReader& output = **opened;
  if (output.num_stripes() != input.num_stripes() || output.types() != input.types()) {
    return absl::DataLossError(absl::StrCat("verify: ", out_path, " has ", output.num_stripes(),
                                            " stripes and ", output.types().size(),
                                            " columns; the input ", input.num_stripes(), " and ",
                                            input.types().size(), " (or another schema)"));
  }
  for (int s = 0; s < input.num_stripes(); ++s) {
    absl::StatusOr<std::vector<orc::ColumnValues>> want = orc::ReadStripeColumns(input, s);
    if (!want.ok()) return Prefixed(absl::StrCat("verify: ", in_path, ": "), want.status());
    absl::StatusOr<std::vector<orc::ColumnValues>> got = orc::ReadStripeColumns(output, s);
    if (!got.ok()) {
      return absl::DataLossError(absl::StrCat("verify: ", out_path, ": ", got.status().message()));
    }
    for (size_t c = 0; c < want->size(); ++c) {
      const std::string difference = ColumnDifference((*got)[c], (*want)[c]);
      if (!difference.empty()) {
        return absl::DataLossError(absl::StrCat("verify: ", out_path, ": stripe ", s, ", column ",
                                                c, ": the ", difference,
                                                " differ from the input's"));
      }
    }
  }
  return absl::OkStatus();
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
  absl::StatusOr<RecodeSettings> settings = SettingsFrom(parsed, input);
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
  bool created = false;
  absl::Status status = WriteOutput(input, in_path, out_path, *settings, &created);
  if (status.ok() && settings->verify) status = VerifyOutput(input, in_path, out_path);
  if (!status.ok()) {
    // A half-written (or unverified) file must not pass for a recoded one.
    if (created) std::remove(out_path.c_str());
    return FailureExit(kCommand, status);
  }
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
