// The Arrow PyCapsule interface's capsules: "arrow_schema", "arrow_array" and
// "arrow_array_stream", each owning a heap-allocated C Data Interface structure that the capsule's
// destructor releases (unless a consumer moved it out, leaving release NULL) and frees.
#ifndef PQPAGE_PYTHON_ARROW_CAPSULES_H_
#define PQPAGE_PYTHON_ARROW_CAPSULES_H_

#include <nanobind/nanobind.h>

#include "pqpage/arrow_c_data.h"

namespace pqpage::python {

// Capsules that take over `*value` (left released: its release is set to NULL).
nanobind::capsule SchemaCapsule(ArrowSchema* value);
nanobind::capsule StreamCapsule(ArrowArrayStream* value);

// The structure a capsule of that name holds; it stays the capsule's. Raises TypeError (with what
// was expected) for another object, another capsule or one already consumed (release NULL).
ArrowSchema* SchemaFromCapsule(nanobind::handle capsule);
ArrowArray* ArrayFromCapsule(nanobind::handle capsule);
ArrowArrayStream* StreamFromCapsule(nanobind::handle capsule);

}  // namespace pqpage::python

#endif  // PQPAGE_PYTHON_ARROW_CAPSULES_H_
