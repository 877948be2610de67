#include "cli/cli_inspect_json.h"

#include <cstdint>
#include <string>

#include "cli/cli_inspect_page_index.h"
#include "pqpage/compression.h"

namespace pqpage::cli {
namespace {

void WritePageJson(JsonWriter& json, PhysicalType type, const PageRecord& page) {
  const PageInfo& info = page.info;
  json.BeginObject(/*single_line=*/true);
  json.Key("offset");
  json.Int(info.offset);
  json.Key("header_size");
  json.Int(info.header_size);
  json.Key("type");
  json.String(PageTypeIdName(page.info.type_id));
  const bool is_dictionary = page.info.type_id == static_cast<int>(PageType::kDictionaryPage);
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
  if (is_dictionary && page.info.dictionary_is_sorted) {
    json.Key("is_sorted");
    json.Bool(*page.info.dictionary_is_sorted);
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

}  // namespace

void WriteChunkJson(JsonWriter& json, const ChunkReport& chunk) {
  const ColumnDescriptor& column = *chunk.descriptor;
  json.BeginObject();
  json.Key("column");
  json.Int(chunk.column);
  json.Key("path");
  json.String(column.PathString());
  json.Key("type");
  json.String(PhysicalTypeName(column.type));
  if (chunk.footer != nullptr && chunk.footer->file_path) {
    json.Key("file_path");
    json.String(*chunk.footer->file_path);
  }
  if (chunk.footer != nullptr && chunk.footer->meta_data) {
    const ColumnMetaData& meta = *chunk.footer->meta_data;
    json.Key("codec");
    json.String(CodecIdName(meta.codec_id));
    json.Key("num_values");
    json.Int(meta.num_values);
    json.Key("total_compressed_size");
    json.Int(meta.total_compressed_size);
    json.Key("total_uncompressed_size");
    json.Int(meta.total_uncompressed_size);
    json.Key("data_page_offset");
    json.Int(meta.data_page_offset);
    if (meta.dictionary_page_offset) {
      json.Key("dictionary_page_offset");
      json.Int(*meta.dictionary_page_offset);
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
        json.Key("page_type");
        json.String(PageTypeIdName(stats.page_type_id));
        json.Key("encoding");
        json.String(EncodingIdName(stats.encoding_id));
        json.Key("count");
        json.Int(stats.count);
        json.EndObject();
      }
      json.EndArray();
    }
    if (meta.statistics) {
      json.Key("statistics");
      WriteStatisticsJson(json, column.type, *meta.statistics);
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
  WritePageIndexJson(json, chunk);
  if (!chunk.errors.empty()) {
    json.Key("errors");
    json.BeginArray();
    for (const std::string& error : chunk.errors) json.String(error);
    json.EndArray();
  }
  json.EndObject();
}

}  // namespace pqpage::cli
