// Which C++ value type carries which Parquet physical type through the typed calls of the column
// chunk reader and writer: bool, int32_t, int64_t, Int96, float, double, and ByteArray for both
// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY. VisitValueType turns a run-time physical type into that
// compile-time type, so a caller writes its per-column code once, as a template.
#ifndef PQPAGE_VALUE_TYPE_H_
#define PQPAGE_VALUE_TYPE_H_

#include <cstdint>
#include <type_traits>

#include "pqpage/types.h"

namespace pqpage {

// Whether T is the value type of physical type `type`.
template <typename T>
constexpr bool ValueTypeMatches(PhysicalType type) {
  if constexpr (std::is_same_v<T, bool>) return type == PhysicalType::kBoolean;
  if constexpr (std::is_same_v<T, int32_t>) return type == PhysicalType::kInt32;
  if constexpr (std::is_same_v<T, int64_t>) return type == PhysicalType::kInt64;
  if constexpr (std::is_same_v<T, Int96>) return type == PhysicalType::kInt96;
  if constexpr (std::is_same_v<T, float>) return type == PhysicalType::kFloat;
  if constexpr (std::is_same_v<T, double>) return type == PhysicalType::kDouble;
  if constexpr (std::is_same_v<T, ByteArray>) {
    return type == PhysicalType::kByteArray || type == PhysicalType::kFixedLenByteArray;
  }
  return false;
}

// The argument VisitValueType passes: `typename decltype(tag)::Type` is the value type.
template <typename T>
struct ValueTag {
  using Type = T;
};

// Calls `fn(ValueTag<T>{})` with the value type T of `type` and returns what it returns; every
// instantiation of `fn` must return the same type. A value outside the enum (which the schema
// reader never produces) is treated as a byte array, so the switch stays total.
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
  return fn(ValueTag<ByteArray>{});
}

}  // namespace pqpage

#endif  // PQPAGE_VALUE_TYPE_H_
