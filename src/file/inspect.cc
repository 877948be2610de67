// Inspect: a chunk's pages listed by the page walker, then decoded by the page decoder to count
// what v1 headers leave out, then its page index checked against them (inspect_page_index.cc).
// The whole-file pass inspects a window of chunks at a time on several threads and hands the
// reports on in file order, so memory holds at most one window of page headers. Last, the names a
// report's encoding mix and page index order go by, in the tool's table and JSON alike.
#include "pqpage/inspect.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "file/inspect_page_index.h"
#include "file/recode_pipeline.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/page_header_iterator.h"
#include "pqpage/read_chunks.h"
#include "pqpage/status_macros.h"
#include "pqpage/types.h"
#include "pqpage/value_batch.h"
#include "pqpage/value_text.h"
#include "pqpage/value_type.h"

namespace pqpage {

bool InspectedPage::is_data_page() const {
  return info.type_id == static_cast<int>(PageType::kDataPage) ||
         info.type_id == static_cast<int>(PageType::kDataPageV2);
}

bool InspectedPage::is_dictionary_page() const {
  return info.type_id == static_cast<int>(PageType::kDictionaryPage);
}

std::optional<int64_t> InspectedPage::nulls() const {
  if (info.num_nulls) return *info.num_nulls;
  if (decoded) return decoded_nulls;
  return std::nullopt;
}

std::optional<int64_t> InspectedPage::rows() const {
  if (info.num_rows) return *info.num_rows;
  if (decoded) return decoded_rows;
  return std::nullopt;
}

int64_t InspectedChunk::page_problems() const {
  return std::count_if(pages.begin(), pages.end(),
                       [](const InspectedPage& page) { return !page.error.empty(); });
}

std::vector<size_t> InspectedChunk::DataPageNumbers() const {
  std::vector<size_t> numbers;
  for (size_t i = 0; i < pages.size(); ++i) {
    if (pages[i].is_data_page()) numbers.push_back(i);
  }
  return numbers;
}

std::vector<PageEncodingCount> InspectedChunk::EncodingMix() const {
  std::vector<PageEncodingCount> mix;
  for (const InspectedPage& page : pages) {
    PageEncodingCount key;
    key.page_type_id = page.info.type_id;
    if (page.is_data_page() || page.is_dictionary_page()) key.encoding = page.info.encoding;
    auto it = std::find_if(mix.begin(), mix.end(), [&](const PageEncodingCount& entry) {
      return entry.page_type_id == key.page_type_id && entry.encoding == key.encoding;
    });
    if (it == mix.end()) {
      key.count = 1;
      mix.push_back(key);
    } else {
      ++it->count;
    }
  }
  return mix;
}

bool InspectedChunk::DictionaryFallback() const {
  bool seen_dictionary_data = false;
  for (const InspectedPage& page : pages) {
    if (!page.is_data_page()) continue;
    const bool dictionary = page.info.encoding == Encoding::kRleDictionary ||
                            page.info.encoding == Encoding::kPlainDictionary;
    if (dictionary) {
      seen_dictionary_data = true;
    } else if (seen_dictionary_data) {
      return true;
    }
  }
  return false;
}

namespace {

std::string StatusText(const absl::Status& status) { return std::string(status.message()); }

// Lists the chunk's pages with the page walker. CRCs are computed but a mismatch is not an error,
// so a damaged CRC shows as "not valid" and the walk goes on.
void WalkPages(const FileReader& file, InspectedChunk* report) {
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
    InspectedPage record;
    record.info = walker.page();
    report->pages.push_back(std::move(record));
  }
}

// Decodes every data page's levels and values to count what v1 headers leave out (nulls, rows)
// and to find pages that do not decode. The reader numbers pages as the walker does, so records
// are matched by index. After an error the reader's state is unknown, so decoding stops there.
template <typename T>
void DecodePages(ColumnChunkReader& reader, InspectedChunk* report) {
  const ColumnDescriptor& column = reader.column();
  const bool has_def = column.max_definition_level > 0;
  const bool has_rep = column.max_repetition_level > 0;
  ValueBatch<T> batch;
  std::vector<InspectedPage>& pages = report->pages;
  int64_t last_index = -1;

  // An error while moving to the next page belongs to the first page after the last one decoded
  // that the reader had yet to read: a data page, or the dictionary page if the reader holds no
  // dictionary. With none left it concerns the chunk as a whole.
  const auto attribute = [&](const absl::Status& status) {
    const bool dictionary_read = reader.dictionary_page() != nullptr;
    for (size_t i = static_cast<size_t>(last_index + 1); i < pages.size(); ++i) {
      if (pages[i].is_data_page() || (pages[i].is_dictionary_page() && !dictionary_read)) {
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
    InspectedPage* record = last_index >= 0 && static_cast<size_t>(last_index) < pages.size()
                                ? &pages[static_cast<size_t>(last_index)]
                                : nullptr;
    int64_t levels = 0;
    int64_t nulls = 0;
    int64_t rows = 0;
    while (reader.levels_left_in_page() > 0) {
      // Asks for no more than the page holds, so that a batch never runs into the next page.
      const auto ask =
          static_cast<size_t>(std::min(kValueBatchLevels, reader.levels_left_in_page()));
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
        for (int64_t i = 0; i < counts->levels; ++i) {
          rows += batch.repetition_levels[i] == 0 ? 1 : 0;
        }
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

// The report of a chunk known to be inside the file's row groups and schema.
InspectedChunk BuildReport(const FileReader& file, int row_group, int column) {
  InspectedChunk report;
  report.row_group = row_group;
  report.column = column;
  report.descriptor = &file.schema().columns()[static_cast<size_t>(column)];
  const FileMetaData& metadata = file.metadata();
  const auto group = static_cast<size_t>(row_group);
  if (group < metadata.row_groups.size() &&
      static_cast<size_t>(column) < metadata.row_groups[group].columns.size()) {
    report.footer = &metadata.row_groups[group].columns[static_cast<size_t>(column)];
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
  internal::CheckPageIndex(file, &report);
  absl::StatusOr<std::optional<BloomFilter>> filter = file.ReadBloomFilter(row_group, column);
  if (!filter.ok()) {
    report.bloom_filter_error = std::string(filter.status().message());
  } else if (filter->has_value()) {
    report.bloom_filter_bytes = (*filter)->num_bytes();
  }
  return report;
}

}  // namespace

absl::StatusOr<InspectedChunk> InspectChunk(const FileReader& file, int row_group, int column) {
  if (row_group < 0 || row_group >= file.num_row_groups() || column < 0 ||
      static_cast<size_t>(column) >= file.schema().columns().size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        file.name(), ": no column chunk (", row_group, ", ", column, ") in ", file.num_row_groups(),
        " row groups of ", file.schema().columns().size(), " columns"));
  }
  return BuildReport(file, row_group, column);
}

absl::Status InspectFile(const FileReader& file, const InspectOptions& options,
                         const InspectCallbacks& callbacks) {
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("inspect needs at least 1 thread, not ", options.threads));
  }
  ChunkSelection selection;
  selection.columns = options.columns;
  PQPAGE_ASSIGN_OR_RETURN(const std::vector<SelectedChunk> chunks, SelectChunks(file, selection));
  // The chunks a window at a time: built on the threads, then handed on in file order. Row groups
  // are announced as their first chunk comes (all of them when the schema has no leaf column).
  const auto window = static_cast<size_t>(options.threads);
  std::vector<InspectedChunk> reports(std::min(window, chunks.size()));
  int announced = 0;
  const auto announce_through = [&](int row_group) -> absl::Status {
    for (; announced <= row_group; ++announced) {
      if (callbacks.on_row_group) PQPAGE_RETURN_IF_ERROR(callbacks.on_row_group(announced));
    }
    return absl::OkStatus();
  };
  for (size_t first = 0; first < chunks.size(); first += window) {
    const size_t count = std::min(window, chunks.size() - first);
    PQPAGE_RETURN_IF_ERROR(internal::RunTasks(
        options.threads, static_cast<int64_t>(count), [&](int64_t i) -> absl::Status {
          const SelectedChunk& chunk = chunks[first + static_cast<size_t>(i)];
          reports[static_cast<size_t>(i)] = BuildReport(file, chunk.row_group, chunk.column);
          return absl::OkStatus();
        }));
    for (size_t slot = 0; slot < count; ++slot) {
      PQPAGE_RETURN_IF_ERROR(announce_through(reports[slot].row_group));
      if (callbacks.on_chunk) PQPAGE_RETURN_IF_ERROR(callbacks.on_chunk(std::move(reports[slot])));
    }
  }
  PQPAGE_RETURN_IF_ERROR(announce_through(file.num_row_groups() - 1));
  return absl::OkStatus();
}

std::string MixPageType(const PageEncodingCount& entry) {
  return PageTypeIdName(entry.page_type_id);
}

std::string MixEncoding(const PageEncodingCount& entry) {
  return entry.encoding ? std::string(EncodingName(*entry.encoding)) : std::string();
}

std::string EncodingSummary(const InspectedChunk& chunk) {
  std::string out;
  for (const PageEncodingCount& entry : chunk.EncodingMix()) {
    if (!out.empty()) out += ", ";
    absl::StrAppend(&out, MixPageType(entry), entry.encoding ? "/" : "", MixEncoding(entry), " x",
                    entry.count);
  }
  if (out.empty()) out = "(no pages)";
  if (chunk.DictionaryFallback()) out += " (dictionary fallback)";
  return out;
}

const char* BoundaryOrderName(BoundaryOrder order) {
  if (order == BoundaryOrder::kAscending) return "ASCENDING";
  if (order == BoundaryOrder::kDescending) return "DESCENDING";
  return "UNORDERED";
}

absl::StatusOr<std::vector<InspectedChunk>> InspectFile(const FileReader& file,
                                                        const InspectOptions& options) {
  std::vector<InspectedChunk> reports;
  InspectCallbacks callbacks;
  callbacks.on_chunk = [&](InspectedChunk chunk) {
    reports.push_back(std::move(chunk));
    return absl::OkStatus();
  };
  PQPAGE_RETURN_IF_ERROR(InspectFile(file, options, callbacks));
  return reports;
}

}  // namespace pqpage
