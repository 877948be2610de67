// Writes a tree of StoredArrowField back into the value Arrow writers store under "ARROW:schema":
// the inverse of ParseStoredArrowSchema, so that a file pqpage writes can carry the Arrow types
// (dictionaries, timezones, large and view types, field metadata) that its Parquet schema cannot
// spell, and Arrow readers (pyarrow, Arrow C++, arrow-rs) restore them.
#ifndef PQPAGE_FILE_STORED_ARROW_SCHEMA_WRITE_H_
#define PQPAGE_FILE_STORED_ARROW_SCHEMA_WRITE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "file/stored_arrow_schema.h"
#include "pqpage/arrow_schema.h"  // kArrowSchemaKey

namespace pqpage {

// @return the value to store under kArrowSchemaKey for `fields` (top-level fields of a schema),
// plus `schema_metadata` as the Schema table's custom_metadata: base64 (absl::Base64Escape,
// standard alphabet with padding, as pyarrow writes) of the encapsulated IPC Schema message
// (0xFFFFFFFF, the little-endian length, a V5 Message FlatBuffer padded to 8 bytes).
// Dictionary-encoded fields get distinct dictionary ids, 0, 1, ... in depth-first order.
//
// ParseStoredArrowSchema of the result gives `fields` back. InvalidArgument for what it could not
// give back: a format string that is not one ParseStoredArrowSchema produces (in its canonical
// spelling: "d:10,2", not "d:10,2,128"), a dictionary_index that is not an integer format,
// dictionary_ordered without dictionary_index, map_keys_sorted on a field that is not a map,
// children counts a type cannot have (a map's child must be a struct of 2), union type ids outside
// 0..127, and fields nested deeper than the 64 levels the parser accepts.
absl::StatusOr<std::string> SerializeStoredArrowSchema(
    const std::vector<StoredArrowField>& fields,
    const std::vector<std::pair<std::string, std::string>>& schema_metadata = {});

}  // namespace pqpage

#endif  // PQPAGE_FILE_STORED_ARROW_SCHEMA_WRITE_H_
