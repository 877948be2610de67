// Reads a column chunk to its end through every read form of the page decoder (dense batches,
// spaced batches, validity bitmaps, dictionary indices), in batches picked by the fuzz input,
// stopping at the first error or after `max_levels` levels. Shared by the chunk and file fuzz
// targets; only crashes and sanitizer reports are bugs, errors are expected on arbitrary input.
#ifndef PQPAGE_TESTS_FUZZ_COLUMN_CHUNK_READ_LOOP_H_
#define PQPAGE_TESTS_FUZZ_COLUMN_CHUNK_READ_LOOP_H_

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "pqpage/column_chunk_reader.h"

namespace pqpage::fuzz {

template <typename T>
void ReadChunkAs(ColumnChunkReader& reader, uint8_t pattern, int64_t max_levels) {
  constexpr int64_t kMaxBatch = 4096;
  std::unique_ptr<T[]> values(new T[kMaxBatch]);
  std::vector<int16_t> definition(kMaxBatch), repetition(kMaxBatch);
  std::vector<uint32_t> indices(kMaxBatch);
  std::vector<uint8_t> validity(kMaxBatch / 8 + 2);
  std::vector<uint8_t> copies;  // ReadByteArrayCopies' bytes
  // A batch's spans; an odd pattern passes no level spans, so the reader decodes levels into its
  // own scratch.
  const bool hand_out_levels = (pattern & 1) == 0;
  const auto Levels = [&](std::vector<int16_t>& levels, int64_t n) {
    return hand_out_levels ? absl::MakeSpan(levels).first(static_cast<size_t>(n))
                           : absl::Span<int16_t>();
  };
  const auto values_of = [&](int64_t n) {
    return absl::MakeSpan(values.get(), static_cast<size_t>(n));
  };
  int64_t read = 0;
  for (int i = 0; read < max_levels; ++i) {
    const int64_t n = BatchSize(pattern, i, max_levels - read);
    absl::StatusOr<BatchCounts> counts;
    switch ((pattern >> 4) % 3 == 0 ? i % 3 : 0) {
      case 1: {
        absl::StatusOr<bool> dictionary = reader.NextBatchIsDictionaryEncoded();
        if (!dictionary.ok()) return;
        counts =
            *dictionary
                ? reader.ReadIndices(Levels(definition, n), Levels(repetition, n),
                                     absl::MakeSpan(indices).first(static_cast<size_t>(n)))
                : reader.ReadBatch<T>(Levels(definition, n), Levels(repetition, n), values_of(n));
        break;
      }
      case 2:
        if (reader.column().max_repetition_level == 0) {
          // The spaced form, or (pattern bit 3) the bitmap form at an offset inside a byte.
          if ((pattern & 8) != 0) {
            counts = reader.ReadBatchValidity<T>(absl::MakeSpan(validity), i & 7, values_of(n));
          } else {
            counts = reader.ReadBatchSpaced<T>({}, values_of(n), absl::MakeSpan(validity), 0);
          }
          break;
        }
        [[fallthrough]];
      default:
        if constexpr (std::is_same_v<T, ByteArray>) {
          if ((pattern & 2) != 0) {
            // The copying form; the lengths must add up to what it asked for.
            std::vector<int32_t> lengths(static_cast<size_t>(n));
            size_t asked = 0;
            counts = reader.ReadByteArrayCopies(Levels(definition, n), Levels(repetition, n),
                                                absl::MakeSpan(lengths), [&](size_t bytes) {
                                                  asked = bytes;
                                                  copies.resize(bytes);
                                                  return copies.data();
                                                });
            size_t total = 0;
            for (int64_t v = 0; counts.ok() && v < counts->values; ++v) {
              total += static_cast<size_t>(lengths[static_cast<size_t>(v)]);
            }
            if (counts.ok() && total != asked) AbortWithMessage("copied lengths disagree");
            break;
          }
        }
        counts = reader.ReadBatch<T>(Levels(definition, n), Levels(repetition, n), values_of(n));
    }
    if (!counts.ok() || counts->levels == 0) return;
    if (counts->levels > n || counts->values > counts->levels)
      AbortWithMessage("batch counts out of range: %lld levels, %lld values for %lld asked",
                       static_cast<long long>(counts->levels),
                       static_cast<long long>(counts->values), static_cast<long long>(n));
    read += counts->levels;
  }
}

inline void ReadChunk(ColumnChunkReader& reader, uint8_t pattern, int64_t max_levels) {
  switch (reader.column().type) {
    case PhysicalType::kBoolean:
      return ReadChunkAs<bool>(reader, pattern, max_levels);
    case PhysicalType::kInt32:
      return ReadChunkAs<int32_t>(reader, pattern, max_levels);
    case PhysicalType::kInt64:
      return ReadChunkAs<int64_t>(reader, pattern, max_levels);
    case PhysicalType::kInt96:
      return ReadChunkAs<Int96>(reader, pattern, max_levels);
    case PhysicalType::kFloat:
      return ReadChunkAs<float>(reader, pattern, max_levels);
    case PhysicalType::kDouble:
      return ReadChunkAs<double>(reader, pattern, max_levels);
    default:
      return ReadChunkAs<ByteArray>(reader, pattern, max_levels);
  }
}

}  // namespace pqpage::fuzz

#endif  // PQPAGE_TESTS_FUZZ_COLUMN_CHUNK_READ_LOOP_H_
