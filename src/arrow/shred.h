// Shredding: the rows of an Arrow record batch walked down to one leaf column, giving that
// column's definition and repetition levels and where in the leaf array each present value lies.
// The walk checks what it reads of the arrays (buffers present, offsets that stay inside their
// child), since the arrays come from another program.
#ifndef PQPAGE_SRC_ARROW_SHRED_H_
#define PQPAGE_SRC_ARROW_SHRED_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "arrow/write_field.h"
#include "pqpage/arrow_c_data.h"

namespace pqpage::arrow_internal {

// One leaf's share of a batch; reused from batch to batch.
struct ShreddedLeaf {
  std::vector<int16_t> definition_levels;  // empty when the column's maximum is 0
  std::vector<int16_t> repetition_levels;  // empty when the column's maximum is 0
  // Per present value, its index into the leaf array's buffers (the array's offset added); or,
  // when dense_begin >= 0, left empty: the values are then the dense_count slots from
  // dense_begin (every row of a path without lists holds one, none null).
  std::vector<int64_t> positions;
  int64_t dense_begin = -1;
  int64_t dense_count = 0;
  const ArrowArray* leaf = nullptr;  // the leaf array (for a dictionary, the indices)
  // Scratch of the walk.
  std::vector<int64_t> next_positions;
  std::vector<int16_t> next_definitions;
  std::vector<int16_t> next_repetitions;
};

// Walks rows [begin, end) of `batch` (a struct array of the plan's fields) down `path` (the
// nodes from a top-level field to a leaf, child_indices the child taken at each step) into `out`.
// @return OK; InvalidArgument naming the field for an array that does not match its node (child
// or buffer counts, a missing buffer, a negative length or offset, offsets that decrease or pass
// their child's length, a null in a field that is not nullable).
absl::Status ShredLeaf(const ArrowArray& batch, int64_t begin, int64_t end,
                       const std::vector<const WriteNode*>& path,
                       const std::vector<int>& child_indices, int16_t max_definition_level,
                       int16_t max_repetition_level, ShreddedLeaf* out);

// Whether bit `i` of an Arrow validity bitmap says the slot holds a value.
inline bool BitIsSet(const void* bitmap, int64_t i) {
  return (static_cast<const uint8_t*>(bitmap)[i >> 3] >> (i & 7)) & 1;
}

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_SHRED_H_
