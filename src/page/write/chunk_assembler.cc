#include "page/write/chunk_assembler.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/add_if_absent.h"
#include "common/buffer_pool.h"
#include "common/checked_math.h"
#include "common/large_buffer.h"
#include "metadata/page_header.h"
#include "metadata/thrift_compact.h"
#include "pqpage/compression.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {
namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

absl::Status CheckFitsInt32(int64_t value, const char* what) {
  if (value < 0 || value > kInt32Max) {
    return absl::InvalidArgumentError(
        absl::StrCat("a page's ", what, " (", value,
                     ") does not fit the page header's int32 field: write "
                     "smaller pages (data_page_size, data_page_row_limit) or shorter rows"));
  }
  return absl::OkStatus();
}

}  // namespace

ChunkAssembler::ChunkAssembler(const ColumnDescriptor& column, const WriterOptions& options)
    : column_(column), options_(options) {}

void ChunkAssembler::NoteEncoding(Encoding encoding) { AddIfAbsent(encoding, &encodings_); }

void ChunkAssembler::CountPage(PageType type, Encoding encoding) {
  for (PageEncodingStats& count : encoding_stats_) {
    if (count.page_type() == type && count.encoding() == encoding) {
      ++count.count;
      return;
    }
  }
  encoding_stats_.push_back(PageEncodingStats::Of(type, encoding, 1));
}

size_t ChunkAssembler::StoredSize(absl::Span<const absl::Span<const uint8_t>> stored) {
  size_t size = 0;
  for (absl::Span<const uint8_t> piece : stored) size += piece.size();
  return size;
}

absl::StatusOr<int64_t> ChunkAssembler::AppendPage(
    format::PageHeader* header, absl::Span<const absl::Span<const uint8_t>> stored,
    std::vector<uint8_t>* out) {
  const size_t stored_size = StoredSize(stored);
  uint32_t crc = 0;
  if (options_.write_checksums) {
    for (absl::Span<const uint8_t> piece : stored) crc = PageCrc32(piece, crc);
  }
  PQPAGE_RETURN_IF_ERROR(CheckFitsInt32(static_cast<int64_t>(stored_size), "compressed size"));
  header->__set_compressed_page_size(static_cast<int32_t>(stored_size));
  // The format stores the unsigned CRC's bit pattern in a signed i32.
  if (options_.write_checksums) header->__set_crc(static_cast<int32_t>(crc));
  ReserveKeeping(out, out->size() + kUsualHeaderBytes + stored_size);
  const size_t before = out->size();
  PQPAGE_RETURN_IF_ERROR(SerializeCompact(*header, out));
  const int64_t header_size = static_cast<int64_t>(out->size() - before);
  for (absl::Span<const uint8_t> piece : stored) {
    out->insert(out->end(), piece.begin(), piece.end());
  }
  PQPAGE_RETURN_IF_ERROR(
      CheckFitsInt32(header_size + static_cast<int64_t>(stored_size), "size with header"));
  return header_size;
}

std::vector<uint8_t>* ChunkAssembler::BlockWithRoomFor(size_t bytes) {
  if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < bytes) {
    const size_t size = std::max(kBlockBytes, bytes);
    std::vector<uint8_t>& block = blocks_.emplace_back(WriterBufferPool().Take(size));
    block.clear();
    ReserveKeeping(&block, size);
  }
  return &blocks_.back();
}

absl::Status EncodedDataPage::EncodeLevels(const ColumnDescriptor& column,
                                           absl::Span<const int16_t> rep,
                                           absl::Span<const int16_t> def) {
  repetition_levels.clear();
  definition_levels.clear();
  const auto encode = [](int16_t max_level, absl::Span<const int16_t> levels,
                         std::vector<uint8_t>* out) -> absl::Status {
    if (max_level == 0) return absl::OkStatus();
    RleBitPackedHybridEncoder encoder(BitWidthOf(static_cast<uint64_t>(max_level)));
    PQPAGE_RETURN_IF_ERROR(encoder.Put(levels));
    encoder.FinishInto(out);
    return absl::OkStatus();
  };
  PQPAGE_RETURN_IF_ERROR(encode(column.max_repetition_level, rep, &repetition_levels));
  return encode(column.max_definition_level, def, &definition_levels);
}

absl::Status ChunkAssembler::AddDataPage(const EncodedDataPage& page) {
  PQPAGE_RETURN_IF_ERROR(CheckFitsInt32(page.num_levels, "level count"));
  const bool v2 = options_.data_page_version == 2;
  const bool has_rep = column_.max_repetition_level > 0;
  const bool has_def = column_.max_definition_level > 0;
  const bool codec_compresses = options_.compression != Compression::kUncompressed;
  const std::vector<uint8_t>& rep = page.repetition_levels;
  const std::vector<uint8_t>& def = page.definition_levels;

  // The pieces the page stores, in order, after its header.
  absl::Span<const uint8_t> levels;
  absl::Span<const uint8_t> values;
  int64_t uncompressed_size = 0;
  format::PageHeader header;
  if (!v2) {
    // [rep][def][values], each level stream behind its length, then all of it compressed. The
    // body and the compressed page are built in buffers kept from page to page.
    body_.clear();
    if (has_rep) AppendLengthPrefixed(rep, &body_);
    if (has_def) AppendLengthPrefixed(def, &body_);
    uncompressed_size = static_cast<int64_t>(body_.size() + page.values.size());
    if (codec_compresses) {
      body_.insert(body_.end(), page.values.begin(), page.values.end());
      PQPAGE_ASSIGN_OR_RETURN(values, CompressIntoBuffer(options_.compression, body_, &compressed_,
                                                         options_.compression_level));
    } else {
      // Stored as they are: the levels and the values go into the chunk from where they lie.
      levels = body_;
      values = page.values;
    }
    format::DataPageHeader data;
    data.__set_num_values(static_cast<int32_t>(page.num_levels));
    data.__set_encoding(static_cast<format::Encoding::type>(page.encoding));
    data.__set_definition_level_encoding(format::Encoding::RLE);
    data.__set_repetition_level_encoding(format::Encoding::RLE);
    if (page.statistics) data.__set_statistics(StatisticsToThrift(*page.statistics));
    header.__set_type(format::PageType::DATA_PAGE);
    header.__set_data_page_header(data);
    // The header names RLE for both level encodings even when there are no levels.
    NoteEncoding(Encoding::kRle);
  } else {
    // Levels never compressed; values compressed only when that makes them smaller.
    values = page.values;
    bool is_compressed = false;
    if (codec_compresses && !page.values.empty()) {
      PQPAGE_ASSIGN_OR_RETURN(const absl::Span<const uint8_t> compressed,
                              CompressIntoBuffer(options_.compression, page.values, &compressed_,
                                                 options_.compression_level));
      if (compressed.size() < page.values.size()) {
        is_compressed = true;
        values = compressed;
      }
    }
    uncompressed_size = static_cast<int64_t>(rep.size() + def.size() + page.values.size());
    PQPAGE_RETURN_IF_ERROR(CheckFitsInt32(page.num_nulls, "null count"));
    PQPAGE_RETURN_IF_ERROR(CheckFitsInt32(page.num_rows, "row count"));
    PQPAGE_RETURN_IF_ERROR(CheckFitsInt32(static_cast<int64_t>(rep.size()), "level bytes"));
    PQPAGE_RETURN_IF_ERROR(CheckFitsInt32(static_cast<int64_t>(def.size()), "level bytes"));
    format::DataPageHeaderV2 data;
    data.__set_num_values(static_cast<int32_t>(page.num_levels));
    data.__set_num_nulls(static_cast<int32_t>(page.num_nulls));
    data.__set_num_rows(static_cast<int32_t>(page.num_rows));
    data.__set_encoding(static_cast<format::Encoding::type>(page.encoding));
    data.__set_definition_levels_byte_length(static_cast<int32_t>(def.size()));
    data.__set_repetition_levels_byte_length(static_cast<int32_t>(rep.size()));
    data.__set_is_compressed(is_compressed);
    if (page.statistics) data.__set_statistics(StatisticsToThrift(*page.statistics));
    header.__set_type(format::PageType::DATA_PAGE_V2);
    header.__set_data_page_header_v2(data);
    if (has_rep || has_def) NoteEncoding(Encoding::kRle);
  }
  PQPAGE_RETURN_IF_ERROR(CheckFitsInt32(uncompressed_size, "uncompressed size"));
  header.__set_uncompressed_page_size(static_cast<int32_t>(uncompressed_size));

  const int64_t offset = data_pages_bytes_;
  const absl::Span<const uint8_t> v1_pieces[] = {levels, values};
  const absl::Span<const uint8_t> v2_pieces[] = {rep, def, values};
  const absl::Span<const absl::Span<const uint8_t>> stored =
      v2 ? absl::MakeConstSpan(v2_pieces) : absl::MakeConstSpan(v1_pieces);
  std::vector<uint8_t>* block = BlockWithRoomFor(kUsualHeaderBytes + StoredSize(stored));
  const size_t block_before = block->size();
  PQPAGE_ASSIGN_OR_RETURN(const int64_t header_size, AppendPage(&header, stored, block));
  data_pages_bytes_ += static_cast<int64_t>(block->size() - block_before);
  IndexedPage& location = pages_.emplace_back();
  location.offset = offset;
  location.compressed_page_size = static_cast<int32_t>(data_pages_bytes_ - offset);
  location.first_row_index = num_rows_;
  NoteEncoding(page.encoding);
  CountPage(v2 ? PageType::kDataPageV2 : PageType::kDataPage, page.encoding);
  num_values_ += page.num_levels;
  num_rows_ += page.num_rows;
  uncompressed_bytes_ += header_size + uncompressed_size;
  return absl::OkStatus();
}

absl::StatusOr<ColumnChunkData> ChunkAssembler::Finish(int64_t file_offset,
                                                       const std::vector<uint8_t>* dictionary_body,
                                                       int64_t dictionary_entries,
                                                       std::optional<Statistics> statistics,
                                                       bool in_pieces) {
  ColumnChunkData chunk;
  ColumnMetaData& meta = chunk.metadata;
  meta.physical_type_id = static_cast<int32_t>(column_.type);
  meta.path_in_schema = column_.path;
  meta.codec_id = static_cast<int32_t>(options_.compression);
  meta.num_values = num_values_;
  meta.statistics = std::move(statistics);
  chunk.num_rows = num_rows_;
  std::vector<PageEncodingStats>& encoding_stats = meta.encoding_stats.emplace();

  int64_t dictionary_uncompressed = 0;
  std::vector<uint8_t> dictionary_page;
  if (dictionary_body != nullptr) {
    if (in_pieces) {
      // The page is then the chunk's first buffer, which goes to the writer pool once written:
      // it comes from there too, or the pool would gather one more buffer with every chunk.
      dictionary_page = WriterBufferPool().Take(dictionary_body->size() + kUsualHeaderBytes);
      dictionary_page.clear();
    }
    PQPAGE_RETURN_IF_ERROR(CheckFitsInt32(dictionary_entries, "dictionary entry count"));
    PQPAGE_RETURN_IF_ERROR(
        CheckFitsInt32(static_cast<int64_t>(dictionary_body->size()), "dictionary size"));
    absl::Span<const uint8_t> stored = *dictionary_body;
    if (options_.compression != Compression::kUncompressed) {
      PQPAGE_ASSIGN_OR_RETURN(stored, CompressIntoBuffer(options_.compression, *dictionary_body,
                                                         &compressed_, options_.compression_level));
    }
    format::DictionaryPageHeader dictionary;
    dictionary.__set_num_values(static_cast<int32_t>(dictionary_entries));
    dictionary.__set_encoding(format::Encoding::PLAIN);
    format::PageHeader header;
    header.__set_type(format::PageType::DICTIONARY_PAGE);
    header.__set_uncompressed_page_size(static_cast<int32_t>(dictionary_body->size()));
    header.__set_dictionary_page_header(dictionary);
    PQPAGE_ASSIGN_OR_RETURN(const int64_t header_size,
                            AppendPage(&header, {&stored, 1}, &dictionary_page));
    dictionary_uncompressed = header_size + static_cast<int64_t>(dictionary_body->size());
    meta.dictionary_page_offset = file_offset;
    meta.encoding_ids.push_back(static_cast<int32_t>(Encoding::kPlain));
    encoding_stats.push_back(PageEncodingStats::Of(PageType::kDictionaryPage, Encoding::kPlain, 1));
  }
  // The chunk is put together once, in a buffer of its exact size: the dictionary page, then the
  // blocks of data pages. A chunk of one block and no dictionary is handed over as it is.
  const int64_t data_start = static_cast<int64_t>(dictionary_page.size());
  const size_t chunk_size = dictionary_page.size() + static_cast<size_t>(data_pages_bytes_);
  if (dictionary_page.empty() && blocks_.size() == 1) {
    chunk.bytes = std::move(blocks_.front());
  } else if (in_pieces) {
    chunk.bytes = std::move(dictionary_page);
    chunk.more_bytes = std::move(blocks_);
  } else {
    chunk.bytes = WriterBufferPool().Take(chunk_size);
    chunk.bytes.clear();
    ReserveKeeping(&chunk.bytes, chunk_size);
    chunk.bytes.insert(chunk.bytes.end(), dictionary_page.begin(), dictionary_page.end());
    for (std::vector<uint8_t>& block : blocks_) {
      chunk.bytes.insert(chunk.bytes.end(), block.begin(), block.end());
      WriterBufferPool().Give(std::move(block));
    }
  }
  blocks_.clear();

  for (Encoding encoding : encodings_) {
    AddIfAbsent(static_cast<int32_t>(encoding), &meta.encoding_ids);
  }
  encoding_stats.insert(encoding_stats.end(), encoding_stats_.begin(), encoding_stats_.end());
  meta.data_page_offset = file_offset + data_start;
  meta.total_compressed_size = chunk.stored_size();
  meta.total_uncompressed_size = dictionary_uncompressed + uncompressed_bytes_;
  chunk.page_index.pages = std::move(pages_);
  chunk.page_index.has_offset_index = !chunk.page_index.pages.empty();
  for (IndexedPage& page : chunk.page_index.pages) page.offset += file_offset + data_start;
  return chunk;
}

}  // namespace pqpage::internal
