// Arrays and types built in C++ and handed out through the Arrow C Data Interface: each exported
// structure owns what it points to through its private data, and its release callback frees that
// and releases the children the consumer has not moved out (the interface's ownership rules).
#ifndef PQPAGE_SRC_ARROW_C_EXPORT_H_
#define PQPAGE_SRC_ARROW_C_EXPORT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "arrow/arrow_buffer.h"
#include "pqpage/arrow_c_data.h"

namespace pqpage::arrow_internal {

// One Arrow type with its field: what ArrowSchema describes.
struct ArrowType {
  std::string format;
  std::string name;
  bool nullable = true;
  int64_t extra_flags = 0;  // ARROW_FLAG_MAP_KEYS_SORTED and the like
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<ArrowType> children;
  // A dictionary type's value type (one entry; the format above is then the index type's).
  std::vector<ArrowType> dictionary;
};

// One array: its buffers in the order its type's layout fixes, the validity bitmap first (left
// empty, it is exported as NULL: no value is null), and its children.
struct ArrayData {
  int64_t length = 0;
  int64_t null_count = 0;
  std::vector<ArrowBuffer> buffers;
  std::vector<ArrayData> children;
  std::vector<ArrayData> dictionary;  // a dictionary array's values (one entry)
};

// Fills `out` with `type`; the caller owns it and releases it.
void ExportType(const ArrowType& type, ArrowSchema* out);
// Moves `array` into `out`; the caller owns it and releases it.
void ExportArray(ArrayData array, ArrowArray* out);

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_C_EXPORT_H_
