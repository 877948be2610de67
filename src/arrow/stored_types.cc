#include "arrow/stored_types.h"

namespace pqpage::arrow_internal {

absl::Status ApplyStoredTypes(const std::vector<KeyValue>& /*key_value_metadata*/,
                              std::vector<ReadField>& /*fields*/) {
  return absl::OkStatus();  // TEMPORARY until the stored schema parser lands
}

}  // namespace pqpage::arrow_internal
