#include "page/write/writer_checks.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "common/value_type_list.h"
#include "page/write/content_defined_chunker.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage::internal {

absl::Status CheckWriterSetup(const ColumnDescriptor& column, const WriterOptions& options) {
  const std::string where = absl::StrCat("column '", column.PathString(), "': ");
  if (static_cast<int>(column.type) < 0 || static_cast<int>(column.type) > 7) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "unknown physical type ", static_cast<int>(column.type)));
  }
  if (column.type == PhysicalType::kFixedLenByteArray && column.type_length <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, "FIXED_LEN_BYTE_ARRAY needs a positive type_length, not ", column.type_length));
  }
  if (column.max_definition_level < 0 || column.max_repetition_level < 0 ||
      column.max_repetition_level > column.max_definition_level) {
    // Every repeated field adds a definition level too, so max_rep <= max_def.
    return absl::InvalidArgumentError(absl::StrCat(where, "impossible maximum levels (definition ",
                                                   column.max_definition_level, ", repetition ",
                                                   column.max_repetition_level, ")"));
  }
  if (options.data_page_version != 1 && options.data_page_version != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "data_page_version must be 1 or 2, not ", options.data_page_version));
  }
  if (options.data_page_size <= 0 || options.data_page_row_limit <= 0 ||
      options.dictionary_page_size_limit <= 0 || options.max_dictionary_entries <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "page and dictionary limits must be positive (data_page_size ",
                     options.data_page_size, ", data_page_row_limit ", options.data_page_row_limit,
                     ", dictionary_page_size_limit ", options.dictionary_page_size_limit,
                     ", max_dictionary_entries ", options.max_dictionary_entries, ")"));
  }
  if (options.page_index_truncate_length < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "page_index_truncate_length must be at least 1, not ",
                     options.page_index_truncate_length));
  }
  const BloomFilterOptions& bloom = options.bloom_filter;
  if (bloom.enabled &&
      (!(bloom.fpp > 0.0 && bloom.fpp < 1.0) || bloom.max_bytes <= 0 ||
       bloom.max_bytes > BloomFilter::kMaxBytes || bloom.distinct_values.value_or(1) <= 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "bloom filter options out of range (fpp ", bloom.fpp,
                     " must be in (0, 1), ", "max_bytes ", bloom.max_bytes, " in 1..",
                     BloomFilter::kMaxBytes, ", distinct_values positive)"));
  }
  if (options.content_defined_chunking.enabled) {
    const absl::StatusOr<ChunkingPlan> plan =
        PlanChunking(options.content_defined_chunking, options.data_page_size);
    if (!plan.ok()) return absl::InvalidArgumentError(absl::StrCat(where, plan.status().message()));
  }
  if (static_cast<int>(options.auto_encodings) < 0 ||
      static_cast<int>(options.auto_encodings) >
          static_cast<int>(AutoEncodings::kDictionaryOrPlain)) {
    return absl::InvalidArgumentError(absl::StrCat(where, "unknown auto encoding set ",
                                                   static_cast<int>(options.auto_encodings)));
  }
  if (static_cast<int>(options.encoding) < 0 ||
      static_cast<int>(options.encoding) > static_cast<int>(EncodingPolicy::kByteStreamSplit)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "unknown encoding policy ", static_cast<int>(options.encoding)));
  }
  switch (options.compression) {
    case Compression::kUncompressed:
    case Compression::kSnappy:
    case Compression::kGzip:
    case Compression::kBrotli:
    case Compression::kZstd:
    case Compression::kLz4Raw:
      break;
    case Compression::kLzo:
    case Compression::kLz4Hadoop:
      return absl::UnimplementedError(absl::StrCat(where, "pqpage does not write ",
                                                   CompressionName(options.compression).data(),
                                                   " (use LZ4_RAW for LZ4)"));
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(where, "unknown compression codec ", static_cast<int>(options.compression)));
  }
  return absl::OkStatus();
}

namespace {

// The lowest and highest of `levels`, and how many equal `counted`: one pass with no branch, which
// the compiler vectorises (a loop that returns at the first bad level is not).
struct LevelSummary {
  int16_t lowest = 0;
  int16_t highest = 0;
  int64_t counted = 0;
};
LevelSummary Summarize(absl::Span<const int16_t> levels, int16_t counted) {
  LevelSummary summary;
  if (levels.empty()) return summary;
  int16_t lowest = levels[0];
  int16_t highest = levels[0];
  int64_t matches = 0;
  for (const int16_t level : levels) {
    lowest = std::min(lowest, level);
    highest = std::max(highest, level);
    matches += level == counted ? 1 : 0;
  }
  return {lowest, highest, matches};
}

// The error for the first level outside 0..max_level; only called when there is one.
absl::Status LevelOutsideRange(const ColumnDescriptor& column, const char* kind,
                               absl::Span<const int16_t> levels, int16_t max_level) {
  size_t i = 0;
  while (i + 1 < levels.size() && levels[i] >= 0 && levels[i] <= max_level) ++i;
  return absl::InvalidArgumentError(absl::StrCat("column '", column.PathString(), "': ", kind,
                                                 " level ", levels[i], " at ", i, " is outside 0..",
                                                 max_level));
}

}  // namespace

absl::StatusOr<int64_t> CheckLevels(const ColumnDescriptor& column, absl::Span<const int16_t> def,
                                    absl::Span<const int16_t> rep, int64_t value_count,
                                    bool chunk_empty) {
  // Built only for an error: batches are checked on every write.
  const auto where = [&column] { return absl::StrCat("column '", column.PathString(), "': "); };
  const int16_t max_def = column.max_definition_level;
  const int16_t max_rep = column.max_repetition_level;
  // With a maximum of 0 the array may be left empty; given anyway, it must hold only zeros.
  const int64_t levels = max_def > 0   ? static_cast<int64_t>(def.size())
                         : max_rep > 0 ? static_cast<int64_t>(rep.size())
                                       : value_count;
  if ((max_def > 0 || !def.empty()) && static_cast<int64_t>(def.size()) != levels) {
    return absl::InvalidArgumentError(
        absl::StrCat(where(), def.size(), " definition levels for ", levels, " levels"));
  }
  if ((max_rep > 0 || !rep.empty()) && static_cast<int64_t>(rep.size()) != levels) {
    return absl::InvalidArgumentError(absl::StrCat(where(), rep.size(), " repetition levels for ",
                                                   def.size(), " definition levels"));
  }
  const LevelSummary definition = Summarize(def, max_def);
  if (definition.lowest < 0 || definition.highest > max_def) {
    return LevelOutsideRange(column, "definition", def, max_def);
  }
  const LevelSummary repetition = Summarize(rep, 0);
  if (repetition.lowest < 0 || repetition.highest > max_rep) {
    return LevelOutsideRange(column, "repetition", rep, max_rep);
  }
  const int64_t present = def.empty() ? levels : definition.counted;
  if (present != value_count) {
    return absl::InvalidArgumentError(
        absl::StrCat(where(), value_count, " values for ", present,
                     " definition levels at the maximum (one value per present level)"));
  }
  if (chunk_empty && !rep.empty() && rep[0] != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        where(), "the first repetition level of a column chunk must be 0, not ", rep[0]));
  }
  return levels;
}

template <typename T>
absl::Status CheckValues(const ColumnDescriptor& column, absl::Span<const T> values) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    const bool fixed = column.type == PhysicalType::kFixedLenByteArray;
    for (size_t i = 0; i < values.size(); ++i) {
      if (fixed ? values[i].size != static_cast<uint32_t>(column.type_length)
                : values[i].size > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "column '", column.PathString(), "': value ", i, " has ", values[i].size, " bytes",
            fixed ? absl::StrCat(", the column's type length is ", column.type_length)
                  : std::string(", more than 2^31 - 1")));
      }
      if (values[i].size > 0 && values[i].data == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("column '", column.PathString(), "': value ", i, " has no bytes"));
      }
    }
  }
  return absl::OkStatus();
}

template <typename T>
absl::StatusOr<int64_t> CheckBatch(const ColumnDescriptor& column, absl::Span<const int16_t> def,
                                   absl::Span<const int16_t> rep, absl::Span<const T> values,
                                   bool chunk_empty) {
  PQPAGE_ASSIGN_OR_RETURN(
      const int64_t levels,
      CheckLevels(column, def, rep, static_cast<int64_t>(values.size()), chunk_empty));
  PQPAGE_RETURN_IF_ERROR(CheckValues(column, values));
  return levels;
}

absl::Status CheckIndices(const ColumnDescriptor& column, absl::Span<const uint32_t> indices,
                          size_t num_entries) {
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= num_entries) {
      return absl::InvalidArgumentError(absl::StrCat("column '", column.PathString(), "': index ",
                                                     indices[i], " at ", i, " is outside the ",
                                                     num_entries, " entries given"));
    }
  }
  return absl::OkStatus();
}

// NOLINTBEGIN(bugprone-macro-parentheses): T is a type in template arguments.
#define PQPAGE_INSTANTIATE(T)                                                        \
  template absl::StatusOr<int64_t> CheckBatch<T>(                                    \
      const ColumnDescriptor&, absl::Span<const int16_t>, absl::Span<const int16_t>, \
      absl::Span<const T>, bool);                                                    \
  template absl::Status CheckValues<T>(const ColumnDescriptor&, absl::Span<const T>);
// NOLINTEND(bugprone-macro-parentheses)
PQPAGE_FOR_EACH_VALUE_TYPE(PQPAGE_INSTANTIATE)
#undef PQPAGE_INSTANTIATE

}  // namespace pqpage::internal
