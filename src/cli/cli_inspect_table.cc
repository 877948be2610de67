#include "cli/cli_inspect_table.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/cli_str.h"
#include "cli/cli_text_table.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/compression.h"
#include "pqpage/inspect.h"
#include "pqpage/value_text.h"

namespace pqpage::cli {
namespace {

std::string OptionalCount(std::optional<int64_t> value) {
  return value ? absl::StrCat(*value) : "?";
}

std::string DescribeIndex(const ChunkPageIndex& index) {
  std::string text;
  if (index.has_column_index) {
    absl::StrAppend(&text, "ColumnIndex (boundary order ", BoundaryOrderName(index.boundary_order),
                    ")");
  }
  if (index.has_offset_index) absl::StrAppend(&text, text.empty() ? "" : " + ", "OffsetIndex");
  absl::StrAppend(&text, ", ", index.pages.size(), " pages");
  return text;
}

// A "page index:" line, one row per indexed page, the problems.
void PrintPageIndexTable(FILE* out, const InspectedChunk& chunk) {
  if (!chunk.page_index_error.empty()) {
    std::fprintf(out, "    page index: UNREADABLE: %s\n",
                 Printable(chunk.page_index_error).c_str());
    return;
  }
  if (!chunk.page_index) return;
  const ChunkPageIndex& index = *chunk.page_index;
  std::fprintf(out, "    page index: %s\n", DescribeIndex(index).c_str());
  const std::vector<size_t> data_pages = chunk.DataPageNumbers();
  const PhysicalType type = chunk.descriptor->type;
  Table table({"page", "first row", "min", "max", "nulls", "null page"});
  for (size_t i = 0; i < index.pages.size(); ++i) {
    const IndexedPage& entry = index.pages[i];
    const bool bounds = index.has_column_index && !entry.null_page;
    table.AddRow({i < data_pages.size() ? absl::StrCat(data_pages[i]) : "?",
                  index.has_offset_index ? absl::StrCat(entry.first_row_index) : "-",
                  bounds ? Printable(FormatBoundText(type, entry.min_value)) : "-",
                  bounds ? Printable(FormatBoundText(type, entry.max_value)) : "-",
                  entry.null_count ? absl::StrCat(*entry.null_count) : "-",
                  index.has_column_index ? (entry.null_page ? "yes" : "no") : "-"});
  }
  table.Print(out, 4);
  for (const std::string& problem : chunk.page_index_problems) {
    std::fprintf(out, "    page index DISAGREES: %s\n", Printable(problem).c_str());
  }
}

}  // namespace

void PrintChunkTable(FILE* out, const InspectedChunk& chunk) {
  const ColumnDescriptor& column = *chunk.descriptor;
  std::fprintf(out, "\n  column %d '%s' %s", chunk.column, Printable(column.PathString()).c_str(),
               Str(PhysicalTypeName(column.type)).c_str());
  if (column.type == PhysicalType::kFixedLenByteArray) {
    std::fprintf(out, "(%d)", column.type_length);
  }
  const ColumnMetaData* meta =
      chunk.footer != nullptr && chunk.footer->meta_data ? &*chunk.footer->meta_data : nullptr;
  if (meta != nullptr) {
    std::fprintf(out, ": %s, %lld values, %lld bytes (%lld uncompressed)",
                 CodecIdName(meta->codec_id).c_str(), static_cast<long long>(meta->num_values),
                 static_cast<long long>(meta->total_compressed_size),
                 static_cast<long long>(meta->total_uncompressed_size));
  }
  if (chunk.location) {
    std::fprintf(out, " at offset %lld", static_cast<long long>(chunk.location->offset));
  }
  std::fprintf(out, "\n");
  if (chunk.footer != nullptr && chunk.footer->file_path) {
    std::fprintf(out, "    file_path:  %s\n", Printable(*chunk.footer->file_path).c_str());
  }
  if (chunk.footer != nullptr && chunk.footer->crypto_metadata) {
    std::fprintf(out, "    encrypted: %s\n", ColumnEncryptionText(*chunk.footer).c_str());
  }
  if (meta != nullptr) {
    std::string encodings;
    for (const int32_t encoding : meta->encoding_ids) {
      if (!encodings.empty()) encodings += ", ";
      encodings += EncodingIdName(encoding);
    }
    std::fprintf(out, "    footer encodings: %s\n", encodings.c_str());
    if (meta->encoding_stats) {
      std::string stats;
      for (const PageEncodingStats& entry : *meta->encoding_stats) {
        if (!stats.empty()) stats += ", ";
        absl::StrAppend(&stats, PageTypeIdName(entry.page_type_id), "/",
                        EncodingIdName(entry.encoding_id), " x", entry.count);
      }
      std::fprintf(out, "    footer encoding stats: %s\n", stats.c_str());
    }
    if (meta->statistics) {
      std::fprintf(out, "    statistics: %s\n",
                   Printable(FormatStatisticsText(column.type, *meta->statistics)).c_str());
    }
  }
  std::fprintf(out, "    pages: %s\n", EncodingSummary(chunk).c_str());

  if (!chunk.pages.empty()) {
    Table table({"page", "offset", "header", "type", "encoding", "levels (def/rep)", "compressed",
                 "values", "nulls", "rows", "stored", "uncompressed", "crc"});
    for (size_t i = 0; i < chunk.pages.size(); ++i) {
      const InspectedPage& page = chunk.pages[i];
      const PageInfo& info = page.info;
      const bool is_dictionary = page.is_dictionary_page();
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
                    PageTypeIdName(page.info.type_id),
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
      if (is_dictionary && page.info.dictionary_is_sorted) {
        table.AddNote(
            absl::StrCat("is_sorted: ", *page.info.dictionary_is_sorted ? "true" : "false"));
      }
      if (!page.error.empty()) table.AddNote("error: " + Printable(page.error));
    }
    table.Print(out, 4);
  }
  PrintPageIndexTable(out, chunk);
  if (!chunk.bloom_filter_error.empty()) {
    std::fprintf(out, "    bloom filter: UNREADABLE: %s\n",
                 Printable(chunk.bloom_filter_error).c_str());
  } else if (chunk.bloom_filter_bytes) {
    // A filter was read, so the footer entry gave its offset.
    std::string where;
    if (chunk.footer != nullptr && chunk.footer->meta_data &&
        chunk.footer->meta_data->bloom_filter_offset) {
      where = absl::StrCat(", at offset ", *chunk.footer->meta_data->bloom_filter_offset);
    }
    std::fprintf(
        out, "    bloom filter: %lld bytes (%lld blocks), split-block, xxHash64, uncompressed%s\n",
        static_cast<long long>(*chunk.bloom_filter_bytes),
        static_cast<long long>(*chunk.bloom_filter_bytes / BloomFilter::kBlockBytes),
        where.c_str());
  }
  for (const std::string& error : chunk.errors) {
    std::fprintf(out, "    error: %s\n", Printable(error).c_str());
  }
}

}  // namespace pqpage::cli
