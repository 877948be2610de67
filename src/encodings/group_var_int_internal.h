// The group layouts shared by the GroupVarInt encoder and decoder (see
// include/pqpage/group_var_int.h for the format). GroupLayout<T> says where each value's (length -
// 1) field sits in the header.
#ifndef PQPAGE_ENCODINGS_GROUP_VAR_INT_INTERNAL_H_
#define PQPAGE_ENCODINGS_GROUP_VAR_INT_INTERNAL_H_

#include <cstdint>

namespace pqpage::internal {

template <typename T>
struct GroupLayout;

template <>
struct GroupLayout<int32_t> {
  using Unsigned = uint32_t;
  static constexpr int kGroupSize = 4;
  static constexpr int kHeaderBytes = 1;
  static constexpr int kFieldBits = 2;
  static constexpr int kMaxGroupBytes = kHeaderBytes + kGroupSize * 4;  // 17
  // Value j's field: the first value in the most significant bits.
  static constexpr int FieldShift(int j) { return 6 - 2 * j; }
  static constexpr uint32_t kUnusedBits = 0;
  // Bytes needed for `value`, at least 1.
  static int ByteLength(uint32_t value) { return (39 - __builtin_clz(value | 1)) >> 3; }
};

template <>
struct GroupLayout<int64_t> {
  using Unsigned = uint64_t;
  static constexpr int kGroupSize = 5;
  static constexpr int kHeaderBytes = 2;
  static constexpr int kFieldBits = 3;
  static constexpr int kMaxGroupBytes = kHeaderBytes + kGroupSize * 8;  // 42
  static constexpr int FieldShift(int j) { return 12 - 3 * j; }
  static constexpr uint32_t kUnusedBits = 0x8000;
  static int ByteLength(uint64_t value) { return (71 - __builtin_clzll(value | 1)) >> 3; }
};

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_GROUP_VAR_INT_INTERNAL_H_
