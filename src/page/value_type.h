// Which C++ value type carries which physical type through the page decoder and page builder:
// bool, int32_t, int64_t, Int96, float, double, and ByteArray for both byte-array types. The
// templated batch calls check it before touching a value.
#ifndef PQPAGE_PAGE_VALUE_TYPE_H_
#define PQPAGE_PAGE_VALUE_TYPE_H_

#include <cstdint>
#include <type_traits>

#include "pqpage/types.h"

namespace pqpage::internal {

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

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_VALUE_TYPE_H_
