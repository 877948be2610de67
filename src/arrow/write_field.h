// The plan of an Arrow write: the Arrow schema of the batches as a tree of nodes that say how each
// array is walked into levels and how each leaf's values become Parquet values, the Parquet
// schema those nodes write (Arrow C++'s mapping, pqpage/arrow_writer.h), and the Arrow schema as
// it is stored under ARROW:schema.
#ifndef PQPAGE_SRC_ARROW_WRITE_FIELD_H_
#define PQPAGE_SRC_ARROW_WRITE_FIELD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "file/stored_arrow_schema.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/schema.h"

namespace pqpage::arrow_internal {

// How one leaf array's values become the values the page builder takes.
enum class WriteConversion : int8_t {
  kNull,               // the null type: no values
  kBoolean,            // bitmap -> bool
  kInt8ToInt32,        // int8 -> INT32
  kUInt8ToInt32,       // uint8 -> INT32
  kInt16ToInt32,       // int16 -> INT32
  kUInt16ToInt32,      // uint16 -> INT32
  kInt32,              // 4 bytes as they are (int32, uint32, date32, time32[ms], decimal32)
  kSecondsToMillis32,  // time32[s] -> TIME(MILLIS)
  kInt64,              // 8 bytes as they are (int64, uint64, time64, timestamps, durations)
  kSecondsToMillis64,  // timestamp[s] -> TIMESTAMP(MILLIS)
  kDate64ToDays,       // date64 (milliseconds) -> DATE (days)
  kFloat,
  kDouble,
  kFixedSize,       // source_width bytes a value, as they are (fixed_size_binary, float16)
  kBinary,          // int32 offsets and data
  kLargeBinary,     // int64 offsets and data
  kBinaryView,      // 16-byte views into inline bytes or data buffers
  kDecimalToInt32,  // a decimal of source_width bytes -> its low 4 bytes
  kDecimalToInt64,  // -> its low 8 bytes
  kDecimalToBytes,  // -> big-endian, the low decimal_bytes bytes
};

struct WriteNode {
  enum class Kind : int8_t {
    kLeaf,
    kStruct,
    kList,
    kLargeList,
    kListView,
    kLargeListView,
    kFixedSizeList,
    kMap
  };
  Kind kind = Kind::kLeaf;
  std::string name;
  bool nullable = true;
  int64_t list_size = 0;  // kFixedSizeList
  // Nested kinds: a struct's fields; a list's element; a map's one entries struct of key, value.
  std::vector<WriteNode> children;

  // Leaves.
  WriteConversion conversion = WriteConversion::kNull;
  int32_t source_width = 0;   // kFixedSize and decimals: bytes per value in the Arrow buffer
  int32_t decimal_bytes = 0;  // kDecimalToBytes: FIXED_LEN_BYTE_ARRAY length
  // A dictionary array: the index type's format ("c", "i", "L", ...); the conversion is then the
  // dictionary values'.
  std::string dictionary_index;
  int column = -1;  // Schema::columns() index
};

struct WritePlan {
  std::vector<WriteNode> fields;  // the batch struct's children
  Schema schema;
  std::vector<StoredArrowField> stored_fields;
  std::vector<std::pair<std::string, std::string>> schema_metadata;  // the root's metadata
  // Per column: the nodes from the top-level field down to the leaf, and the child index taken
  // at each step (the first is the field's index in the batch).
  std::vector<std::vector<const WriteNode*>> paths;
  std::vector<std::vector<int>> child_indices;
};

// Calls visit(Index{}) with the integer type of dictionary index format `format`: 'c' int8_t,
// 'C' uint8_t, 's' int16_t, 'S' uint16_t, 'i' int32_t, 'I' uint32_t, 'l' int64_t, 'L' uint64_t
// (PlanArrowWrite admits no other).
template <typename Visit>
decltype(auto) VisitIndexType(char format, Visit&& visit) {
  switch (format) {
    case 'c':
      return visit(int8_t{});
    case 'C':
      return visit(uint8_t{});
    case 's':
      return visit(int16_t{});
    case 'S':
      return visit(uint16_t{});
    case 'i':
      return visit(int32_t{});
    case 'I':
      return visit(uint32_t{});
    case 'l':
      return visit(int64_t{});
    default:
      return visit(uint64_t{});
  }
}

// @return the plan for batches of type `schema` (a struct), or InvalidArgument naming the field
// for a type with no Parquet form or a malformed ArrowSchema.
absl::StatusOr<WritePlan> PlanArrowWrite(const ArrowSchema& schema);

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_WRITE_FIELD_H_
