#include "pqpage/column_chunk_reader.h"

#include <algorithm>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "page/buffer_pool.h"
#include "page/level_decoder.h"
#include "page/page_value_decoder.h"
#include "page/page_walker.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

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
  int64_t levels_seen = 0;  // levels of the chunk's data pages started so far
  int64_t levels_read = 0;  // levels handed out in batches
  int64_t rows_read = 0;    // repetition levels of 0 among them
  bool first_batch_of_chunk = true;
  // The current page's nulls when its header states them and the present values were taken from
  // it; present_left is what the levels have not shown yet.
  std::optional<int64_t> header_nulls;
  int64_t present_left = 0;
  std::vector<int16_t> definition_scratch;  // when the caller passes no definition buffer
  std::vector<int16_t> repetition_scratch;

  State(ColumnDescriptor column_in, const ByteSource* source, ColumnChunkLocation location_in,
        ReaderOptions options_in)
      : column(std::move(column_in)),
        location(std::move(location_in)),
        options(options_in),
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
    if (location.num_values >= 0 && levels_seen != location.num_values) {
      return walker.Annotate(
          absl::DataLossError(absl::StrCat("the column chunk's pages hold ", levels_seen,
                                           " values but its metadata says ", location.num_values)));
    }
    // Rows can only be counted when every level went through a batch (NextDataPage may skip).
    if (location.num_rows >= 0 && levels_read == levels_seen && rows_read != location.num_rows) {
      return walker.Annotate(
          absl::DataLossError(absl::StrCat("the column chunk holds ", rows_read,
                                           " rows but its row group has ", location.num_rows)));
    }
    return absl::OkStatus();
  }

  // Moves to the next data page. False at the end of the chunk.
  absl::StatusOr<bool> LoadDataPage() {
    have_page = false;
    levels_left = 0;
    for (;;) {
      if (exhausted) return false;
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
    const int64_t num_levels = page.num_values;
    if (location.num_values >= 0 && levels_seen + num_levels > location.num_values) {
      return Fail(absl::DataLossError(absl::StrCat("the page's ", num_levels,
                                                   " values take the chunk past the ",
                                                   location.num_values, " its metadata says")));
    }
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
      } else if (page.compressed_page_size != page.uncompressed_page_size) {
        return Fail(absl::DataLossError(
            absl::StrCat("uncompressed page with compressed size ", page.compressed_page_size,
                         " != uncompressed size ", page.uncompressed_page_size)));
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
      PQPAGE_RETURN_IF_ERROR(Fail(repetition_levels.Reset(
          repetition_encoding, repetition_section, column.max_repetition_level, num_levels)));
    }
    int64_t present = num_levels;
    header_nulls = std::nullopt;
    if (column.max_definition_level > 0) {
      PQPAGE_RETURN_IF_ERROR(Fail(definition_levels.Reset(
          definition_encoding, definition_section, column.max_definition_level, num_levels)));
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
        PQPAGE_RETURN_IF_ERROR(Fail(definition_levels.Reset(
            definition_encoding, definition_section, column.max_definition_level, num_levels)));
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
      PQPAGE_RETURN_IF_ERROR(Fail(definition_levels.Reset(
          definition_encoding, definition_section, column.max_definition_level, num_levels)));
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

  absl::StatusOr<bool> EnsurePage() {
    while (!have_page || levels_left == 0) {
      PQPAGE_ASSIGN_OR_RETURN(const bool loaded, LoadDataPage());
      if (!loaded) return false;
    }
    return true;
  }

  // Decodes the levels of the next batch; returns how many levels and how many present values.
  absl::StatusOr<BatchCounts> ReadLevels(int64_t max_levels, int16_t* definition,
                                         int16_t* repetition) {
    if (max_levels < 0) return absl::InvalidArgumentError("negative batch size");
    PQPAGE_ASSIGN_OR_RETURN(const bool loaded, EnsurePage());
    BatchCounts counts;
    if (!loaded || max_levels == 0) return counts;
    const int64_t n = std::min(max_levels, levels_left);
    counts.levels = n;
    counts.values = n;
    if (column.max_repetition_level > 0) {
      if (repetition == nullptr) {
        repetition_scratch.resize(static_cast<size_t>(n));
        repetition = repetition_scratch.data();
      }
      absl::StatusOr<int64_t> rows =
          repetition_levels.Decode(absl::MakeSpan(repetition, static_cast<size_t>(n)), 0);
      if (!rows.ok()) return Fail(rows.status());
      if (first_batch_of_chunk && repetition[0] != 0) {
        return Fail(absl::DataLossError("the column chunk's first repetition level is not 0"));
      }
      rows_read += *rows;
    } else {
      rows_read += n;
    }
    if (column.max_definition_level > 0) {
      if (definition == nullptr) {
        definition_scratch.resize(static_cast<size_t>(n));
        definition = definition_scratch.data();
      }
      absl::StatusOr<int64_t> present = definition_levels.Decode(
          absl::MakeSpan(definition, static_cast<size_t>(n)), column.max_definition_level);
      if (!present.ok()) return Fail(present.status());
      counts.values = *present;
      if (header_nulls) {
        // Before any value is decoded: the value decoder was started with the header's count.
        present_left -= *present;
        if (present_left < 0 || (n == levels_left && present_left != 0)) {
          return Fail(absl::DataLossError(
              absl::StrCat("the header says ", *header_nulls, " nulls but the levels hold ",
                           present_left < 0 ? std::string("fewer")
                                            : absl::StrCat(*header_nulls + present_left))));
        }
      }
    }
    first_batch_of_chunk = false;
    levels_left -= n;
    levels_read += n;
    return counts;
  }
};

ColumnChunkReader::ColumnChunkReader(ColumnDescriptor column, const ByteSource* source,
                                     ColumnChunkLocation location, ReaderOptions options)
    : state_(std::make_unique<State>(std::move(column), source, std::move(location), options)) {}
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

}  // namespace

template <typename T>
absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatch(absl::Span<int16_t> definition_levels,
                                                         absl::Span<int16_t> repetition_levels,
                                                         absl::Span<T> values) {
  if (!ValueTypeMatches<T>(state_->column.type)) {
    return absl::InvalidArgumentError(
        absl::StrCat("column '", state_->column.PathString(), "' holds ",
                     PhysicalTypeName(state_->column.type).data(), " values"));
  }
  PQPAGE_RETURN_IF_ERROR(CheckLevelSpan(definition_levels, values.size(), "definition"));
  PQPAGE_RETURN_IF_ERROR(CheckLevelSpan(repetition_levels, values.size(), "repetition"));
  PQPAGE_ASSIGN_OR_RETURN(
      BatchCounts counts,
      state_->ReadLevels(static_cast<int64_t>(values.size()), DataOrNull(definition_levels),
                         DataOrNull(repetition_levels)));
  auto* decoder = static_cast<internal::PageValueDecoder<T>*>(state_->values.get());
  PQPAGE_RETURN_IF_ERROR(state_->Fail(decoder->Decode(values.data(), counts.values)));
  return counts;
}

template <typename T>
absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatchSpaced(
    absl::Span<int16_t> definition_levels, absl::Span<T> values, absl::Span<uint8_t> validity,
    int64_t validity_bit_offset) {
  if (state_->column.max_repetition_level > 0) {
    return absl::InvalidArgumentError("the spaced form is for columns without repetition");
  }
  const int64_t batch = static_cast<int64_t>(values.size());
  if (validity_bit_offset < 0 ||
      static_cast<uint64_t>(validity.size()) * 8 <
          static_cast<uint64_t>(validity_bit_offset) + static_cast<uint64_t>(batch)) {
    return absl::InvalidArgumentError(absl::StrCat("validity of ", validity.size(),
                                                   " bytes for a batch of ", batch,
                                                   " at bit offset ", validity_bit_offset));
  }
  PQPAGE_RETURN_IF_ERROR(CheckLevelSpan(definition_levels, values.size(), "definition"));
  if (state_->column.max_definition_level > 0 && definition_levels.empty()) {
    PQPAGE_ASSIGN_OR_RETURN(const bool loaded, state_->EnsurePage());
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
  PQPAGE_ASSIGN_OR_RETURN(const bool loaded, state_->EnsurePage());
  return loaded && state_->values->dictionary_encoded();
}

template <typename T>
absl::StatusOr<absl::Span<const T>> ColumnChunkReader::Dictionary() {
  if (!ValueTypeMatches<T>(state_->column.type)) {
    return absl::InvalidArgumentError(
        absl::StrCat("column '", state_->column.PathString(), "' holds ",
                     PhysicalTypeName(state_->column.type).data(), " values"));
  }
  return static_cast<internal::PageValueDecoder<T>*>(state_->values.get())->dictionary();
}

// NOLINTBEGIN(bugprone-macro-parentheses): T is a type in template arguments.
#define PQPAGE_INSTANTIATE_READER(T)                                          \
  template absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatch<T>(       \
      absl::Span<int16_t>, absl::Span<int16_t>, absl::Span<T>);               \
  template absl::StatusOr<BatchCounts> ColumnChunkReader::ReadBatchSpaced<T>( \
      absl::Span<int16_t>, absl::Span<T>, absl::Span<uint8_t>, int64_t);      \
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
