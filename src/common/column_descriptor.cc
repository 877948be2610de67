#include "pqpage/column_descriptor.h"

#include "absl/strings/str_join.h"

namespace pqpage {

std::string ColumnDescriptor::PathString() const { return absl::StrJoin(path, "."); }

}  // namespace pqpage
