// What pqpage reads of the Arrow schema that Arrow writers (pyarrow, Arrow C++, arrow-rs) store in
// a file's key-value metadata under "ARROW:schema": which columns hold an Arrow dictionary type.
// A writer that rewrites such a file must keep those columns dictionary-encoded (or PLAIN):
// Arrow C++ reads a dictionary-typed column straight into a dictionary and cannot do that from
// DELTA_BYTE_ARRAY or DELTA_LENGTH_BYTE_ARRAY pages ("DecodeArrow of DictAccumulator ... not yet
// implemented"), so under `auto` `pqpage recode` lets them choose only between the dictionary
// and PLAIN (AutoEncodings::kDictionaryOrPlain).
#ifndef PQPAGE_ARROW_SCHEMA_H_
#define PQPAGE_ARROW_SCHEMA_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/metadata.h"
#include "pqpage/schema.h"

namespace pqpage {

// The key under which Arrow writers store their schema: base64 of an Arrow IPC Schema message.
inline constexpr char kArrowSchemaKey[] = "ARROW:schema";

// The paths (ColumnDescriptor::PathString) of the leaf columns of `schema` that the stored Arrow
// schema gives a dictionary type, in schema order: a dictionary field's own column, or every leaf
// under it if its values are nested; list elements and map entries are followed the way Arrow
// maps them to Parquet (list -> "list"."element", map -> "key_value"."key"/"value"). Empty when
// there is no ARROW:schema key (or it has no value).
//
// DataLoss for a value that is not base64 or not an Arrow Schema message (every offset and length
// in it is checked against its size; nesting deeper than 64 levels is refused). An Arrow field
// that matches no column is ignored (the schema was written by another program).
absl::StatusOr<std::vector<std::string>> ArrowDictionaryColumns(
    const std::vector<KeyValue>& key_value_metadata, const Schema& schema);

}  // namespace pqpage

#endif  // PQPAGE_ARROW_SCHEMA_H_
