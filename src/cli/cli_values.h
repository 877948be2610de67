// Picks the C++ value type the page decoder and builder use for a physical type, so that a
// command can write its per-column loop once as a template and run it for any column.
#ifndef PQPAGE_CLI_CLI_VALUES_H_
#define PQPAGE_CLI_CLI_VALUES_H_

#include <cstdint>

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

// Bytes one decoded value takes in memory, for throughput figures; byte arrays count their data.
template <typename T>
int64_t DecodedValueBytes(const T& /*value*/) {
  return static_cast<int64_t>(sizeof(T));
}
inline int64_t DecodedValueBytes(const ByteArray& value) { return value.size; }

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_VALUES_H_
