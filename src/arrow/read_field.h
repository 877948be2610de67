// The Arrow field tree a Parquet schema reads as, and for each field how it is rebuilt from the
// levels of the leaf columns under it: Arrow C++'s mapping of types and of the format's nested
// forms (three-level LIST and its legacy two- and one-level forms, MAP and MAP_KEY_VALUE,
// structs, bare repeated fields), pruned to the selected columns.
#ifndef PQPAGE_SRC_ARROW_READ_FIELD_H_
#define PQPAGE_SRC_ARROW_READ_FIELD_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "arrow/c_export.h"
#include "pqpage/metadata.h"
#include "pqpage/schema.h"

namespace pqpage::arrow_internal {

// How a leaf's physical values become the Arrow array's values.
enum class ValueConversion : int8_t {
  kNull,            // the null type: no values
  kBoolean,         // bool -> bitmap
  kInt32,           // int32 -> 4 bytes (int32, uint32, date32, time32)
  kInt32ToInt8,     // int32 -> 1 byte (int8, uint8)
  kInt32ToInt16,    // int32 -> 2 bytes (int16, uint16)
  kInt64,           // int64 -> 8 bytes (int64, uint64, timestamps, time64, durations)
  kFloat,           // float -> 4 bytes
  kDouble,          // double -> 8 bytes
  kInt96ToNanos,    // INT96 (Julian day, nanoseconds of the day) -> int64 ns since the epoch
  kInt32ToDecimal,  // int32 -> decimal of decimal_bytes, sign extended
  kInt64ToDecimal,  // int64 -> decimal of decimal_bytes, sign extended
  kBytesToDecimal,  // big-endian two's complement bytes -> decimal of decimal_bytes
  kBinary,          // byte arrays -> int32 offsets and data
  kLargeBinary,     // byte arrays -> int64 offsets and data
  kFixedSize,       // FIXED_LEN_BYTE_ARRAY -> fixed_size bytes per value (also float16)
};

struct ReadField {
  enum class Kind : int8_t { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  ArrowType type;  // its format, name, nullability and metadata; children are not filled here
  std::vector<ReadField> children;

  // Levels. The field has a slot in its parent's array at each level (of its first leaf) whose
  // definition level is at least slot_def and repetition level at most slot_rep; the slot is
  // valid (not null) when the definition level is at least valid_def.
  int16_t slot_def = 0;
  int16_t slot_rep = 0;
  int16_t valid_def = 0;
  // The schema column (index in Schema::columns()) whose levels give this field's slots: a
  // leaf's own, a group's first selected leaf; -1 for a group without leaves (an empty struct,
  // with a slot wherever its parent has one, null there when nullable).
  int leaf = -1;

  // Leaves only.
  ValueConversion conversion = ValueConversion::kNull;
  int32_t fixed_size = 0;     // kFixedSize: bytes per value
  int32_t decimal_bytes = 0;  // decimals: 16 or 32 (4 or 8 for a stored decimal32 / decimal64)
  // Byte array leaves read as a dictionary array: indices into the distinct values of each
  // batch, in the order they first appear (`type.format` stays the values' type), of the integer
  // type dictionary_index names ("c", "s", "i", "l" or their unsigned "C", "S", "I", "L").
  bool dictionary = false;
  std::string dictionary_index = "i";
};

// The fields `file_schema` (the footer's element list) reads as, its leaves numbered as in
// `columns` (Schema::columns()), keeping the leaves `selected` marks (one flag per column).
// Groups that keep no selected leaf are left out; groups without any leaf are kept as empty
// structs when every column is selected, as pyarrow keeps them.
// @return the top-level fields, or DataLoss for a LIST or MAP group of a shape no rule reads.
absl::StatusOr<std::vector<ReadField>> MapSchema(const std::vector<SchemaElement>& file_schema,
                                                 const std::vector<ColumnDescriptor>& columns,
                                                 const std::vector<bool>& selected);

// Marks the leaves of UUID columns read as fixed_size_binary(16) and of JSON columns read as
// utf8 (or large_utf8 / utf8_view) as Arrow's canonical extension types arrow.uuid and arrow.json
// (the ARROW:extension:name field metadata), as pyarrow reads them by default.
void MarkExtensionTypes(const std::vector<ColumnDescriptor>& columns,
                        std::vector<ReadField>& fields);

// The Arrow type of `field`, children included.
ArrowType TypeOf(const ReadField& field);

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_READ_FIELD_H_
