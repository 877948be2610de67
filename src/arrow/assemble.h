// Arrow arrays rebuilt from the levels and packed values of a batch of rows: validity bitmaps from
// the definition levels, list and map offsets from the repetition levels, struct children side by
// side, and each leaf's physical values converted to its Arrow type.
#ifndef PQPAGE_SRC_ARROW_ASSEMBLE_H_
#define PQPAGE_SRC_ARROW_ASSEMBLE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "arrow/c_export.h"
#include "arrow/leaf_reader.h"
#include "arrow/read_field.h"
#include "pqpage/column_descriptor.h"

namespace pqpage::arrow_internal {

// The array of `field` for one batch. `leaves` holds each schema column's batch (by column index;
// only the columns under `field` are read); the batches' values are moved out where an Arrow
// buffer can take them as they are.
// @return the array; DataLoss when the columns' levels disagree on the shape of the data (a list
// whose elements are not those of its child, struct children of different lengths) or a decimal
// does not fit its width; ResourceExhausted when a batch's byte array values pass the 2 GiB an
// int32 offset reaches.
// `parent_slots` is the number of slots of the parent (the batch's rows at the top), which a
// field without leaves takes as its length.
absl::StatusOr<ArrayData> AssembleField(const ReadField& field, std::vector<LeafBatch>& leaves,
                                        const std::vector<ColumnDescriptor>& columns,
                                        int64_t parent_slots);

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_ASSEMBLE_H_
