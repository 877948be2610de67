#include "pqpage/column_chunk_reader.h"

#include <algorithm>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/bitmap_writer.h"
#include "page/read/column_chunk_reader_state.h"
#include "page/read/pooled_buffer.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage {

absl::StatusOr<bool> ColumnChunkReader::State::EnsurePage() {
  while (!have_page || levels_left == 0) {
    PQPAGE_ASSIGN_OR_RETURN(const bool loaded, LoadDataPage());
    if (!loaded) return false;
  }
  return true;
}

ColumnChunkReader::State::LevelCounts ColumnChunkReader::State::CountLevels(
    const int16_t* definition, const int16_t* repetition, int64_t begin, int64_t end) const {
  LevelCounts counts{end - begin, end - begin};
  if (column.max_definition_level > 0) {
    counts.present = std::count(definition + begin, definition + end, column.max_definition_level);
  }
  if (column.max_repetition_level > 0) {
    counts.row_starts = std::count(repetition + begin, repetition + end, int16_t{0});
  }
  return counts;
}

absl::StatusOr<ColumnChunkReader::State::LevelCounts> ColumnChunkReader::State::DecodeLevels(
    int64_t n, int16_t* definition, int16_t* repetition) {
  const int16_t max_definition = column.max_definition_level;
  const bool repeated = column.max_repetition_level > 0;
  const int64_t from_returned = std::min(n, static_cast<int64_t>(returned_end - returned_begin));
  taken_from_returned = from_returned;
  LevelCounts counts;
  if (from_returned > 0) {
    if (max_definition > 0) {
      std::copy_n(returned_definition.begin() + static_cast<ptrdiff_t>(returned_begin),
                  from_returned, definition);
    }
    if (repeated) {
      std::copy_n(returned_repetition.begin() + static_cast<ptrdiff_t>(returned_begin),
                  from_returned, repetition);
    }
    counts = CountLevels(definition, repetition, 0, from_returned);
    returned_begin += static_cast<size_t>(from_returned);
  }
  const int64_t rest = n - from_returned;
  if (rest == 0) return counts;
  const auto size = static_cast<size_t>(rest);
  if (repeated) {
    absl::StatusOr<int64_t> rows =
        repetition_levels.Decode(absl::MakeSpan(repetition + from_returned, size), 0);
    if (!rows.ok()) return Fail(rows.status());
    counts.row_starts += *rows;
  } else {
    counts.row_starts += rest;
  }
  if (max_definition > 0) {
    absl::StatusOr<int64_t> present =
        definition_levels.Decode(absl::MakeSpan(definition + from_returned, size), max_definition);
    if (!present.ok()) return Fail(present.status());
    counts.present += *present;
  } else {
    counts.present += rest;
  }
  return counts;
}

void ColumnChunkReader::State::GiveBack(const int16_t* definition, const int16_t* repetition,
                                        int64_t keep, int64_t n) {
  const auto back = static_cast<size_t>(n - keep);
  if (back == 0) return;
  if (taken_from_returned == n) {
    // They all came from the given-back levels, which still hold them just before returned_begin.
    returned_begin -= back;
    return;
  }
  // The given-back levels were all taken: these become them.
  if (column.max_definition_level > 0) {
    returned_definition.assign(definition + keep, definition + n);
  }
  if (column.max_repetition_level > 0) {
    returned_repetition.assign(repetition + keep, repetition + n);
  }
  returned_begin = 0;
  returned_end = back;
}

bool ColumnChunkReader::State::KeepBeforeRowStart(int64_t k, const int16_t* definition,
                                                  const int16_t* repetition, int64_t* n,
                                                  LevelCounts* counts) {
  int64_t begun = 0;
  for (int64_t i = 0; i < *n; ++i) {
    if (repetition[i] != 0) continue;
    if (begun++ == k) {
      GiveBack(definition, repetition, i, *n);
      *n = i;
      *counts = CountLevels(definition, repetition, 0, i);
      return true;
    }
  }
  return false;
}

absl::Status ColumnChunkReader::State::Consume(int64_t n, const LevelCounts& counts,
                                               const int16_t* repetition) {
  if (n == 0) return absl::OkStatus();
  if (repetition != nullptr && levels_consumed == 0 && !jumped && repetition[0] != 0) {
    return Fail(absl::DataLossError("the column chunk's first repetition level is not 0"));
  }
  if (header_nulls) {
    // Before any value is decoded: the value decoder was started with the header's count.
    present_left -= counts.present;
    if (present_left < 0 || (n == levels_left && present_left != 0)) {
      return Fail(absl::DataLossError(absl::StrCat(
          "the header says ", *header_nulls, " nulls but the levels hold ",
          present_left < 0 ? std::string("fewer") : absl::StrCat(*header_nulls + present_left))));
    }
  }
  levels_left -= n;
  levels_consumed += n;
  rows_started += counts.row_starts;
  return absl::OkStatus();
}

absl::StatusOr<BatchCounts> ColumnChunkReader::State::ReadLevels(int64_t max_levels,
                                                                 int16_t* definition,
                                                                 int16_t* repetition) {
  if (max_levels < 0) return absl::InvalidArgumentError("negative batch size");
  PQPAGE_ASSIGN_OR_RETURN(const bool loaded, EnsureNextLevel());
  if (!loaded || max_levels == 0) return BatchCounts();
  int64_t n = std::min(max_levels, levels_left);
  const bool repeated = column.max_repetition_level > 0;
  // Under SelectRows: the rows of the current range not begun yet.
  const int64_t rows_left = selecting ? ranges[range].end - rows_started : -1;
  if (selecting && !repeated) n = std::min(n, rows_left);
  if (repeated && repetition == nullptr) {
    repetition_scratch.resize(static_cast<size_t>(n));
    repetition = repetition_scratch.data();
  }
  if (column.max_definition_level > 0 && definition == nullptr) {
    definition_scratch.resize(static_cast<size_t>(n));
    definition = definition_scratch.data();
  }
  PQPAGE_ASSIGN_OR_RETURN(LevelCounts counts, DecodeLevels(n, definition, repetition));
  if (selecting && repeated) {
    // The batch ends before the row that follows the range (EnsureNextLevel made sure that the
    // first level belongs to the range).
    KeepBeforeRowStart(rows_left, definition, repetition, &n, &counts);
  }
  PQPAGE_RETURN_IF_ERROR(Consume(n, counts, repetition));
  return BatchCounts{n, counts.present};
}

absl::StatusOr<BatchCounts> ColumnChunkReader::State::ReadValidity(int64_t max_levels,
                                                                   uint8_t* bits,
                                                                   int64_t bit_offset) {
  if (max_levels < 0) return absl::InvalidArgumentError("negative batch size");
  PQPAGE_ASSIGN_OR_RETURN(const bool loaded, EnsureNextLevel());
  if (!loaded || max_levels == 0) return BatchCounts();
  const int16_t max = column.max_definition_level;
  if (max == 0 || returned_begin != returned_end) {
    // No levels to decode, or levels given back (already decoded): through ReadLevels.
    PQPAGE_ASSIGN_OR_RETURN(const BatchCounts counts, ReadLevels(max_levels, nullptr, nullptr));
    if (max == 0) {
      internal::FillBits(bits, bit_offset, static_cast<size_t>(counts.levels), true);
    } else {
      internal::LevelsToBits(definition_scratch.data(), counts.levels, max, bits, bit_offset);
    }
    return counts;
  }
  int64_t n = std::min(max_levels, levels_left);
  if (selecting) n = std::min(n, ranges[range].end - rows_started);
  taken_from_returned = 0;
  absl::StatusOr<int64_t> present = definition_levels.DecodeToBitmap(bits, bit_offset, n);
  if (!present.ok()) return Fail(present.status());
  PQPAGE_RETURN_IF_ERROR(Consume(n, LevelCounts{*present, n}, nullptr));
  return BatchCounts{n, *present};
}

ColumnChunkReader::ColumnChunkReader(ColumnDescriptor column, const ByteSource* source,
                                     ColumnChunkLocation location, ReaderOptions options)
    : state_(std::make_unique<State>(std::move(column), source, std::move(location),
                                     std::move(options))) {}
ColumnChunkReader::~ColumnChunkReader() = default;
ColumnChunkReader::ColumnChunkReader(ColumnChunkReader&&) noexcept = default;
ColumnChunkReader& ColumnChunkReader::operator=(ColumnChunkReader&&) noexcept = default;

void ReleaseReaderBuffers() { internal::ReaderBufferPool().Release(); }

const ColumnDescriptor& ColumnChunkReader::column() const { return state_->column; }

absl::StatusOr<bool> ColumnChunkReader::NextDataPage() { return state_->LoadDataPage(); }

const PageInfo& ColumnChunkReader::page() const { return state_->page; }
int64_t ColumnChunkReader::page_index() const { return state_->page_index; }
int64_t ColumnChunkReader::levels_left_in_page() const { return state_->levels_left; }
const PageInfo* ColumnChunkReader::dictionary_page() const {
  return state_->dictionary_info ? &*state_->dictionary_info : nullptr;
}

namespace {

// A level span must be empty (levels decoded into the reader's scratch) or hold the whole batch.
absl::Status CheckLevelSpan(absl::Span<int16_t> levels, size_t batch, const char* what) {
  if (levels.empty() || levels.size() >= batch) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " level span of ", levels.size(), " entries for a batch of ", batch));
}

int16_t* DataOrNull(absl::Span<int16_t> levels) { return levels.empty() ? nullptr : levels.data(); }

// InvalidArgument for a repeated column, or a bitmap without room for `batch` bits from `offset`.
absl::Status CheckValidity(const ColumnDescriptor& column, absl::Span<uint8_t> validity,
                           int64_t offset, size_t batch, const char* form) {
  if (column.max_repetition_level > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the ", form, " form is for columns without repetition"));
  }
  if (offset < 0 || static_cast<uint64_t>(validity.size()) * 8 <
                        static_cast<uint64_t>(offset) + static_cast<uint64_t>(batch)) {
    return absl::InvalidArgumentError(absl::StrCat("validity of ", validity.size(),
                                                   " bytes for a batch of ", batch,
                                                   " at bit offset ", offset));
  }
  return absl::OkStatus();
}

// InvalidArgument unless the column's values are read as T.
template <typename T>
absl::Status CheckValueType(const ColumnDescriptor& column) {
  if (ValueTypeMatches<T>(column.type)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("column '", column.PathString(), "' holds ",
                                                 PhysicalTypeName(column.type).data(), " values"));
}

}  // namespace

absl::StatusOr<BatchCounts> ColumnChunkReader::State::ReadBatchLevels(
    size_t batch, absl::Span<int16_t> definition, absl::Span<int16_t> repetition) {
  PQPAGE_RETURN_IF_ERROR(CheckLevelSpan(definition, batch, "definition"));
  PQPAGE_RETURN_IF_ERROR(CheckLevelSpan(repetition, batch, "repetition"));
  return ReadLevels(static_cast<int64_t>(batch), DataOrNull(definition), DataOrNull(repetition));
}

template <typename T>
absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatch(absl::Span<int16_t> definition_levels,
                                                         absl::Span<int16_t> repetition_levels,
                                                         absl::Span<T> values) {
  PQPAGE_RETURN_IF_ERROR(CheckValueType<T>(state_->column));
  PQPAGE_ASSIGN_OR_RETURN(
      BatchCounts counts,
      state_->ReadBatchLevels(values.size(), definition_levels, repetition_levels));
  auto* decoder = static_cast<internal::PageValueDecoder<T>*>(state_->values.get());
  PQPAGE_RETURN_IF_ERROR(state_->Fail(decoder->Decode(values.data(), counts.values)));
  return counts;
}

absl::StatusOr<BatchCounts> ColumnChunkReader::ReadByteArrayCopies(
    absl::Span<int16_t> definition_levels, absl::Span<int16_t> repetition_levels,
    absl::Span<int32_t> lengths, absl::FunctionRef<uint8_t*(size_t)> reserve) {
  PQPAGE_RETURN_IF_ERROR(CheckValueType<ByteArray>(state_->column));
  PQPAGE_ASSIGN_OR_RETURN(
      BatchCounts counts,
      state_->ReadBatchLevels(lengths.size(), definition_levels, repetition_levels));
  auto* decoder = static_cast<internal::PageValueDecoder<ByteArray>*>(state_->values.get());
  PQPAGE_RETURN_IF_ERROR(
      state_->Fail(decoder->DecodeCopies(counts.values, lengths.data(), reserve)));
  return counts;
}

template <typename T>
absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatchValidity(absl::Span<uint8_t> validity,
                                                                 int64_t validity_bit_offset,
                                                                 absl::Span<T> values) {
  PQPAGE_RETURN_IF_ERROR(CheckValueType<T>(state_->column));
  PQPAGE_RETURN_IF_ERROR(
      CheckValidity(state_->column, validity, validity_bit_offset, values.size(), "validity"));
  PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts,
                          state_->ReadValidity(static_cast<int64_t>(values.size()), validity.data(),
                                               validity_bit_offset));
  auto* decoder = static_cast<internal::PageValueDecoder<T>*>(state_->values.get());
  PQPAGE_RETURN_IF_ERROR(state_->Fail(decoder->Decode(values.data(), counts.values)));
  return counts;
}

absl::StatusOr<BatchCounts> ColumnChunkReader::ReadByteArrayCopiesValidity(
    absl::Span<uint8_t> validity, int64_t validity_bit_offset, absl::Span<int32_t> lengths,
    absl::FunctionRef<uint8_t*(size_t)> reserve) {
  PQPAGE_RETURN_IF_ERROR(CheckValueType<ByteArray>(state_->column));
  PQPAGE_RETURN_IF_ERROR(
      CheckValidity(state_->column, validity, validity_bit_offset, lengths.size(), "validity"));
  PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts,
                          state_->ReadValidity(static_cast<int64_t>(lengths.size()),
                                               validity.data(), validity_bit_offset));
  auto* decoder = static_cast<internal::PageValueDecoder<ByteArray>*>(state_->values.get());
  PQPAGE_RETURN_IF_ERROR(
      state_->Fail(decoder->DecodeCopies(counts.values, lengths.data(), reserve)));
  return counts;
}

template <typename T>
absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatchSpaced(
    absl::Span<int16_t> definition_levels, absl::Span<T> values, absl::Span<uint8_t> validity,
    int64_t validity_bit_offset) {
  PQPAGE_RETURN_IF_ERROR(
      CheckValidity(state_->column, validity, validity_bit_offset, values.size(), "spaced"));
  const int64_t batch = static_cast<int64_t>(values.size());
  PQPAGE_RETURN_IF_ERROR(CheckLevelSpan(definition_levels, values.size(), "definition"));
  if (state_->column.max_definition_level > 0 && definition_levels.empty()) {
    PQPAGE_ASSIGN_OR_RETURN(const bool loaded, state_->EnsureNextLevel());
    if (!loaded) return BatchCounts();
    state_->definition_scratch.resize(static_cast<size_t>(std::min(batch, state_->levels_left)));
    definition_levels = absl::MakeSpan(state_->definition_scratch);
    values = values.first(state_->definition_scratch.size());
  }
  PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts, ReadBatch<T>(definition_levels, {}, values));
  const int16_t max = state_->column.max_definition_level;
  // Present values arrive packed at the front; spreading them from the back never overwrites one
  // not yet moved, since a value's slot is never before its packed position.
  int64_t packed = counts.values - 1;
  for (int64_t slot = counts.levels - 1; slot >= 0; --slot) {
    const bool present = max == 0 || definition_levels[slot] == max;
    const int64_t bit = validity_bit_offset + slot;
    const auto mask = static_cast<uint8_t>(1u << (bit & 7));
    if (present) {
      if (packed != slot) values[slot] = values[packed];
      --packed;
      validity[bit >> 3] |= mask;
    } else {
      validity[bit >> 3] &= static_cast<uint8_t>(~mask);
    }
  }
  return counts;
}

absl::StatusOr<BatchCounts> ColumnChunkReader::ReadIndices(absl::Span<int16_t> definition_levels,
                                                           absl::Span<int16_t> repetition_levels,
                                                           absl::Span<uint32_t> indices) {
  PQPAGE_RETURN_IF_ERROR(CheckLevelSpan(definition_levels, indices.size(), "definition"));
  PQPAGE_RETURN_IF_ERROR(CheckLevelSpan(repetition_levels, indices.size(), "repetition"));
  PQPAGE_ASSIGN_OR_RETURN(const bool dictionary_encoded, NextBatchIsDictionaryEncoded());
  if (!dictionary_encoded && state_->have_page) {
    return state_->Fail(absl::InvalidArgumentError(absl::StrCat(
        "page is ", EncodingName(state_->page.encoding).data(), ", not dictionary-encoded")));
  }
  PQPAGE_ASSIGN_OR_RETURN(
      BatchCounts counts,
      state_->ReadLevels(static_cast<int64_t>(indices.size()), DataOrNull(definition_levels),
                         DataOrNull(repetition_levels)));
  PQPAGE_RETURN_IF_ERROR(
      state_->Fail(state_->values->DecodeIndices(indices.data(), counts.values)));
  return counts;
}

absl::StatusOr<bool> ColumnChunkReader::NextBatchIsDictionaryEncoded() {
  PQPAGE_ASSIGN_OR_RETURN(const bool loaded, state_->EnsureNextLevel());
  return loaded && state_->values->dictionary_encoded();
}

template <typename T>
absl::StatusOr<absl::Span<const T>> ColumnChunkReader::Dictionary() {
  PQPAGE_RETURN_IF_ERROR(CheckValueType<T>(state_->column));
  return static_cast<internal::PageValueDecoder<T>*>(state_->values.get())->dictionary();
}

// NOLINTBEGIN(bugprone-macro-parentheses): T is a type in template arguments.
#define PQPAGE_INSTANTIATE_READER(T)                                            \
  template absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatch<T>(         \
      absl::Span<int16_t>, absl::Span<int16_t>, absl::Span<T>);                 \
  template absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatchSpaced<T>(   \
      absl::Span<int16_t>, absl::Span<T>, absl::Span<uint8_t>, int64_t);        \
  template absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatchValidity<T>( \
      absl::Span<uint8_t>, int64_t, absl::Span<T>);                             \
  template absl::StatusOr<absl::Span<const T>> ColumnChunkReader::Dictionary<T>();
// NOLINTEND(bugprone-macro-parentheses)

PQPAGE_INSTANTIATE_READER(bool)
PQPAGE_INSTANTIATE_READER(int32_t)
PQPAGE_INSTANTIATE_READER(int64_t)
PQPAGE_INSTANTIATE_READER(Int96)
PQPAGE_INSTANTIATE_READER(float)
PQPAGE_INSTANTIATE_READER(double)
PQPAGE_INSTANTIATE_READER(ByteArray)

#undef PQPAGE_INSTANTIATE_READER

}  // namespace pqpage
