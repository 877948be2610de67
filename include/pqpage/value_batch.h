// A reusable batch of levels and values to read a column chunk into, typed by the value type
// (VisitValueType in pqpage/value_type.h picks it for a column): what scan, recode, advise and the
// tool's dump read with, and what an engine that streams a chunk batch by batch can use too.
#ifndef PQPAGE_VALUE_BATCH_H_
#define PQPAGE_VALUE_BATCH_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/types.h"
#include "pqpage/value_type.h"

namespace pqpage {

// Levels read per batch.
inline constexpr int64_t kValueBatchLevels = 4096;

// One batch's buffers for a column of value type T. Plain arrays, not std::vector:
// std::vector<bool> has no data() to hand to ReadBatch.
template <typename T>
struct ValueBatch {
  std::unique_ptr<int16_t[]> definition_levels = std::make_unique<int16_t[]>(kValueBatchLevels);
  std::unique_ptr<int16_t[]> repetition_levels = std::make_unique<int16_t[]>(kValueBatchLevels);
  std::unique_ptr<T[]> values = std::make_unique<T[]>(kValueBatchLevels);

  absl::Span<int16_t> definitions() {
    return absl::MakeSpan(definition_levels.get(), kValueBatchLevels);
  }
  absl::Span<int16_t> repetitions() {
    return absl::MakeSpan(repetition_levels.get(), kValueBatchLevels);
  }
  absl::Span<T> value_span() { return absl::MakeSpan(values.get(), kValueBatchLevels); }
};

// Reads the reader's next batch into `batch`, asking for each level array only when the column
// has those levels (a column without them then skips decoding and copying them).
// @return the batch's counts (levels 0 at the chunk's end), or the reader's error.
template <typename T>
absl::StatusOr<BatchCounts> ReadNextBatch(ColumnChunkReader& reader, ValueBatch<T>& batch) {
  const ColumnDescriptor& column = reader.column();
  return reader.ReadBatch<T>(
      column.max_definition_level > 0 ? batch.definitions() : absl::Span<int16_t>(),
      column.max_repetition_level > 0 ? batch.repetitions() : absl::Span<int16_t>(),
      batch.value_span());
}

// Bytes one decoded value takes in memory, for throughput figures; byte arrays count their data.
template <typename T>
int64_t DecodedValueBytes(const T& /*value*/) {
  return static_cast<int64_t>(sizeof(T));
}
inline int64_t DecodedValueBytes(const ByteArray& value) { return value.size; }

}  // namespace pqpage

#endif  // PQPAGE_VALUE_BATCH_H_
