// Every value type of the library (pqpage/value_type.h) in one list, for the files that
// instantiate a template once per type: they name the list, so a type added to the library is
// added to every instantiation at once.
#ifndef PQPAGE_COMMON_VALUE_TYPE_LIST_H_
#define PQPAGE_COMMON_VALUE_TYPE_LIST_H_

// Expands INSTANTIATE(T) for bool, int32_t, int64_t, Int96, float, double and ByteArray (which
// serves BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY), in the namespace where it is used.
#define PQPAGE_FOR_EACH_VALUE_TYPE(INSTANTIATE) \
  INSTANTIATE(bool)                             \
  INSTANTIATE(int32_t)                          \
  INSTANTIATE(int64_t)                          \
  INSTANTIATE(Int96)                            \
  INSTANTIATE(float)                            \
  INSTANTIATE(double)                           \
  INSTANTIATE(ByteArray)

#endif  // PQPAGE_COMMON_VALUE_TYPE_LIST_H_
