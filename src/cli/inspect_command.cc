// pqpage inspect FILE [--json]: everything a Parquet file says about its pages. The footer gives
// the file, row group and column chunk facts; the page walker lists every page header of every
// chunk (index and unknown pages included) and checks CRCs without failing on a bad one; a page
// decoder over the same chunk supplies what v1 headers do not state (nulls and rows per page) and
// shows which pages do not decode.
//
// Output is streamed chunk by chunk: the walk keeps one chunk's page headers, never its data. The
// tables are printed here; the JSON document is the library's (pqpage/inspect_json.h).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/cli_args.h"
#include "cli/cli_inspect_table.h"
#include "cli/cli_orc.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_str.h"
#include "cli/cli_text_table.h"
#include "cli/commands.h"
#include "pqpage/compression.h"
#include "pqpage/file.h"
#include "pqpage/inspect.h"
#include "pqpage/inspect_json.h"
#include "pqpage/page.h"
#include "pqpage/types.h"
#include "pqpage/value_text.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "inspect";

constexpr char kUsage[] =
    "usage: pqpage inspect FILE [--json] [--max-page-size BYTES]\n"
    "\n"
    "Shows how FILE is laid out at the page level: file facts (created_by, rows, row groups, leaf\n"
    "columns with their type and maximum levels, key-value metadata keys), every column chunk\n"
    "(codec, sizes, footer encodings and statistics, and a roll-up of the pages' encodings that\n"
    "shows a dictionary fallback) and every page: offset, header size, type, encoding, level\n"
    "encodings (v1) or level byte lengths (v2), whether it is compressed, values, nulls and rows,\n"
    "compressed and uncompressed sizes, statistics, and whether it has a CRC and the CRC matches.\n"
    "v1 headers do not state nulls and rows: they are counted by decoding the page's levels.\n"
    "\n"
    "options:\n"
    "  --json   one JSON document instead of tables: numbers as numbers, encodings by their spec\n"
    "           names, byte-array statistics as lowercase hex\n" PQPAGE_CLI_MAX_PAGE_SIZE_USAGE
    "\n"
    "An ORC FILE (one that starts with \"ORC\") shows its file version, writer, compression and\n"
    "block size, rows, schema (column ids, kinds, paths) and every stripe: rows, offset and\n"
    "lengths, every stream (column, kind, stored bytes, compression chunks counted from their\n"
    "headers) and the column encodings with dictionary sizes. --json and --mmap apply to ORC.\n"
    "\n"
    "Exit status: 0 when every page could be read and decoded (a CRC mismatch is shown, not\n"
    "fatal), 1 when the file cannot be read or some page could not be read or decoded (each such\n"
    "page is shown with its error), 2 for a usage error.\n";

// ------------------------------------------------------------------ the command

struct Options {
  std::string path;
  bool json = false;
  // The reader itself must not stop at a bad CRC: inspect reports it per page.
  ReaderOptions reader;
};

// Runs the command once the arguments are known; returns the exit status.
int Inspect(const Options& options) {
  absl::StatusOr<std::unique_ptr<FileReader>> opened =
      FileReader::Open(options.path, options.reader);
  if (!opened.ok()) return FailureExit(kCommand, opened.status());
  const FileReader& file = **opened;
  const FileMetaData& metadata = file.metadata();
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  const std::vector<KeyValue>& key_values = file.key_value_metadata();
  FILE* out = stdout;
  int64_t problems = 0;
  bool write_ok = true;
  // Every chunk's report, built on the cores and printed in file order as it comes.
  InspectOptions inspect_options;
  inspect_options.threads =
      static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U, 16U));
  absl::Status inspected;

  if (options.json) {
    InspectJsonOptions json_options;
    json_options.file_name = options.path;
    json_options.threads = inspect_options.threads;
    // A failed write is reported once the document is done, as for the table.
    inspected = WriteInspectJson(
        file, json_options,
        [&](std::string_view piece) {
          write_ok = std::fwrite(piece.data(), 1, piece.size(), out) == piece.size() && write_ok;
          return absl::OkStatus();
        },
        &problems);
  } else {
    std::fprintf(out, "file:            %s\n", Printable(options.path).c_str());
    std::fprintf(out, "size:            %lld bytes (footer %lld bytes)\n",
                 static_cast<long long>(file.source().size()),
                 static_cast<long long>(file.footer_size()));
    std::fprintf(out, "created_by:      %s\n",
                 metadata.created_by ? Printable(file.created_by()).c_str() : "(none)");
    std::fprintf(out, "format version:  %d\n", metadata.version);
    std::fprintf(out, "rows:            %lld\n", static_cast<long long>(file.num_rows()));
    std::fprintf(out, "row groups:      %d\n", file.num_row_groups());
    std::string keys;
    for (const KeyValue& entry : key_values) {
      if (!keys.empty()) keys += ", ";
      keys += Printable(entry.key);
    }
    std::fprintf(out, "key-value keys:  %s\n", keys.empty() ? "(none)" : keys.c_str());
    if (metadata.encryption) {
      std::fprintf(out, "encryption:      %s\n", FileEncryptionText(*metadata.encryption).c_str());
    }
    std::fprintf(out, "\nleaf columns: %zu\n", columns.size());
    Table schema({"#", "path", "type", "max_def", "max_rep"});
    for (size_t c = 0; c < columns.size(); ++c) {
      std::string type = Str(PhysicalTypeName(columns[c].type));
      if (columns[c].type == PhysicalType::kFixedLenByteArray) {
        absl::StrAppend(&type, "(", columns[c].type_length, ")");
      }
      schema.AddRow({absl::StrCat(c), Printable(columns[c].PathString()), type,
                     absl::StrCat(columns[c].max_definition_level),
                     absl::StrCat(columns[c].max_repetition_level)});
    }
    schema.Print(out, 2);
    const std::vector<std::vector<std::string>>& empty_groups = file.schema().empty_groups();
    if (!empty_groups.empty()) {
      std::fprintf(out, "\nempty groups: %zu (groups with no fields: no columns, no data)\n",
                   empty_groups.size());
      for (const std::vector<std::string>& group : empty_groups) {
        std::fprintf(out, "  %s\n", Printable(absl::StrJoin(group, ".")).c_str());
      }
    }
    InspectCallbacks callbacks;
    callbacks.on_row_group = [&](int rg) {
      std::fprintf(out, "\nrow group %d: %lld rows", rg,
                   static_cast<long long>(file.row_group_num_rows(rg)));
      if (static_cast<size_t>(rg) < metadata.row_groups.size()) {
        std::fprintf(
            out, ", total_byte_size %lld",
            static_cast<long long>(metadata.row_groups[static_cast<size_t>(rg)].total_byte_size));
      }
      if (columns.empty()) std::fprintf(out, ", no column chunks (the schema has no leaf columns)");
      std::fprintf(out, "\n");
      return absl::OkStatus();
    };
    callbacks.on_chunk = [&](const InspectedChunk& chunk) {
      problems += chunk.problems();
      PrintChunkTable(out, chunk);
      return absl::OkStatus();
    };
    inspected = InspectFile(file, inspect_options, callbacks);
    if (problems > 0)
      std::fprintf(out, "\n%lld problems found\n", static_cast<long long>(problems));
  }
  if (!inspected.ok()) return FailureExit(kCommand, inspected);
  if (std::fflush(out) != 0 || !write_ok || std::ferror(out)) {
    return FailureExit(kCommand, "cannot write to standard output");
  }
  if (problems > 0) {
    return FailureExit(
        kCommand, absl::StrCat(options.path, ": ", problems,
                               problems == 1 ? " page or column chunk" : " pages or column chunks",
                               " could not be read or decoded (shown in the output)"));
  }
  return 0;
}

}  // namespace

int RunInspect(const std::vector<std::string>& args) {
  const std::vector<OptionSpec> specs =
      WithReaderOptions({{"json", false}}, /*with_checksum_flag=*/false);
  auto parsed = ParseArgs(args, specs);
  if (!parsed.ok()) return UsageError(kCommand, parsed.status());
  if (parsed->Has("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (parsed->positional().size() != 1) {
    return UsageError(kCommand,
                      parsed->positional().empty() ? "missing FILE" : "too many arguments");
  }
  if (IsOrcFile(parsed->positional()[0])) {
    absl::Status rejected = RejectOptionsOutside(*parsed, specs, {"json", "mmap"});
    if (!rejected.ok()) return UsageError(kCommand, rejected);
    return InspectOrc(parsed->positional()[0], parsed->Has("json"), parsed->Has("mmap"));
  }
  Options options;
  options.path = parsed->positional()[0];
  options.json = parsed->Has("json");
  absl::StatusOr<ReaderOptions> reader = ReaderOptionsFrom(*parsed);
  if (!reader.ok()) return UsageError(kCommand, reader.status());
  options.reader = *reader;
  options.reader.verify_checksums = false;
  return Inspect(options);
}

}  // namespace pqpage::cli
