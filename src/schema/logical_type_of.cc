#include "schema/logical_type_of.h"

namespace pqpage::internal {
namespace {

TimeUnit UnitOf(const format::TimeUnit& unit) {
  if (unit.__isset.MICROS) return TimeUnit::kMicros;
  if (unit.__isset.NANOS) return TimeUnit::kNanos;
  return TimeUnit::kMillis;
}

LogicalType FromLogical(const format::LogicalType& logical) {
  LogicalType out;
  if (logical.__isset.STRING) {
    out.kind = LogicalKind::kString;
  } else if (logical.__isset.ENUM) {
    out.kind = LogicalKind::kEnum;
  } else if (logical.__isset.JSON) {
    out.kind = LogicalKind::kJson;
  } else if (logical.__isset.BSON) {
    out.kind = LogicalKind::kBson;
  } else if (logical.__isset.UUID) {
    out.kind = LogicalKind::kUuid;
  } else if (logical.__isset.FLOAT16) {
    out.kind = LogicalKind::kFloat16;
  } else if (logical.__isset.DATE) {
    out.kind = LogicalKind::kDate;
  } else if (logical.__isset.UNKNOWN) {
    out.kind = LogicalKind::kNull;
  } else if (logical.__isset.DECIMAL) {
    out.kind = LogicalKind::kDecimal;
    out.precision = logical.DECIMAL.precision;
    out.scale = logical.DECIMAL.scale;
  } else if (logical.__isset.TIME) {
    out.kind = LogicalKind::kTime;
    out.unit = UnitOf(logical.TIME.unit);
    out.adjusted_to_utc = logical.TIME.isAdjustedToUTC;
  } else if (logical.__isset.TIMESTAMP) {
    out.kind = LogicalKind::kTimestamp;
    out.unit = UnitOf(logical.TIMESTAMP.unit);
    out.adjusted_to_utc = logical.TIMESTAMP.isAdjustedToUTC;
  } else if (logical.__isset.INTEGER) {
    out.kind = LogicalKind::kInteger;
    out.bit_width = logical.INTEGER.bitWidth;
    out.is_signed = logical.INTEGER.isSigned;
  } else {
    out.kind = LogicalKind::kOther;
  }
  return out;
}

LogicalType Integer(int8_t width, bool is_signed) {
  LogicalType out;
  out.kind = LogicalKind::kInteger;
  out.bit_width = width;
  out.is_signed = is_signed;
  return out;
}

LogicalType Temporal(LogicalKind kind, TimeUnit unit) {
  LogicalType out;
  out.kind = kind;
  out.unit = unit;
  out.adjusted_to_utc = true;
  return out;
}

LogicalType FromConverted(const format::SchemaElement& element) {
  LogicalType out;
  switch (element.converted_type) {
    case format::ConvertedType::UTF8:
      out.kind = LogicalKind::kString;
      return out;
    case format::ConvertedType::ENUM:
      out.kind = LogicalKind::kEnum;
      return out;
    case format::ConvertedType::JSON:
      out.kind = LogicalKind::kJson;
      return out;
    case format::ConvertedType::BSON:
      out.kind = LogicalKind::kBson;
      return out;
    case format::ConvertedType::INTERVAL:
      out.kind = LogicalKind::kInterval;
      return out;
    case format::ConvertedType::DATE:
      out.kind = LogicalKind::kDate;
      return out;
    case format::ConvertedType::DECIMAL:
      out.kind = LogicalKind::kDecimal;
      out.precision = element.__isset.precision ? element.precision : 0;
      out.scale = element.__isset.scale ? element.scale : 0;
      return out;
    case format::ConvertedType::TIME_MILLIS:
      return Temporal(LogicalKind::kTime, TimeUnit::kMillis);
    case format::ConvertedType::TIME_MICROS:
      return Temporal(LogicalKind::kTime, TimeUnit::kMicros);
    case format::ConvertedType::TIMESTAMP_MILLIS:
      return Temporal(LogicalKind::kTimestamp, TimeUnit::kMillis);
    case format::ConvertedType::TIMESTAMP_MICROS:
      return Temporal(LogicalKind::kTimestamp, TimeUnit::kMicros);
    case format::ConvertedType::INT_8:
      return Integer(8, true);
    case format::ConvertedType::INT_16:
      return Integer(16, true);
    case format::ConvertedType::INT_32:
      return Integer(32, true);
    case format::ConvertedType::INT_64:
      return Integer(64, true);
    case format::ConvertedType::UINT_8:
      return Integer(8, false);
    case format::ConvertedType::UINT_16:
      return Integer(16, false);
    case format::ConvertedType::UINT_32:
      return Integer(32, false);
    case format::ConvertedType::UINT_64:
      return Integer(64, false);
    default:
      out.kind = LogicalKind::kOther;
      return out;
  }
}

}  // namespace

LogicalType LogicalTypeOf(const format::SchemaElement& element) {
  if (element.__isset.logicalType) return FromLogical(element.logicalType);
  if (element.__isset.converted_type) return FromConverted(element);
  return LogicalType{};
}

}  // namespace pqpage::internal
