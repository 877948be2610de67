#include "schema/annotate_element.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"

namespace pqpage::internal {
namespace {

format::TimeUnit UnitFor(TimeUnit unit) {
  format::TimeUnit out;
  if (unit == TimeUnit::kMillis) {
    out.__set_MILLIS(format::MilliSeconds());
  } else if (unit == TimeUnit::kMicros) {
    out.__set_MICROS(format::MicroSeconds());
  } else {
    out.__set_NANOS(format::NanoSeconds());
  }
  return out;
}

// The most decimal digits `bytes` bytes of two's complement hold: floor(log10(2^(8*bytes-1) - 1)).
int MaxDecimalDigits(int64_t bytes) {
  if (bytes <= 0) return 0;
  // 8*bytes-1 bits give log10(2) * (8*bytes-1) digits; exact for every length up to the
  // format's 2^31 (the floor never lands on an integer: powers of 2 are not powers of 10).
  constexpr double kLog10Of2 = 0.30102999566398119521;
  return static_cast<int>(kLog10Of2 * static_cast<double>(8 * bytes - 1));
}

int MaxPrecision(const format::SchemaElement& element) {
  switch (element.type) {
    case format::Type::INT32:
      return 9;
    case format::Type::INT64:
      return 18;
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      return MaxDecimalDigits(element.type_length);
    case format::Type::BYTE_ARRAY:
      return INT32_MAX;
    default:
      return 0;
  }
}

format::ConvertedType::type IntegerConverted(int8_t width, bool is_signed) {
  switch (width) {
    case 8:
      return is_signed ? format::ConvertedType::INT_8 : format::ConvertedType::UINT_8;
    case 16:
      return is_signed ? format::ConvertedType::INT_16 : format::ConvertedType::UINT_16;
    case 32:
      return is_signed ? format::ConvertedType::INT_32 : format::ConvertedType::UINT_32;
    default:
      return is_signed ? format::ConvertedType::INT_64 : format::ConvertedType::UINT_64;
  }
}

// Whether `element`'s physical type can hold `logical` (the format's LogicalTypes.md table).
bool Holds(const format::SchemaElement& element, const LogicalType& logical) {
  const auto type = static_cast<format::Type::type>(element.type);
  switch (logical.kind) {
    case LogicalKind::kNone:
    case LogicalKind::kNull:
      return true;
    case LogicalKind::kString:
    case LogicalKind::kEnum:
    case LogicalKind::kJson:
    case LogicalKind::kBson:
      return type == format::Type::BYTE_ARRAY;
    case LogicalKind::kUuid:
      return type == format::Type::FIXED_LEN_BYTE_ARRAY && element.type_length == 16;
    case LogicalKind::kFloat16:
      return type == format::Type::FIXED_LEN_BYTE_ARRAY && element.type_length == 2;
    case LogicalKind::kDecimal:
      return MaxPrecision(element) > 0;
    case LogicalKind::kDate:
      return type == format::Type::INT32;
    case LogicalKind::kTime:
      return type ==
             (logical.unit == TimeUnit::kMillis ? format::Type::INT32 : format::Type::INT64);
    case LogicalKind::kTimestamp:
      return type == format::Type::INT64;
    case LogicalKind::kInteger:
      return type == (logical.bit_width == 64 ? format::Type::INT64 : format::Type::INT32);
    default:
      return false;
  }
}

}  // namespace

absl::Status AnnotateElement(const LogicalType& logical, format::SchemaElement* element) {
  if (logical.kind == LogicalKind::kNone) return absl::OkStatus();
  if (logical.kind == LogicalKind::kInteger && logical.bit_width != 8 && logical.bit_width != 16 &&
      logical.bit_width != 32 && logical.bit_width != 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("field '", element->name, "': an integer of ", logical.bit_width, " bits"));
  }
  if (!Holds(*element, logical)) {
    return absl::InvalidArgumentError(
        absl::StrCat("field '", element->name, "': physical type ",
                     format::to_string(static_cast<format::Type::type>(element->type)),
                     " cannot hold ", logical.ToString()));
  }
  format::LogicalType type;
  switch (logical.kind) {
    case LogicalKind::kString:
      type.__set_STRING(format::StringType());
      element->__set_converted_type(format::ConvertedType::UTF8);
      break;
    case LogicalKind::kEnum:
      type.__set_ENUM(format::EnumType());
      element->__set_converted_type(format::ConvertedType::ENUM);
      break;
    case LogicalKind::kJson:
      type.__set_JSON(format::JsonType());
      element->__set_converted_type(format::ConvertedType::JSON);
      break;
    case LogicalKind::kBson:
      type.__set_BSON(format::BsonType());
      element->__set_converted_type(format::ConvertedType::BSON);
      break;
    case LogicalKind::kUuid:
      type.__set_UUID(format::UUIDType());
      break;
    case LogicalKind::kFloat16:
      type.__set_FLOAT16(format::Float16Type());
      break;
    case LogicalKind::kNull:
      type.__set_UNKNOWN(format::NullType());
      break;
    case LogicalKind::kDate:
      type.__set_DATE(format::DateType());
      element->__set_converted_type(format::ConvertedType::DATE);
      break;
    case LogicalKind::kDecimal: {
      if (logical.precision < 1 || logical.precision > MaxPrecision(*element) ||
          logical.scale < 0 || logical.scale > logical.precision) {
        return absl::InvalidArgumentError(
            absl::StrCat("field '", element->name, "': ", logical.ToString(), " does not fit ",
                         format::to_string(static_cast<format::Type::type>(element->type))));
      }
      format::DecimalType decimal;
      decimal.__set_precision(logical.precision);
      decimal.__set_scale(logical.scale);
      type.__set_DECIMAL(decimal);
      element->__set_converted_type(format::ConvertedType::DECIMAL);
      element->__set_precision(logical.precision);
      element->__set_scale(logical.scale);
      break;
    }
    case LogicalKind::kTime: {
      format::TimeType time;
      time.__set_isAdjustedToUTC(logical.adjusted_to_utc);
      time.__set_unit(UnitFor(logical.unit));
      type.__set_TIME(time);
      // The converted TIME_* types are adjusted to UTC by definition.
      if (logical.adjusted_to_utc && logical.unit != TimeUnit::kNanos) {
        element->__set_converted_type(logical.unit == TimeUnit::kMillis
                                          ? format::ConvertedType::TIME_MILLIS
                                          : format::ConvertedType::TIME_MICROS);
      }
      break;
    }
    case LogicalKind::kTimestamp: {
      format::TimestampType timestamp;
      timestamp.__set_isAdjustedToUTC(logical.adjusted_to_utc);
      timestamp.__set_unit(UnitFor(logical.unit));
      type.__set_TIMESTAMP(timestamp);
      // The converted TIMESTAMP_* types are instants (adjusted to UTC) by definition.
      if (logical.adjusted_to_utc && logical.unit != TimeUnit::kNanos) {
        element->__set_converted_type(logical.unit == TimeUnit::kMillis
                                          ? format::ConvertedType::TIMESTAMP_MILLIS
                                          : format::ConvertedType::TIMESTAMP_MICROS);
      }
      break;
    }
    case LogicalKind::kInteger: {
      format::IntType integer;
      integer.__set_bitWidth(logical.bit_width);
      integer.__set_isSigned(logical.is_signed);
      type.__set_INTEGER(integer);
      element->__set_converted_type(IntegerConverted(logical.bit_width, logical.is_signed));
      break;
    }
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "field '", element->name, "': ", logical.ToString(), " has no logical type to write"));
  }
  element->__set_logicalType(type);
  return absl::OkStatus();
}

}  // namespace pqpage::internal
