#include "cli/cli_inspect_json.h"

#include <cstdint>
#include <optional>
#include <string>

#include "cli/cli_inspect_text.h"
#include "pqpage/compression.h"
#include "pqpage/value_text.h"

namespace pqpage::cli {
namespace {

// A count that may be unknown: the number or null.
void OptionalCountMember(JsonWriter& json, const char* key, std::optional<int64_t> value) {
  json.Key(key);
  if (value) {
    json.Int(*value);
  } else {
    json.Null();
  }
}

void WritePageJson(JsonWriter& json, PhysicalType type, const InspectedPage& page) {
  const PageInfo& info = page.info;
  const bool has_encoding = page.is_data_page() || page.is_dictionary_page();
  json.BeginObject(/*single_line=*/true);
  json.IntMember("offset", info.offset);
  json.IntMember("header_size", info.header_size);
  json.StringMember("type", PageTypeIdName(info.type_id));
  if (has_encoding) json.StringMember("encoding", EncodingName(info.encoding));
  if (info.type == PageType::kDataPage && page.is_data_page()) {
    json.StringMember("definition_level_encoding", EncodingName(info.definition_level_encoding));
    json.StringMember("repetition_level_encoding", EncodingName(info.repetition_level_encoding));
  } else if (info.type == PageType::kDataPageV2) {
    json.IntMember("definition_levels_byte_length", info.definition_levels_byte_length);
    json.IntMember("repetition_levels_byte_length", info.repetition_levels_byte_length);
  }
  json.BoolMember("is_compressed", info.is_compressed);
  if (has_encoding) json.IntMember("num_values", info.num_values);
  if (page.is_dictionary_page() && info.dictionary_is_sorted) {
    json.BoolMember("is_sorted", *info.dictionary_is_sorted);
  }
  if (page.is_data_page()) {
    OptionalCountMember(json, "num_nulls", page.nulls());
    OptionalCountMember(json, "num_rows", page.rows());
    // Where nulls and rows come from: the v2 header, or counting the decoded levels.
    json.StringMember("counts_from", info.num_rows  ? "header"
                                     : page.decoded ? "levels"
                                                    : "unknown");
  }
  json.IntMember("compressed_page_size", info.compressed_page_size);
  json.IntMember("uncompressed_page_size", info.uncompressed_page_size);
  if (info.statistics) {
    json.Key("statistics");
    WriteStatisticsJson(json, type, *info.statistics);
  }
  json.BoolMember("crc_present", info.has_crc);
  json.Key("crc_valid");
  if (info.has_crc && info.crc_checked) {
    json.Bool(info.crc_valid);
  } else {
    json.Null();
  }
  if (!page.error.empty()) json.StringMember("error", page.error);
  json.EndObject();
}

// The footer's facts about the chunk (nothing when the footer has no metadata for it).
void WriteFooterJson(JsonWriter& json, const ColumnMetaData& meta, PhysicalType type) {
  json.StringMember("codec", CodecIdName(meta.codec_id));
  json.IntMember("num_values", meta.num_values);
  json.IntMember("total_compressed_size", meta.total_compressed_size);
  json.IntMember("total_uncompressed_size", meta.total_uncompressed_size);
  json.IntMember("data_page_offset", meta.data_page_offset);
  if (meta.dictionary_page_offset) {
    json.IntMember("dictionary_page_offset", *meta.dictionary_page_offset);
  }
  json.Key("encodings");
  json.BeginArray(/*single_line=*/true);
  for (const int32_t encoding : meta.encoding_ids) json.String(EncodingIdName(encoding));
  json.EndArray();
  if (meta.encoding_stats) {
    json.Key("encoding_stats");
    json.BeginArray();
    for (const PageEncodingStats& stats : *meta.encoding_stats) {
      json.BeginObject(/*single_line=*/true);
      json.StringMember("page_type", PageTypeIdName(stats.page_type_id));
      json.StringMember("encoding", EncodingIdName(stats.encoding_id));
      json.IntMember("count", stats.count);
      json.EndObject();
    }
    json.EndArray();
  }
  if (meta.statistics) {
    json.Key("statistics");
    WriteStatisticsJson(json, type, *meta.statistics);
  }
}

// A "page_index" member (nothing when the chunk has no index): the index as stored, or why it
// could not be read, and where it disagrees with the pages.
void WritePageIndexJson(JsonWriter& json, const InspectedChunk& chunk) {
  if (chunk.page_index_error.empty() && !chunk.page_index) return;
  json.Key("page_index");
  json.BeginObject();
  if (!chunk.page_index_error.empty()) {
    json.StringMember("error", chunk.page_index_error);
    json.EndObject();
    return;
  }
  const ChunkPageIndex& index = *chunk.page_index;
  json.BoolMember("column_index", index.has_column_index);
  json.BoolMember("offset_index", index.has_offset_index);
  if (index.has_column_index) {
    json.StringMember("boundary_order", BoundaryOrderName(index.boundary_order));
  }
  json.Key("pages");
  json.BeginArray();
  for (const IndexedPage& entry : index.pages) {
    json.BeginObject(/*single_line=*/true);
    if (index.has_offset_index) {
      json.IntMember("offset", entry.offset);
      json.IntMember("compressed_page_size", entry.compressed_page_size);
      json.IntMember("first_row_index", entry.first_row_index);
    }
    if (index.has_column_index) {
      json.BoolMember("null_page", entry.null_page);
      if (!entry.null_page) {
        json.Key("min");
        WriteBoundJson(json, chunk.descriptor->type, entry.min_value);
        json.Key("max");
        WriteBoundJson(json, chunk.descriptor->type, entry.max_value);
      }
    }
    if (entry.null_count) json.IntMember("null_count", *entry.null_count);
    json.EndObject();
  }
  json.EndArray();
  json.StringArrayMember("problems", chunk.page_index_problems);
  json.EndObject();
}

}  // namespace

void WriteChunkJson(JsonWriter& json, const InspectedChunk& chunk) {
  const ColumnDescriptor& column = *chunk.descriptor;
  json.BeginObject();
  json.IntMember("column", chunk.column);
  json.StringMember("path", column.PathString());
  json.StringMember("type", PhysicalTypeName(column.type));
  if (chunk.footer != nullptr && chunk.footer->file_path) {
    json.StringMember("file_path", *chunk.footer->file_path);
  }
  if (chunk.footer != nullptr && chunk.footer->meta_data) {
    WriteFooterJson(json, *chunk.footer->meta_data, column.type);
  }
  if (chunk.location) {
    json.IntMember("offset", chunk.location->offset);
    json.IntMember("length", chunk.location->length);
  }
  json.IntMember("num_pages", static_cast<int64_t>(chunk.pages.size()));
  json.Key("page_encodings");
  json.BeginArray();
  for (const PageEncodingCount& entry : chunk.EncodingMix()) {
    json.BeginObject(/*single_line=*/true);
    json.StringMember("page_type", MixPageType(entry));
    if (entry.encoding) json.StringMember("encoding", MixEncoding(entry));
    json.IntMember("count", entry.count);
    json.EndObject();
  }
  json.EndArray();
  json.StringMember("page_encoding_summary", EncodingSummary(chunk));
  json.BoolMember("dictionary_fallback", chunk.DictionaryFallback());
  json.Key("pages");
  json.BeginArray();
  for (const InspectedPage& page : chunk.pages) WritePageJson(json, column.type, page);
  json.EndArray();
  WritePageIndexJson(json, chunk);
  if (!chunk.errors.empty()) json.StringArrayMember("errors", chunk.errors);
  json.EndObject();
}

}  // namespace pqpage::cli
