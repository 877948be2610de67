#include "page/read/sort_order.h"

#include <cstring>
#include <type_traits>

#include "pqpage/value_type.h"

namespace pqpage::internal {
namespace {

template <typename T>
T DecodeOne(const std::string& bytes) {
  T value{};
  if (bytes.size() == sizeof(T)) std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

bool IsNegative(std::string_view twos_complement) {
  return !twos_complement.empty() && (static_cast<uint8_t>(twos_complement[0]) & 0x80) != 0;
}

// Drops the leading bytes that only repeat the sign (0x00 before a byte < 0x80, 0xFF before a byte
// >= 0x80): what is left is the shortest form of the same number. The empty string is zero.
std::string_view ShortestTwosComplement(std::string_view bytes) {
  while (bytes.size() > 1) {
    const uint8_t first = static_cast<uint8_t>(bytes[0]);
    const uint8_t second = static_cast<uint8_t>(bytes[1]);
    if ((first == 0x00 && second < 0x80) || (first == 0xFF && second >= 0x80)) {
      bytes.remove_prefix(1);
    } else {
      break;
    }
  }
  return bytes;
}

template <typename T>
int CompareNumbers(const std::string& a, const std::string& b) {
  const T x = DecodeOne<T>(a);
  const T y = DecodeOne<T>(b);
  return x < y ? -1 : (y < x ? 1 : 0);
}

}  // namespace

int CompareUnsignedBytes(std::string_view a, std::string_view b) {
  // std::string_view::compare uses char_traits<char>, whose order is that of unsigned char.
  const int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// Big-endian two's complement numbers of any length (DECIMAL on BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY): by sign, then by the length of the shortest form (longer is further from
// zero), then bytewise, which orders two numbers of the same sign and length.
int CompareSignedBigEndian(std::string_view a, std::string_view b) {
  const bool a_negative = IsNegative(a);
  const bool b_negative = IsNegative(b);
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  a = ShortestTwosComplement(a);
  b = ShortestTwosComplement(b);
  if (a.size() != b.size()) {
    const int longer_is = a.size() > b.size() ? 1 : -1;
    return a_negative ? -longer_is : longer_is;
  }
  return CompareUnsignedBytes(a, b);
}

SortOrder SortOrderOf(const ColumnDescriptor& column) {
  if (column.type == PhysicalType::kInt96) return SortOrder::kNone;
  switch (column.logical_type.kind) {
    case LogicalKind::kInteger:
      return column.logical_type.is_signed ? SortOrder::kPhysical : SortOrder::kUnsigned;
    case LogicalKind::kDecimal:
      return column.type == PhysicalType::kByteArray ||
                     column.type == PhysicalType::kFixedLenByteArray
                 ? SortOrder::kSignedDecimal
                 : SortOrder::kPhysical;
    case LogicalKind::kInterval:
    case LogicalKind::kFloat16:
    case LogicalKind::kOther:
      return SortOrder::kNone;
    default:
      return SortOrder::kPhysical;
  }
}

int CompareEncodedValues(const ColumnDescriptor& column, const std::string& a,
                         const std::string& b) {
  return CompareEncodedValues(column.type, SortOrderOf(column), a, b);
}

int CompareEncodedValues(PhysicalType type, SortOrder order, const std::string& a,
                         const std::string& b) {
  if (order == SortOrder::kNone) return 0;
  return VisitValueType(type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    if constexpr (std::is_same_v<T, ByteArray>) {
      return order == SortOrder::kSignedDecimal ? CompareSignedBigEndian(a, b)
                                                : CompareUnsignedBytes(a, b);
    } else if constexpr (std::is_same_v<T, Int96>) {
      return 0;  // no defined order: never compared
    } else if constexpr (std::is_same_v<T, bool>) {
      return CompareNumbers<uint8_t>(a, b);  // stored as one byte, 0 or 1
    } else if constexpr (std::is_integral_v<T>) {
      return order == SortOrder::kUnsigned ? CompareNumbers<std::make_unsigned_t<T>>(a, b)
                                           : CompareNumbers<T>(a, b);
    } else {
      return CompareNumbers<T>(a, b);
    }
  });
}

}  // namespace pqpage::internal
