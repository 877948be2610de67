// The vocabulary of pages and column chunks shared by the page decoder, the page builder and the
// pqpage tool: page types, what one page header says, statistics as the format stores them, and
// the options both directions take.
#ifndef PQPAGE_PAGE_H_
#define PQPAGE_PAGE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pqpage/types.h"

namespace pqpage {

// The format's page types; the values are its Thrift enum ids.
enum class PageType : int8_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3,
};

// "DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"; "UNKNOWN" otherwise.
std::string_view PageTypeName(PageType type);

// Statistics as stored in a page header or column chunk. Bounds are the PLAIN bytes of one value
// (byte arrays without their length prefix). `min_value`/`max_value` follow the column's sort
// order; `legacy_min`/`legacy_max` are the deprecated signed-order fields some writers still fill.
struct Statistics {
  std::optional<std::string> min_value;
  std::optional<std::string> max_value;
  std::optional<std::string> legacy_min;
  std::optional<std::string> legacy_max;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<int64_t> nan_count;

  bool operator==(const Statistics&) const = default;
};

// One page as its header describes it, plus what the decoder learnt reading it.
struct PageInfo {
  int64_t offset = 0;       // of the header, in the file (or the buffer the chunk came from)
  int32_t header_size = 0;  // bytes of the Thrift header
  PageType type = PageType::kDataPage;
  // The header's type id as stored: equal to `type` for the four known types, and the only
  // faithful record of a type the format added after this version of pqpage.
  int32_t type_id = 0;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  // Data and dictionary pages: the values' encoding.
  Encoding encoding = Encoding::kPlain;
  // DATA_PAGE only: the level encodings (RLE or the legacy BIT_PACKED).
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  // DATA_PAGE_V2 only: the level sections' byte lengths.
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  // DATA_PAGE_V2 says so in its header (true when absent); other pages are compressed whenever
  // the column chunk's codec is not UNCOMPRESSED.
  bool is_compressed = false;
  int32_t num_values = 0;  // levels of a data page (nulls included); entries of a dictionary page
  std::optional<int32_t> num_nulls;          // DATA_PAGE_V2 only
  std::optional<int32_t> num_rows;           // DATA_PAGE_V2 only
  std::optional<bool> dictionary_is_sorted;  // DICTIONARY_PAGE only, when the header says
  std::optional<Statistics> statistics;
  bool has_crc = false;
  // Set when the CRC was checked against the page bytes (verification on and a CRC present).
  bool crc_checked = false;
  bool crc_valid = false;
};

}  // namespace pqpage

#endif  // PQPAGE_PAGE_H_
