// pqpage scan FILE: decodes every page of every column, keeping nothing, and reports how much was
// decoded and how fast. It measures the page decoder as an engine would drive it: one reusable
// batch buffer per column, levels and values together, never a whole column chunk in memory.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/cli_args.h"
#include "cli/cli_counting_source.h"
#include "cli/cli_parallel.h"
#include "cli/cli_progress.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_row_selection.h"
#include "cli/cli_values.h"
#include "cli/commands.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "scan";

constexpr char kUsage[] =
    "usage: pqpage scan FILE [--per-column] [--rows A:B] [--threads N] [--no-verify-checksums]\n"
    "                  [--max-page-size BYTES]\n"
    "\n"
    "Decodes every page of every column of FILE (levels and values, dictionaries resolved)\n"
    "without printing them, and reports what was decoded and how fast:\n"
    "  rows, levels and non-null values; compressed bytes read (the column chunks' lengths)\n"
    "  and decoded value bytes; the bytes read from the file (not with --mmap); elapsed\n"
    "  seconds and MB/s (1 MB = 10^6 bytes).\n"
    "Every column's row count is checked against its row group's. Column chunks are decoded\n"
    "in parallel; the figures do not depend on --threads, and neither does which error is\n"
    "reported (the first in file order).\n"
    "\n"
    "options:\n"
    "  --per-column            also print one line of figures per leaf "
    "column\n" PQPAGE_CLI_ROWS_USAGE PQPAGE_CLI_THREADS_USAGE
    "  --no-verify-checksums   do not check page CRCs\n" PQPAGE_CLI_MAX_PAGE_SIZE_USAGE
    "\n"
    "Exit status: 0 when every page decoded, 1 when the file cannot be read or a page cannot be\n"
    "decoded, 2 for a usage error.\n";

struct Totals {
  int64_t rows = 0;
  int64_t levels = 0;
  int64_t values = 0;
  int64_t compressed_bytes = 0;
  int64_t value_bytes = 0;
  int64_t pages = 0;

  void Add(const Totals& other) {
    rows += other.rows;
    levels += other.levels;
    values += other.values;
    compressed_bytes += other.compressed_bytes;
    value_bytes += other.value_bytes;
    pages += other.pages;
  }
};

// `on_page(offset)` is called with the file offset of each new page, for the progress line.
template <typename T, typename OnPage>
absl::Status ScanChunk(ColumnChunkReader& reader, Totals* totals, OnPage&& on_page) {
  const ColumnDescriptor& column = reader.column();
  const bool has_rep = column.max_repetition_level > 0;
  Batch<T> batch;
  int64_t last_page = -1;
  while (true) {
    PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts, ReadNextBatch(reader, batch));
    if (counts.levels == 0) break;
    if (reader.page_index() != last_page) {
      last_page = reader.page_index();
      ++totals->pages;
      on_page(reader.page().offset);
    }
    totals->levels += counts.levels;
    totals->values += counts.values;
    if (has_rep) {
      for (int64_t i = 0; i < counts.levels; ++i) {
        totals->rows += batch.repetition_levels[i] == 0 ? 1 : 0;
      }
    } else {
      totals->rows += counts.levels;
    }
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (int64_t i = 0; i < counts.values; ++i) totals->value_bytes += batch.values[i].size;
    } else {
      totals->value_bytes += counts.values * static_cast<int64_t>(sizeof(T));
    }
  }
  return absl::OkStatus();
}

std::string FormatRate(int64_t bytes, double seconds) {
  if (seconds <= 0) return "-";
  return absl::StrFormat("%.1f MB/s", static_cast<double>(bytes) / seconds / 1e6);
}

}  // namespace

int RunScan(const std::vector<std::string>& args) {
  auto parsed = ParseArgs(
      args, WithThreadsOption(WithReaderOptions({{"per-column", false}, {"rows", true}})));
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

  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<ByteSource>> opened =
      options->memory_map ? OpenMappedFileByteSource(path) : OpenFileByteSource(path);
  if (!opened.ok()) return FailureExit(kCommand, opened.status());
  auto counting = std::make_unique<CountingByteSource>(*std::move(opened));
  const CountingByteSource& source = *counting;
  auto reader = FileReader::Open(std::move(counting), path, *options);
  if (!reader.ok()) return FailureExit(kCommand, reader.status());
  const FileReader& file = **reader;
  std::vector<std::optional<RowRange>> selected;
  if (*rows) selected = RowsPerRowGroup(file, **rows);
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  const int num_columns = static_cast<int>(columns.size());

  // One task per column chunk, each located before any decoding starts: the progress line needs
  // the total, and a chunk outside the file is better reported first. Each task fills its own
  // slot; the slots are added up in file order afterwards, so the output is the same for every
  // thread count.
  struct ChunkTask {
    int row_group = 0;
    int column = 0;
    ColumnChunkLocation location;
    Totals totals;
  };
  std::vector<ChunkTask> tasks;
  tasks.reserve(static_cast<size_t>(file.num_row_groups()) * columns.size());
  int64_t total_chunk_bytes = 0;
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    if (*rows && !selected[static_cast<size_t>(rg)]) continue;
    for (int c = 0; c < num_columns; ++c) {
      auto location = file.ColumnChunk(rg, c);
      if (!location.ok()) return FailureExit(kCommand, location.status());
      total_chunk_bytes += location->length;
      ChunkTask task;
      task.row_group = rg;
      task.column = c;
      task.location = *std::move(location);
      tasks.push_back(std::move(task));
    }
  }

  Progress progress(kCommand, total_chunk_bytes);
  std::mutex progress_mutex;               // the progress line is drawn by one thread at a time
  std::atomic<int64_t> finished_bytes{0};  // of the chunks done
  auto scan_task = [&](int64_t index) -> absl::Status {
    ChunkTask& task = tasks[static_cast<size_t>(index)];
    const int rg = task.row_group;
    const int c = task.column;
    auto on_page = [&](int64_t page_offset) {
      if (!progress.enabled()) return;
      const std::lock_guard<std::mutex> lock(progress_mutex);
      progress.Update(rg, file.num_row_groups(), c, num_columns,
                      finished_bytes.load() + (page_offset - task.location.offset));
    };
    const std::optional<RowRange> chunk_rows =
        *rows ? selected[static_cast<size_t>(rg)] : std::nullopt;
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader chunk,
                            chunk_rows ? OpenRowsOfChunk(kCommand, file, rg, c, *chunk_rows)
                                       : file.OpenColumnChunk(rg, c));
    PQPAGE_RETURN_IF_ERROR(VisitValueType(columns[c].type, [&](auto tag) {
      return ScanChunk<typename decltype(tag)::Type>(chunk, &task.totals, on_page);
    }));
    const int64_t expected_rows =
        chunk_rows ? chunk_rows->end - chunk_rows->begin : file.row_group_num_rows(rg);
    if (task.totals.rows != expected_rows) {
      return absl::DataLossError(absl::StrCat(
          path, ": row group ", rg, ", column '", columns[c].PathString(), "': decoded ",
          task.totals.rows, " rows where ", expected_rows, " were asked for"));
    }
    task.totals.compressed_bytes = task.location.length;
    finished_bytes += task.location.length;
    return absl::OkStatus();
  };
  absl::Status status = RunTasks(threads, static_cast<int64_t>(tasks.size()), scan_task);
  progress.Clear();
  if (!status.ok()) return FailureExit(kCommand, status);

  Totals file_totals;
  std::vector<Totals> column_totals(columns.size());
  for (const ChunkTask& task : tasks) {
    column_totals[task.column].Add(task.totals);
    // Every column holds the same rows: they are counted once, from the first.
    Totals counted = task.totals;
    if (task.column != 0) counted.rows = 0;
    file_totals.Add(counted);
  }
  if (num_columns == 0) {
    // No column holds the rows: the row groups' counts (of the rows asked for) are all there is.
    for (int rg = 0; rg < file.num_row_groups(); ++rg) {
      if (!*rows) {
        file_totals.rows += file.row_group_num_rows(rg);
      } else if (const std::optional<RowRange>& range = selected[static_cast<size_t>(rg)]) {
        file_totals.rows += range->end - range->begin;
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("file: %s\n", path.c_str());
  std::printf("row groups: %d, leaf columns: %d, data pages: %lld\n", file.num_row_groups(),
              num_columns, static_cast<long long>(file_totals.pages));
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
      const Totals& t = column_totals[c];
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
