#include "pqpage/logical_type.h"

#include "absl/strings/str_cat.h"

namespace pqpage {
namespace {

const char* UnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return "MILLIS";
    case TimeUnit::kMicros:
      return "MICROS";
    case TimeUnit::kNanos:
      return "NANOS";
  }
  return "UNKNOWN";
}

}  // namespace

std::string LogicalType::ToString() const {
  switch (kind) {
    case LogicalKind::kNone:
      return "";
    case LogicalKind::kString:
      return "STRING";
    case LogicalKind::kEnum:
      return "ENUM";
    case LogicalKind::kJson:
      return "JSON";
    case LogicalKind::kBson:
      return "BSON";
    case LogicalKind::kUuid:
      return "UUID";
    case LogicalKind::kDecimal:
      return absl::StrCat("DECIMAL(", precision, ",", scale, ")");
    case LogicalKind::kDate:
      return "DATE";
    case LogicalKind::kTime:
    case LogicalKind::kTimestamp:
      return absl::StrCat(kind == LogicalKind::kTime ? "TIME(" : "TIMESTAMP(", UnitName(unit), ",",
                          adjusted_to_utc ? "UTC" : "local", ")");
    case LogicalKind::kInteger:
      return absl::StrCat("INTEGER(", static_cast<int>(bit_width), ",",
                          is_signed ? "signed" : "unsigned", ")");
    case LogicalKind::kFloat16:
      return "FLOAT16";
    case LogicalKind::kInterval:
      return "INTERVAL";
    case LogicalKind::kNull:
      return "NULL";
    case LogicalKind::kOther:
      return "OTHER";
  }
  return "OTHER";
}

}  // namespace pqpage
