#include "metadata/page_header.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pqpage {

std::string_view PageTypeName(PageType type) {
  switch (type) {
    case PageType::kDataPage:
      return "DATA_PAGE";
    case PageType::kIndexPage:
      return "INDEX_PAGE";
    case PageType::kDictionaryPage:
      return "DICTIONARY_PAGE";
    case PageType::kDataPageV2:
      return "DATA_PAGE_V2";
  }
  return "UNKNOWN";
}

namespace internal {

namespace {

absl::StatusOr<Encoding> CheckedEncoding(int id, const char* what) {
  const std::optional<Encoding> encoding = EncodingFromId(id);
  if (!encoding) {
    return absl::UnimplementedError(absl::StrCat("unsupported ", what, " encoding id ", id));
  }
  return *encoding;
}

}  // namespace

absl::StatusOr<PageInfo> PageInfoFromHeader(const format::PageHeader& header,
                                            bool codec_compresses) {
  PageInfo info;
  info.type = static_cast<PageType>(header.type);
  info.type_id = static_cast<int32_t>(header.type);
  info.uncompressed_page_size = header.uncompressed_page_size;
  info.compressed_page_size = header.compressed_page_size;
  if (header.uncompressed_page_size < 0 || header.compressed_page_size < 0) {
    return absl::DataLossError(absl::StrCat("negative page size (compressed ",
                                            header.compressed_page_size, ", uncompressed ",
                                            header.uncompressed_page_size, ")"));
  }
  info.has_crc = header.__isset.crc;
  info.is_compressed = codec_compresses;
  switch (header.type) {
    case format::PageType::DATA_PAGE: {
      if (!header.__isset.data_page_header) {
        return absl::DataLossError("DATA_PAGE header without its data_page_header");
      }
      const format::DataPageHeader& page = header.data_page_header;
      if (page.num_values < 0) {
        return absl::DataLossError(absl::StrCat("negative num_values ", page.num_values));
      }
      info.num_values = page.num_values;
      auto encoding = CheckedEncoding(page.encoding, "value");
      if (!encoding.ok()) return encoding.status();
      info.encoding = *encoding;
      auto def = CheckedEncoding(page.definition_level_encoding, "definition level");
      if (!def.ok()) return def.status();
      auto rep = CheckedEncoding(page.repetition_level_encoding, "repetition level");
      if (!rep.ok()) return rep.status();
      info.definition_level_encoding = *def;
      info.repetition_level_encoding = *rep;
      if (page.__isset.statistics) info.statistics = StatisticsFromThrift(page.statistics);
      break;
    }
    case format::PageType::DATA_PAGE_V2: {
      if (!header.__isset.data_page_header_v2) {
        return absl::DataLossError("DATA_PAGE_V2 header without its data_page_header_v2");
      }
      const format::DataPageHeaderV2& page = header.data_page_header_v2;
      if (page.num_values < 0 || page.num_nulls < 0 || page.num_rows < 0 ||
          page.num_nulls > page.num_values) {
        return absl::DataLossError(absl::StrCat("impossible v2 counts: num_values ",
                                                page.num_values, ", num_nulls ", page.num_nulls,
                                                ", num_rows ", page.num_rows));
      }
      if (page.definition_levels_byte_length < 0 || page.repetition_levels_byte_length < 0 ||
          int64_t{page.definition_levels_byte_length} + page.repetition_levels_byte_length >
              header.compressed_page_size ||
          int64_t{page.definition_levels_byte_length} + page.repetition_levels_byte_length >
              header.uncompressed_page_size) {
        return absl::DataLossError(
            absl::StrCat("v2 level byte lengths (repetition ", page.repetition_levels_byte_length,
                         ", definition ", page.definition_levels_byte_length,
                         ") do not fit the page of ", header.compressed_page_size, " bytes"));
      }
      info.num_values = page.num_values;
      info.num_nulls = page.num_nulls;
      info.num_rows = page.num_rows;
      auto encoding = CheckedEncoding(page.encoding, "value");
      if (!encoding.ok()) return encoding.status();
      info.encoding = *encoding;
      info.definition_levels_byte_length = page.definition_levels_byte_length;
      info.repetition_levels_byte_length = page.repetition_levels_byte_length;
      // is_compressed defaults to true when absent; it only means something with a real codec.
      info.is_compressed = codec_compresses && (!page.__isset.is_compressed || page.is_compressed);
      if (page.__isset.statistics) info.statistics = StatisticsFromThrift(page.statistics);
      break;
    }
    case format::PageType::DICTIONARY_PAGE: {
      if (!header.__isset.dictionary_page_header) {
        return absl::DataLossError("DICTIONARY_PAGE header without its dictionary_page_header");
      }
      const format::DictionaryPageHeader& page = header.dictionary_page_header;
      if (page.num_values < 0) {
        return absl::DataLossError(absl::StrCat("negative dictionary size ", page.num_values));
      }
      info.num_values = page.num_values;
      if (page.__isset.is_sorted) info.dictionary_is_sorted = page.is_sorted;
      auto encoding = CheckedEncoding(page.encoding, "dictionary");
      if (!encoding.ok()) return encoding.status();
      info.encoding = *encoding;
      break;
    }
    default:
      break;  // index pages and page types added later: the reader passes over them
  }
  return info;
}

Statistics StatisticsFromThrift(const format::Statistics& statistics) {
  Statistics out;
  if (statistics.__isset.min_value) out.min_value = statistics.min_value;
  if (statistics.__isset.max_value) out.max_value = statistics.max_value;
  if (statistics.__isset.min) out.legacy_min = statistics.min;
  if (statistics.__isset.max) out.legacy_max = statistics.max;
  if (statistics.__isset.null_count) out.null_count = statistics.null_count;
  if (statistics.__isset.distinct_count) out.distinct_count = statistics.distinct_count;
  if (statistics.__isset.nan_count) out.nan_count = statistics.nan_count;
  return out;
}

format::Statistics StatisticsToThrift(const Statistics& statistics) {
  format::Statistics out;
  if (statistics.min_value) out.__set_min_value(*statistics.min_value);
  if (statistics.max_value) out.__set_max_value(*statistics.max_value);
  if (statistics.legacy_min) out.__set_min(*statistics.legacy_min);
  if (statistics.legacy_max) out.__set_max(*statistics.legacy_max);
  if (statistics.null_count) out.__set_null_count(*statistics.null_count);
  if (statistics.distinct_count) out.__set_distinct_count(*statistics.distinct_count);
  if (statistics.nan_count) out.__set_nan_count(*statistics.nan_count);
  return out;
}

}  // namespace internal
}  // namespace pqpage
