// What a leaf column's values mean beyond their physical type: the schema's logical type, or for
// files that carry only the older converted type, its logical equivalent. Readers choose their
// decoder by it (DuckDB reads a BYTE_ARRAY DECIMAL with another reader than a BYTE_ARRAY string),
// so which encodings a reader accepts can depend on it (pqpage/peer_readers.h).
#ifndef PQPAGE_LOGICAL_TYPE_H_
#define PQPAGE_LOGICAL_TYPE_H_

#include <cstdint>
#include <string>

namespace pqpage {

enum class LogicalKind : int8_t {
  kNone,  // no annotation: the physical type's own meaning
  kString,
  kEnum,
  kJson,
  kBson,
  kUuid,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kInteger,
  kFloat16,
  kInterval,  // converted type only: the format has no logical type for it
  kNull,      // the logical type UNKNOWN: every value is null
  kOther,     // an annotation this version of pqpage does not model (VARIANT, GEOMETRY, ...)
};

enum class TimeUnit : int8_t { kMillis, kMicros, kNanos };

struct LogicalType {
  LogicalKind kind = LogicalKind::kNone;
  TimeUnit unit = TimeUnit::kMillis;  // kTime, kTimestamp
  bool adjusted_to_utc = false;       // kTime, kTimestamp
  int32_t precision = 0;              // kDecimal
  int32_t scale = 0;                  // kDecimal
  int8_t bit_width = 0;               // kInteger: 8, 16, 32 or 64
  bool is_signed = true;              // kInteger

  // In the words of pqpage inspect and FileMetaData's SchemaElement::logical_type: "" for kNone,
  // "STRING", "DECIMAL(20,4)", "TIMESTAMP(MICROS,UTC)", "INTEGER(8,unsigned)", "INTERVAL", ...
  std::string ToString() const;
};

}  // namespace pqpage

#endif  // PQPAGE_LOGICAL_TYPE_H_
