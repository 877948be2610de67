// ParseValueText (pqpage/value_text.h): a value a person types, as the PLAIN bytes of one value
// of a column, so that it can be compared with statistics and hashed for a bloom filter exactly
// as a writer stored it.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_text.h"

namespace pqpage {
namespace {

template <typename T>
std::string LittleEndianBytes(T value) {
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

absl::Status NotA(absl::string_view what, absl::string_view text) {
  return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not ", what));
}

// A decimal number ("-12.5") as an integer of `scale` decimal places (-1250 for scale 2), with
// at most 38 digits. InvalidArgument for anything else, or for digits past the scale that are
// not zeros (the column could not hold the value).
absl::StatusOr<__int128> ScaledDecimal(absl::string_view text, int32_t scale) {
  absl::string_view digits = text;
  const bool negative = !digits.empty() && digits.front() == '-';
  if (negative || (!digits.empty() && digits.front() == '+')) digits.remove_prefix(1);
  __int128 value = 0;
  int count = 0;
  int fraction = -1;  // digits after the point, once one is seen
  for (const char c : digits) {
    if (c == '.' && fraction < 0) {
      fraction = 0;
      continue;
    }
    if (c < '0' || c > '9') return NotA("a decimal number", text);
    if (fraction >= scale) {
      if (c != '0') return NotA(absl::StrCat("a decimal of scale ", scale), text);
      continue;
    }
    if (fraction >= 0) ++fraction;
    if (++count > 38) return NotA("a decimal of at most 38 digits", text);
    value = value * 10 + (c - '0');
  }
  if (count == 0) return NotA("a decimal number", text);
  for (int i = fraction < 0 ? 0 : fraction; i < scale; ++i) {
    if (++count > 38) return NotA("a decimal of at most 38 digits", text);
    value *= 10;
  }
  return negative ? -value : value;
}

// `value` as big-endian two's complement in `width` bytes, or in the fewest bytes that hold it
// (width 0). InvalidArgument when it does not fit `width`.
absl::StatusOr<std::string> BigEndianBytes(__int128 value, int width, absl::string_view text) {
  std::string bytes;
  for (int i = 0; i < 16; ++i) {
    bytes.insert(bytes.begin(), static_cast<char>(static_cast<uint8_t>(value >> (8 * i))));
  }
  // Drop leading bytes that only repeat the sign.
  while (bytes.size() > 1) {
    const auto first = static_cast<uint8_t>(bytes[0]);
    const auto second = static_cast<uint8_t>(bytes[1]);
    const bool repeats = (first == 0x00 && second < 0x80) || (first == 0xff && second >= 0x80);
    if (!repeats) break;
    bytes.erase(bytes.begin());
  }
  if (width == 0) return bytes;
  if (static_cast<int>(bytes.size()) > width) {
    return NotA(absl::StrCat("a decimal that fits ", width, " bytes"), text);
  }
  const char sign = value < 0 ? '\xff' : '\0';
  return std::string(static_cast<size_t>(width) - bytes.size(), sign) + bytes;
}

// "0x" and hex digits, or the digits alone when `prefixed` is false.
absl::StatusOr<std::string> HexBytes(absl::string_view text, bool prefixed = true) {
  absl::string_view hex = prefixed ? text.substr(2) : text;
  if (hex.size() % 2 != 0) return NotA("0x and whole bytes of hex", text);
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int byte = 0;
    for (const char c : hex.substr(i, 2)) {
      const int digit = absl::ascii_isdigit(c)   ? c - '0'
                        : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                        : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                 : -1;
      if (digit < 0) return NotA("0x and hex digits", text);
      byte = byte * 16 + digit;
    }
    bytes.push_back(static_cast<char>(byte));
  }
  return bytes;
}

absl::StatusOr<int64_t> Integer(absl::string_view text, int64_t min, int64_t max) {
  int64_t value = 0;
  if (!absl::SimpleAtoi(text, &value) || value < min || value > max) {
    return NotA(absl::StrCat("an integer in ", min, "..", max), text);
  }
  return value;
}

absl::StatusOr<std::string> Int32Value(const LogicalType& logical, absl::string_view text) {
  if (logical.kind == LogicalKind::kDecimal) {
    PQPAGE_ASSIGN_OR_RETURN(const __int128 value, ScaledDecimal(text, logical.scale));
    if (value < std::numeric_limits<int32_t>::min() ||
        value > std::numeric_limits<int32_t>::max()) {
      return NotA("a decimal that fits INT32", text);
    }
    return LittleEndianBytes(static_cast<int32_t>(value));
  }
  if (logical.kind == LogicalKind::kDate) {
    absl::CivilDay day;
    if (absl::ParseCivilTime(text, &day)) {
      return LittleEndianBytes(static_cast<int32_t>(day - absl::CivilDay(1970, 1, 1)));
    }
  }
  if (logical.kind == LogicalKind::kInteger && !logical.is_signed) {
    PQPAGE_ASSIGN_OR_RETURN(
        const int64_t value,
        Integer(text, 0, (int64_t{1} << std::min<int>(logical.bit_width, 32)) - 1));
    return LittleEndianBytes(static_cast<uint32_t>(value));
  }
  int64_t min = std::numeric_limits<int32_t>::min();
  int64_t max = std::numeric_limits<int32_t>::max();
  if (logical.kind == LogicalKind::kInteger && logical.bit_width < 32) {
    max = (int64_t{1} << (logical.bit_width - 1)) - 1;
    min = -max - 1;
  }
  PQPAGE_ASSIGN_OR_RETURN(const int64_t value, Integer(text, min, max));
  return LittleEndianBytes(static_cast<int32_t>(value));
}

// A TIMESTAMP written as RFC 3339 ("2026-01-02T03:04:05.5Z"), or without a zone as UTC.
std::optional<int64_t> TimestampValue(TimeUnit unit, absl::string_view text) {
  absl::Time time;
  std::string error;
  const std::string owned(text);
  if (!absl::ParseTime(absl::RFC3339_full, owned, &time, &error) &&
      !absl::ParseTime("%Y-%m-%d%ET%H:%M:%E*S", owned, absl::UTCTimeZone(), &time, &error) &&
      !absl::ParseTime("%Y-%m-%d %H:%M:%E*S", owned, absl::UTCTimeZone(), &time, &error)) {
    return std::nullopt;
  }
  switch (unit) {
    case TimeUnit::kMillis:
      return absl::ToUnixMillis(time);
    case TimeUnit::kMicros:
      return absl::ToUnixMicros(time);
    case TimeUnit::kNanos:
      return absl::ToUnixNanos(time);
  }
  return std::nullopt;
}

absl::StatusOr<std::string> Int64Value(const LogicalType& logical, absl::string_view text) {
  if (logical.kind == LogicalKind::kDecimal) {
    PQPAGE_ASSIGN_OR_RETURN(const __int128 value, ScaledDecimal(text, logical.scale));
    if (value < std::numeric_limits<int64_t>::min() ||
        value > std::numeric_limits<int64_t>::max()) {
      return NotA("a decimal that fits INT64", text);
    }
    return LittleEndianBytes(static_cast<int64_t>(value));
  }
  if (logical.kind == LogicalKind::kTimestamp) {
    if (const std::optional<int64_t> value = TimestampValue(logical.unit, text)) {
      return LittleEndianBytes(*value);
    }
  }
  if (logical.kind == LogicalKind::kInteger && !logical.is_signed) {
    uint64_t value = 0;
    if (!absl::SimpleAtoi(text, &value)) return NotA("an unsigned 64-bit integer", text);
    return LittleEndianBytes(value);
  }
  PQPAGE_ASSIGN_OR_RETURN(const int64_t value, Integer(text, std::numeric_limits<int64_t>::min(),
                                                       std::numeric_limits<int64_t>::max()));
  return LittleEndianBytes(value);
}

absl::StatusOr<std::string> UuidValue(absl::string_view text) {
  std::string hex = "0x";
  for (const char c : text) {
    if (c != '-') hex.push_back(c);
  }
  absl::StatusOr<std::string> bytes = HexBytes(hex);
  if (!bytes.ok() || bytes->size() != 16) return NotA("a UUID", text);
  return bytes;
}

}  // namespace

absl::StatusOr<std::string> ParseValueText(const ColumnDescriptor& column,
                                           std::string_view std_text) {
  // This Abseil's string_view is its own type, which its parsers take.
  const absl::string_view text(std_text.data(), std_text.size());
  const LogicalType& logical = column.logical_type;
  switch (column.type) {
    case PhysicalType::kBoolean:
      if (text == "true" || text == "1") return std::string(1, '\1');
      if (text == "false" || text == "0") return std::string(1, '\0');
      return NotA("true or false", text);
    case PhysicalType::kInt32:
      return Int32Value(logical, text);
    case PhysicalType::kInt64:
      return Int64Value(logical, text);
    case PhysicalType::kFloat: {
      float value = 0;
      if (!absl::SimpleAtof(text, &value)) return NotA("a number", text);
      return LittleEndianBytes(value);
    }
    case PhysicalType::kDouble: {
      double value = 0;
      if (!absl::SimpleAtod(text, &value)) return NotA("a number", text);
      return LittleEndianBytes(value);
    }
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      const int width = column.type == PhysicalType::kFixedLenByteArray ? column.type_length : 0;
      std::string bytes;
      if (logical.kind == LogicalKind::kDecimal) {
        PQPAGE_ASSIGN_OR_RETURN(const __int128 value, ScaledDecimal(text, logical.scale));
        return BigEndianBytes(value, width, text);
      }
      if (logical.kind == LogicalKind::kUuid) return UuidValue(text);
      const bool is_text = logical.kind == LogicalKind::kString ||
                           logical.kind == LogicalKind::kEnum || logical.kind == LogicalKind::kJson;
      if (!is_text && text.size() >= 2 && text.substr(0, 2) == "0x") {
        PQPAGE_ASSIGN_OR_RETURN(bytes, HexBytes(text));
      } else {
        bytes = std::string(text);
      }
      if (width != 0 && static_cast<int>(bytes.size()) != width) {
        return NotA(
            absl::StrCat("a value of ", width, " bytes (or 0x and ", 2 * width, " hex digits)"),
            text);
      }
      return bytes;
    }
    case PhysicalType::kInt96:
      break;
  }
  return absl::UnimplementedError(
      absl::StrCat("values of ", PhysicalTypeName(column.type).data(), " cannot be given as text"));
}

absl::StatusOr<std::string> ParsePlainHex(const ColumnDescriptor& column,
                                          std::string_view std_hex) {
  absl::string_view hex(std_hex.data(), std_hex.size());
  const bool prefixed = hex.size() >= 2 && hex.substr(0, 2) == "0x";
  PQPAGE_ASSIGN_OR_RETURN(std::string bytes, HexBytes(hex, prefixed));
  size_t size = 0;
  switch (column.type) {
    case PhysicalType::kBoolean:
      size = 1;
      break;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      size = 4;
      break;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      size = 8;
      break;
    case PhysicalType::kInt96:
      size = 12;
      break;
    case PhysicalType::kFixedLenByteArray:
      size = static_cast<size_t>(column.type_length);
      break;
    case PhysicalType::kByteArray:
      return bytes;
  }
  if (bytes.size() != size) {
    return NotA(
        absl::StrCat("the ", size, " bytes of a ", PhysicalTypeName(column.type).data(), " in hex"),
        hex);
  }
  return bytes;
}

}  // namespace pqpage
