// pqpage lookup FILE COLUMN VALUE: which row groups, pages and rows of one column may hold one
// value, and what ruled out the others (LookupValue and FindRows in pqpage/lookup.h; the JSON
// document is the library's LookupJson).
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/cli_args.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_str.h"
#include "cli/commands.h"
#include "pqpage/file.h"
#include "pqpage/lookup.h"
#include "pqpage/value_text.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "lookup";

constexpr char kUsage[] =
    "usage: pqpage lookup FILE COLUMN VALUE [VALUE...] [options]\n"
    "\n"
    "Finds the row groups and pages of column COLUMN (a path as 'pqpage inspect' prints it)\n"
    "that may hold VALUE, testing each row group by its statistics, then its bloom filter,\n"
    "then its page index, and says which test ruled out each of the others. VALUE is written\n"
    "as the column's type reads: a number, 2026-01-31 for a DATE, RFC 3339 for a TIMESTAMP\n"
    "(2026-01-31T12:00:00Z), 12.50 for a DECIMAL, text for a string, 0x and hex digits for\n"
    "other binary values. Several values are looked up in one pass: each row group's filter and\n"
    "index are read once.\n"
    "\n"
    "options:\n"
    "  --rows                  also read the rows left and list those that hold VALUE\n"
    "  --hex                   VALUE is the hex of its stored (PLAIN) bytes, as dump prints\n"
    "                          byte arrays; for numbers, little-endian\n"
    "  --json                  one JSON object instead of the text (an array of them for\n"
    "                          several values)\n"
    "  --no-verify-checksums   do not check FILE's page CRCs\n" PQPAGE_CLI_MAX_PAGE_SIZE_USAGE
    "\n"
    "Exit status: 0 on success (whether or not VALUE was found), 1 when FILE cannot be read, 2\n"
    "for a usage error.\n";

std::string RangesText(const std::vector<RowRange>& ranges) {
  std::string out;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (i == 8) {
      absl::StrAppend(&out, ", ... (", ranges.size(), " ranges)");
      break;
    }
    absl::StrAppend(&out, i == 0 ? "" : ", ", ranges[i].begin, "..", ranges[i].end);
  }
  return out;
}

void PrintLookup(const ValueLookup& lookup, const std::string& path, const std::string& value_text,
                 const std::vector<int64_t>* found) {
  int may_hold = 0;
  int64_t rows_to_read = 0;
  for (const RowGroupLookup& group : lookup.row_groups) {
    may_hold += group.rows.empty() ? 0 : 1;
    for (const RowRange& range : group.rows) rows_to_read += range.end - range.begin;
  }
  std::printf("column '%s', value %s: %d of %zu row group%s may hold it, %lld rows to read\n",
              Printable(path).c_str(), Printable(value_text).c_str(), may_hold,
              lookup.row_groups.size(), lookup.row_groups.size() == 1 ? "" : "s",
              static_cast<long long>(rows_to_read));
  for (const RowGroupLookup& group : lookup.row_groups) {
    std::string tests = absl::StrCat("statistics ", Str(LookupCheckName(group.statistics)));
    if (group.bloom_filter != LookupCheck::kNotRun) {
      absl::StrAppend(&tests, ", bloom filter ", Str(LookupCheckName(group.bloom_filter)));
    }
    if (group.page_index != LookupCheck::kNotRun) {
      absl::StrAppend(&tests, ", page index ", Str(LookupCheckName(group.page_index)));
      if (group.pages > 0) {
        absl::StrAppend(&tests, " (", group.pages_may_hold, " of ", group.pages, " pages)");
      }
    }
    std::printf("  row group %d (%lld rows): %s%s%s\n", group.row_group,
                static_cast<long long>(group.num_rows), tests.c_str(),
                group.rows.empty() ? "" : "; rows ", RangesText(group.rows).c_str());
  }
  if (found != nullptr) {
    std::string rows;
    for (size_t i = 0; i < found->size() && i < 20; ++i) {
      absl::StrAppend(&rows, i == 0 ? "" : ", ", (*found)[i]);
    }
    if (found->size() > 20) absl::StrAppend(&rows, ", ...");
    std::printf("found in %zu row%s%s%s\n", found->size(), found->size() == 1 ? "" : "s",
                found->empty() ? "" : ": ", rows.c_str());
  }
}

}  // namespace

int RunLookup(const std::vector<std::string>& args) {
  auto parsed =
      ParseArgs(args, WithReaderOptions({{"rows", false}, {"hex", false}, {"json", false}}));
  if (!parsed.ok()) return UsageError(kCommand, parsed.status());
  if (parsed->Has("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const std::vector<std::string>& positional = parsed->positional();
  if (positional.size() < 3) return UsageError(kCommand, "needs FILE, COLUMN and VALUE");
  absl::StatusOr<ReaderOptions> reader_options = ReaderOptionsFrom(*parsed);
  if (!reader_options.ok()) return UsageError(kCommand, reader_options.status());
  auto opened = FileReader::Open(positional[0], *reader_options);
  if (!opened.ok()) return FailureExit(kCommand, opened.status());
  const FileReader& file = **opened;
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  const int column = file.schema().FindColumn(positional[1]).value_or(-1);
  if (column < 0) {
    return UsageError(kCommand, absl::StrCat("no column '", positional[1], "' in ", positional[0],
                                             " (see pqpage inspect for the paths)"));
  }
  const std::vector<std::string> texts(positional.begin() + 2, positional.end());
  std::vector<std::string> values;
  for (const std::string& text : texts) {
    absl::StatusOr<std::string> value = parsed->Has("hex") ? ParsePlainHex(columns[column], text)
                                                           : ParseValueText(columns[column], text);
    if (!value.ok()) {
      return UsageError(kCommand,
                        absl::StrCat("column '", positional[1], "': ", value.status().message()));
    }
    values.push_back(*std::move(value));
  }
  const auto warn = [](const std::string& warning) {
    std::fprintf(stderr, "pqpage %s: warning: %s\n", kCommand, warning.c_str());
  };
  absl::StatusOr<std::vector<ValueLookup>> lookups = LookupValues(file, column, values, warn);
  if (!lookups.ok()) return FailureExit(kCommand, lookups.status());
  const bool rows = parsed->Has("rows");
  std::vector<std::vector<int64_t>> found;
  for (const ValueLookup& lookup : *lookups) {
    if (!rows) break;
    absl::StatusOr<std::vector<int64_t>> found_rows = FindRows(file, lookup, warn);
    if (!found_rows.ok()) return FailureExit(kCommand, found_rows.status());
    found.push_back(*std::move(found_rows));
  }
  if (parsed->Has("json")) {
    const std::string document = lookups->size() == 1
                                     ? LookupJson(file, (*lookups)[0], rows ? &found[0] : nullptr)
                                     : LookupJson(file, *lookups, rows ? &found : nullptr);
    return std::fwrite(document.data(), 1, document.size(), stdout) == document.size() ? 0 : 1;
  }
  for (size_t i = 0; i < lookups->size(); ++i) {
    PrintLookup((*lookups)[i], positional[1], texts[i], rows ? &found[i] : nullptr);
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace pqpage::cli
