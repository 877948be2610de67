#include "absl/strings/str_cat.h"
#include "pqpage/file.h"

namespace pqpage {

std::string DefaultCreatedBy() {
  // The form parquet-java parses to decide which of a writer's known bugs to work around.
  return absl::StrCat("pqpage version ", PQPAGE_VERSION, " (build ", PQPAGE_BUILD_HASH, ")");
}

}  // namespace pqpage
