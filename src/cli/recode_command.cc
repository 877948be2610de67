// pqpage recode IN OUT: the command line turned into RecodeOptions (pqpage/recode.h), which does
// the work, and its report printed. An ORC IN goes to RecodeOrc (cli_orc.h).
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/cli_args.h"
#include "cli/cli_keys.h"
#include "cli/cli_orc.h"
#include "cli/cli_parallel.h"
#include "cli/cli_progress.h"
#include "cli/cli_reader_options.h"
#include "cli/commands.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/compression.h"
#include "pqpage/file.h"
#include "pqpage/recode.h"
#include "pqpage/status_macros.h"
#include "pqpage/writer_options.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "recode";

constexpr char kUsage[] =
    "usage: pqpage recode IN OUT [options]\n"
    "\n"
    "Re-encodes every column of every row group of IN into OUT, keeping the schema, the row\n"
    "groups (same rows each) and the key-value metadata; created_by becomes pqpage's. The values\n"
    "and levels are unchanged: 'pqpage dump' prints the same for IN and OUT.\n"
    "\n"
    "options:\n"
    "  --encoding POLICY       auto (default), plain, dictionary, delta, delta_length_byte_array,\n"
    "                          byte_stream_split; a type the encoding does not apply to is\n"
    "                          written PLAIN. auto measures each chunk's start with every\n"
    "                          encoding and keeps the smallest after the codec (the fastest to\n"
    "                          decode among those within --tie-margin); a column that the file's\n"
    "                          Arrow schema (ARROW:schema) makes a dictionary type gets the\n"
    "                          dictionary or PLAIN, which is what Arrow can read into one\n"
    "  --auto-encodings SET    interoperable (default: what pyarrow, DuckDB and polars all read)\n"
    "                          or all (every encoding the format allows for the type)\n"
    "  --tie-margin PERCENT    auto: sizes this close to the smallest count as equal (default 2)\n"
    "  --page-version 1|2      data page version (default 1)\n"
    "  --compression CODEC     uncompressed, snappy (default), gzip, zstd, lz4_raw, brotli\n"
    "  --compression-level N   the codec's level (default: the codec's usual one)\n"
    "  --page-size BYTES       encoded size at which a data page is finished (default 1048576)\n"
    "  --cdc[=MIN:MAX]         cut data pages by content (a rolling hash of the values) rather\n"
    "                          than by size, so that an edit to IN (rows inserted, deleted,\n"
    "                          appended) leaves most pages of OUT byte for byte as they were,\n"
    "                          for stores that deduplicate by content; pages hold MIN to MAX\n"
    "                          bytes of PLAIN values (K, M suffixes: --cdc=256K:1M; --cdc\n"
    "                          alone: --page-size/4 to 2x) and average --page-size when it lies\n"
    "                          between, else the midpoint\n"
    "  --column-encoding PATH=POLICY\n"
    "                          this column's policy instead of --encoding (repeatable; PATH as\n"
    "                          'pqpage inspect' prints it, e.g. tags.list.element)\n"
    "  --column-compression PATH=CODEC[:LEVEL]\n"
    "                          this column's codec and level instead of --compression and\n"
    "                          --compression-level (repeatable)\n"
    "  --column-dictionary PATH=on|off\n"
    "                          on: this column starts with a dictionary whatever the policy\n"
    "                          (falling back to the policy's encoding when it is full); off: it\n"
    "                          has none (repeatable)\n"
    "  --bloom keep|all|none   which columns get bloom filters: keep (default) those with one\n"
    "                          in IN, all but BOOLEAN columns, or none; filters are rebuilt\n"
    "                          from the values, each sized for its chunk's distinct values\n"
    "  --bloom-fpp RATE        the false-positive rate filters are sized for (default 0.05)\n"
    "  --column-bloom PATH[=NDV[:FPP]]\n"
    "                          this column gets a bloom filter whatever --bloom says, sized\n"
    "                          for NDV distinct values (default: each chunk's own count) at\n"
    "                          rate FPP (default --bloom-fpp); PATH=off: none (repeatable)\n"
    "  --checksum              write a CRC in every page header\n"
    "  --no-statistics         write no statistics (pages and column chunks)\n"
    "  --no-page-index         write no page index (by default every column chunk gets an\n"
    "                          OffsetIndex, and a ColumnIndex when its type has an order)\n"
    "  --verify                decode every chunk written and compare it with its input (this\n"
    "                          keeps a chunk's values in memory while it is written), then\n"
    "                          read OUT back and compare every column with IN\n"
    "  --no-verify-checksums   do not check IN's page CRCs\n" PQPAGE_CLI_MAX_PAGE_SIZE_USAGE
        PQPAGE_CLI_THREADS_USAGE
    "\n"
    "Encryption: the key options above decrypt IN; these encrypt OUT (both: a re-key):\n"
    "  --encrypt gcm|ctr       encrypt OUT with AES_GCM_V1 or AES_GCM_CTR_V1 (pages in AES-CTR)\n"
    "  --out-footer-key HEX[:METADATA]\n"
    "                          the footer key, and the key metadata stored to find it\n"
    "  --out-column-key PATH=HEX[:METADATA]\n"
    "                          encrypt column PATH with its own key (repeatable); without any,\n"
    "                          every column is encrypted with the footer key, with some, the\n"
    "                          others are left in the clear\n"
    "  --out-key-file FILE     OUT's keys, lines as --key-file's ('footer HEX [METADATA]',\n"
    "                          'column PATH HEX [METADATA]', 'aad-prefix TEXT')\n"
    "  --kms-footer ID         instead of keys: random data keys wrapped with the master keys\n"
    "  --kms-column ID=PATH[,PATH...]\n"
    "                          (--master-key) as pyarrow's CryptoFactory does, the footer's\n"
    "                          with master key ID, these columns' with theirs (repeatable)\n"
    "  --single-wrapping       wrap data keys with the master keys directly (default: double\n"
    "                          wrapping, through a key encryption key per master key)\n"
    "  --plaintext-footer      leave the footer readable, signed with the footer key, so that\n"
    "                          readers without keys can read the columns left in the clear\n"
    "  --out-aad-prefix TEXT   bind OUT to TEXT (its name, its table): readers must match it\n"
    "  --out-aad-prefix-not-stored\n"
    "                          do not store the AAD prefix in OUT: readers must supply it\n"
    "\n"
    "An ORC IN (one that starts with \"ORC\") has every stripe decoded and encoded again with\n"
    "pqpage's ORC codecs; OUT keeps the schema, the stripes (same rows each), the user metadata,\n"
    "the writer timezone and the statistics (copied). Its options:\n"
    "  --rle 1|2               integer RLE version 1 (file version 0.11) or 2 (0.12, the default)\n"
    "  --compression CODEC     none, zlib, snappy, lzo, lz4 or zstd (default: IN's)\n"
    "  --block-size BYTES      the compression block size (default: IN's)\n"
    "  --compression-level N, --no-statistics, --verify (OUT read back and compared with IN,\n"
    "  stripe by stripe) and --mmap as above\n"
    "\n"
    "Exit status: 0 on success, 1 when IN cannot be read or OUT cannot be written (OUT is then\n"
    "removed), 2 for a usage error.\n";

// --cdc and --cdc=MIN:MAX, into options->content_defined_chunking.
absl::Status ContentDefinedChunkingFromArgs(const ParsedArgs& args, WriterOptions* options) {
  ContentDefinedChunking& chunking = options->content_defined_chunking;
  const std::optional<std::string> sizes = args.Value("cdc");
  chunking.enabled = sizes.has_value();
  if (!sizes || sizes->empty()) return absl::OkStatus();
  const size_t colon = sizes->find(':');
  if (colon == std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--cdc= wants MIN:MAX (--cdc=256K:1M), not '", *sizes, "'"));
  }
  constexpr int64_t kLargest = int64_t{1} << 30;
  PQPAGE_ASSIGN_OR_RETURN(chunking.min_page_bytes,
                          ParseByteSizeOption("cdc minimum", sizes->substr(0, colon), 1, kLargest));
  PQPAGE_ASSIGN_OR_RETURN(
      chunking.max_page_bytes,
      ParseByteSizeOption("cdc maximum", sizes->substr(colon + 1), 1, kLargest));
  if (*chunking.max_page_bytes <= *chunking.min_page_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("--cdc= wants MIN below MAX, not '", *sizes, "'"));
  }
  return absl::OkStatus();
}

// Splits "PATH=SETTING" of the repeatable per-column `option`.
absl::StatusOr<std::pair<std::string, std::string>> SplitColumnSetting(const std::string& option,
                                                                       const std::string& text) {
  const size_t equals = text.rfind('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", option, " wants PATH=VALUE, not '", text, "'"));
  }
  return std::make_pair(text.substr(0, equals), text.substr(equals + 1));
}

// A false-positive rate given on the command line: a number in (0, 1).
absl::StatusOr<double> ParseRate(const std::string& option, const std::string& text) {
  double rate = 0;
  if (!absl::SimpleAtod(text, &rate) || !(rate > 0.0 && rate < 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", option, " wants a rate between 0 and 1 (0.01), not '", text, "'"));
  }
  return rate;
}

// --column-bloom PATH[=NDV[:FPP]] and PATH=off, into options->column_overrides; the other
// fields of each filter's options come from options->bloom_filter (--bloom-fpp).
absl::Status ColumnBloomFromArgs(const ParsedArgs& args, WriterOptions* options) {
  for (const std::string& text : args.Values("column-bloom")) {
    BloomFilterOptions bloom = options->bloom_filter;
    bloom.enabled = true;
    std::string path = text;
    const size_t equals = text.rfind('=');
    if (equals != std::string::npos) {
      PQPAGE_ASSIGN_OR_RETURN(auto setting, SplitColumnSetting("column-bloom", text));
      path = setting.first;
      const std::string& size = setting.second;
      const size_t colon = size.find(':');
      if (size == "off") {
        bloom.enabled = false;
      } else {
        PQPAGE_ASSIGN_OR_RETURN(bloom.distinct_values,
                                ParseIntegerOption("column-bloom distinct values",
                                                   size.substr(0, colon), 1, int64_t{1} << 40));
        if (colon != std::string::npos) {
          PQPAGE_ASSIGN_OR_RETURN(bloom.fpp, ParseRate("column-bloom", size.substr(colon + 1)));
        }
      }
    }
    options->column_overrides[path].bloom_filter = bloom;
  }
  return absl::OkStatus();
}

// The --column-encoding and --column-compression settings, into options->column_overrides.
absl::Status ColumnOverridesFromArgs(const ParsedArgs& args, WriterOptions* options) {
  for (const std::string& text : args.Values("column-encoding")) {
    PQPAGE_ASSIGN_OR_RETURN(auto setting, SplitColumnSetting("column-encoding", text));
    PQPAGE_ASSIGN_OR_RETURN(EncodingPolicy policy, EncodingPolicyFromName(setting.second));
    options->column_overrides[setting.first].encoding = policy;
  }
  for (const std::string& text : args.Values("column-dictionary")) {
    PQPAGE_ASSIGN_OR_RETURN(auto setting, SplitColumnSetting("column-dictionary", text));
    if (setting.second != "on" && setting.second != "off") {
      return absl::InvalidArgumentError(
          absl::StrCat("--column-dictionary wants PATH=on or PATH=off, not '", text, "'"));
    }
    options->column_overrides[setting.first].dictionary = setting.second == "on";
  }
  for (const std::string& text : args.Values("column-compression")) {
    PQPAGE_ASSIGN_OR_RETURN(auto setting, SplitColumnSetting("column-compression", text));
    const size_t colon = setting.second.find(':');
    PQPAGE_ASSIGN_OR_RETURN(Compression codec,
                            WritableCompressionFromName(setting.second.substr(0, colon)));
    int level = kDefaultCompressionLevel;
    if (colon != std::string::npos) {
      PQPAGE_ASSIGN_OR_RETURN(
          int64_t parsed, ParseIntegerOption("column-compression level",
                                             setting.second.substr(colon + 1), -1000000, 1000000));
      level = static_cast<int>(parsed);
    }
    PQPAGE_RETURN_IF_ERROR(CheckCompressionLevel(codec, level));
    ColumnWriterOverride& override = options->column_overrides[setting.first];
    override.compression = codec;
    override.compression_level = level;
  }
  return ColumnBloomFromArgs(args, options);
}

// Turns the command line into writer options; InvalidArgument with a message for the user.
absl::StatusOr<WriterOptions> WriterOptionsFromArgs(const ParsedArgs& args) {
  WriterOptions options;
  if (auto name = args.Value("encoding")) {
    PQPAGE_ASSIGN_OR_RETURN(options.encoding, EncodingPolicyFromName(*name));
  }
  if (auto version = args.Value("page-version")) {
    PQPAGE_ASSIGN_OR_RETURN(int64_t parsed, ParseIntegerOption("page-version", *version, 1, 2));
    options.data_page_version = static_cast<int>(parsed);
  }
  if (auto name = args.Value("compression")) {
    PQPAGE_ASSIGN_OR_RETURN(options.compression, WritableCompressionFromName(*name));
  }
  if (auto level = args.Value("compression-level")) {
    PQPAGE_ASSIGN_OR_RETURN(int64_t parsed,
                            ParseIntegerOption("compression-level", *level, -1000000, 1000000));
    options.compression_level = static_cast<int>(parsed);
  }
  if (auto set = args.Value("auto-encodings")) {
    if (*set != "interoperable" && *set != "all") {
      return absl::InvalidArgumentError(
          absl::StrCat("--auto-encodings is interoperable or all, not '", *set, "'"));
    }
    options.auto_encodings = *set == "all" ? AutoEncodings::kAll : AutoEncodings::kInteroperable;
  }
  if (auto margin = args.Value("tie-margin")) {
    PQPAGE_ASSIGN_OR_RETURN(int64_t parsed, ParseIntegerOption("tie-margin", *margin, 0, 100));
    options.auto_tie_margin = static_cast<double>(parsed) / 100.0;
  }
  if (auto size = args.Value("page-size")) {
    // Pages hold int32 sizes in their headers; an encoded page near 2 GiB could not be written.
    PQPAGE_ASSIGN_OR_RETURN(options.data_page_size,
                            ParseIntegerOption("page-size", *size, 1, int64_t{1} << 30));
  }
  if (auto rate = args.Value("bloom-fpp")) {
    PQPAGE_ASSIGN_OR_RETURN(options.bloom_filter.fpp, ParseRate("bloom-fpp", *rate));
  }
  PQPAGE_RETURN_IF_ERROR(CheckCompressionLevel(options.compression, options.compression_level));
  PQPAGE_RETURN_IF_ERROR(ColumnOverridesFromArgs(args, &options));
  PQPAGE_RETURN_IF_ERROR(ContentDefinedChunkingFromArgs(args, &options));
  options.write_checksums = args.Has("checksum");
  options.write_statistics = !args.Has("no-statistics");
  options.verify_pages = args.Has("verify");
  return options;
}

}  // namespace

int RunRecode(const std::vector<std::string>& args) {
  const std::vector<OptionSpec> specs = WithThreadsOption(
      WithOutputKeyOptions(WithReaderOptions({{"encoding", true},
                                              {"page-version", true},
                                              {"compression", true},
                                              {"compression-level", true},
                                              {"page-size", true},
                                              {"cdc", false, /*inline_value_allowed=*/true},
                                              {"column-encoding", true},
                                              {"column-compression", true},
                                              {"column-dictionary", true},
                                              {"column-bloom", true},
                                              {"bloom", true},
                                              {"bloom-fpp", true},
                                              {"auto-encodings", true},
                                              {"tie-margin", true},
                                              {"checksum", false},
                                              {"no-statistics", false},
                                              {"no-page-index", false},
                                              {"verify", false},
                                              {"rle", true},
                                              {"block-size", true}})));
  auto parsed = ParseArgs(args, specs);
  if (!parsed.ok()) return UsageError(kCommand, parsed.status());
  if (parsed->Has("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const std::vector<std::string>& positional = parsed->positional();
  if (positional.size() != 2) {
    return UsageError(kCommand, positional.size() < 2 ? "needs IN and OUT" : "too many arguments");
  }
  const std::string& in_path = positional[0];
  const std::string& out_path = positional[1];
  // Checked here as well as in the libraries, for both formats, so that it is a usage error.
  if (IsSameFile(in_path, out_path)) {
    return UsageError(kCommand, absl::StrCat("OUT is the input file '", in_path, "'"));
  }
  if (IsOrcFile(in_path)) return RecodeOrc(*parsed, specs);
  for (const char* orc_only : {"rle", "block-size"}) {
    if (parsed->Has(orc_only)) {
      return UsageError(kCommand, absl::StrCat("option '--", orc_only, "' applies to ORC files"));
    }
  }
  auto options = WriterOptionsFromArgs(*parsed);
  if (!options.ok()) return UsageError(kCommand, options.status());
  const bool verify = parsed->Has("verify");
  absl::StatusOr<ReaderOptions> reader_options = ReaderOptionsFrom(*parsed);
  if (!reader_options.ok()) return UsageError(kCommand, reader_options.status());
  absl::StatusOr<int> threads_option = ThreadsFrom(*parsed);
  if (!threads_option.ok()) return UsageError(kCommand, threads_option.status());
  const int threads = *threads_option;

  const auto start = std::chrono::steady_clock::now();
  auto input = FileReader::Open(in_path, *reader_options);
  if (!input.ok()) return FailureExit(kCommand, input.status());
  const FileReader& file = **input;

  RecodeOptions recode;
  recode.writer = *std::move(options);
  recode.write_page_index = !parsed->Has("no-page-index");
  if (auto policy = parsed->Value("bloom")) {
    if (*policy == "all") {
      recode.bloom_filters = BloomFilterPolicy::kAll;
    } else if (*policy == "none") {
      recode.bloom_filters = BloomFilterPolicy::kNone;
    } else if (*policy != "keep") {
      return UsageError(kCommand,
                        absl::StrCat("--bloom is keep, all or none, not '", *policy, "'"));
    }
  }
  recode.threads = threads;
  recode.verify = verify;
  absl::StatusOr<std::shared_ptr<const FileEncryptionProperties>> encryption =
      EncryptionFrom(*parsed);
  if (!encryption.ok()) return UsageError(kCommand, encryption.status());
  recode.encryption = *std::move(encryption);
  if (recode.encryption != nullptr) {
    const std::vector<std::string> unknown =
        UnknownEncryptionColumns(*recode.encryption, file.schema());
    if (!unknown.empty()) {
      return UsageError(kCommand, absl::StrCat("no column '", absl::StrJoin(unknown, "', '"),
                                               "' in ", in_path, " to encrypt"));
    }
  }
  recode.on_warning = [](const std::string& warning) {
    std::fprintf(stderr, "pqpage %s: warning: %s\n", kCommand, warning.c_str());
  };
  Progress progress(kCommand);
  if (progress.enabled()) {
    recode.on_progress = [&progress](const FileProgress& at) { progress.Show(at); };
  }
  absl::StatusOr<RecodeReport> report = Recode(file, out_path, recode);
  progress.Clear();
  if (IsUnknownColumnError(report.status())) {
    // Refused before anything is written: a misspelt --column-* path is a usage error.
    return UsageError(
        kCommand, absl::StrCat(report.status().message(), " (see pqpage inspect for the paths)"));
  }
  if (!report.ok()) return FailureExit(kCommand, report.status());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t in_size = report->input_bytes;
  const int64_t out_size = report->output_bytes;
  std::printf(
      "recoded %s (%lld bytes) -> %s (%lld bytes, %.1f%%): %d row group%s, %zu column%s, "
      "encoding %s, data page v%d, %s%s in %.3f s\n",
      in_path.c_str(), static_cast<long long>(in_size), out_path.c_str(),
      static_cast<long long>(out_size),
      in_size > 0 ? 100.0 * static_cast<double>(out_size) / static_cast<double>(in_size) : 0.0,
      file.num_row_groups(), file.num_row_groups() == 1 ? "" : "s", file.schema().columns().size(),
      file.schema().columns().size() == 1 ? "" : "s",
      std::string(EncodingPolicyName(recode.writer.encoding)).c_str(),
      recode.writer.data_page_version,
      std::string(CompressionName(recode.writer.compression)).c_str(), verify ? ", verified" : "",
      seconds);
  if (std::fflush(stdout) != 0) return FailureExit(kCommand, "cannot write to standard output");
  return 0;
}

}  // namespace pqpage::cli
