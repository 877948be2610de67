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
#include "file/located_chunks.h"
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

  std::vector<int> row_groups;
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    if (!options.rows || selected[static_cast<size_t>(rg)]) row_groups.push_back(rg);
  }
  PQPAGE_ASSIGN_OR_RETURN(
      const std::vector<internal::LocatedChunk> chunks,
      internal::LocateChunks(file, row_groups, internal::AllIndices(num_columns)));
  const int64_t total_bytes = internal::TotalLength(chunks);
  std::vector<ScanTotals> chunk_totals(chunks.size());  // one slot per task

  std::mutex progress_mutex;               // progress is told by one thread at a time
  std::atomic<int64_t> finished_bytes{0};  // of the chunks done
  auto scan_task = [&](int64_t index) -> absl::Status {
    const internal::LocatedChunk& located = chunks[static_cast<size_t>(index)];
    ScanTotals& totals = chunk_totals[static_cast<size_t>(index)];
    const int rg = located.row_group;
    const int c = located.column;
    auto on_page = [&](int64_t page_offset) {
      if (!options.on_progress) return;
      const std::lock_guard<std::mutex> lock(progress_mutex);
      options.on_progress(FileProgress{
          rg, file.num_row_groups(), c, num_columns,
          finished_bytes.load() + (page_offset - located.location.offset), total_bytes});
    };
    const std::optional<RowRange> chunk_rows =
        options.rows ? selected[static_cast<size_t>(rg)] : std::nullopt;
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader chunk,
                            chunk_rows
                                ? OpenColumnChunkRows(file, rg, c, *chunk_rows, options.on_warning)
                                : file.OpenColumnChunk(rg, c));
    PQPAGE_RETURN_IF_ERROR(VisitValueType(columns[c].type, [&](auto tag) {
      return ScanChunk<typename decltype(tag)::Type>(chunk, &totals, on_page);
    }));
    const int64_t expected_rows =
        chunk_rows ? chunk_rows->end - chunk_rows->begin : file.row_group_num_rows(rg);
    if (totals.rows != expected_rows) {
      return absl::DataLossError(absl::StrCat(file.name(), ": row group ", rg, ", column '",
                                              columns[c].PathString(), "': decoded ", totals.rows,
                                              " rows where ", expected_rows, " were asked for"));
    }
    totals.compressed_bytes = located.location.length;
    finished_bytes += located.location.length;
    return absl::OkStatus();
  };
  PQPAGE_RETURN_IF_ERROR(
      internal::RunTasks(options.threads, static_cast<int64_t>(chunks.size()), scan_task));

  ScanReport report;
  report.columns.resize(columns.size());
  for (size_t i = 0; i < chunks.size(); ++i) {
    report.columns[static_cast<size_t>(chunks[i].column)].Add(chunk_totals[i]);
    // Every column holds the same rows: they are counted once, from the first.
    ScanTotals counted = chunk_totals[i];
    if (chunks[i].column != 0) counted.rows = 0;
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
