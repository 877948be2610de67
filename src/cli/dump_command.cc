// pqpage dump: the exact physical view of every leaf column, as shared/DUMP_FORMAT.md specifies:
// one JSON object per leaf column and line, levels and present values in page order, dictionaries
// resolved, no logical types applied.
//
// A column's levels come before its values in the object, and nothing may be printed for a column
// that fails half way, so each column's three arrays are collected first. They spill to temporary
// files past a threshold, which keeps memory bounded on files larger than it.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "cli/cli_args.h"
#include "cli/cli_dump_text.h"
#include "cli/cli_orc.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_row_selection.h"
#include "cli/commands.h"
#include "pqpage/file.h"
#include "pqpage/json_writer.h"
#include "pqpage/read_chunks.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {
namespace {

void PrintWarning(const std::string& warning) {
  std::fprintf(stderr, "pqpage dump: warning: %s\n", warning.c_str());
}

template <typename T>
absl::Status AppendValue(const T& value, SpillBuffer* buffer) {
  std::string* out = &buffer->text();
  if constexpr (std::is_same_v<T, bool>) {
    out->append(value ? "true" : "false");
  } else if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
    absl::StrAppend(out, value);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    AppendFloat(value, out);
  } else if constexpr (std::is_same_v<T, Int96>) {
    uint8_t bytes[12];
    std::memcpy(bytes, value.words, sizeof(bytes));
    return AppendHex(bytes, sizeof(bytes), buffer);
  } else {
    return AppendHex(value.data, value.size, buffer);
  }
  return absl::OkStatus();
}

// Prints leaf column `column` of `file` as one line, reading the chunks `selection` picks (its
// columns are set here).
absl::Status DumpColumn(const FileReader& file, int column, ChunkSelection selection, FILE* out) {
  const ColumnDescriptor& descriptor = file.schema().columns()[static_cast<size_t>(column)];
  SpillBuffer definition_text;
  SpillBuffer repetition_text;
  SpillBuffer value_text;
  ArrayWriter definitions(&definition_text);
  ArrayWriter repetitions(&repetition_text);
  ArrayWriter values(&value_text);
  selection.columns = {column};
  PQPAGE_RETURN_IF_ERROR(ReadChunks(
      file, selection,
      [](const SelectedChunk& /*chunk*/, const ColumnChunkReader& /*reader*/) {
        return absl::OkStatus();
      },
      [&](const SelectedChunk& /*chunk*/, const auto& batch,
          const BatchCounts& counts) -> absl::Status {
        if (descriptor.max_definition_level > 0) {
          for (int64_t i = 0; i < counts.levels; ++i) {
            absl::StrAppend(&definitions.Next(), batch.definition_levels[i]);
          }
          PQPAGE_RETURN_IF_ERROR(definition_text.MaybeSpill());
        }
        if (descriptor.max_repetition_level > 0) {
          for (int64_t i = 0; i < counts.levels; ++i) {
            absl::StrAppend(&repetitions.Next(), batch.repetition_levels[i]);
          }
          PQPAGE_RETURN_IF_ERROR(repetition_text.MaybeSpill());
        }
        for (int64_t i = 0; i < counts.values; ++i) {
          values.Next();
          PQPAGE_RETURN_IF_ERROR(AppendValue(batch.values[i], &value_text));
        }
        return value_text.MaybeSpill();
      }));
  std::string head =
      absl::StrCat("{\"path\":\"",
                   absl::StrReplaceAll(descriptor.PathString(), {{"\\", "\\\\"}, {"\"", "\\\""}}),
                   "\",\"type\":\"", PhysicalTypeName(descriptor.type).data(),
                   "\",\"max_def\":", descriptor.max_definition_level,
                   ",\"max_rep\":", descriptor.max_repetition_level);
  std::fputs(head.c_str(), out);
  if (descriptor.max_definition_level > 0) {
    std::fputs(",\"def\":[", out);
    PQPAGE_RETURN_IF_ERROR(definition_text.CopyTo(out));
    std::fputs("]", out);
  }
  if (descriptor.max_repetition_level > 0) {
    std::fputs(",\"rep\":[", out);
    PQPAGE_RETURN_IF_ERROR(repetition_text.CopyTo(out));
    std::fputs("]", out);
  }
  std::fputs(",\"values\":[", out);
  PQPAGE_RETURN_IF_ERROR(value_text.CopyTo(out));
  std::fputs("]}\n", out);
  return absl::OkStatus();
}

constexpr char kUsage[] =
    "usage: pqpage dump FILE [--column PATH] [--rows A:B] [--no-verify-checksums]\n"
    "                        [--max-page-size BYTES]\n\n"
    "Decodes every page of every leaf column (all row groups, in order) and prints one JSON\n"
    "object per leaf column and line:\n"
    "  {\"path\":..,\"type\":..,\"max_def\":..,\"max_rep\":..,\"def\":[..],\"rep\":[..],"
    "\"values\":[..]}\n"
    "def/rep appear when the column has such levels; values holds the present values with\n"
    "dictionaries resolved (booleans, integers, floats in shortest form or \"NaN\"/\"Infinity\"/\n"
    "\"-Infinity\", INT96 and byte arrays as lowercase hex). Page CRCs are verified when "
    "present.\n\n"
    "  --column PATH           only the leaf column with this dotted path\n" PQPAGE_CLI_ROWS_USAGE
    "  --no-verify-checksums   do not check page CRCs\n" PQPAGE_CLI_MAX_PAGE_SIZE_USAGE
    "\n"
    "An ORC FILE (one that starts with \"ORC\") prints the columns outside lists, maps and unions\n"
    "(top-level primitives and the leaves of structs; PATH is dotted, e.g. s.a), with type its\n"
    "ORC kind, max_def its depth and def per row the number of its levels present; DATE as days,\n"
    "TIMESTAMP as nanoseconds since 1970, DECIMAL as a string (\"-12.340\"), strings and binary\n"
    "as hex. --column and --mmap apply to ORC.\n"
    "\n"
    "A group with no fields, or a file with no leaf columns, prints no line; a note on stderr "
    "says\n"
    "so.\n"
    "\n"
    "Exit status: 0 done, 1 a file or page could not be decoded (one line on stderr), 2 usage.\n";

}  // namespace

int RunDump(const std::vector<std::string>& args) {
  const std::vector<OptionSpec> specs = WithReaderOptions({{"column", true}, {"rows", true}});
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, specs);
  if (!parsed.ok()) return UsageError("dump", parsed.status());
  if (parsed->Has("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (parsed->positional().size() != 1) return UsageError("dump", "expects exactly one FILE");
  const std::string& path = parsed->positional()[0];
  const std::string only_column = parsed->Value("column").value_or("");
  if (IsOrcFile(path)) {
    absl::Status rejected = RejectOptionsOutside(*parsed, specs, {"column", "mmap"});
    if (!rejected.ok()) return UsageError("dump", rejected);
    return DumpOrc(path, only_column, parsed->Has("mmap"));
  }
  absl::StatusOr<ReaderOptions> options = ReaderOptionsFrom(*parsed);
  if (!options.ok()) return UsageError("dump", options.status());
  absl::StatusOr<std::optional<RowRange>> rows = RowsFrom(*parsed);
  if (!rows.ok()) return UsageError("dump", rows.status());
  absl::StatusOr<std::unique_ptr<FileReader>> file = FileReader::Open(path, *options);
  if (!file.ok()) return FailureExit("dump", file.status());
  ChunkSelection selection;
  selection.rows = *rows;
  selection.on_warning = PrintWarning;
  const std::vector<ColumnDescriptor>& columns = (*file)->schema().columns();
  if (only_column.empty()) {
    // What holds no leaf column prints no line; stderr says so, so that an empty output is not
    // taken for a file that lost its rows or its groups.
    for (const std::vector<std::string>& group : (*file)->schema().empty_groups()) {
      std::fprintf(stderr, "pqpage dump: %s: group '%s' has no fields, so no column to print\n",
                   path.c_str(), absl::StrJoin(group, ".").c_str());
    }
    if (columns.empty()) {
      std::fprintf(
          stderr, "pqpage dump: %s: no leaf columns; %lld rows in %d row group(s), none to print\n",
          path.c_str(), static_cast<long long>((*file)->num_rows()), (*file)->num_row_groups());
    }
  }
  bool found = only_column.empty();
  for (size_t c = 0; c < columns.size(); ++c) {
    if (!only_column.empty() && columns[c].PathString() != only_column) continue;
    found = true;
    absl::Status status = DumpColumn(**file, static_cast<int>(c), selection, stdout);
    if (!status.ok()) {
      std::fflush(stdout);
      return FailureExit("dump", status);
    }
  }
  if (!found) return FailureExit("dump", path + ": no leaf column '" + only_column + "'");
  if (std::fflush(stdout) != 0) return FailureExit("dump", "cannot write the output");
  return 0;
}

}  // namespace pqpage::cli
