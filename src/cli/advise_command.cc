// pqpage advise FILE: which encoding suits each column, learnt by trying them all on the file's own
// data (cli_advise_measure.h): for each column, what it is stored as now, the bytes every policy
// writes after the codec and how fast each result decodes, which of pyarrow, DuckDB and polars
// would refuse each result (pqpage/peer_readers.h), the recommendation, and the one `pqpage recode`
// command that applies every recommendation.
#include <algorithm>
#include <cctype>
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
#include "cli/cli_advise_measure.h"
#include "cli/cli_args.h"
#include "cli/cli_json_writer.h"
#include "cli/cli_progress.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_value_text.h"
#include "cli/cli_writer_args.h"
#include "cli/commands.h"
#include "pqpage/arrow_schema.h"
#include "pqpage/file.h"
#include "pqpage/peer_readers.h"

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
  // Paths the file's ARROW:schema makes dictionary types (pqpage/arrow_schema.h).
  std::vector<std::string> arrow_dictionary_columns;
};

// One policy over all of a column's chunks.
struct PolicyTotal {
  EncodingPolicy policy = EncodingPolicy::kPlain;
  int64_t stored_bytes = 0;
  double decode_seconds = 0;
  int64_t decoded_value_bytes = 0;
  std::vector<std::string> encodings;  // distinct per-chunk encodings, in order of appearance
  std::vector<PeerReader> refused_by;  // the peers that refuse one of its chunks' encodings
  // An earlier policy that wrote the same encodings and bytes (a policy that does not apply to
  // the type writes PLAIN): listed, never advised, so the advice names what really differs.
  std::optional<EncodingPolicy> same_as;

  double DecodeMegabytesPerSecond() const {
    return decode_seconds > 0 ? static_cast<double>(decoded_value_bytes) / 1e6 / decode_seconds
                              : 0.0;
  }
};

struct ColumnAdvice {
  int column = 0;
  std::string path;
  PhysicalType type = PhysicalType::kInt32;
  std::string logical_type;  // LogicalType::ToString(), "" for none
  // The peers refusing each encoding pqpage writes for the type, in WrittenValueEncodings order.
  std::vector<std::pair<Encoding, std::vector<PeerReader>>> peers_refusing;
  // What auto chooses among by default (AutoEncodings::kInteroperable), the dictionary included.
  std::vector<Encoding> interoperable;
  Compression codec = Compression::kUncompressed;  // measured with
  int64_t current_bytes = 0;
  std::vector<std::string> current_encodings;
  std::vector<PolicyTotal> totals;  // AdvisedPolicies() order
  std::vector<ChunkMeasurement> chunks;
  size_t recommended = 0;  // index into totals
  // The file's Arrow schema makes it a dictionary type: only dictionary or PLAIN pages are
  // readable into it by Arrow, so only those policies are advised.
  bool arrow_dictionary = false;
};

void AddDistinct(const std::string& text, std::vector<std::string>* list) {
  if (std::find(list->begin(), list->end(), text) == list->end()) list->push_back(text);
}

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

// The smallest policy, or among those within the margin of it, the fastest to decode. Decode
// times closer than kSameSpeed count as equal (timing noise on a busy machine is about that), and
// then the earlier policy wins, so the advice does not flip between runs.
constexpr double kSameSpeed = 0.05;
// A policy some peer refuses is advised only when every policy is refused by one.
size_t Recommend(const std::vector<PolicyTotal>& totals, double tie_margin, bool arrow_dictionary) {
  const bool some_readable =
      std::any_of(totals.begin(), totals.end(),
                  [](const PolicyTotal& total) { return total.refused_by.empty(); });
  const auto eligible = [&](const PolicyTotal& total) {
    if (some_readable && !total.refused_by.empty()) return false;
    return !arrow_dictionary || total.policy == EncodingPolicy::kPlain ||
           total.policy == EncodingPolicy::kDictionary;
  };
  int64_t smallest = std::numeric_limits<int64_t>::max();
  for (const PolicyTotal& total : totals) {
    if (eligible(total)) smallest = std::min(smallest, total.stored_bytes);
  }
  const double limit = static_cast<double>(smallest) * (1.0 + tie_margin);
  std::optional<size_t> best;
  for (size_t i = 0; i < totals.size(); ++i) {
    if (totals[i].same_as || !eligible(totals[i]) ||
        static_cast<double>(totals[i].stored_bytes) > limit) {
      continue;
    }
    if (!best || totals[i].decode_seconds < totals[*best].decode_seconds * (1.0 - kSameSpeed)) {
      best = i;
    }
  }
  return *best;
}

// Codecs pqpage does not write are measured with their nearest writable one.
Compression WritableCodec(Compression codec) {
  if (codec == Compression::kLz4Hadoop) return Compression::kLz4Raw;
  if (codec == Compression::kLzo) return Compression::kSnappy;
  return codec;
}

absl::StatusOr<ColumnAdvice> AdviseColumn(const FileReader& file, int column,
                                          const Options& options, Progress& progress,
                                          int64_t* bytes_done) {
  ColumnAdvice advice;
  const ColumnDescriptor& descriptor = file.schema().columns()[static_cast<size_t>(column)];
  advice.column = column;
  advice.path = descriptor.PathString();
  advice.type = descriptor.type;
  advice.logical_type = descriptor.logical_type.ToString();
  for (const Encoding encoding : WrittenValueEncodings(descriptor.type)) {
    advice.peers_refusing.emplace_back(encoding,
                                       PeersRefusing(encoding, descriptor, options.page_version));
    if (InteroperableEncoding(encoding, descriptor, options.page_version)) {
      advice.interoperable.push_back(encoding);
    }
  }
  advice.codec = Compression::kSnappy;
  if (options.compression) {
    advice.codec = *options.compression;
  } else if (file.num_row_groups() > 0) {
    absl::StatusOr<ColumnChunkLocation> first = file.ColumnChunk(0, column);
    if (!first.ok()) return first.status();
    advice.codec = WritableCodec(first->codec);
  }
  WriterOptions writer;
  writer.data_page_version = options.page_version;
  writer.compression = advice.codec;
  for (const EncodingPolicy policy : AdvisedPolicies()) {
    advice.totals.push_back(PolicyTotal{.policy = policy});
  }
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    progress.Update(rg, file.num_row_groups(), column,
                    static_cast<int>(file.schema().columns().size()), *bytes_done);
    absl::StatusOr<ChunkMeasurement> chunk = MeasureChunk(file, rg, column, writer);
    if (!chunk.ok()) return chunk.status();
    *bytes_done += chunk->stored_bytes;
    advice.current_bytes += chunk->stored_bytes;
    AddDistinct(chunk->encodings, &advice.current_encodings);
    for (size_t i = 0; i < chunk->candidates.size(); ++i) {
      const CandidateResult& result = chunk->candidates[i];
      PolicyTotal& total = advice.totals[i];
      total.stored_bytes += result.stored_bytes;
      total.decode_seconds += result.decode_seconds;
      total.decoded_value_bytes += result.decoded_value_bytes;
      AddDistinct(result.encodings, &total.encodings);
      for (const Encoding encoding : result.value_encodings) {
        for (const PeerReader peer : PeersRefusing(encoding, descriptor, options.page_version)) {
          if (std::find(total.refused_by.begin(), total.refused_by.end(), peer) ==
              total.refused_by.end()) {
            total.refused_by.push_back(peer);
          }
        }
      }
    }
    advice.chunks.push_back(*std::move(chunk));
  }
  for (size_t i = 0; i < advice.totals.size(); ++i) {
    for (size_t j = 0; j < i && !advice.totals[i].same_as; ++j) {
      if (!advice.totals[j].same_as && advice.totals[j].encodings == advice.totals[i].encodings &&
          advice.totals[j].stored_bytes == advice.totals[i].stored_bytes) {
        advice.totals[i].same_as = advice.totals[j].policy;
      }
    }
  }
  advice.arrow_dictionary =
      std::find(options.arrow_dictionary_columns.begin(), options.arrow_dictionary_columns.end(),
                advice.path) != options.arrow_dictionary_columns.end();
  advice.recommended = Recommend(advice.totals, options.tie_margin, advice.arrow_dictionary);
  return advice;
}

// `text` as one shell word.
std::string ShellWord(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ||
           c == '/' || c == '=' || c == ':';
  });
  if (plain) return text;
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The most frequent value of `pick` over the columns (ties to the first seen): it becomes the
// command's default and the others per-column flags.
template <typename Pick>
std::string MostCommon(const std::vector<ColumnAdvice>& columns, Pick pick) {
  std::map<std::string, int> counts;
  std::string best;
  for (const ColumnAdvice& column : columns) {
    const std::string value = pick(column);
    if (++counts[value] > counts[best] || best.empty()) best = value;
  }
  return best;
}

std::string RecodeCommand(const std::string& path, const std::vector<ColumnAdvice>& columns,
                          const Options& options) {
  const auto policy_of = [](const ColumnAdvice& c) {
    return std::string(EncodingPolicyName(c.totals[c.recommended].policy));
  };
  const auto codec_of = [](const ColumnAdvice& c) { return CodecFlag(c.codec); };
  const std::string policy = MostCommon(columns, policy_of);
  const std::string codec = MostCommon(columns, codec_of);
  std::string command =
      absl::StrCat("pqpage recode ", ShellWord(path), " OUT.parquet", " --page-version ",
                   options.page_version, " --compression ", codec, " --encoding ", policy);
  for (const ColumnAdvice& column : columns) {
    if (policy_of(column) != policy) {
      absl::StrAppend(&command, " --column-encoding ",
                      ShellWord(absl::StrCat(column.path, "=", policy_of(column))));
    }
    if (codec_of(column) != codec) {
      absl::StrAppend(&command, " --column-compression ",
                      ShellWord(absl::StrCat(column.path, "=", codec_of(column))));
    }
  }
  return command;
}

double Ratio(int64_t bytes, int64_t now) {
  return now > 0 ? static_cast<double>(bytes) / static_cast<double>(now) : 0.0;
}

void PrintTable(const FileReader& file, const std::vector<ColumnAdvice>& columns,
                const Options& options) {
  int64_t now_total = 0;
  int64_t advised_total = 0;
  std::printf("%s: %d row group%s; every policy written with data page v%d\n",
              Printable(options.path).c_str(), file.num_row_groups(),
              file.num_row_groups() == 1 ? "" : "s", options.page_version);
  for (const ColumnAdvice& column : columns) {
    const PolicyTotal& best = column.totals[column.recommended];
    now_total += column.current_bytes;
    advised_total += best.stored_bytes;
    std::printf("\ncolumn %d '%s' %s%s%s, %s: now %s, %lld bytes\n", column.column,
                Printable(column.path).c_str(), Str(PhysicalTypeName(column.type)).c_str(),
                column.logical_type.empty() ? "" : " ", column.logical_type.c_str(),
                CodecFlag(column.codec).c_str(), JoinList(column.current_encodings).c_str(),
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
      std::printf("  %-24s %14lld %7.3fx %12.1f  %s%s%s\n",
                  Str(EncodingPolicyName(total.policy)).c_str(),
                  static_cast<long long>(total.stored_bytes),
                  Ratio(total.stored_bytes, column.current_bytes), total.DecodeMegabytesPerSecond(),
                  JoinList(total.encodings).c_str(), refused.c_str(), note.c_str());
    }
    if (options.verbose) {
      for (size_t rg = 0; rg < column.chunks.size(); ++rg) {
        const ChunkMeasurement& chunk = column.chunks[rg];
        std::string sizes;
        for (const CandidateResult& result : chunk.candidates) {
          absl::StrAppend(&sizes, sizes.empty() ? "" : ", ", Str(EncodingPolicyName(result.policy)),
                          " ", result.stored_bytes);
        }
        std::printf("    row group %zu: now %s, %lld bytes; %s\n", rg, chunk.encodings.c_str(),
                    static_cast<long long>(chunk.stored_bytes), sizes.c_str());
      }
    }
    const int64_t saved = column.current_bytes - best.stored_bytes;
    std::printf(
        "  advice: %s, %lld bytes (%s)\n", Str(EncodingPolicyName(best.policy)).c_str(),
        static_cast<long long>(best.stored_bytes),
        saved >= 0 ? absl::StrFormat("saves %d bytes, %.1f%%", saved,
                                     100.0 * (1.0 - Ratio(best.stored_bytes, column.current_bytes)))
                         .c_str()
                   : absl::StrFormat("%d bytes more than now", -saved).c_str());
  }
  std::printf("\ntotal: now %lld bytes, advised %lld bytes (%.3fx)\n",
              static_cast<long long>(now_total), static_cast<long long>(advised_total),
              Ratio(advised_total, now_total));
  if (!columns.empty())
    std::printf("apply: %s\n", RecodeCommand(options.path, columns, options).c_str());
}

void WritePeersJson(JsonWriter& json, std::vector<PeerReader> peers) {
  std::sort(peers.begin(), peers.end());
  json.BeginArray(/*single_line=*/true);
  for (const PeerReader peer : peers) json.String(PeerReaderName(peer));
  json.EndArray();
}

void WriteCandidateJson(JsonWriter& json, const PolicyTotal& total, int64_t current_bytes) {
  json.BeginObject(/*single_line=*/true);
  json.Key("policy");
  json.String(EncodingPolicyName(total.policy));
  json.Key("bytes");
  json.Int(total.stored_bytes);
  json.Key("ratio");
  json.Float(Ratio(total.stored_bytes, current_bytes));
  json.Key("decode_mb_per_s");
  json.Float(total.DecodeMegabytesPerSecond());
  json.Key("encodings");
  json.BeginArray(/*single_line=*/true);
  for (const std::string& encodings : total.encodings) json.String(encodings);
  json.EndArray();
  json.Key("refused_by");
  WritePeersJson(json, total.refused_by);
  if (total.same_as) {
    json.Key("same_as");
    json.String(EncodingPolicyName(*total.same_as));
  }
  json.EndObject();
}

bool PrintJson(const std::vector<ColumnAdvice>& columns, const Options& options) {
  JsonWriter json;
  int64_t now_total = 0;
  int64_t advised_total = 0;
  json.BeginObject();
  json.Key("file");
  json.String(options.path);
  json.Key("page_version");
  json.Int(options.page_version);
  json.Key("columns");
  json.BeginArray();
  for (const ColumnAdvice& column : columns) {
    const PolicyTotal& best = column.totals[column.recommended];
    now_total += column.current_bytes;
    advised_total += best.stored_bytes;
    json.BeginObject();
    json.Key("column");
    json.Int(column.column);
    json.Key("path");
    json.String(column.path);
    json.Key("type");
    json.String(PhysicalTypeName(column.type));
    json.Key("logical_type");
    json.String(column.logical_type);
    json.Key("peers_refusing");
    json.BeginObject();
    for (const auto& [encoding, peers] : column.peers_refusing) {
      json.Key(EncodingName(encoding));
      WritePeersJson(json, peers);
    }
    json.EndObject();
    json.Key("interoperable");
    json.BeginArray(/*single_line=*/true);
    for (const Encoding encoding : column.interoperable) json.String(EncodingName(encoding));
    json.EndArray();
    json.Key("codec");
    json.String(CodecFlag(column.codec));
    json.Key("current_bytes");
    json.Int(column.current_bytes);
    json.Key("arrow_dictionary");
    json.Bool(column.arrow_dictionary);
    json.Key("current_encodings");
    json.BeginArray(/*single_line=*/true);
    for (const std::string& encodings : column.current_encodings) json.String(encodings);
    json.EndArray();
    json.Key("candidates");
    json.BeginArray();
    for (const PolicyTotal& total : column.totals) {
      WriteCandidateJson(json, total, column.current_bytes);
    }
    json.EndArray();
    if (options.verbose) {
      json.Key("chunks");
      json.BeginArray();
      for (const ChunkMeasurement& chunk : column.chunks) {
        json.BeginObject(/*single_line=*/true);
        json.Key("current_bytes");
        json.Int(chunk.stored_bytes);
        for (const CandidateResult& result : chunk.candidates) {
          json.Key(EncodingPolicyName(result.policy));
          json.Int(result.stored_bytes);
        }
        json.EndObject();
      }
      json.EndArray();
    }
    json.Key("advised");
    json.String(EncodingPolicyName(best.policy));
    json.Key("advised_bytes");
    json.Int(best.stored_bytes);
    json.EndObject();
  }
  json.EndArray();
  json.Key("current_bytes");
  json.Int(now_total);
  json.Key("advised_bytes");
  json.Int(advised_total);
  json.Key("command");
  if (columns.empty()) {
    json.Null();
  } else {
    json.String(RecodeCommand(options.path, columns, options));
  }
  json.EndObject();
  json.Newline();
  return json.FlushTo(stdout);
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
    absl::StatusOr<Compression> chosen = CodecFromText(*codec);
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
  const std::vector<ColumnDescriptor>& descriptors = file.schema().columns();

  std::vector<int> selected;
  for (size_t c = 0; c < descriptors.size(); ++c) {
    if (!options->column || descriptors[c].PathString() == *options->column) {
      selected.push_back(static_cast<int>(c));
    }
  }
  if (options->column && selected.empty()) {
    return UsageError(kCommand, absl::StrCat("no column '", *options->column, "' in ",
                                             options->path, " (see pqpage inspect for the paths)"));
  }
  int64_t total_bytes = 0;
  for (const int c : selected) {
    for (int rg = 0; rg < file.num_row_groups(); ++rg) {
      absl::StatusOr<ColumnChunkLocation> location = file.ColumnChunk(rg, c);
      if (!location.ok()) return FailureExit(kCommand, location.status());
      total_bytes += location->length;
    }
  }
  absl::StatusOr<std::vector<std::string>> arrow_dictionaries =
      ArrowDictionaryColumns(file.key_value_metadata(), file.schema());
  if (arrow_dictionaries.ok()) {
    options->arrow_dictionary_columns = *std::move(arrow_dictionaries);
  } else {
    std::fprintf(stderr, "pqpage %s: warning: %s\n", kCommand,
                 std::string(arrow_dictionaries.status().message()).c_str());
  }
  Progress progress(kCommand, total_bytes);
  int64_t bytes_done = 0;
  std::vector<ColumnAdvice> columns;
  for (const int c : selected) {
    absl::StatusOr<ColumnAdvice> advice = AdviseColumn(file, c, *options, progress, &bytes_done);
    if (!advice.ok()) return FailureExit(kCommand, advice.status());
    columns.push_back(*std::move(advice));
  }
  progress.Clear();
  if (options->json) return PrintJson(columns, *options) ? 0 : 1;
  PrintTable(file, columns, *options);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace pqpage::cli
