// pqpage scan FILE: decodes every page of every column, keeping nothing, and reports how much was
// decoded and how fast. It measures the page decoder as an engine would drive it: one reusable
// batch buffer per column, levels and values together, never a whole column chunk in memory.
// With --arrow it reads the file through OpenArrowStream instead and releases each record batch,
// so that the cost of assembling Arrow arrays is measured apart from the decoding alone.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "cli/cli_args.h"
#include "cli/cli_counting_source.h"
#include "cli/cli_parallel.h"
#include "cli/cli_progress.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_row_selection.h"
#include "cli/commands.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/arrow_reader.h"
#include "pqpage/file.h"
#include "pqpage/scan.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "scan";

constexpr char kUsage[] =
    "usage: pqpage scan FILE [--per-column] [--rows A:B] [--threads N] [--no-verify-checksums]\n"
    "                  [--max-page-size BYTES]\n"
    "       pqpage scan FILE --arrow [--columns PATH,...] [--rows A:B] [--threads N]\n"
    "                  [--batch-rows N] [--batch-bytes BYTES] [--no-verify-checksums]\n"
    "                  [--max-page-size BYTES]\n"
    "\n"
    "Decodes every page of every column of FILE (levels and values, dictionaries resolved)\n"
    "without printing them, and reports what was decoded and how fast:\n"
    "  rows, levels and non-null values; compressed bytes read (the column chunks' lengths)\n"
    "  and decoded value bytes; the bytes read from the file (not with --mmap); elapsed\n"
    "  seconds and MB/s (1 MB = 10^6 bytes).\n"
    "Every column's row count is checked against its row group's. Column chunks are decoded\n"
    "in parallel, and a chunk over 1 MiB that is more than its share of the work is split\n"
    "into runs of pages decoded side by side. The figures do not depend on --threads, but\n"
    "for the bytes read (each run reads the dictionary page, and a chunk without an offset\n"
    "index has its page headers read once more to find where pages start), and neither does\n"
    "which error is reported (the first in file order).\n"
    "With --arrow, FILE is read as Arrow record batches instead (OpenArrowStream, the C Data\n"
    "Interface), each batch released once built (its columns read side by side on --threads);\n"
    "it prints the rows, the batches, the bytes read and the elapsed seconds: what assembling\n"
    "Arrow arrays costs on top of decoding.\n"
    "\n"
    "options:\n"
    "  --per-column            also print one line of figures per leaf "
    "column\n" PQPAGE_CLI_ROWS_USAGE PQPAGE_CLI_THREADS_USAGE
    "  --no-verify-checksums   do not check page CRCs\n"
    "  --arrow                 read through the Arrow reader (not with --per-column)\n"
    "  --columns PATH,...      with --arrow: only these fields (paths of names joined by '.';\n"
    "                          a group's path takes every field under it)\n"
    "  --batch-rows N          with --arrow: rows per record batch at most (default 65536)\n"
    "  --batch-bytes BYTES     with --arrow: value bytes per record batch at most, fewer rows\n"
    "                          when they would pass it (K, M, G suffixes; 0: no bound;\n"
    "                          default 4M)\n" PQPAGE_CLI_MAX_PAGE_SIZE_USAGE
    "\n"
    "Exit status: 0 when every page decoded, 1 when the file cannot be read or a page cannot be\n"
    "decoded, 2 for a usage error.\n";

std::string FormatRate(int64_t bytes, double seconds) {
  if (seconds <= 0) return "-";
  return absl::StrFormat("%.1f MB/s", static_cast<double>(bytes) / seconds / 1e6);
}

// scan --arrow: every record batch of `file` through OpenArrowStream, each released as soon as it
// is built (its arrays are not looked at: the cost is in building them).
int ScanArrow(std::shared_ptr<const FileReader> file, const CountingByteSource& source,
              bool memory_map, const ArrowReadOptions& options,
              std::chrono::steady_clock::time_point start) {
  const std::string path = file->name();
  ArrowArrayStream stream{};
  const absl::Status opened = OpenArrowStream(std::move(file), options, &stream);
  if (!opened.ok()) return FailureExit(kCommand, opened);
  int64_t rows = 0;
  int64_t batches = 0;
  while (true) {
    ArrowArray batch{};
    if (stream.get_next(&stream, &batch) != 0) {
      const char* error = stream.get_last_error(&stream);
      const std::string message = error != nullptr ? error : "reading a batch failed";
      stream.release(&stream);
      return FailureExit(kCommand, message);
    }
    if (batch.release == nullptr) break;
    rows += batch.length;
    ++batches;
    batch.release(&batch);
  }
  // The stream owns the file and its source: read the source's counts before releasing it.
  const int64_t bytes_read = source.bytes_read();
  const int64_t file_size = source.size();
  stream.release(&stream);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("file: %s\n", path.c_str());
  std::printf("rows: %lld\n", static_cast<long long>(rows));
  std::printf("arrow batches: %lld\n", static_cast<long long>(batches));
  if (memory_map) {
    std::printf("file bytes read: - (mapped)\n");
  } else {
    std::printf("file bytes read: %lld of %lld\n", static_cast<long long>(bytes_read),
                static_cast<long long>(file_size));
  }
  std::printf("elapsed: %.6f s\n", seconds);
  if (std::fflush(stdout) != 0) return FailureExit(kCommand, "cannot write to standard output");
  return 0;
}

}  // namespace

int RunScan(const std::vector<std::string>& args) {
  auto parsed = ParseArgs(args, WithThreadsOption(WithReaderOptions({{"per-column", false},
                                                                     {"rows", true},
                                                                     {"arrow", false},
                                                                     {"columns", true},
                                                                     {"batch-rows", true},
                                                                     {"batch-bytes", true}})));
  if (!parsed.ok()) return UsageError(kCommand, parsed.status());
  if (parsed->Has("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (parsed->positional().size() != 1) {
    return UsageError(kCommand,
                      parsed->positional().empty() ? "missing FILE" : "too many arguments");
  }
  const std::string& path = parsed->positional()[0];
  const bool per_column = parsed->Has("per-column");
  absl::StatusOr<ReaderOptions> options = ReaderOptionsFrom(*parsed);
  if (!options.ok()) return UsageError(kCommand, options.status());
  absl::StatusOr<int> threads_option = ThreadsFrom(*parsed);
  if (!threads_option.ok()) return UsageError(kCommand, threads_option.status());
  const int threads = *threads_option;
  absl::StatusOr<std::optional<RowRange>> rows = RowsFrom(*parsed);
  if (!rows.ok()) return UsageError(kCommand, rows.status());
  const bool arrow = parsed->Has("arrow");
  for (const char* arrow_only : {"columns", "batch-rows", "batch-bytes"}) {
    if (parsed->Has(arrow_only) && !arrow) {
      return UsageError(kCommand, absl::StrCat("--", arrow_only, " needs --arrow"));
    }
  }
  if (arrow && per_column) return UsageError(kCommand, "--per-column does not apply to --arrow");

  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<ByteSource>> opened =
      options->memory_map ? OpenMappedFileByteSource(path) : OpenFileByteSource(path);
  if (!opened.ok()) return FailureExit(kCommand, opened.status());
  auto counting = std::make_unique<CountingByteSource>(*std::move(opened));
  const CountingByteSource& source = *counting;
  auto reader = FileReader::Open(std::move(counting), path, *options);
  if (!reader.ok()) return FailureExit(kCommand, reader.status());
  if (arrow) {
    ArrowReadOptions arrow_options;
    arrow_options.rows = *rows;
    arrow_options.threads = threads;
    if (const std::optional<std::string> columns = parsed->Value("columns")) {
      arrow_options.columns = absl::StrSplit(*columns, ',');
    }
    if (const std::optional<std::string> text = parsed->Value("batch-rows")) {
      absl::StatusOr<int64_t> batch_rows =
          ParseIntegerOption("batch-rows", *text, 1, std::numeric_limits<int64_t>::max());
      if (!batch_rows.ok()) return UsageError(kCommand, batch_rows.status());
      arrow_options.batch_rows = *batch_rows;
    }
    if (const std::optional<std::string> text = parsed->Value("batch-bytes")) {
      absl::StatusOr<int64_t> batch_bytes =
          ParseByteSizeOption("batch-bytes", *text, 0, std::numeric_limits<int64_t>::max());
      if (!batch_bytes.ok()) return UsageError(kCommand, batch_bytes.status());
      arrow_options.batch_bytes = *batch_bytes;
    }
    return ScanArrow(std::shared_ptr<const FileReader>(*std::move(reader)), source,
                     options->memory_map, arrow_options, start);
  }
  const FileReader& file = **reader;
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  const int num_columns = static_cast<int>(columns.size());

  Progress progress(kCommand);
  ScanOptions scan_options;
  scan_options.threads = threads;
  scan_options.rows = *rows;
  if (progress.enabled()) {
    scan_options.on_progress = [&](const FileProgress& at) { progress.Show(at); };
  }
  scan_options.on_warning = [](const std::string& warning) {
    std::fprintf(stderr, "pqpage %s: warning: %s\n", kCommand, warning.c_str());
  };
  absl::StatusOr<ScanReport> report = Scan(file, scan_options);
  progress.Clear();
  if (!report.ok()) return FailureExit(kCommand, report.status());
  const ScanTotals& file_totals = report->file;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("file: %s\n", path.c_str());
  std::printf("row groups: %d, leaf columns: %d, data pages: %lld\n", file.num_row_groups(),
              num_columns, static_cast<long long>(file_totals.data_pages));
  std::printf("rows: %lld\n", static_cast<long long>(file_totals.rows));
  std::printf("levels: %lld\n", static_cast<long long>(file_totals.levels));
  std::printf("values: %lld (non-null)\n", static_cast<long long>(file_totals.values));
  std::printf("compressed bytes: %lld\n", static_cast<long long>(file_totals.compressed_bytes));
  std::printf("decoded value bytes: %lld\n", static_cast<long long>(file_totals.value_bytes));
  if (options->memory_map) {
    std::printf("file bytes read: - (mapped)\n");
  } else {
    std::printf("file bytes read: %lld of %lld\n", static_cast<long long>(source.bytes_read()),
                static_cast<long long>(source.size()));
  }
  std::printf("elapsed: %.6f s\n", seconds);
  std::printf("throughput: %s compressed, %s decoded\n",
              FormatRate(file_totals.compressed_bytes, seconds).c_str(),
              FormatRate(file_totals.value_bytes, seconds).c_str());
  if (per_column) {
    int path_width = 6;
    for (const ColumnDescriptor& column : columns) {
      path_width = std::max(path_width, static_cast<int>(column.PathString().size()));
    }
    std::printf("\n%-*s  %-20s %12s %12s %14s %14s\n", path_width, "column", "type", "levels",
                "values", "compressed", "value bytes");
    for (int c = 0; c < num_columns; ++c) {
      const ScanTotals& t = report->columns[static_cast<size_t>(c)];
      std::printf(
          "%-*s  %-20s %12lld %12lld %14lld %14lld\n", path_width, columns[c].PathString().c_str(),
          std::string(PhysicalTypeName(columns[c].type)).c_str(), static_cast<long long>(t.levels),
          static_cast<long long>(t.values), static_cast<long long>(t.compressed_bytes),
          static_cast<long long>(t.value_bytes));
    }
  }
  if (std::fflush(stdout) != 0) return FailureExit(kCommand, "cannot write to standard output");
  return 0;
}

}  // namespace pqpage::cli
