// Row addressing for ColumnChunkReader: seeking to a row, skipping rows and reading selected row
// ranges. Levels are what place a row (a repeated column's row begins at each repetition level of
// 0, and in data pages v1 a row may go on into the next page); whole pages are passed over by their
// headers' counts or, with the chunk's offset index, jumped over without reading them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "page/read/column_chunk_reader_state.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

// Levels decoded at a time while passing over rows inside a page.
constexpr int64_t kSkipBatch = 4096;

}  // namespace

std::optional<int64_t> ColumnChunkReader::State::RowsInPage(const PageInfo& info) const {
  if (column.max_repetition_level == 0) return info.num_values;
  // Data pages v2 start at a row boundary and state their rows; v1 pages of a repeated column
  // tell nothing without their levels.
  if (info.type == PageType::kDataPageV2 && info.num_rows) return *info.num_rows;
  return std::nullopt;
}

bool ColumnChunkReader::State::PageLiesBefore(const PageInfo& info, int64_t row) const {
  // A legacy DELTA_BYTE_ARRAY page continues the previous page's last value: none is passed over.
  if (location.carry_delta_byte_array_prefix) return false;
  const std::optional<int64_t> rows = RowsInPage(info);
  return rows && rows_started + *rows <= row;
}

absl::Status ColumnChunkReader::State::CheckPageFits(int64_t num_levels) const {
  if (location.num_values >= 0 && !jumped && levels_seen + num_levels > location.num_values) {
    return Fail(absl::DataLossError(absl::StrCat("the page's ", num_levels,
                                                 " values take the chunk past the ",
                                                 location.num_values, " its metadata says")));
  }
  return absl::OkStatus();
}

absl::Status ColumnChunkReader::State::PassOverPage(const PageInfo& info) {
  PQPAGE_RETURN_IF_ERROR(CheckPageFits(info.num_values));
  page_index = walker.page_index();
  ++data_page_ordinal;
  levels_seen += info.num_values;
  levels_consumed += info.num_values;
  rows_started += *RowsInPage(info);
  return absl::OkStatus();
}

void ColumnChunkReader::State::LimitReadAheadToIndexedPage() {
  const int64_t next = location.offset + walker.next_offset();
  const auto page =
      std::lower_bound(offset_index.begin(), offset_index.end(), next,
                       [](const IndexedPage& p, int64_t offset) { return p.offset < offset; });
  if (page != offset_index.end() && page->offset == next) {
    walker.LimitReadAhead(walker.next_offset() + page->compressed_page_size);
  } else {
    walker.LimitReadAhead(-1);
  }
}

absl::Status ColumnChunkReader::State::ReadLeadingPages() {
  if (leading_pages >= 0) return absl::OkStatus();
  const int64_t first = offset_index.front().offset - location.offset;
  walker.LimitReadAhead(first);
  while (walker.next_offset() < first) {
    PQPAGE_ASSIGN_OR_RETURN(const bool more, walker.Next());
    if (!more) break;
    const PageInfo& info = walker.info();
    if (info.type == PageType::kDictionaryPage) {
      PQPAGE_RETURN_IF_ERROR(ReadDictionaryPage());
    } else if (info.type == PageType::kDataPage || info.type == PageType::kDataPageV2) {
      return Fail(absl::DataLossError("a data page before the first page of the offset index"));
    }
  }
  if (walker.next_offset() != first) {
    return Fail(absl::DataLossError(absl::StrCat("the offset index's first page is at offset ",
                                                 offset_index.front().offset,
                                                 ", inside the pages before it")));
  }
  leading_pages = walker.page_index() + 1;
  first_data_offset = first;
  return absl::OkStatus();
}

absl::Status ColumnChunkReader::State::JumpToPage(int64_t j) {
  if (offset_index.empty() && first_data_offset < 0) {
    // No data page was reached yet (a seek to the end reads none): the walk starts over, and
    // the first data page is found as on the first read.
    walker.Restart(0, 0, 0);
    exhausted = false;
    jumped = false;
    have_page = false;
    levels_left = 0;
    levels_seen = 0;
    levels_consumed = 0;
    rows_started = 0;
    return absl::OkStatus();
  }
  int64_t offset = first_data_offset;
  if (!offset_index.empty()) {
    PQPAGE_RETURN_IF_ERROR(ReadLeadingPages());
    offset = offset_index[static_cast<size_t>(j)].offset - location.offset;
  }
  // From the first data page the chunk's totals are counted afresh; from a later one they cannot
  // be.
  walker.Restart(offset, leading_pages + j, j == 0 ? 0 : -1);
  exhausted = false;
  jumped = j > 0;
  data_page_ordinal = j - 1;
  levels_seen = 0;
  levels_consumed = 0;
  rows_started = j > 0 ? offset_index[static_cast<size_t>(j)].first_row_index : 0;
  PQPAGE_ASSIGN_OR_RETURN(const bool loaded, LoadDataPage(rows_started));
  if (!loaded || page.offset != location.offset + offset) {
    return Fail(
        absl::DataLossError(absl::StrCat("no data page at offset ", location.offset + offset,
                                         ", where the offset index puts page ", j)));
  }
  if (j > 0 && column.max_repetition_level > 0) {
    int16_t definition = 0;
    int16_t repetition = 0;
    PQPAGE_RETURN_IF_ERROR(DecodeLevels(1, &definition, &repetition).status());
    GiveBack(&definition, &repetition, 0, 1);
    if (repetition != 0) {
      return Fail(
          absl::DataLossError(absl::StrCat("the offset index says page ", j, " starts row ",
                                           rows_started, ", but its first level continues a row")));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> ColumnChunkReader::State::SkipInPage(int64_t k) {
  const bool repeated = column.max_repetition_level > 0;
  while (levels_left > 0) {
    // Without repetition every level is a row: the (k+1)-th row start is k levels on.
    int64_t n = std::min(levels_left, kSkipBatch);
    if (!repeated) n = std::min(n, k);
    if (n == 0) return true;
    definition_scratch.resize(static_cast<size_t>(n));
    repetition_scratch.resize(static_cast<size_t>(n));
    int16_t* definition = definition_scratch.data();
    int16_t* repetition = repeated ? repetition_scratch.data() : nullptr;
    PQPAGE_ASSIGN_OR_RETURN(LevelCounts counts, DecodeLevels(n, definition, repetition));
    const bool found = repeated && KeepBeforeRowStart(k, definition, repetition, &n, &counts);
    PQPAGE_RETURN_IF_ERROR(Consume(n, counts, repetition));
    PQPAGE_RETURN_IF_ERROR(Fail(values->Skip(counts.present)));
    k -= counts.row_starts;
    if (found) return true;
  }
  return false;
}

absl::Status ColumnChunkReader::State::SeekToRow(int64_t row) {
  if (row < 0 || (location.num_rows >= 0 && row > location.num_rows)) {
    return absl::InvalidArgumentError(
        absl::StrCat("row ", row, " is outside the row group's ", location.num_rows, " rows"));
  }
  if (location.num_rows >= 0 && row == location.num_rows) {
    // The end: nothing is left to read, and the pages in between are not needed to know it.
    have_page = false;
    levels_left = 0;
    exhausted = true;
    jumped = true;
    rows_started = row;
    return absl::OkStatus();
  }
  if (!offset_index.empty()) {
    PQPAGE_RETURN_IF_ERROR(ReadLeadingPages());
    // The last page that starts at or before the row.
    const auto after =
        std::upper_bound(offset_index.begin(), offset_index.end(), row,
                         [](int64_t r, const IndexedPage& p) { return r < p.first_row_index; });
    const int64_t j = (after - offset_index.begin()) - 1;
    if (rows_started > row || j > data_page_ordinal) PQPAGE_RETURN_IF_ERROR(JumpToPage(j));
  } else if (rows_started > row) {
    PQPAGE_RETURN_IF_ERROR(JumpToPage(0));
  }
  for (;;) {
    if (!have_page || levels_left == 0) {
      PQPAGE_ASSIGN_OR_RETURN(const bool loaded, LoadDataPage(row));
      if (!loaded) return absl::OkStatus();
    }
    if (rows_started > row) return absl::InternalError("a seek went past its row");
    PQPAGE_ASSIGN_OR_RETURN(const bool found, SkipInPage(row - rows_started));
    if (found) return absl::OkStatus();
  }
}

absl::StatusOr<bool> ColumnChunkReader::State::EnsureNextLevel() {
  if (!selecting) return EnsurePage();
  const bool repeated = column.max_repetition_level > 0;
  for (;;) {
    if (range >= ranges.size()) return false;
    const RowRange current = ranges[range];
    if (current.begin == current.end) {
      ++range;
      continue;
    }
    if (!range_started) {
      PQPAGE_RETURN_IF_ERROR(SeekToRow(current.begin));
      range_started = true;
    }
    if (rows_started >= current.end) {
      // Every row of the range has begun; a repeated column's last one may go on.
      bool done = !repeated;
      if (!done && levels_left == 0) {
        // Pages v2 and pages an offset index lists start at a row boundary: the next page need
        // not be read to know.
        done = (have_page && page.type == PageType::kDataPageV2) || !offset_index.empty();
      }
      if (!done) {
        PQPAGE_ASSIGN_OR_RETURN(const bool loaded, EnsurePage());
        done = !loaded;
        if (loaded) {
          int16_t definition = 0;
          int16_t repetition = 0;
          PQPAGE_RETURN_IF_ERROR(DecodeLevels(1, &definition, &repetition).status());
          GiveBack(&definition, &repetition, 0, 1);
          done = repetition == 0;
        }
      }
      if (done) {
        ++range;
        range_started = false;
        continue;
      }
    }
    PQPAGE_ASSIGN_OR_RETURN(const bool loaded, EnsurePage());
    if (!loaded) range = ranges.size();
    return loaded;
  }
}

absl::Status ColumnChunkReader::UseOffsetIndex(const ChunkPageIndex& index) {
  State& s = *state_;
  if (!index.has_offset_index || index.pages.empty()) {
    return absl::InvalidArgumentError("the page index has no OffsetIndex pages");
  }
  if (s.walker.page_index() >= 0 || s.data_page_ordinal >= 0) {
    return absl::InvalidArgumentError("UseOffsetIndex after pages were read");
  }
  const int64_t chunk_end = s.location.offset + s.location.length;
  int64_t previous_end = s.location.offset;
  int64_t previous_row = -1;
  for (const IndexedPage& page : index.pages) {
    if (page.offset < previous_end || page.compressed_page_size <= 0 ||
        page.offset > chunk_end - page.compressed_page_size) {
      return absl::InvalidArgumentError(absl::StrCat("the offset index puts a page at offset ",
                                                     page.offset, " (", page.compressed_page_size,
                                                     " bytes), outside the chunk or out of order"));
    }
    if (page.first_row_index < previous_row || (previous_row < 0 && page.first_row_index != 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the offset index's first rows are out of order at ", page.first_row_index));
    }
    previous_end = page.offset + page.compressed_page_size;
    previous_row = page.first_row_index;
  }
  if (s.location.carry_delta_byte_array_prefix) return absl::OkStatus();
  s.offset_index = index.pages;
  return absl::OkStatus();
}

int64_t ColumnChunkReader::current_row() const { return state_->rows_started; }

absl::Status ColumnChunkReader::SeekToRow(int64_t row) {
  state_->selecting = false;
  return state_->SeekToRow(row);
}

absl::StatusOr<int64_t> ColumnChunkReader::SkipRows(int64_t rows) {
  if (rows < 0) return absl::InvalidArgumentError("a negative number of rows to skip");
  State& s = *state_;
  s.selecting = false;
  const int64_t before = s.rows_started;
  int64_t target = rows > std::numeric_limits<int64_t>::max() - before
                       ? std::numeric_limits<int64_t>::max()
                       : before + rows;
  if (s.location.num_rows >= 0) target = std::min(target, s.location.num_rows);
  PQPAGE_RETURN_IF_ERROR(s.SeekToRow(target));
  return s.rows_started - before;
}

absl::Status ColumnChunkReader::SelectRows(std::vector<RowRange> ranges) {
  State& s = *state_;
  int64_t previous_end = 0;
  for (const RowRange& r : ranges) {
    if (r.begin < previous_end || r.end < r.begin) {
      return absl::InvalidArgumentError(
          absl::StrCat("row range [", r.begin, ", ", r.end,
                       ") is negative, reversed, or before the range that precedes it"));
    }
    previous_end = r.end;
  }
  if (s.location.num_rows >= 0) {
    for (RowRange& r : ranges) {
      r.begin = std::min(r.begin, s.location.num_rows);
      r.end = std::min(r.end, s.location.num_rows);
    }
  }
  s.ranges = std::move(ranges);
  s.range = 0;
  s.range_started = false;
  s.selecting = true;
  return absl::OkStatus();
}

}  // namespace pqpage
