#include "metadata/footer_metadata.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/add_if_absent.h"
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

SizeStatistics SizeStatisticsFromThrift(const format::SizeStatistics& sizes) {
  SizeStatistics out;
  out.unencoded_byte_array_data_bytes =
      IfSet(sizes.__isset.unencoded_byte_array_data_bytes, sizes.unencoded_byte_array_data_bytes);
  out.repetition_level_histogram = sizes.repetition_level_histogram;
  out.definition_level_histogram = sizes.definition_level_histogram;
  return out;
}

format::SizeStatistics SizeStatisticsToThrift(const SizeStatistics& sizes) {
  format::SizeStatistics out;
  if (sizes.unencoded_byte_array_data_bytes) {
    out.__set_unencoded_byte_array_data_bytes(*sizes.unencoded_byte_array_data_bytes);
  }
  if (!sizes.repetition_level_histogram.empty()) {
    out.__set_repetition_level_histogram(sizes.repetition_level_histogram);
  }
  if (!sizes.definition_level_histogram.empty()) {
    out.__set_definition_level_histogram(sizes.definition_level_histogram);
  }
  return out;
}

}  // namespace

ColumnMetaData ColumnMetaDataFromThrift(const format::ColumnMetaData& meta) {
  ColumnMetaData out;
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
  if (meta.__isset.size_statistics) {
    out.size_statistics = SizeStatisticsFromThrift(meta.size_statistics);
  }
  return out;
}

format::ColumnMetaData ColumnMetaDataToThrift(const ColumnMetaData& meta) {
  format::ColumnMetaData out;
  out.__set_type(static_cast<format::Type::type>(meta.physical_type_id));
  out.__set_encodings(meta.encoding_ids);
  out.__set_path_in_schema(meta.path_in_schema);
  out.__set_codec(static_cast<format::CompressionCodec::type>(meta.codec_id));
  out.__set_num_values(meta.num_values);
  out.__set_total_uncompressed_size(meta.total_uncompressed_size);
  out.__set_total_compressed_size(meta.total_compressed_size);
  if (!meta.key_value_metadata.empty()) {
    out.__set_key_value_metadata(KeyValuesToThrift(meta.key_value_metadata));
  }
  out.__set_data_page_offset(meta.data_page_offset);
  if (meta.index_page_offset) out.__set_index_page_offset(*meta.index_page_offset);
  if (meta.dictionary_page_offset) out.__set_dictionary_page_offset(*meta.dictionary_page_offset);
  if (meta.statistics) out.__set_statistics(StatisticsToThrift(*meta.statistics));
  if (meta.encoding_stats) {
    std::vector<format::PageEncodingStats> stats;
    stats.reserve(meta.encoding_stats->size());
    for (const PageEncodingStats& count : *meta.encoding_stats) {
      format::PageEncodingStats entry;
      entry.__set_page_type(static_cast<format::PageType::type>(count.page_type_id));
      entry.__set_encoding(static_cast<format::Encoding::type>(count.encoding_id));
      entry.__set_count(count.count);
      stats.push_back(entry);
    }
    out.__set_encoding_stats(stats);
  }
  if (meta.bloom_filter_offset) out.__set_bloom_filter_offset(*meta.bloom_filter_offset);
  if (meta.bloom_filter_length) out.__set_bloom_filter_length(*meta.bloom_filter_length);
  if (meta.size_statistics) {
    out.__set_size_statistics(SizeStatisticsToThrift(*meta.size_statistics));
  }
  return out;
}

std::vector<format::KeyValue> KeyValuesToThrift(const std::vector<KeyValue>& pairs) {
  std::vector<format::KeyValue> out;
  out.reserve(pairs.size());
  for (const KeyValue& pair : pairs) {
    format::KeyValue entry;
    entry.__set_key(pair.key);
    if (pair.value) entry.__set_value(*pair.value);
    out.push_back(std::move(entry));
  }
  return out;
}

namespace {

ColumnChunk ColumnChunkFromThrift(const format::ColumnChunk& chunk) {
  ColumnChunk out;
  out.file_path = IfSet(chunk.__isset.file_path, chunk.file_path);
  out.file_offset = chunk.file_offset;
  if (chunk.__isset.meta_data) out.meta_data = ColumnMetaDataFromThrift(chunk.meta_data);
  out.offset_index_offset = IfSet(chunk.__isset.offset_index_offset, chunk.offset_index_offset);
  out.offset_index_length = IfSet(chunk.__isset.offset_index_length, chunk.offset_index_length);
  out.column_index_offset = IfSet(chunk.__isset.column_index_offset, chunk.column_index_offset);
  out.column_index_length = IfSet(chunk.__isset.column_index_length, chunk.column_index_length);
  if (chunk.__isset.crypto_metadata) {
    ColumnCryptoMetaData& crypto = out.crypto_metadata.emplace();
    const format::ColumnCryptoMetaData& stored = chunk.crypto_metadata;
    crypto.footer_key = stored.__isset.ENCRYPTION_WITH_FOOTER_KEY;
    if (stored.__isset.ENCRYPTION_WITH_COLUMN_KEY) {
      crypto.path_in_schema = stored.ENCRYPTION_WITH_COLUMN_KEY.path_in_schema;
      crypto.key_metadata = stored.ENCRYPTION_WITH_COLUMN_KEY.key_metadata;
    }
  }
  out.encrypted_column_metadata = chunk.__isset.encrypted_column_metadata;
  return out;
}

RowGroup RowGroupFromThrift(const format::RowGroup& group) {
  RowGroup out;
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

SchemaElement SchemaElementFromThrift(const format::SchemaElement& element) {
  SchemaElement node;
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

FileMetaData FileMetaDataFromThrift(const format::FileMetaData& footer) {
  FileMetaData out;
  out.version = footer.version;
  out.schema.reserve(footer.schema.size());
  for (const format::SchemaElement& element : footer.schema) {
    out.schema.push_back(SchemaElementFromThrift(element));
  }
  out.num_rows = footer.num_rows;
  out.row_groups.reserve(footer.row_groups.size());
  for (const format::RowGroup& group : footer.row_groups) {
    out.row_groups.push_back(RowGroupFromThrift(group));
  }
  out.key_value_metadata = KeyValuesFromThrift(footer.key_value_metadata);
  out.created_by = IfSet(footer.__isset.created_by, footer.created_by);
  if (footer.__isset.encryption_algorithm) {
    out.encryption = EncryptionFromThrift(footer.encryption_algorithm,
                                          footer.footer_signing_key_metadata, false);
  }
  return out;
}

FileMetaData::Encryption EncryptionFromThrift(const format::EncryptionAlgorithm& algorithm,
                                              const std::string& footer_key_metadata,
                                              bool encrypted_footer) {
  FileMetaData::Encryption out;
  out.encrypted_footer = encrypted_footer;
  out.footer_key_metadata = footer_key_metadata;
  auto fields = [&out](const auto& stored) {
    out.aad_prefix = stored.aad_prefix;
    out.supply_aad_prefix = stored.__isset.supply_aad_prefix && stored.supply_aad_prefix;
    out.aad_file_unique = stored.aad_file_unique;
  };
  if (algorithm.__isset.AES_GCM_CTR_V1) {
    out.algorithm = "AES_GCM_CTR_V1";
    fields(algorithm.AES_GCM_CTR_V1);
  } else if (algorithm.__isset.AES_GCM_V1) {
    out.algorithm = "AES_GCM_V1";
    fields(algorithm.AES_GCM_V1);
  } else {
    out.algorithm = "unknown";
  }
  return out;
}

}  // namespace pqpage::internal

namespace pqpage {

void AddDataPageEncodings(const ColumnMetaData& meta, std::vector<Encoding>* encodings) {
  if (!meta.encoding_stats) return;
  for (const PageEncodingStats& entry : *meta.encoding_stats) {
    const bool data_page =
        entry.page_type() == PageType::kDataPage || entry.page_type() == PageType::kDataPageV2;
    if (data_page) internal::AddIfAbsent(entry.encoding(), encodings);
  }
}

}  // namespace pqpage
