// The types of a stored ARROW:schema applied to the fields a Parquet schema maps to, where they
// read from the same Parquet data, as Arrow C++ restores them: large offsets for strings, binaries
// and lists, the writer's time zone for a UTC timestamp, durations for plain int64.
#ifndef PQPAGE_SRC_ARROW_STORED_TYPES_H_
#define PQPAGE_SRC_ARROW_STORED_TYPES_H_

#include <vector>

#include "absl/status/status.h"
#include "arrow/read_field.h"
#include "pqpage/metadata.h"

namespace pqpage::arrow_internal {

// Refines `fields` (matched to the stored schema's fields by name, level by level) from the
// ARROW:schema value in `key_value_metadata`; leaves them as they are when there is none.
// @return OK, or DataLoss for a stored value that is not an Arrow schema.
absl::Status ApplyStoredTypes(const std::vector<KeyValue>& key_value_metadata,
                              std::vector<ReadField>& fields);

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_STORED_TYPES_H_
