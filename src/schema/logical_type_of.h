// A schema element's annotation as the LogicalType its leaf column carries (ColumnDescriptor): the
// logical type when the element has one, else the converted type's equivalent, which is what
// older writers (parquet-mr before 1.11, Impala, HVR) store alone.
#ifndef PQPAGE_SCHEMA_LOGICAL_TYPE_OF_H_
#define PQPAGE_SCHEMA_LOGICAL_TYPE_OF_H_

#include "parquet_types.h"
#include "pqpage/logical_type.h"

namespace pqpage::internal {

// kNone for an element without either annotation; kOther for one pqpage does not model. A
// converted TIME_* or TIMESTAMP_* is adjusted to UTC, as the format defines them.
LogicalType LogicalTypeOf(const format::SchemaElement& element);

}  // namespace pqpage::internal

#endif  // PQPAGE_SCHEMA_LOGICAL_TYPE_OF_H_
