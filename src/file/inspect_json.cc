// inspect --json: the file's facts written here, then each column chunk's report as InspectFile
// delivers it (footer facts, encoding mix, every page, its page index), handed to the sink chunk
// by chunk.
#include "pqpage/inspect_json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_join.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/compression.h"
#include "pqpage/inspect.h"
#include "pqpage/json_writer.h"
#include "pqpage/metadata.h"
#include "pqpage/page.h"
#include "pqpage/page_index.h"
#include "pqpage/schema.h"
#include "pqpage/status_macros.h"
#include "pqpage/types.h"
#include "pqpage/value_text.h"

namespace pqpage {
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

// A "bloom_filter" member (nothing when the chunk has none): where the footer puts it, its
// bitset's size and blocks and the format's one algorithm, hash and compression, or why it could
// not be read.
void WriteBloomFilterJson(JsonWriter& json, const InspectedChunk& chunk) {
  if (!chunk.bloom_filter_bytes && chunk.bloom_filter_error.empty()) return;
  json.Key("bloom_filter");
  json.BeginObject(/*single_line=*/true);
  const ColumnMetaData* meta =
      chunk.footer != nullptr && chunk.footer->meta_data ? &*chunk.footer->meta_data : nullptr;
  if (meta != nullptr && meta->bloom_filter_offset) {
    json.IntMember("offset", *meta->bloom_filter_offset);
  }
  if (meta != nullptr && meta->bloom_filter_length) {
    json.IntMember("length", *meta->bloom_filter_length);
  }
  if (!chunk.bloom_filter_error.empty()) {
    json.StringMember("error", chunk.bloom_filter_error);
  } else {
    json.IntMember("bytes", *chunk.bloom_filter_bytes);
    json.IntMember("blocks", *chunk.bloom_filter_bytes / BloomFilter::kBlockBytes);
    json.StringMember("algorithm", "SPLIT_BLOCK");
    json.StringMember("hash", "XXHASH");
    json.StringMember("compression", "UNCOMPRESSED");
  }
  json.EndObject();
}

// One column chunk's report, as one value of its row group's "columns" array.
void WriteChunkJson(JsonWriter& json, const InspectedChunk& chunk) {
  const ColumnDescriptor& column = *chunk.descriptor;
  json.BeginObject();
  json.IntMember("column", chunk.column);
  json.StringMember("path", column.PathString());
  json.StringMember("type", PhysicalTypeName(column.type));
  if (chunk.footer != nullptr && chunk.footer->file_path) {
    json.StringMember("file_path", *chunk.footer->file_path);
  }
  if (chunk.footer != nullptr && chunk.footer->crypto_metadata) {
    const ColumnCryptoMetaData& crypto = *chunk.footer->crypto_metadata;
    json.Key("encryption");
    json.BeginObject(/*single_line=*/true);
    json.StringMember("key", crypto.footer_key ? "footer" : "column");
    if (!crypto.footer_key) json.StringMember("key_metadata", crypto.key_metadata);
    json.BoolMember("encrypted_column_metadata", chunk.footer->encrypted_column_metadata);
    json.EndObject();
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
  WriteBloomFilterJson(json, chunk);
  if (!chunk.errors.empty()) json.StringArrayMember("errors", chunk.errors);
  json.EndObject();
}

// The file's facts, up to the opening of the "row_groups" array.
void WriteFileJson(JsonWriter& json, const FileReader& file, const std::string& file_name) {
  const FileMetaData& metadata = file.metadata();
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  json.BeginObject();
  json.Key("file");
  json.String(file_name);
  json.Key("file_size");
  json.Int(file.source().size());
  json.Key("footer_size");
  json.Int(file.footer_size());
  json.Key("created_by");
  if (metadata.created_by) {
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
  for (const KeyValue& entry : file.key_value_metadata()) json.String(entry.key);
  json.EndArray();
  if (metadata.encryption) {
    const FileMetaData::Encryption& encryption = *metadata.encryption;
    json.Key("encryption");
    json.BeginObject(/*single_line=*/true);
    json.StringMember("algorithm", encryption.algorithm);
    json.BoolMember("encrypted_footer", encryption.encrypted_footer);
    json.StringMember("footer_key_metadata", encryption.footer_key_metadata);
    json.StringMember("aad_prefix", encryption.aad_prefix);
    json.BoolMember("supply_aad_prefix", encryption.supply_aad_prefix);
    json.EndObject();
  }
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
  json.Key("empty_groups");
  json.BeginArray(/*single_line=*/true);
  for (const std::vector<std::string>& group : file.schema().empty_groups()) {
    json.String(absl::StrJoin(group, "."));
  }
  json.EndArray();
  json.Key("row_groups");
  json.BeginArray();
}

// Closes a row group's object: its "columns" array, then the object.
void EndRowGroupJson(JsonWriter& json) {
  json.EndArray();
  json.EndObject();
}

}  // namespace

absl::Status WriteInspectJson(const FileReader& file, const InspectJsonOptions& options,
                              const std::function<absl::Status(std::string_view)>& sink,
                              int64_t* problems) {
  const FileMetaData& metadata = file.metadata();
  JsonWriter json;
  int64_t total_problems = 0;
  // Set when the sink fails: what it refused is not written again, and nothing after it.
  absl::Status sink_status;
  const auto flush = [&]() -> absl::Status {
    sink_status = sink(json.TakeOutput());
    return sink_status;
  };
  WriteFileJson(json, file, options.file_name);
  InspectOptions inspect;
  inspect.threads = options.threads;
  InspectCallbacks callbacks;
  bool row_group_open = false;
  callbacks.on_row_group = [&](int rg) {
    if (row_group_open) EndRowGroupJson(json);
    row_group_open = true;
    json.BeginObject();
    json.IntMember("index", rg);
    json.IntMember("num_rows", file.row_group_num_rows(rg));
    if (static_cast<size_t>(rg) < metadata.row_groups.size()) {
      json.IntMember("total_byte_size",
                     metadata.row_groups[static_cast<size_t>(rg)].total_byte_size);
    }
    json.Key("columns");
    json.BeginArray();
    return absl::OkStatus();
  };
  callbacks.on_chunk = [&](const InspectedChunk& chunk) {
    total_problems += chunk.problems();
    WriteChunkJson(json, chunk);
    return flush();
  };
  absl::Status inspected = InspectFile(file, inspect, callbacks);
  if (problems != nullptr) *problems = total_problems;
  if (!sink_status.ok()) return sink_status;
  if (row_group_open) EndRowGroupJson(json);
  json.EndArray();
  json.Key("problems");
  json.Int(total_problems);
  json.EndObject();
  json.Newline();
  PQPAGE_RETURN_IF_ERROR(flush());
  return inspected;
}

absl::StatusOr<std::string> InspectJson(const FileReader& file, const InspectJsonOptions& options) {
  std::string document;
  PQPAGE_RETURN_IF_ERROR(WriteInspectJson(file, options, [&](std::string_view piece) {
    document.append(piece);
    return absl::OkStatus();
  }));
  return document;
}

}  // namespace pqpage
