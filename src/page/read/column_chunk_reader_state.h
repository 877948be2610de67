// The state of a ColumnChunkReader, shared by the files that implement it: the page walk and the
// decoding of levels and values (column_chunk_reader.cc), and row addressing: seeking, skipping
// and reading selected row ranges, through the offset index when there is one
// (column_chunk_reader_rows.cc).
#ifndef PQPAGE_PAGE_READ_COLUMN_CHUNK_READER_STATE_H_
#define PQPAGE_PAGE_READ_COLUMN_CHUNK_READER_STATE_H_

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "page/read/level_decoder.h"
#include "page/read/page_value_decoder.h"
#include "page/read/page_walker.h"
#include "page/read/pooled_buffer.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/page_index.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/status_macros.h"

namespace pqpage {

struct ColumnChunkReader::State {
  ColumnDescriptor column;
  ColumnChunkLocation location;
  ReaderOptions options;
  internal::PageWalker walker;
  std::unique_ptr<internal::PageValueDecoderBase> values;

  // The dictionary page, decompressed, or copied when the source is read piece by piece.
  internal::PooledBuffer dictionary_bytes;
  std::optional<PageInfo> dictionary_info;

  bool have_page = false;
  bool exhausted = false;
  PageInfo page;
  int64_t page_index = -1;
  internal::PooledBuffer decompressed;  // the current page, when it was compressed
  internal::LevelDecoder definition_levels;
  internal::LevelDecoder repetition_levels;
  int64_t levels_left = 0;
  int64_t levels_seen = 0;      // levels of the chunk's data pages started or passed over so far
  int64_t levels_consumed = 0;  // levels handed out in batches or skipped
  int64_t rows_started = 0;     // rows begun among them (repetition levels of 0)
  // The current page's nulls when its header states them and the present values were taken from
  // it; present_left is what the levels have not shown yet.
  std::optional<int64_t> header_nulls;
  int64_t present_left = 0;
  std::vector<int16_t> definition_scratch;  // when the caller passes no definition buffer
  std::vector<int16_t> repetition_scratch;

  // Row-addressed reading (column_chunk_reader_rows.cc).
  // The chunk's OffsetIndex, when the caller gave it: pages are then jumped to, not walked to.
  std::vector<IndexedPage> offset_index;
  int64_t data_page_ordinal = -1;  // the current data page's index among the chunk's data pages
  int64_t leading_pages = -1;      // pages before the first data page, once known
  int64_t first_data_offset = -1;  // the first data page's offset in the chunk, once known
  // Pages were jumped over through the offset index: the chunk's value and row totals are not
  // known, so they are not checked at its end.
  bool jumped = false;
  // Levels of the current page decoded but given back (a batch that ran past the row it had to
  // end at); they are handed out again before the level decoders go on.
  std::vector<int16_t> returned_definition;
  std::vector<int16_t> returned_repetition;
  size_t returned_begin = 0;
  size_t returned_end = 0;
  int64_t taken_from_returned = 0;  // by the last DecodeLevels
  // SelectRows: the ranges batches are limited to, the current one, and whether it was sought.
  bool selecting = false;
  std::vector<RowRange> ranges;
  size_t range = 0;
  bool range_started = false;

  State(ColumnDescriptor column_in, const ByteSource* source, ColumnChunkLocation location_in,
        ReaderOptions options_in)
      : column(std::move(column_in)),
        location(std::move(location_in)),
        options(std::move(options_in)),
        walker(source, location, column.PathString(), options),
        values(internal::MakePageValueDecoder(column, location.carry_delta_byte_array_prefix)) {}

  absl::Status Fail(const absl::Status& status) const { return walker.Annotate(status); }

  // Inflates a page's stored bytes into `buffer`, which keeps its memory from page to page.
  absl::StatusOr<absl::Span<const uint8_t>> Inflate(absl::Span<const uint8_t> stored, int64_t size,
                                                    internal::PooledBuffer& buffer) {
    absl::StatusOr<absl::Span<const uint8_t>> inflated = DecompressIntoBuffer(
        location.codec, stored, size, &buffer.Get(static_cast<size_t>(std::max<int64_t>(size, 0))));
    if (!inflated.ok()) return Fail(inflated.status());
    return inflated;
  }

  absl::Status ReadDictionaryPage() {
    if (dictionary_info) return Fail(absl::DataLossError("a second dictionary page"));
    if (levels_seen > 0 || page_index >= 0) {
      return Fail(absl::DataLossError("a dictionary page after data pages"));
    }
    const PageInfo& info = walker.info();
    if (info.encoding != Encoding::kPlain && info.encoding != Encoding::kPlainDictionary) {
      return Fail(absl::UnimplementedError(
          absl::StrCat("dictionary page encoded as ", EncodingName(info.encoding).data())));
    }
    // The decoder keeps views of the page: it is copied unless it lives as long as the reader.
    absl::Span<const uint8_t> page_bytes = walker.stored_bytes();
    if (location.codec != Compression::kUncompressed) {
      PQPAGE_ASSIGN_OR_RETURN(page_bytes,
                              Inflate(page_bytes, info.uncompressed_page_size, dictionary_bytes));
    } else if (!walker.stored_bytes_live_with_source()) {
      std::vector<uint8_t>& bytes = dictionary_bytes.Get(page_bytes.size());
      bytes.assign(page_bytes.begin(), page_bytes.end());
      page_bytes = bytes;
    }
    PQPAGE_RETURN_IF_ERROR(Fail(values->SetDictionary(page_bytes, info.num_values)));
    dictionary_info = info;
    return absl::OkStatus();
  }

  absl::Status CheckTotal() const {
    if (jumped) return absl::OkStatus();
    if (location.num_values >= 0 && levels_seen != location.num_values) {
      return walker.Annotate(
          absl::DataLossError(absl::StrCat("the column chunk's pages hold ", levels_seen,
                                           " values but its metadata says ", location.num_values)));
    }
    // Rows can only be counted when every level was consumed (NextDataPage may pass pages over).
    if (location.num_rows >= 0 && levels_consumed == levels_seen &&
        rows_started != location.num_rows) {
      return walker.Annotate(
          absl::DataLossError(absl::StrCat("the column chunk holds ", rows_started,
                                           " rows but its row group has ", location.num_rows)));
    }
    return absl::OkStatus();
  }

  // Moves to the next data page. False at the end of the chunk. With `before_row` >= 0 (a seek to
  // that row), pages whose rows all lie before it are passed over without being decoded.
  absl::StatusOr<bool> LoadDataPage(int64_t before_row = -1) {
    have_page = false;
    levels_left = 0;
    returned_begin = returned_end = 0;
    for (;;) {
      if (exhausted) return false;
      if (!offset_index.empty()) {
        if (selecting || before_row >= 0) {
          LimitReadAheadToIndexedPage();
        } else {
          walker.LimitReadAhead(-1);
        }
      }
      PQPAGE_ASSIGN_OR_RETURN(const bool more, walker.Next());
      if (!more) {
        exhausted = true;
        PQPAGE_RETURN_IF_ERROR(CheckTotal());
        return false;
      }
      const PageInfo& info = walker.info();
      switch (info.type) {
        case PageType::kDictionaryPage:
          PQPAGE_RETURN_IF_ERROR(ReadDictionaryPage());
          continue;
        case PageType::kDataPage:
        case PageType::kDataPageV2:
          if (first_data_offset < 0) {
            first_data_offset = info.offset - location.offset;
            leading_pages = walker.page_index();
          }
          if (before_row >= 0 && PageLiesBefore(info, before_row)) {
            PQPAGE_RETURN_IF_ERROR(PassOverPage(info));
            continue;
          }
          PQPAGE_RETURN_IF_ERROR(StartDataPage());
          return true;
        default:
          continue;  // index pages and page types this reader does not know
      }
    }
  }

  absl::Status StartDataPage() {
    page = walker.info();
    page_index = walker.page_index();
    ++data_page_ordinal;
    const int64_t num_levels = page.num_values;
    PQPAGE_RETURN_IF_ERROR(CheckPageFits(num_levels));
    absl::Span<const uint8_t> values_section;
    absl::Span<const uint8_t> repetition_section;
    absl::Span<const uint8_t> definition_section;
    Encoding repetition_encoding = Encoding::kRle;
    Encoding definition_encoding = Encoding::kRle;
    const absl::Span<const uint8_t> stored = walker.stored_bytes();
    if (page.type == PageType::kDataPage) {
      absl::Span<const uint8_t> body = stored;
      if (location.codec != Compression::kUncompressed) {
        PQPAGE_ASSIGN_OR_RETURN(body, Inflate(stored, page.uncompressed_page_size, decompressed));
      } else if (static_cast<int64_t>(stored.size()) != page.uncompressed_page_size) {
        // The stored bytes, not compressed_page_size: an encrypted page's module is larger.
        return Fail(absl::DataLossError(absl::StrCat("uncompressed page with compressed size ",
                                                     stored.size(), " != uncompressed size ",
                                                     page.uncompressed_page_size)));
      }
      // v1: [repetition levels][definition levels][values]; RLE sections carry a 4-byte length
      // prefix, BIT_PACKED ones are exactly ceil(n * width / 8) bytes.
      size_t position = 0;
      auto split = [&](Encoding encoding, int16_t max_level,
                       absl::Span<const uint8_t>* section) -> absl::Status {
        if (max_level == 0) return absl::OkStatus();
        const absl::Span<const uint8_t> rest = body.subspan(position);
        if (encoding == Encoding::kRle) {
          size_t consumed = 0;
          PQPAGE_ASSIGN_OR_RETURN(*section, SplitLengthPrefixed(rest, &consumed));
          position += consumed;
          return absl::OkStatus();
        }
        if (encoding == Encoding::kBitPacked) {
          const size_t size = BitPackedEncodedSize(internal::LevelBitWidth(max_level),
                                                   static_cast<size_t>(num_levels));
          if (size > rest.size()) {
            return absl::DataLossError("BIT_PACKED level section runs past the page");
          }
          *section = rest.subspan(0, size);
          position += size;
          return absl::OkStatus();
        }
        return absl::UnimplementedError(
            absl::StrCat("levels encoded as ", EncodingName(encoding).data(), " are not defined"));
      };
      repetition_encoding = page.repetition_level_encoding;
      definition_encoding = page.definition_level_encoding;
      PQPAGE_RETURN_IF_ERROR(
          Fail(split(repetition_encoding, column.max_repetition_level, &repetition_section)));
      PQPAGE_RETURN_IF_ERROR(
          Fail(split(definition_encoding, column.max_definition_level, &definition_section)));
      values_section = body.subspan(position);
    } else {
      // v2: the level sections are never compressed and have their lengths in the header; they
      // are skipped by those lengths even when the schema says the column has no such levels.
      const size_t repetition_bytes = static_cast<size_t>(page.repetition_levels_byte_length);
      const size_t definition_bytes = static_cast<size_t>(page.definition_levels_byte_length);
      repetition_section = stored.subspan(0, repetition_bytes);
      definition_section = stored.subspan(repetition_bytes, definition_bytes);
      const absl::Span<const uint8_t> stored_values =
          stored.subspan(repetition_bytes + definition_bytes);
      const int64_t values_size = int64_t{page.uncompressed_page_size} -
                                  static_cast<int64_t>(repetition_bytes) -
                                  static_cast<int64_t>(definition_bytes);
      // An empty values section is not a valid compressed stream of any codec: it is not
      // decompressed.
      if (page.is_compressed && !stored_values.empty()) {
        PQPAGE_ASSIGN_OR_RETURN(values_section, Inflate(stored_values, values_size, decompressed));
      } else {
        values_section = stored_values;
      }
    }
    if (column.max_repetition_level > 0) {
      PQPAGE_RETURN_IF_ERROR(Fail(repetition_levels.Reset(repetition_encoding, repetition_section,
                                                          column.max_repetition_level, num_levels,
                                                          location.bit_packed_levels)));
    }
    int64_t present = num_levels;
    header_nulls = std::nullopt;
    if (column.max_definition_level > 0) {
      PQPAGE_RETURN_IF_ERROR(Fail(definition_levels.Reset(definition_encoding, definition_section,
                                                          column.max_definition_level, num_levels,
                                                          location.bit_packed_levels)));
      if (page.type == PageType::kDataPageV2 && page.num_nulls &&
          column.max_repetition_level == 0) {
        // A v2 header states the page's nulls: without repetition, the present values are the
        // rest, which spares a pass over the levels before the first batch. The batches check the
        // levels against it as they decode them (ReadLevels). PageInfoFromHeader checked that
        // 0 <= num_nulls <= num_values.
        header_nulls = *page.num_nulls;
        present = num_levels - *page.num_nulls;
        present_left = present;
      } else {
        // Counting the present values takes a pass over the definition levels; they are decoded
        // again batch by batch into the caller's buffers.
        absl::StatusOr<int64_t> counted = definition_levels.CountMaxLevels();
        if (!counted.ok()) return Fail(counted.status());
        present = *counted;
        PQPAGE_RETURN_IF_ERROR(Fail(definition_levels.Reset(definition_encoding, definition_section,
                                                            column.max_definition_level, num_levels,
                                                            location.bit_packed_levels)));
      }
    }
    if (page.num_nulls && column.max_repetition_level == 0 &&
        *page.num_nulls != num_levels - present) {
      return Fail(
          absl::DataLossError(absl::StrCat("the header says ", *page.num_nulls,
                                           " nulls but the levels hold ", num_levels - present)));
    }
    absl::Status started = values->StartPage(page.encoding, values_section, present);
    if (!started.ok() && header_nulls) {
      // The values may disagree with the header's nulls rather than be damaged: say which.
      PQPAGE_RETURN_IF_ERROR(Fail(definition_levels.Reset(definition_encoding, definition_section,
                                                          column.max_definition_level, num_levels,
                                                          location.bit_packed_levels)));
      absl::StatusOr<int64_t> counted = definition_levels.CountMaxLevels();
      if (counted.ok() && *counted != present) {
        return Fail(absl::DataLossError(absl::StrCat("the header says ", *header_nulls,
                                                     " nulls but the levels hold ",
                                                     num_levels - *counted)));
      }
    }
    PQPAGE_RETURN_IF_ERROR(Fail(started));
    levels_seen += num_levels;
    levels_left = num_levels;
    have_page = true;
    return absl::OkStatus();
  }

  absl::StatusOr<bool> EnsurePage();

  // Decodes the levels of the next batch; returns how many levels and how many present values.
  // Under SelectRows, the batch starts at the next selected level and ends with its range.
  absl::StatusOr<BatchCounts> ReadLevels(int64_t max_levels, int16_t* definition,
                                         int16_t* repetition);
  // ReadLevels for a batch of at most `batch` levels into the caller's level spans, each empty or
  // at least `batch` long (InvalidArgument otherwise): the start of every batch read.
  absl::StatusOr<BatchCounts> ReadBatchLevels(size_t batch, absl::Span<int16_t> definition,
                                              absl::Span<int16_t> repetition);

  // ReadLevels for a column without repetition, whose definition levels are wanted as validity
  // bits (ReadBatchValidity): set for each present value, from bit `bit_offset` of `bits`, which
  // holds at least bit_offset + max_levels bits.
  absl::StatusOr<BatchCounts> ReadValidity(int64_t max_levels, uint8_t* bits, int64_t bit_offset);

  // Moves to the page the next level comes from: EnsurePage, or under SelectRows the next
  // selected level (false once the ranges are done).
  absl::StatusOr<bool> EnsureNextLevel();

  struct LevelCounts {
    int64_t present = 0;     // definition levels at the maximum
    int64_t row_starts = 0;  // repetition levels of 0
  };
  // Decodes the next `n` levels of the current page (given-back ones first) into the buffers
  // (nullptr only for levels the column does not have), counting them; the reader's position
  // is Consume's to move.
  absl::StatusOr<LevelCounts> DecodeLevels(int64_t n, int16_t* definition, int16_t* repetition);
  // Gives back levels [keep, n) of the last DecodeLevels(n, ...) into these buffers.
  void GiveBack(const int16_t* definition, const int16_t* repetition, int64_t keep, int64_t n);
  // Of the `*n` levels just decoded into these buffers, keeps those before the (k+1)-th row start
  // (repetition level 0) and gives back the rest, counting what is kept into `counts`; true when
  // there was such a row start.
  bool KeepBeforeRowStart(int64_t k, const int16_t* definition, const int16_t* repetition,
                          int64_t* n, LevelCounts* counts);
  // Moves past `n` decoded levels: checks them against the header's nulls and the chunk's first
  // repetition level, and counts them.
  absl::Status Consume(int64_t n, const LevelCounts& counts, const int16_t* repetition);
  // Counts of the levels [begin, end) of these buffers.
  LevelCounts CountLevels(const int16_t* definition, const int16_t* repetition, int64_t begin,
                          int64_t end) const;

  // Row addressing (see ColumnChunkReader::SeekToRow).
  absl::Status SeekToRow(int64_t row);
  // Within the current page, passes over the levels before the (k+1)-th row start from here;
  // true when it was found in the page (the reader is then at a row's first level).
  absl::StatusOr<bool> SkipInPage(int64_t k);
  // Reads the dictionary and index pages before the offset index's first page.
  absl::Status ReadLeadingPages();
  // Goes to data page `j` of the offset index (or, without one, j = 0: the first data page) and
  // starts it, as if every level before it had been consumed.
  absl::Status JumpToPage(int64_t j);
  // Under an offset index, limits the walker's read-ahead to the indexed page it reads next.
  void LimitReadAheadToIndexedPage();
  // Whether the page the walker just read can be passed over without decoding on the way to
  // `row`: every row of it lies before that row (how many rows it holds is known from its header).
  bool PageLiesBefore(const PageInfo& info, int64_t row) const;
  // The rows a data page holds, when its header tells (no repetition, or a page v2).
  std::optional<int64_t> RowsInPage(const PageInfo& info) const;
  absl::Status PassOverPage(const PageInfo& info);
  // DataLoss when `num_levels` more levels take the chunk past its metadata's num_values.
  absl::Status CheckPageFits(int64_t num_levels) const;
};

}  // namespace pqpage

#endif  // PQPAGE_PAGE_READ_COLUMN_CHUNK_READER_STATE_H_
