// A Parquet file's footer in pqpage's own plain types: the schema as stored, the row groups, and
// each column chunk's metadata, for tools and engines that want to see everything a footer holds
// (FileReader::metadata()). The format's Thrift structures stay inside the library; this is a
// faithful copy of what they said, converted once when the file is opened.
//
// Enum-valued fields that come straight from the file (physical types, encodings, codecs, page
// types, converted types) are kept as the format's integer ids, because a file may carry ids this
// version of pqpage does not know and a tool should still show them; types.h, compression.h and
// page.h give the known ids their names. Optional footer fields are std::optional, so "absent" and
// "zero" stay distinct.
#ifndef PQPAGE_METADATA_H_
#define PQPAGE_METADATA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pqpage/page.h"

namespace pqpage {

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

// One element of the schema as the footer stores it, depth first (element 0 is the root).
struct SchemaNode {
  std::string name;
  std::optional<int32_t> physical_type_id;  // leaves only (PhysicalType's ids)
  std::optional<int32_t> type_length;
  std::optional<int32_t> repetition_id;  // Repetition's ids; absent for the root
  std::optional<int32_t> num_children;   // groups only
  std::optional<int32_t> converted_type_id;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  // The logical type annotation in the format's words, with its parameters: "STRING",
  // "DECIMAL(10,2)", "TIMESTAMP(MICROS,UTC)", "TIME(MILLIS,local)", "INTEGER(8,unsigned)", "LIST",
  // ...; empty when the element has none, "UNKNOWN_LOGICAL_TYPE" for a union member this version
  // does not know.
  std::string logical_type;
};

// How many pages of one type used one encoding (ColumnMetaData.encoding_stats): what a file's
// footer says, and what the page builder counts for the footer it is writing.
struct PageEncodingStats {
  int32_t page_type_id = 0;  // PageType's ids
  int32_t encoding_id = 0;   // Encoding's ids
  int32_t count = 0;

  static PageEncodingStats Of(PageType type, Encoding encoding, int32_t count) {
    return {static_cast<int32_t>(type), static_cast<int32_t>(encoding), count};
  }
  // The ids as pqpage's enums; an id this version does not know keeps its number.
  PageType page_type() const { return static_cast<PageType>(page_type_id); }
  Encoding encoding() const { return static_cast<Encoding>(encoding_id); }
};

// Adds to `encodings` the value encodings of the data pages (v1 and v2) that `stats` counts, each
// once, in the order first met; the dictionary page's entry is left out.
void AddDataPageEncodings(const std::vector<PageEncodingStats>& stats,
                          std::vector<Encoding>* encodings);

// ColumnMetaData: where a column chunk's pages are and what they hold.
struct ColumnMetadata {
  int32_t physical_type_id = 0;
  std::vector<int32_t> encoding_ids;  // every encoding used in the chunk, levels included
  std::vector<std::string> path_in_schema;
  int32_t codec_id = 0;  // Compression's ids
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
};

// ColumnChunk: the chunk's entry in a row group, with the page index locations. (The page
// builder's ColumnChunkMetadata, in column_chunk_writer.h, is what a writer puts there.)
struct FooterColumnChunk {
  std::optional<std::string> file_path;  // set only when the chunk lives in another file
  int64_t file_offset = 0;
  std::optional<ColumnMetadata> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
};

struct RowGroupMetadata {
  std::vector<FooterColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

struct FileMetadata {
  int32_t version = 0;
  std::vector<SchemaNode> schema;
  int64_t num_rows = 0;
  std::vector<RowGroupMetadata> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
};

}  // namespace pqpage

#endif  // PQPAGE_METADATA_H_
