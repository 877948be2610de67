// A Parquet file's footer in pqpage's own plain types, one struct per footer structure and named
// as the format names it (FileMetaData, SchemaElement, RowGroup, ColumnChunk, ColumnMetaData,
// PageEncodingStats, SizeStatistics, KeyValue; Statistics is in page.h, the page index's structures
// in page_index.h). A reader sees a file's footer through them (FileReader::metadata()), a faithful
// copy converted once when the file is opened; a writer gets its chunks' ColumnMetaData in them
// (ColumnChunkWriter::Finish). The format's Thrift structures stay inside the library.
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
#include "pqpage/types.h"

namespace pqpage {

struct KeyValue {
  std::string key;
  std::optional<std::string> value;

  bool operator==(const KeyValue&) const = default;
};

// One element of the schema as the footer stores it, depth first (element 0 is the root).
struct SchemaElement {
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
  bool operator==(const PageEncodingStats&) const = default;
};

// SizeStatistics: what a column chunk's values take before encoding and how its levels are
// spread, for engines that size their buffers before reading. Histograms are empty when absent
// (a column whose maximum level is 0 has none).
struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;  // BYTE_ARRAY: value bytes, no lengths
  std::vector<int64_t> repetition_level_histogram;         // levels of each value 0..max
  std::vector<int64_t> definition_level_histogram;

  bool operator==(const SizeStatistics&) const = default;
};

// ColumnMetaData: where a column chunk's pages are and what they hold. The same struct is what
// FileReader::metadata() shows of a file and what ColumnChunkWriter::Finish gives a writer to
// store (pqpage/column_chunk_writer.h).
struct ColumnMetaData {
  int32_t physical_type_id = 0;       // PhysicalType's ids
  std::vector<int32_t> encoding_ids;  // every encoding used in the chunk, levels included
  std::vector<std::string> path_in_schema;
  int32_t codec_id = 0;                 // Compression's ids
  int64_t num_values = 0;               // levels, nulls included
  int64_t total_uncompressed_size = 0;  // page headers included
  int64_t total_compressed_size = 0;    // page headers included: the chunk's length in the file
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;  // only when there is a dictionary page
  std::optional<Statistics> statistics;  // min_value/max_value in the type's order, null_count
  std::optional<std::vector<PageEncodingStats>> encoding_stats;  // the dictionary page first
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;

  // The ids as pqpage's enums; an id this version does not know keeps its number.
  PhysicalType physical_type() const { return static_cast<PhysicalType>(physical_type_id); }
  std::vector<Encoding> encodings() const {
    std::vector<Encoding> out;
    out.reserve(encoding_ids.size());
    for (const int32_t id : encoding_ids) out.push_back(static_cast<Encoding>(id));
    return out;
  }
  bool operator==(const ColumnMetaData&) const = default;
};

// Adds to `encodings` the value encodings of the data pages (v1 and v2) that meta.encoding_stats
// counts, each once, in the order first met; the dictionary page's entry is left out, and a chunk
// without encoding_stats adds none.
void AddDataPageEncodings(const ColumnMetaData& meta, std::vector<Encoding>* encodings);

// ColumnChunk: the chunk's entry in a row group, with the page index locations.
// How an encrypted column chunk is encrypted (the format's ColumnCryptoMetaData).
struct ColumnCryptoMetaData {
  bool footer_key = false;  // with the footer key; else with a key of its own
  // For a key of its own: the column's path and what finds its key.
  std::vector<std::string> path_in_schema;
  std::string key_metadata;
};

struct ColumnChunk {
  std::optional<std::string> file_path;  // set only when the chunk lives in another file
  int64_t file_offset = 0;
  // For a chunk whose metadata is stored encrypted, the decrypted metadata when the reader had
  // its key; else what the footer holds in the clear (nothing, or a copy without statistics).
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  std::optional<ColumnCryptoMetaData> crypto_metadata;  // set for an encrypted chunk
  bool encrypted_column_metadata = false;  // its ColumnMetaData is stored as an encrypted module
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

struct FileMetaData {
  int32_t version = 0;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  // Set for an encrypted file (modular encryption).
  struct Encryption {
    std::string algorithm;         // "AES_GCM_V1" or "AES_GCM_CTR_V1"
    bool encrypted_footer = true;  // false: a plaintext footer signed with the footer key
    std::string footer_key_metadata;
    std::string aad_prefix;          // as stored; empty when none is
    bool supply_aad_prefix = false;  // the reader must give the AAD prefix
    std::string aad_file_unique;
  };
  std::optional<Encryption> encryption;
};

}  // namespace pqpage

#endif  // PQPAGE_METADATA_H_
