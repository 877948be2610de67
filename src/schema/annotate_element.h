// The inverse of LogicalTypeOf: a schema element annotated with a LogicalType, for the schema
// Builder (and through it the Arrow writer), so that every type a reader maps back can be written.
#ifndef PQPAGE_SCHEMA_ANNOTATE_ELEMENT_H_
#define PQPAGE_SCHEMA_ANNOTATE_ELEMENT_H_

#include "absl/status/status.h"
#include "parquet_types.h"
#include "pqpage/logical_type.h"

namespace pqpage::internal {

// Sets `element`'s logicalType and, where the format has one meaning the same, its converted type
// (with precision and scale for DECIMAL). `element` must already hold its physical type (and
// type_length for FIXED_LEN_BYTE_ARRAY).
// @return OK; InvalidArgument for a kind the physical type cannot hold, kInterval or kOther (no
// logical type to write), an integer width other than 8/16/32/64, a decimal precision below 1 or
// above what the physical type holds, a scale outside [0, precision].
absl::Status AnnotateElement(const LogicalType& logical, format::SchemaElement* element);

}  // namespace pqpage::internal

#endif  // PQPAGE_SCHEMA_ANNOTATE_ELEMENT_H_
