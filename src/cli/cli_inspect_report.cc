#include "cli/cli_inspect_report.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cli/cli_inspect_page_index.h"
#include "pqpage/page_header_iterator.h"
#include "pqpage/value_batch.h"
#include "pqpage/value_type.h"

namespace pqpage::cli {
namespace {

std::string StatusText(const absl::Status& status) { return std::string(status.message()); }

// Lists the chunk's pages with the page walker. CRCs are computed but a mismatch is not an error,
// so a damaged CRC shows as "not valid" and the walk goes on.
void WalkPages(const FileReader& file, ChunkReport* report) {
  ReaderOptions options = file.options();
  options.verify_checksums = false;
  PageHeaderIterator walker(&file.source(), *report->location, report->descriptor->PathString(),
                            options);
  while (true) {
    absl::StatusOr<bool> next = walker.Next();
    if (!next.ok()) {
      report->errors.push_back(StatusText(next.status()));
      return;
    }
    if (!*next) return;
    PageRecord record;
    record.info = walker.page();
    report->pages.push_back(std::move(record));
  }
}

// Decodes every data page's levels and values to count what v1 headers leave out (nulls, rows)
// and to find pages that do not decode. The reader numbers pages as the walker does, so records
// are matched by index. After an error the reader's state is unknown, so decoding stops there.
template <typename T>
void DecodePages(ColumnChunkReader& reader, ChunkReport* report) {
  const ColumnDescriptor& column = reader.column();
  const bool has_def = column.max_definition_level > 0;
  const bool has_rep = column.max_repetition_level > 0;
  ValueBatch<T> batch;
  std::vector<PageRecord>& pages = report->pages;
  int64_t last_index = -1;

  // An error while moving to the next page belongs to the first page after the last one decoded
  // that the reader had yet to read: a data page, or the dictionary page if the reader holds no
  // dictionary. With none left it concerns the chunk as a whole.
  const auto attribute = [&](const absl::Status& status) {
    const bool dictionary_read = reader.dictionary_page() != nullptr;
    for (size_t i = static_cast<size_t>(last_index + 1); i < pages.size(); ++i) {
      const bool dictionary = pages[i].info.type_id == static_cast<int>(PageType::kDictionaryPage);
      if (pages[i].is_data_page() || (dictionary && !dictionary_read)) {
        pages[i].error = StatusText(status);
        return;
      }
    }
    const std::string text = StatusText(status);
    // The walker stops at the same unreadable header; one report of it is enough.
    if (std::find(report->errors.begin(), report->errors.end(), text) == report->errors.end()) {
      report->errors.push_back(text);
    }
  };

  while (true) {
    absl::StatusOr<bool> next = reader.NextDataPage();
    if (!next.ok()) {
      attribute(next.status());
      return;
    }
    if (!*next) return;
    last_index = reader.page_index();
    PageRecord* record = last_index >= 0 && static_cast<size_t>(last_index) < pages.size()
                             ? &pages[last_index]
                             : nullptr;
    int64_t levels = 0;
    int64_t nulls = 0;
    int64_t rows = 0;
    while (reader.levels_left_in_page() > 0) {
      const int64_t ask = std::min(kValueBatchLevels, reader.levels_left_in_page());
      absl::StatusOr<BatchCounts> counts =
          reader.ReadBatch<T>(has_def ? batch.definitions().first(ask) : absl::Span<int16_t>(),
                              has_rep ? batch.repetitions().first(ask) : absl::Span<int16_t>(),
                              batch.value_span().first(ask));
      if (!counts.ok()) {
        if (record != nullptr) {
          record->error = StatusText(counts.status());
        } else {
          report->errors.push_back(StatusText(counts.status()));
        }
        return;
      }
      if (counts->levels == 0) break;  // no progress: the page is done as far as the reader knows
      levels += counts->levels;
      if (has_def) {
        for (int64_t i = 0; i < counts->levels; ++i) {
          nulls += batch.definition_levels[i] < column.max_definition_level ? 1 : 0;
        }
      }
      if (has_rep) {
        for (int64_t i = 0; i < counts->levels; ++i)
          rows += batch.repetition_levels[i] == 0 ? 1 : 0;
      } else {
        rows += counts->levels;
      }
    }
    if (record != nullptr) {
      record->decoded = true;
      record->decoded_levels = levels;
      record->decoded_nulls = nulls;
      record->decoded_rows = rows;
    }
  }
}

}  // namespace

ChunkReport GatherChunk(const FileReader& file, int row_group, int column) {
  ChunkReport report;
  report.row_group = row_group;
  report.column = column;
  report.descriptor = &file.schema().columns()[column];
  const FileMetaData& metadata = file.metadata();
  if (static_cast<size_t>(row_group) < metadata.row_groups.size() &&
      static_cast<size_t>(column) < metadata.row_groups[row_group].columns.size()) {
    report.footer = &metadata.row_groups[row_group].columns[column];
  }
  absl::StatusOr<ColumnChunkLocation> location = file.LocateColumnChunk(row_group, column);
  if (!location.ok()) {
    report.errors.push_back(StatusText(location.status()));
    return report;
  }
  report.location = *location;
  WalkPages(file, &report);

  absl::StatusOr<ColumnChunkReader> reader = file.OpenColumnChunk(row_group, column);
  if (!reader.ok()) {
    report.errors.push_back(StatusText(reader.status()));
    return report;
  }
  VisitValueType(report.descriptor->type,
                 [&](auto tag) { DecodePages<typename decltype(tag)::Type>(*reader, &report); });
  GatherPageIndex(file, &report);
  return report;
}

}  // namespace pqpage::cli
