// Every physical type and every encoding id of the format, for tests that sweep all pairs (the
// codec factory's, the decode cost table's), so that each sweeps the same complete lists.
#ifndef PQPAGE_TESTS_TYPE_AND_ENCODING_LISTS_H_
#define PQPAGE_TESTS_TYPE_AND_ENCODING_LISTS_H_

#include "pqpage/types.h"

namespace pqpage::testing {

inline constexpr PhysicalType kAllPhysicalTypes[] = {
    PhysicalType::kBoolean,   PhysicalType::kInt32,
    PhysicalType::kInt64,     PhysicalType::kInt96,
    PhysicalType::kFloat,     PhysicalType::kDouble,
    PhysicalType::kByteArray, PhysicalType::kFixedLenByteArray};
inline constexpr Encoding kAllEncodings[] = {
    Encoding::kPlain,          Encoding::kPlainDictionary,   Encoding::kRle,
    Encoding::kBitPacked,      Encoding::kDeltaBinaryPacked, Encoding::kDeltaLengthByteArray,
    Encoding::kDeltaByteArray, Encoding::kRleDictionary,     Encoding::kByteStreamSplit};

}  // namespace pqpage::testing

#endif  // PQPAGE_TESTS_TYPE_AND_ENCODING_LISTS_H_
