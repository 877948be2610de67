// pqpage advise FILE: which encoding suits each column, learnt by trying them all on the file's own
// data (Advise in pqpage/advise.h, printed here): for each column, what it is stored as now, the
// bytes every policy writes after the codec and how fast each result decodes, which of pyarrow,
// DuckDB and polars would refuse each result (pqpage/peer_readers.h), the recommendation, and the
// one `pqpage recode` command that applies every recommendation. The table is printed here; the
// JSON document and the recode command are the library's (pqpage/advise_json.h).
#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/cli_args.h"
#include "cli/cli_progress.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_str.h"
#include "cli/commands.h"
#include "pqpage/advise.h"
#include "pqpage/advise_json.h"
#include "pqpage/compression.h"
#include "pqpage/file.h"
#include "pqpage/peer_readers.h"
#include "pqpage/value_text.h"
#include "pqpage/writer_options.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "advise";

constexpr char kUsage[] =
    "usage: pqpage advise FILE [options]\n"
    "\n"
    "Tries every encoding policy on each column's own data and shows, per column (over all row\n"
    "groups): how it is stored now, the bytes each policy writes after the codec, their ratio to\n"
    "today's, how fast each result decodes on this machine, and the recommendation: the smallest,\n"
    "or among those within --tie-margin of the smallest, the fastest to decode. Ends with the one\n"
    "'pqpage recode' command that writes the file with every recommendation. A policy whose\n"
    "pages pyarrow, DuckDB or polars would refuse for the column's type (a BYTE_ARRAY DECIMAL in\n"
    "DELTA_LENGTH_BYTE_ARRAY: DuckDB) is marked 'refused by' and advised only when every policy\n"
    "is; --json lists the peers refusing each encoding pqpage writes for the column.\n"
    "\n"
    "options:\n"
    "  --column PATH           only this column (PATH as 'pqpage inspect' prints it)\n"
    "  --compression CODEC     the codec to measure with (default: each column's own codec)\n"
    "  --page-version 1|2      data page version to measure with (default 1, as recode)\n"
    "  --tie-margin PERCENT    sizes this close to the smallest count as equal (default 2)\n"
    "  --verbose               also show every column chunk\n"
    "  --json                  one JSON object instead of the table\n"
    "  --no-verify-checksums   do not check FILE's page CRCs\n" PQPAGE_CLI_MAX_PAGE_SIZE_USAGE
    "\n"
    "Each column chunk is read into memory once and written once per policy. Exit status: 0 on\n"
    "success, 1 when FILE cannot be read, 2 for a usage error.\n";

struct Options {
  std::string path;
  std::optional<std::string> column;
  std::optional<Compression> compression;
  int page_version = 1;
  double tie_margin = 0.02;
  bool verbose = false;
  bool json = false;
  ReaderOptions reader;
};

std::string JoinPeers(std::vector<PeerReader> peers) {
  std::sort(peers.begin(), peers.end());
  std::string out;
  for (const PeerReader peer : peers) {
    absl::StrAppend(&out, out.empty() ? "" : ", ", std::string(PeerReaderName(peer)));
  }
  return out;
}

std::string JoinList(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& item : list) absl::StrAppend(&out, out.empty() ? "" : ", ", item);
  return out;
}

void PrintTable(const FileAdvice& advice, const Options& options) {
  const int64_t now_total = advice.current_bytes();
  const int64_t advised_total = advice.advised_bytes();
  std::printf("%s: %d row group%s; every policy written with data page v%d\n",
              Printable(options.path).c_str(), advice.num_row_groups,
              advice.num_row_groups == 1 ? "" : "s", options.page_version);
  for (const ColumnAdvice& column : advice.columns) {
    const PolicyTotal& best = column.advised();
    std::printf("\ncolumn %d '%s' %s%s%s, %s: now %s, %lld bytes\n", column.column,
                Printable(column.path).c_str(), Str(PhysicalTypeName(column.type)).c_str(),
                column.logical_type.empty() ? "" : " ", column.logical_type.c_str(),
                WritableCompressionName(column.codec).c_str(),
                JoinList(column.current_encodings).c_str(),
                static_cast<long long>(column.current_bytes));
    for (const auto& [encoding, peers] : column.peers_refusing) {
      if (!peers.empty()) {
        std::printf("  %s is refused by %s for this type\n", Str(EncodingName(encoding)).c_str(),
                    JoinPeers(peers).c_str());
      }
    }
    if (column.arrow_dictionary) {
      std::printf("  an Arrow dictionary type (ARROW:schema): only dictionary or plain advised\n");
    }
    std::printf("  %-24s %14s %8s %12s  %s\n", "policy", "bytes", "vs now", "decode MB/s",
                "encodings written");
    for (size_t i = 0; i < column.totals.size(); ++i) {
      const PolicyTotal& total = column.totals[i];
      const std::string note =
          i == column.recommended ? "  <- advised"
          : total.same_as ? absl::StrCat("  (= ", Str(EncodingPolicyName(*total.same_as)), ")")
                          : "";
      const std::string refused = total.refused_by.empty()
                                      ? ""
                                      : absl::StrCat("  refused by ", JoinPeers(total.refused_by));
      std::printf(
          "  %-24s %14lld %7.3fx %12.1f  %s%s%s\n", Str(EncodingPolicyName(total.policy)).c_str(),
          static_cast<long long>(total.stored_bytes),
          SizeRatio(total.stored_bytes, column.current_bytes), total.DecodeMegabytesPerSecond(),
          JoinList(total.encodings).c_str(), refused.c_str(), note.c_str());
    }
    if (options.verbose) {
      for (size_t rg = 0; rg < column.chunks.size(); ++rg) {
        const ChunkMeasurement& chunk = column.chunks[rg];
        std::string sizes;
        for (const PolicyMeasurement& result : chunk.candidates) {
          absl::StrAppend(&sizes, sizes.empty() ? "" : ", ", Str(EncodingPolicyName(result.policy)),
                          " ", result.stored_bytes);
        }
        std::printf("    row group %zu: now %s, %lld bytes; %s\n", rg, chunk.encodings.c_str(),
                    static_cast<long long>(chunk.stored_bytes), sizes.c_str());
      }
    }
    const int64_t saved = column.current_bytes - best.stored_bytes;
    std::printf("  advice: %s, %lld bytes (%s)\n", Str(EncodingPolicyName(best.policy)).c_str(),
                static_cast<long long>(best.stored_bytes),
                saved >= 0 ? absl::StrFormat(
                                 "saves %d bytes, %.1f%%", saved,
                                 100.0 * (1.0 - SizeRatio(best.stored_bytes, column.current_bytes)))
                                 .c_str()
                           : absl::StrFormat("%d bytes more than now", -saved).c_str());
  }
  std::printf("\ntotal: now %lld bytes, advised %lld bytes (%.3fx)\n",
              static_cast<long long>(now_total), static_cast<long long>(advised_total),
              SizeRatio(advised_total, now_total));
  if (!advice.columns.empty()) {
    std::printf("apply: %s\n", AdvisedRecodeCommand(options.path, advice).c_str());
  }
}

absl::StatusOr<Options> OptionsFromArgs(const ParsedArgs& parsed) {
  Options options;
  if (parsed.positional().size() != 1) {
    return absl::InvalidArgumentError(parsed.positional().empty() ? "needs FILE"
                                                                  : "too many arguments");
  }
  options.path = parsed.positional()[0];
  options.column = parsed.Value("column");
  if (auto codec = parsed.Value("compression")) {
    absl::StatusOr<Compression> chosen = WritableCompressionFromName(*codec);
    if (!chosen.ok()) return chosen.status();
    options.compression = *chosen;
  }
  if (auto version = parsed.Value("page-version")) {
    absl::StatusOr<int64_t> value = ParseIntegerOption("page-version", *version, 1, 2);
    if (!value.ok()) return value.status();
    options.page_version = static_cast<int>(*value);
  }
  if (auto margin = parsed.Value("tie-margin")) {
    absl::StatusOr<int64_t> value = ParseIntegerOption("tie-margin", *margin, 0, 100);
    if (!value.ok()) return value.status();
    options.tie_margin = static_cast<double>(*value) / 100.0;
  }
  options.verbose = parsed.Has("verbose");
  options.json = parsed.Has("json");
  absl::StatusOr<ReaderOptions> reader = ReaderOptionsFrom(parsed);
  if (!reader.ok()) return reader.status();
  options.reader = *reader;
  return options;
}

}  // namespace

int RunAdvise(const std::vector<std::string>& args) {
  auto parsed = ParseArgs(args, WithReaderOptions({{"column", true},
                                                   {"compression", true},
                                                   {"page-version", true},
                                                   {"tie-margin", true},
                                                   {"verbose", false},
                                                   {"json", false}}));
  if (!parsed.ok()) return UsageError(kCommand, parsed.status());
  if (parsed->Has("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  absl::StatusOr<Options> options = OptionsFromArgs(*parsed);
  if (!options.ok()) return UsageError(kCommand, options.status());
  auto opened = FileReader::Open(options->path, options->reader);
  if (!opened.ok()) return FailureExit(kCommand, opened.status());
  const FileReader& file = **opened;
  if (options->column && !file.schema().FindColumn(*options->column)) {
    return UsageError(kCommand, absl::StrCat("no column '", *options->column, "' in ",
                                             options->path, " (see pqpage inspect for the paths)"));
  }
  AdviseOptions advise;
  advise.column = options->column;
  advise.compression = options->compression;
  advise.data_page_version = options->page_version;
  advise.tie_margin = options->tie_margin;
  advise.on_warning = [](const std::string& warning) {
    std::fprintf(stderr, "pqpage %s: warning: %s\n", kCommand, warning.c_str());
  };
  Progress progress(kCommand);
  if (progress.enabled()) {
    advise.on_progress = [&progress](const FileProgress& at) { progress.Show(at); };
  }
  absl::StatusOr<FileAdvice> advice = Advise(file, advise);
  progress.Clear();
  if (!advice.ok()) return FailureExit(kCommand, advice.status());
  if (options->json) {
    AdviceJsonOptions json;
    json.file_name = options->path;
    json.chunks = options->verbose;
    const std::string document = AdviceJson(*advice, json);
    return std::fwrite(document.data(), 1, document.size(), stdout) == document.size() ? 0 : 1;
  }
  PrintTable(*advice, *options);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace pqpage::cli
