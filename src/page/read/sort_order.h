// How the values of a column sort, and the comparison of two single values in that order: what
// statistics, the page index's boundary order and page pruning agree on. The logical type decides
// before the physical type:
//   INTEGER(unsigned)    unsigned (UINT_8 .. UINT_64 on INT32 and INT64)
//   DECIMAL on byte arrays  signed: big-endian two's complement, of any length
//   INTERVAL, FLOAT16, annotations pqpage does not model: no order, as the format defines none
//                        for INTERVAL, and an order pqpage does not implement must not be used as
//                        if it were another
//   INT32, INT64         signed
//   BOOLEAN              false < true
//   FLOAT, DOUBLE        numeric
//   BYTE_ARRAY, FLBA     unsigned lexicographic bytes (strings, UUID, JSON, plain binary)
//   INT96                no order
// Values are compared as the PLAIN bytes of one value (byte arrays without their length prefix),
// the form the footer and the page index store.
#ifndef PQPAGE_PAGE_READ_SORT_ORDER_H_
#define PQPAGE_PAGE_READ_SORT_ORDER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "pqpage/column_descriptor.h"
#include "pqpage/types.h"

namespace pqpage::internal {

enum class SortOrder : int8_t {
  kNone,           // no order: no bounds are kept, values compare equal
  kPhysical,       // the physical type's own order
  kUnsigned,       // INT32 / INT64 read as unsigned
  kSignedDecimal,  // big-endian two's complement byte strings of any length
};
SortOrder SortOrderOf(const ColumnDescriptor& column);

// Three-way comparison (-1, 0, 1) of two PLAIN-encoded single values of `column` in its sort
// order (floats: numeric, NaN not expected). Values of a column without order compare equal.
int CompareEncodedValues(const ColumnDescriptor& column, const std::string& a,
                         const std::string& b);
int CompareEncodedValues(PhysicalType type, SortOrder order, const std::string& a,
                         const std::string& b);

// Three-way comparisons of byte strings: unsigned bytewise, and as big-endian two's complement
// numbers of any length (sign-extended forms compare equal).
int CompareUnsignedBytes(std::string_view a, std::string_view b);
int CompareSignedBigEndian(std::string_view a, std::string_view b);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_READ_SORT_ORDER_H_
