#include "metadata/footer_metadata.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "metadata/page_header.h"

namespace pqpage::internal {
namespace {

template <typename T>
std::optional<T> IfSet(bool isset, const T& value) {
  return isset ? std::optional<T>(value) : std::nullopt;
}

std::vector<KeyValue> KeyValuesFromThrift(const std::vector<format::KeyValue>& entries) {
  std::vector<KeyValue> out;
  out.reserve(entries.size());
  for (const format::KeyValue& entry : entries) {
    out.push_back(KeyValue{entry.key, IfSet(entry.__isset.value, entry.value)});
  }
  return out;
}

const char* TimeUnitText(const format::TimeUnit& unit) {
  if (unit.__isset.MILLIS) return "MILLIS";
  if (unit.__isset.MICROS) return "MICROS";
  if (unit.__isset.NANOS) return "NANOS";
  return "UNKNOWN_UNIT";
}

ColumnMetadata ColumnMetadataFromThrift(const format::ColumnMetaData& meta) {
  ColumnMetadata out;
  out.physical_type_id = static_cast<int32_t>(meta.type);
  for (const auto encoding : meta.encodings)
    out.encoding_ids.push_back(static_cast<int32_t>(encoding));
  out.path_in_schema = meta.path_in_schema;
  out.codec_id = static_cast<int32_t>(meta.codec);
  out.num_values = meta.num_values;
  out.total_uncompressed_size = meta.total_uncompressed_size;
  out.total_compressed_size = meta.total_compressed_size;
  out.key_value_metadata = KeyValuesFromThrift(meta.key_value_metadata);
  out.data_page_offset = meta.data_page_offset;
  out.index_page_offset = IfSet(meta.__isset.index_page_offset, meta.index_page_offset);
  out.dictionary_page_offset =
      IfSet(meta.__isset.dictionary_page_offset, meta.dictionary_page_offset);
  if (meta.__isset.statistics) out.statistics = StatisticsFromThrift(meta.statistics);
  if (meta.__isset.encoding_stats) {
    std::vector<pqpage::PageEncodingStats>& counts = out.encoding_stats.emplace();
    for (const format::PageEncodingStats& entry : meta.encoding_stats) {
      counts.push_back(pqpage::PageEncodingStats{static_cast<int32_t>(entry.page_type),
                                                 static_cast<int32_t>(entry.encoding),
                                                 entry.count});
    }
  }
  out.bloom_filter_offset = IfSet(meta.__isset.bloom_filter_offset, meta.bloom_filter_offset);
  out.bloom_filter_length = IfSet(meta.__isset.bloom_filter_length, meta.bloom_filter_length);
  return out;
}

FooterColumnChunk ColumnChunkFromThrift(const format::ColumnChunk& chunk) {
  FooterColumnChunk out;
  out.file_path = IfSet(chunk.__isset.file_path, chunk.file_path);
  out.file_offset = chunk.file_offset;
  if (chunk.__isset.meta_data) out.meta_data = ColumnMetadataFromThrift(chunk.meta_data);
  out.offset_index_offset = IfSet(chunk.__isset.offset_index_offset, chunk.offset_index_offset);
  out.offset_index_length = IfSet(chunk.__isset.offset_index_length, chunk.offset_index_length);
  out.column_index_offset = IfSet(chunk.__isset.column_index_offset, chunk.column_index_offset);
  out.column_index_length = IfSet(chunk.__isset.column_index_length, chunk.column_index_length);
  return out;
}

RowGroupMetadata RowGroupFromThrift(const format::RowGroup& group) {
  RowGroupMetadata out;
  out.columns.reserve(group.columns.size());
  for (const format::ColumnChunk& chunk : group.columns) {
    out.columns.push_back(ColumnChunkFromThrift(chunk));
  }
  out.total_byte_size = group.total_byte_size;
  out.num_rows = group.num_rows;
  out.file_offset = IfSet(group.__isset.file_offset, group.file_offset);
  out.total_compressed_size =
      IfSet(group.__isset.total_compressed_size, group.total_compressed_size);
  out.ordinal = IfSet(group.__isset.ordinal, group.ordinal);
  return out;
}

}  // namespace

std::string LogicalTypeText(const format::LogicalType& logical) {
  if (logical.__isset.STRING) return "STRING";
  if (logical.__isset.MAP) return "MAP";
  if (logical.__isset.LIST) return "LIST";
  if (logical.__isset.ENUM) return "ENUM";
  if (logical.__isset.DECIMAL) {
    return absl::StrCat("DECIMAL(", logical.DECIMAL.precision, ",", logical.DECIMAL.scale, ")");
  }
  if (logical.__isset.DATE) return "DATE";
  if (logical.__isset.TIME) {
    return absl::StrCat("TIME(", TimeUnitText(logical.TIME.unit), ",",
                        logical.TIME.isAdjustedToUTC ? "UTC" : "local", ")");
  }
  if (logical.__isset.TIMESTAMP) {
    return absl::StrCat("TIMESTAMP(", TimeUnitText(logical.TIMESTAMP.unit), ",",
                        logical.TIMESTAMP.isAdjustedToUTC ? "UTC" : "local", ")");
  }
  if (logical.__isset.INTEGER) {
    return absl::StrCat("INTEGER(", static_cast<int>(logical.INTEGER.bitWidth), ",",
                        logical.INTEGER.isSigned ? "signed" : "unsigned", ")");
  }
  if (logical.__isset.UNKNOWN) return "NULL";
  if (logical.__isset.JSON) return "JSON";
  if (logical.__isset.BSON) return "BSON";
  if (logical.__isset.UUID) return "UUID";
  if (logical.__isset.FLOAT16) return "FLOAT16";
  if (logical.__isset.VARIANT) return "VARIANT";
  return "UNKNOWN_LOGICAL_TYPE";
}

SchemaNode SchemaNodeFromThrift(const format::SchemaElement& element) {
  SchemaNode node;
  node.name = element.name;
  node.physical_type_id = IfSet(element.__isset.type, static_cast<int32_t>(element.type));
  node.type_length = IfSet(element.__isset.type_length, element.type_length);
  node.repetition_id =
      IfSet(element.__isset.repetition_type, static_cast<int32_t>(element.repetition_type));
  node.num_children = IfSet(element.__isset.num_children, element.num_children);
  node.converted_type_id =
      IfSet(element.__isset.converted_type, static_cast<int32_t>(element.converted_type));
  node.scale = IfSet(element.__isset.scale, element.scale);
  node.precision = IfSet(element.__isset.precision, element.precision);
  node.field_id = IfSet(element.__isset.field_id, element.field_id);
  if (element.__isset.logicalType) node.logical_type = LogicalTypeText(element.logicalType);
  return node;
}

FileMetadata FileMetadataFromThrift(const format::FileMetaData& footer) {
  FileMetadata out;
  out.version = footer.version;
  out.schema.reserve(footer.schema.size());
  for (const format::SchemaElement& element : footer.schema) {
    out.schema.push_back(SchemaNodeFromThrift(element));
  }
  out.num_rows = footer.num_rows;
  out.row_groups.reserve(footer.row_groups.size());
  for (const format::RowGroup& group : footer.row_groups) {
    out.row_groups.push_back(RowGroupFromThrift(group));
  }
  out.key_value_metadata = KeyValuesFromThrift(footer.key_value_metadata);
  out.created_by = IfSet(footer.__isset.created_by, footer.created_by);
  return out;
}

}  // namespace pqpage::internal

namespace pqpage {

void AddDataPageEncodings(const std::vector<PageEncodingStats>& stats,
                          std::vector<Encoding>* encodings) {
  for (const PageEncodingStats& entry : stats) {
    const bool data_page =
        entry.page_type() == PageType::kDataPage || entry.page_type() == PageType::kDataPageV2;
    if (data_page &&
        std::find(encodings->begin(), encodings->end(), entry.encoding()) == encodings->end()) {
      encodings->push_back(entry.encoding());
    }
  }
}

}  // namespace pqpage
