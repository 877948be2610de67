// Scan: one task per column chunk, or with several threads per run of its pages when the chunk is
// larger than a task's share of the file (page_runs.h), each decoded into a reusable batch and
// counted into its own slot; the slots are added up in file order, so the report is the same for
// any thread count.
#include "pqpage/scan.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "file/located_chunks.h"
#include "file/recode_pipeline.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/page_runs.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_batch.h"
#include "pqpage/value_type.h"

namespace pqpage {

void ScanTotals::Add(const ScanTotals& other) {
  rows += other.rows;
  levels += other.levels;
  values += other.values;
  compressed_bytes += other.compressed_bytes;
  value_bytes += other.value_bytes;
  data_pages += other.data_pages;
}

namespace {

// Reads `reader` to its end; `on_page(offset)` is called with the file offset of each new page.
template <typename T, typename OnPage>
absl::Status ScanChunk(ColumnChunkReader& reader, ScanTotals* totals, OnPage&& on_page) {
  const bool has_rep = reader.column().max_repetition_level > 0;
  ValueBatch<T> batch;
  int64_t last_page = -1;
  while (true) {
    PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts, ReadNextBatch(reader, batch));
    if (counts.levels == 0) break;
    if (reader.page_index() != last_page) {
      last_page = reader.page_index();
      ++totals->data_pages;
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

// One task: a whole chunk, or a run of its pages.
struct ScanTask {
  size_t chunk = 0;              // index into the located chunks
  std::optional<RowRange> rows;  // rows of the row group to read; unset: the whole chunk
  bool first_of_chunk = true;    // the chunk's stored bytes are counted once, here
  int64_t bytes = 0;             // its share of the chunk's stored bytes, for progress
  // The chunk's runs when it was split (shared by its tasks), for OpenPageRun.
  std::shared_ptr<const ChunkRuns> split;
};

// Tasks in file order. With several threads a chunk over a task's share of the file (its bytes
// over 4 x threads, and at least min_run_bytes) is split into runs of pages, each run cut to the
// rows selected.
std::vector<ScanTask> PlanTasks(const FileReader& file,
                                const std::vector<internal::LocatedChunk>& chunks,
                                const std::vector<std::optional<RowRange>>& selected, int threads,
                                int64_t min_run_bytes, int64_t total_bytes) {
  const int64_t share = std::max(min_run_bytes, total_bytes / (4 * int64_t{threads}));
  std::vector<ScanTask> tasks;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const internal::LocatedChunk& located = chunks[i];
    const std::optional<RowRange> chunk_rows =
        selected.empty() ? std::nullopt : selected[static_cast<size_t>(located.row_group)];
    const int64_t length = located.location.length;
    const int64_t wanted =
        threads > 1 ? std::min<int64_t>(4 * int64_t{threads}, length / share) : 1;
    std::shared_ptr<const ChunkRuns> split;
    if (wanted > 1) {
      // A chunk that cannot be split is read whole, and its decoding reports any damage, so the
      // error is the one a single thread meets.
      absl::StatusOr<ChunkRuns> runs =
          SplitIntoPageRuns(file, located.row_group, located.column, static_cast<int>(wanted));
      if (runs.ok() && runs->runs.size() > 1) {
        split = std::make_shared<const ChunkRuns>(*std::move(runs));
      }
    }
    if (split == nullptr) {
      tasks.push_back(ScanTask{i, chunk_rows, true, length, nullptr});
      continue;
    }
    const size_t first = tasks.size();
    int64_t assigned = 0;
    for (const PageRun& run : split->runs) {
      RowRange rows = run.rows;
      if (chunk_rows) {
        rows.begin = std::max(rows.begin, chunk_rows->begin);
        rows.end = std::min(rows.end, chunk_rows->end);
        if (rows.begin >= rows.end) continue;
      }
      tasks.push_back(ScanTask{i, rows, tasks.size() == first, run.stored_bytes, split});
      assigned += run.stored_bytes;
    }
    // The dictionary page belongs to no run: its bytes go to the last task, for progress.
    tasks.back().bytes += length - assigned;
  }
  return tasks;
}

}  // namespace

absl::StatusOr<ScanReport> Scan(const FileReader& file, const ScanOptions& options) {
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Scan: threads must be at least 1, not ", options.threads));
  }
  if (options.min_run_bytes < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Scan: min_run_bytes must be at least 1, not ", options.min_run_bytes));
  }
  std::vector<std::optional<RowRange>> selected;
  if (options.rows) selected = RowsPerRowGroup(file, *options.rows);
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  const int num_columns = static_cast<int>(columns.size());

  std::vector<int> row_groups;
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    if (!options.rows || selected[static_cast<size_t>(rg)]) row_groups.push_back(rg);
  }
  PQPAGE_ASSIGN_OR_RETURN(
      const std::vector<internal::LocatedChunk> chunks,
      internal::LocateChunks(file, row_groups, internal::AllIndices(num_columns)));
  const int64_t total_bytes = internal::TotalLength(chunks);
  const std::vector<ScanTask> tasks =
      PlanTasks(file, chunks, selected, options.threads, options.min_run_bytes, total_bytes);
  std::vector<ScanTotals> task_totals(tasks.size());  // one slot per task

  std::mutex progress_mutex;               // progress is told by one thread at a time
  std::atomic<int64_t> finished_bytes{0};  // of the tasks done
  auto scan_task = [&](int64_t index) -> absl::Status {
    const ScanTask& task = tasks[static_cast<size_t>(index)];
    const internal::LocatedChunk& located = chunks[task.chunk];
    ScanTotals& totals = task_totals[static_cast<size_t>(index)];
    const int rg = located.row_group;
    const int c = located.column;
    int64_t task_start = -1;  // file offset of the task's first page
    auto on_page = [&](int64_t page_offset) {
      if (!options.on_progress) return;
      if (task_start < 0)
        task_start = task.split != nullptr ? page_offset : located.location.offset;
      const std::lock_guard<std::mutex> lock(progress_mutex);
      options.on_progress(FileProgress{
          rg, file.num_row_groups(), c, num_columns,
          finished_bytes.load() + std::clamp<int64_t>(page_offset - task_start, 0, task.bytes),
          total_bytes});
    };
    absl::StatusOr<ColumnChunkReader> opened =
        task.split != nullptr ? OpenPageRun(file, rg, c, *task.split, *task.rows)
        : task.rows           ? OpenColumnChunkRows(file, rg, c, *task.rows, options.on_warning)
                              : file.OpenColumnChunk(rg, c);
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader chunk, std::move(opened));
    PQPAGE_RETURN_IF_ERROR(VisitValueType(columns[c].type, [&](auto tag) {
      return ScanChunk<typename decltype(tag)::Type>(chunk, &totals, on_page);
    }));
    const int64_t expected_rows =
        task.rows ? task.rows->end - task.rows->begin : file.row_group_num_rows(rg);
    if (totals.rows != expected_rows) {
      return absl::DataLossError(absl::StrCat(file.name(), ": row group ", rg, ", column '",
                                              columns[c].PathString(), "': decoded ", totals.rows,
                                              " rows where ", expected_rows, " were asked for"));
    }
    if (task.first_of_chunk) totals.compressed_bytes = located.location.length;
    finished_bytes += task.bytes;
    return absl::OkStatus();
  };
  PQPAGE_RETURN_IF_ERROR(
      internal::RunTasks(options.threads, static_cast<int64_t>(tasks.size()), scan_task));

  ScanReport report;
  report.columns.resize(columns.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    const int column = chunks[tasks[i].chunk].column;
    report.columns[static_cast<size_t>(column)].Add(task_totals[i]);
    // Every column holds the same rows: they are counted once, from the first.
    ScanTotals counted = task_totals[i];
    if (column != 0) counted.rows = 0;
    report.file.Add(counted);
  }
  if (num_columns == 0) {
    // No column holds the rows: the row groups' counts (of the rows asked for) are all there is.
    for (int rg = 0; rg < file.num_row_groups(); ++rg) {
      if (!options.rows) {
        report.file.rows += file.row_group_num_rows(rg);
      } else if (const std::optional<RowRange>& range = selected[static_cast<size_t>(rg)]) {
        report.file.rows += range->end - range->begin;
      }
    }
  }
  return report;
}

}  // namespace pqpage
