// Scan: one task per column chunk, each decoded into a reusable batch and counted into its own
// slot; the slots are added up in file order, so the report is the same for any thread count.
#include "pqpage/scan.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "file/recode_pipeline.h"
#include "pqpage/column_chunk_reader.h"
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

struct ChunkTask {
  int row_group = 0;
  int column = 0;
  ColumnChunkLocation location;
  ScanTotals totals;
};

}  // namespace

absl::StatusOr<ScanReport> Scan(const FileReader& file, const ScanOptions& options) {
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Scan: threads must be at least 1, not ", options.threads));
  }
  std::vector<std::optional<RowRange>> selected;
  if (options.rows) selected = RowsPerRowGroup(file, *options.rows);
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  const int num_columns = static_cast<int>(columns.size());

  // Every chunk is located before any decoding starts: progress needs the total, and a chunk
  // outside the file is better reported first.
  std::vector<ChunkTask> tasks;
  tasks.reserve(static_cast<size_t>(file.num_row_groups()) * columns.size());
  int64_t total_bytes = 0;
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    if (options.rows && !selected[static_cast<size_t>(rg)]) continue;
    for (int c = 0; c < num_columns; ++c) {
      ChunkTask task;
      task.row_group = rg;
      task.column = c;
      PQPAGE_ASSIGN_OR_RETURN(task.location, file.LocateColumnChunk(rg, c));
      total_bytes += task.location.length;
      tasks.push_back(std::move(task));
    }
  }

  std::mutex progress_mutex;               // progress is told by one thread at a time
  std::atomic<int64_t> finished_bytes{0};  // of the chunks done
  auto scan_task = [&](int64_t index) -> absl::Status {
    ChunkTask& task = tasks[static_cast<size_t>(index)];
    const int rg = task.row_group;
    const int c = task.column;
    auto on_page = [&](int64_t page_offset) {
      if (!options.on_progress) return;
      const std::lock_guard<std::mutex> lock(progress_mutex);
      options.on_progress(FileProgress{rg, file.num_row_groups(), c, num_columns,
                                       finished_bytes.load() + (page_offset - task.location.offset),
                                       total_bytes});
    };
    const std::optional<RowRange> chunk_rows =
        options.rows ? selected[static_cast<size_t>(rg)] : std::nullopt;
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader chunk,
                            chunk_rows
                                ? OpenColumnChunkRows(file, rg, c, *chunk_rows, options.on_warning)
                                : file.OpenColumnChunk(rg, c));
    PQPAGE_RETURN_IF_ERROR(VisitValueType(columns[c].type, [&](auto tag) {
      return ScanChunk<typename decltype(tag)::Type>(chunk, &task.totals, on_page);
    }));
    const int64_t expected_rows =
        chunk_rows ? chunk_rows->end - chunk_rows->begin : file.row_group_num_rows(rg);
    if (task.totals.rows != expected_rows) {
      return absl::DataLossError(absl::StrCat(
          file.name(), ": row group ", rg, ", column '", columns[c].PathString(), "': decoded ",
          task.totals.rows, " rows where ", expected_rows, " were asked for"));
    }
    task.totals.compressed_bytes = task.location.length;
    finished_bytes += task.location.length;
    return absl::OkStatus();
  };
  PQPAGE_RETURN_IF_ERROR(
      internal::RunTasks(options.threads, static_cast<int64_t>(tasks.size()), scan_task));

  ScanReport report;
  report.columns.resize(columns.size());
  for (const ChunkTask& task : tasks) {
    report.columns[static_cast<size_t>(task.column)].Add(task.totals);
    // Every column holds the same rows: they are counted once, from the first.
    ScanTotals counted = task.totals;
    if (task.column != 0) counted.rows = 0;
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
