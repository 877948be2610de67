// pqpage inspect FILE [--json]: everything a Parquet file says about its pages. The footer gives
// the file, row group and column chunk facts; the page walker lists every page header of every
// chunk (index and unknown pages included) and checks CRCs without failing on a bad one; a page
// decoder over the same chunk supplies what v1 headers do not state (nulls and rows per page) and
// shows which pages do not decode.
//
// Output is streamed chunk by chunk: the walk keeps one chunk's page headers, never its data.
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
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/cli_args.h"
#include "cli/cli_json_writer.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_value_text.h"
#include "cli/cli_values.h"
#include "cli/commands.h"
#include "metadata/page_header.h"
#include "page/page_walker.h"
#include "parquet_types.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/compression.h"
#include "pqpage/file.h"
#include "pqpage/page.h"
#include "pqpage/types.h"

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
    "Exit status: 0 when every page could be read and decoded (a CRC mismatch is shown, not\n"
    "fatal), 1 when the file cannot be read or some page could not be read or decoded (each such\n"
    "page is shown with its error), 2 for a usage error.\n";

// ------------------------------------------------------------------ gathering

struct PageRecord {
  PageInfo info;
  int page_type_id = 0;  // the header's type, which may be one pqpage does not know
  std::optional<bool> dictionary_sorted;  // DICTIONARY_PAGE's is_sorted, when set
  // Levels, nulls and rows counted by decoding (data pages whose levels decoded).
  bool decoded = false;
  int64_t decoded_levels = 0;
  int64_t decoded_nulls = 0;
  int64_t decoded_rows = 0;
  std::string error;  // why this page could not be decoded

  bool is_data_page() const {
    return page_type_id == static_cast<int>(PageType::kDataPage) ||
           page_type_id == static_cast<int>(PageType::kDataPageV2);
  }
  // What the page says or was found to hold; nullopt when neither is known.
  std::optional<int64_t> nulls() const {
    if (info.num_nulls) return *info.num_nulls;
    if (decoded) return decoded_nulls;
    return std::nullopt;
  }
  std::optional<int64_t> rows() const {
    if (info.num_rows) return *info.num_rows;
    if (decoded) return decoded_rows;
    return std::nullopt;
  }
};

struct EncodingCount {
  std::string label;  // "DATA_PAGE/PLAIN"
  std::string page_type;
  std::string encoding;  // empty for pages without one (index pages)
  int64_t count = 0;
};

struct ChunkReport {
  int row_group = 0;
  int column = 0;
  const ColumnDescriptor* descriptor = nullptr;
  const format::ColumnChunk* footer = nullptr;  // null when the footer has no entry
  std::optional<ColumnChunkLocation> location;
  std::vector<PageRecord> pages;
  std::vector<std::string> errors;  // problems not tied to one listed page

  int64_t page_problems() const {
    int64_t n = 0;
    for (const PageRecord& page : pages) n += page.error.empty() ? 0 : 1;
    return n;
  }

  // The encoding mix over the chunk's pages, in order of first appearance.
  std::vector<EncodingCount> EncodingMix() const {
    std::vector<EncodingCount> mix;
    for (const PageRecord& page : pages) {
      EncodingCount key;
      key.page_type = PageTypeIdName(page.page_type_id);
      const bool has_encoding =
          page.is_data_page() || page.page_type_id == static_cast<int>(PageType::kDictionaryPage);
      if (has_encoding) key.encoding = Str(EncodingName(page.info.encoding));
      key.label = has_encoding ? absl::StrCat(key.page_type, "/", key.encoding) : key.page_type;
      auto it = std::find_if(mix.begin(), mix.end(),
                             [&](const EncodingCount& e) { return e.label == key.label; });
      if (it == mix.end()) {
        key.count = 1;
        mix.push_back(std::move(key));
      } else {
        ++it->count;
      }
    }
    return mix;
  }

  // A data page encoded with something other than the dictionary after one that used it: the
  // writer's dictionary filled up and the chunk fell back.
  bool DictionaryFallback() const {
    bool seen_dictionary_data = false;
    for (const PageRecord& page : pages) {
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

  std::string EncodingSummary() const {
    std::string out;
    for (const EncodingCount& entry : EncodingMix()) {
      if (!out.empty()) out += ", ";
      absl::StrAppend(&out, entry.label, " x", entry.count);
    }
    if (out.empty()) out = "(no pages)";
    if (DictionaryFallback()) out += " (dictionary fallback)";
    return out;
  }
};

std::string StatusText(const absl::Status& status) { return std::string(status.message()); }

// Lists the chunk's pages with the page walker. CRCs are computed but a mismatch is not an error,
// so a damaged CRC shows as "not valid" and the walk goes on.
void WalkPages(const FileReader& file, ChunkReport* report) {
  ReaderOptions options = file.options();
  options.verify_checksums = false;
  internal::PageWalker walker(&file.source(), *report->location, report->descriptor->PathString(),
                              options);
  while (true) {
    absl::StatusOr<bool> next = walker.Next();
    if (!next.ok()) {
      report->errors.push_back(StatusText(next.status()));
      return;
    }
    if (!*next) return;
    PageRecord record;
    record.info = walker.info();
    record.page_type_id = static_cast<int>(walker.header().type);
    if (walker.header().__isset.dictionary_page_header &&
        walker.header().dictionary_page_header.__isset.is_sorted) {
      record.dictionary_sorted = walker.header().dictionary_page_header.is_sorted;
    }
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
  Batch<T> batch;
  std::vector<PageRecord>& pages = report->pages;
  int64_t last_index = -1;

  // An error while moving to the next page belongs to the first page after the last one decoded
  // that the reader had yet to read: a data page, or the dictionary page if the reader holds no
  // dictionary. With none left it concerns the chunk as a whole.
  const auto attribute = [&](const absl::Status& status) {
    const bool dictionary_read = reader.dictionary_page() != nullptr;
    for (size_t i = static_cast<size_t>(last_index + 1); i < pages.size(); ++i) {
      const bool dictionary = pages[i].page_type_id == static_cast<int>(PageType::kDictionaryPage);
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
      const int64_t ask = std::min(kBatchLevels, reader.levels_left_in_page());
      absl::StatusOr<BatchCounts> counts = reader.ReadBatch<T>(
          ask, has_def ? batch.definition_levels.get() : nullptr,
          has_rep ? batch.repetition_levels.get() : nullptr, batch.values.get());
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

ChunkReport GatherChunk(const FileReader& file, int row_group, int column) {
  ChunkReport report;
  report.row_group = row_group;
  report.column = column;
  report.descriptor = &file.schema().columns()[column];
  const format::FileMetaData& metadata = file.metadata();
  if (static_cast<size_t>(row_group) < metadata.row_groups.size() &&
      static_cast<size_t>(column) < metadata.row_groups[row_group].columns.size()) {
    report.footer = &metadata.row_groups[row_group].columns[column];
  }
  absl::StatusOr<ColumnChunkLocation> location = file.ColumnChunk(row_group, column);
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
  return report;
}

// ------------------------------------------------------------------ JSON output

void WritePageJson(JsonWriter& json, PhysicalType type, const PageRecord& page) {
  const PageInfo& info = page.info;
  json.BeginObject(/*single_line=*/true);
  json.Key("offset");
  json.Int(info.offset);
  json.Key("header_size");
  json.Int(info.header_size);
  json.Key("type");
  json.String(PageTypeIdName(page.page_type_id));
  const bool is_dictionary = page.page_type_id == static_cast<int>(PageType::kDictionaryPage);
  if (page.is_data_page() || is_dictionary) {
    json.Key("encoding");
    json.String(EncodingName(info.encoding));
  }
  if (info.type == PageType::kDataPage && page.is_data_page()) {
    json.Key("definition_level_encoding");
    json.String(EncodingName(info.definition_level_encoding));
    json.Key("repetition_level_encoding");
    json.String(EncodingName(info.repetition_level_encoding));
  } else if (info.type == PageType::kDataPageV2) {
    json.Key("definition_levels_byte_length");
    json.Int(info.definition_levels_byte_length);
    json.Key("repetition_levels_byte_length");
    json.Int(info.repetition_levels_byte_length);
  }
  json.Key("is_compressed");
  json.Bool(info.is_compressed);
  if (page.is_data_page() || is_dictionary) {
    json.Key("num_values");
    json.Int(info.num_values);
  }
  if (is_dictionary && page.dictionary_sorted) {
    json.Key("is_sorted");
    json.Bool(*page.dictionary_sorted);
  }
  if (page.is_data_page()) {
    const auto optional_count = [&](const char* key, std::optional<int64_t> value) {
      json.Key(key);
      if (value) {
        json.Int(*value);
      } else {
        json.Null();
      }
    };
    optional_count("num_nulls", page.nulls());
    optional_count("num_rows", page.rows());
    // Where nulls and rows come from: the v2 header, or counting the decoded levels.
    json.Key("counts_from");
    json.String(info.num_rows ? "header" : page.decoded ? "levels" : "unknown");
  }
  json.Key("compressed_page_size");
  json.Int(info.compressed_page_size);
  json.Key("uncompressed_page_size");
  json.Int(info.uncompressed_page_size);
  if (info.statistics) {
    json.Key("statistics");
    WriteStatisticsJson(json, type, *info.statistics);
  }
  json.Key("crc_present");
  json.Bool(info.has_crc);
  json.Key("crc_valid");
  if (info.has_crc && info.crc_checked) {
    json.Bool(info.crc_valid);
  } else {
    json.Null();
  }
  if (!page.error.empty()) {
    json.Key("error");
    json.String(page.error);
  }
  json.EndObject();
}

void WriteChunkJson(JsonWriter& json, const ChunkReport& chunk) {
  const ColumnDescriptor& column = *chunk.descriptor;
  json.BeginObject();
  json.Key("column");
  json.Int(chunk.column);
  json.Key("path");
  json.String(column.PathString());
  json.Key("type");
  json.String(PhysicalTypeName(column.type));
  if (chunk.footer != nullptr && chunk.footer->__isset.file_path) {
    json.Key("file_path");
    json.String(chunk.footer->file_path);
  }
  if (chunk.footer != nullptr && chunk.footer->__isset.meta_data) {
    const format::ColumnMetaData& meta = chunk.footer->meta_data;
    json.Key("codec");
    json.String(CodecIdName(static_cast<int>(meta.codec)));
    json.Key("num_values");
    json.Int(meta.num_values);
    json.Key("total_compressed_size");
    json.Int(meta.total_compressed_size);
    json.Key("total_uncompressed_size");
    json.Int(meta.total_uncompressed_size);
    json.Key("data_page_offset");
    json.Int(meta.data_page_offset);
    if (meta.__isset.dictionary_page_offset) {
      json.Key("dictionary_page_offset");
      json.Int(meta.dictionary_page_offset);
    }
    json.Key("encodings");
    json.BeginArray(/*single_line=*/true);
    for (const auto encoding : meta.encodings)
      json.String(EncodingIdName(static_cast<int>(encoding)));
    json.EndArray();
    if (meta.__isset.encoding_stats) {
      json.Key("encoding_stats");
      json.BeginArray();
      for (const format::PageEncodingStats& stats : meta.encoding_stats) {
        json.BeginObject(/*single_line=*/true);
        json.Key("page_type");
        json.String(PageTypeIdName(static_cast<int>(stats.page_type)));
        json.Key("encoding");
        json.String(EncodingIdName(static_cast<int>(stats.encoding)));
        json.Key("count");
        json.Int(stats.count);
        json.EndObject();
      }
      json.EndArray();
    }
    if (meta.__isset.statistics) {
      json.Key("statistics");
      WriteStatisticsJson(json, column.type, internal::StatisticsFromThrift(meta.statistics));
    }
  }
  if (chunk.location) {
    json.Key("offset");
    json.Int(chunk.location->offset);
    json.Key("length");
    json.Int(chunk.location->length);
  }
  json.Key("num_pages");
  json.Int(static_cast<int64_t>(chunk.pages.size()));
  json.Key("page_encodings");
  json.BeginArray();
  for (const EncodingCount& entry : chunk.EncodingMix()) {
    json.BeginObject(/*single_line=*/true);
    json.Key("page_type");
    json.String(entry.page_type);
    if (!entry.encoding.empty()) {
      json.Key("encoding");
      json.String(entry.encoding);
    }
    json.Key("count");
    json.Int(entry.count);
    json.EndObject();
  }
  json.EndArray();
  json.Key("page_encoding_summary");
  json.String(chunk.EncodingSummary());
  json.Key("dictionary_fallback");
  json.Bool(chunk.DictionaryFallback());
  json.Key("pages");
  json.BeginArray();
  for (const PageRecord& page : chunk.pages) WritePageJson(json, column.type, page);
  json.EndArray();
  if (!chunk.errors.empty()) {
    json.Key("errors");
    json.BeginArray();
    for (const std::string& error : chunk.errors) json.String(error);
    json.EndArray();
  }
  json.EndObject();
}

// ------------------------------------------------------------------ table output

// Prints rows as aligned columns; columns holding numbers are right-aligned (with their "-" and
// "?" placeholders). Notes (a page's statistics or error) go on their own lines under their row.
class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back({std::move(header), {}}); }
  void AddRow(std::vector<std::string> cells) { rows_.push_back({std::move(cells), {}}); }
  void AddNote(std::string note) { rows_.back().notes.push_back(std::move(note)); }

  void Print(FILE* out, int indent) const {
    std::vector<size_t> widths;
    std::vector<bool> numeric;
    for (size_t r = 0; r < rows_.size(); ++r) {
      const Row& row = rows_[r];
      if (widths.size() < row.cells.size()) {
        widths.resize(row.cells.size(), 0);
        numeric.resize(row.cells.size(), false);
      }
      for (size_t i = 0; i < row.cells.size(); ++i) {
        widths[i] = std::max(widths[i], row.cells[i].size());
        if (r > 0 && IsNumber(row.cells[i])) numeric[i] = true;
      }
    }
    for (const Row& row : rows_) {
      std::string line(indent, ' ');
      for (size_t i = 0; i < row.cells.size(); ++i) {
        const std::string& cell = row.cells[i];
        const size_t pad = widths[i] - cell.size();
        const bool last = i + 1 == row.cells.size();
        if (numeric[i]) {
          line.append(pad, ' ');
          line += cell;
        } else {
          line += cell;
          if (!last) line.append(pad, ' ');
        }
        if (!last) line += "  ";
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      std::fprintf(out, "%s\n", line.c_str());
      for (const std::string& note : row.notes) {
        std::fprintf(out, "%*s%s\n", indent + 4, "", note.c_str());
      }
    }
  }

 private:
  struct Row {
    std::vector<std::string> cells;
    std::vector<std::string> notes;
  };
  // Numbers, and "?" (a count that is not known).
  static bool IsNumber(const std::string& cell) {
    if (cell == "?") return true;
    return !cell.empty() && cell != "-" && std::all_of(cell.begin(), cell.end(), [](char c) {
      return (c >= '0' && c <= '9') || c == '-';
    });
  }
  std::vector<Row> rows_;
};

std::string OptionalCount(std::optional<int64_t> value) {
  return value ? absl::StrCat(*value) : "?";
}

void PrintChunkTable(FILE* out, const ChunkReport& chunk) {
  const ColumnDescriptor& column = *chunk.descriptor;
  std::fprintf(out, "\n  column %d '%s' %s", chunk.column, Printable(column.PathString()).c_str(),
               Str(PhysicalTypeName(column.type)).c_str());
  if (column.type == PhysicalType::kFixedLenByteArray) {
    std::fprintf(out, "(%d)", column.type_length);
  }
  const format::ColumnMetaData* meta = chunk.footer != nullptr && chunk.footer->__isset.meta_data
                                           ? &chunk.footer->meta_data
                                           : nullptr;
  if (meta != nullptr) {
    std::fprintf(out, ": %s, %lld values, %lld bytes (%lld uncompressed)",
                 CodecIdName(static_cast<int>(meta->codec)).c_str(),
                 static_cast<long long>(meta->num_values),
                 static_cast<long long>(meta->total_compressed_size),
                 static_cast<long long>(meta->total_uncompressed_size));
  }
  if (chunk.location) {
    std::fprintf(out, " at offset %lld", static_cast<long long>(chunk.location->offset));
  }
  std::fprintf(out, "\n");
  if (chunk.footer != nullptr && chunk.footer->__isset.file_path) {
    std::fprintf(out, "    file_path:  %s\n", Printable(chunk.footer->file_path).c_str());
  }
  if (meta != nullptr) {
    std::string encodings;
    for (const auto encoding : meta->encodings) {
      if (!encodings.empty()) encodings += ", ";
      encodings += EncodingIdName(static_cast<int>(encoding));
    }
    std::fprintf(out, "    footer encodings: %s\n", encodings.c_str());
    if (meta->__isset.encoding_stats) {
      std::string stats;
      for (const format::PageEncodingStats& entry : meta->encoding_stats) {
        if (!stats.empty()) stats += ", ";
        absl::StrAppend(&stats, PageTypeIdName(static_cast<int>(entry.page_type)), "/",
                        EncodingIdName(static_cast<int>(entry.encoding)), " x", entry.count);
      }
      std::fprintf(out, "    footer encoding stats: %s\n", stats.c_str());
    }
    if (meta->__isset.statistics) {
      std::fprintf(out, "    statistics: %s\n",
                   Printable(FormatStatisticsText(column.type,
                                                  internal::StatisticsFromThrift(meta->statistics)))
                       .c_str());
    }
  }
  std::fprintf(out, "    pages: %s\n", chunk.EncodingSummary().c_str());

  if (!chunk.pages.empty()) {
    Table table({"page", "offset", "header", "type", "encoding", "levels (def/rep)", "compressed",
                 "values", "nulls", "rows", "stored", "uncompressed", "crc"});
    for (size_t i = 0; i < chunk.pages.size(); ++i) {
      const PageRecord& page = chunk.pages[i];
      const PageInfo& info = page.info;
      const bool is_dictionary = page.page_type_id == static_cast<int>(PageType::kDictionaryPage);
      std::string levels = "-";
      if (info.type == PageType::kDataPage && page.is_data_page()) {
        levels = absl::StrCat(Str(EncodingName(info.definition_level_encoding)), "/",
                              Str(EncodingName(info.repetition_level_encoding)));
      } else if (info.type == PageType::kDataPageV2) {
        levels = absl::StrCat(info.definition_levels_byte_length, "/",
                              info.repetition_levels_byte_length, " bytes");
      }
      std::string crc = "-";
      if (info.has_crc) crc = !info.crc_checked ? "unchecked" : info.crc_valid ? "ok" : "BAD";
      table.AddRow({absl::StrCat(i), absl::StrCat(info.offset), absl::StrCat(info.header_size),
                    PageTypeIdName(page.page_type_id),
                    page.is_data_page() || is_dictionary ? Str(EncodingName(info.encoding)) : "-",
                    levels, info.is_compressed ? "yes" : "no",
                    page.is_data_page() || is_dictionary ? absl::StrCat(info.num_values) : "-",
                    page.is_data_page() ? OptionalCount(page.nulls()) : "-",
                    page.is_data_page() ? OptionalCount(page.rows()) : "-",
                    absl::StrCat(info.compressed_page_size),
                    absl::StrCat(info.uncompressed_page_size), crc});
      if (info.statistics) {
        table.AddNote(absl::StrCat("statistics: ",
                                   Printable(FormatStatisticsText(column.type, *info.statistics))));
      }
      if (is_dictionary && page.dictionary_sorted) {
        table.AddNote(absl::StrCat("is_sorted: ", *page.dictionary_sorted ? "true" : "false"));
      }
      if (!page.error.empty()) table.AddNote("error: " + Printable(page.error));
    }
    table.Print(out, 4);
  }
  for (const std::string& error : chunk.errors) {
    std::fprintf(out, "    error: %s\n", Printable(error).c_str());
  }
}

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
  const format::FileMetaData& metadata = file.metadata();
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  const std::vector<KeyValue> key_values = file.key_value_metadata();
  FILE* out = stdout;
  int64_t problems = 0;
  bool write_ok = true;

  if (options.json) {
    JsonWriter json;
    json.BeginObject();
    json.Key("file");
    json.String(options.path);
    json.Key("file_size");
    json.Int(file.source().size());
    json.Key("footer_size");
    json.Int(file.footer_size());
    json.Key("created_by");
    if (metadata.__isset.created_by) {
      json.String(file.created_by());
    } else {
      json.Null();
    }
    json.Key("version");
    json.Int(metadata.version);
    json.Key("num_rows");
    json.Int(file.num_rows());
    json.Key("num_row_groups");
    json.Int(file.num_row_groups());
    json.Key("key_value_metadata");
    json.BeginArray(/*single_line=*/true);
    for (const KeyValue& entry : key_values) json.String(entry.key);
    json.EndArray();
    json.Key("columns");
    json.BeginArray();
    for (size_t c = 0; c < columns.size(); ++c) {
      json.BeginObject(/*single_line=*/true);
      json.Key("index");
      json.Int(static_cast<int64_t>(c));
      json.Key("path");
      json.String(columns[c].PathString());
      json.Key("type");
      json.String(PhysicalTypeName(columns[c].type));
      if (columns[c].type == PhysicalType::kFixedLenByteArray) {
        json.Key("type_length");
        json.Int(columns[c].type_length);
      }
      json.Key("max_def");
      json.Int(columns[c].max_definition_level);
      json.Key("max_rep");
      json.Int(columns[c].max_repetition_level);
      json.EndObject();
    }
    json.EndArray();
    json.Key("row_groups");
    json.BeginArray();
    for (int rg = 0; rg < file.num_row_groups(); ++rg) {
      json.BeginObject();
      json.Key("index");
      json.Int(rg);
      json.Key("num_rows");
      json.Int(file.row_group_num_rows(rg));
      if (static_cast<size_t>(rg) < metadata.row_groups.size()) {
        json.Key("total_byte_size");
        json.Int(metadata.row_groups[rg].total_byte_size);
      }
      json.Key("columns");
      json.BeginArray();
      for (size_t c = 0; c < columns.size(); ++c) {
        ChunkReport chunk = GatherChunk(file, rg, static_cast<int>(c));
        problems += chunk.page_problems() + static_cast<int64_t>(chunk.errors.size());
        WriteChunkJson(json, chunk);
        write_ok = json.FlushTo(out) && write_ok;
      }
      json.EndArray();
      json.EndObject();
    }
    json.EndArray();
    json.Key("problems");
    json.Int(problems);
    json.EndObject();
    json.Newline();
    write_ok = json.FlushTo(out) && write_ok;
  } else {
    std::fprintf(out, "file:            %s\n", Printable(options.path).c_str());
    std::fprintf(out, "size:            %lld bytes (footer %lld bytes)\n",
                 static_cast<long long>(file.source().size()),
                 static_cast<long long>(file.footer_size()));
    std::fprintf(out, "created_by:      %s\n",
                 metadata.__isset.created_by ? Printable(file.created_by()).c_str() : "(none)");
    std::fprintf(out, "format version:  %d\n", metadata.version);
    std::fprintf(out, "rows:            %lld\n", static_cast<long long>(file.num_rows()));
    std::fprintf(out, "row groups:      %d\n", file.num_row_groups());
    std::string keys;
    for (const KeyValue& entry : key_values) {
      if (!keys.empty()) keys += ", ";
      keys += Printable(entry.key);
    }
    std::fprintf(out, "key-value keys:  %s\n", keys.empty() ? "(none)" : keys.c_str());
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
    for (int rg = 0; rg < file.num_row_groups(); ++rg) {
      std::fprintf(out, "\nrow group %d: %lld rows", rg,
                   static_cast<long long>(file.row_group_num_rows(rg)));
      if (static_cast<size_t>(rg) < metadata.row_groups.size()) {
        std::fprintf(out, ", total_byte_size %lld",
                     static_cast<long long>(metadata.row_groups[rg].total_byte_size));
      }
      std::fprintf(out, "\n");
      for (size_t c = 0; c < columns.size(); ++c) {
        ChunkReport chunk = GatherChunk(file, rg, static_cast<int>(c));
        problems += chunk.page_problems() + static_cast<int64_t>(chunk.errors.size());
        PrintChunkTable(out, chunk);
      }
    }
    if (problems > 0)
      std::fprintf(out, "\n%lld problems found\n", static_cast<long long>(problems));
  }
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
  auto parsed = ParseArgs(args, WithReaderOptions({{"json", false}}, /*with_checksum_flag=*/false));
  if (!parsed.ok()) return UsageError(kCommand, parsed.status());
  if (parsed->Has("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (parsed->positional().size() != 1) {
    return UsageError(kCommand,
                      parsed->positional().empty() ? "missing FILE" : "too many arguments");
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
