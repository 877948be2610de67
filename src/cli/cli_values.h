// Picks the C++ value type the page decoder and builder use for a physical type, so that a
// command can write its per-column loop once as a template and run it for any column.
#ifndef PQPAGE_CLI_CLI_VALUES_H_
#define PQPAGE_CLI_CLI_VALUES_H_

#include <cstdint>
#include <memory>

#include "pqpage/types.h"

namespace pqpage::cli {

template <typename T>
struct ValueTag {
  using Type = T;
};

// Calls `fn(ValueTag<T>{})` with the T of ColumnChunkReader::ReadBatch for `type` and returns
// what it returns. Every branch must return the same type.
template <typename Fn>
decltype(auto) VisitValueType(PhysicalType type, Fn&& fn) {
  switch (type) {
    case PhysicalType::kBoolean:
      return fn(ValueTag<bool>{});
    case PhysicalType::kInt32:
      return fn(ValueTag<int32_t>{});
    case PhysicalType::kInt64:
      return fn(ValueTag<int64_t>{});
    case PhysicalType::kInt96:
      return fn(ValueTag<Int96>{});
    case PhysicalType::kFloat:
      return fn(ValueTag<float>{});
    case PhysicalType::kDouble:
      return fn(ValueTag<double>{});
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      break;
  }
  // Byte arrays, and any value a damaged schema could smuggle past the enum (the schema reader
  // rejects those; the branch only keeps the switch total).
  return fn(ValueTag<ByteArray>{});
}

// Levels a command reads per batch.
inline constexpr int64_t kBatchLevels = 4096;

// One batch's reusable buffers for a column of value type T. Plain arrays, not std::vector:
// std::vector<bool> has no data() to hand to ReadBatch.
template <typename T>
struct Batch {
  std::unique_ptr<int16_t[]> definition_levels = std::make_unique<int16_t[]>(kBatchLevels);
  std::unique_ptr<int16_t[]> repetition_levels = std::make_unique<int16_t[]>(kBatchLevels);
  std::unique_ptr<T[]> values = std::make_unique<T[]>(kBatchLevels);
};

// Bytes one decoded value takes in memory, for throughput figures; byte arrays count their data.
template <typename T>
int64_t DecodedValueBytes(const T& /*value*/) {
  return static_cast<int64_t>(sizeof(T));
}
inline int64_t DecodedValueBytes(const ByteArray& value) { return value.size; }

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_VALUES_H_
