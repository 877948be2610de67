#include "file/arrow_dictionaries.h"

#include "pqpage/arrow_schema.h"
#include "pqpage/recode.h"

namespace pqpage {

bool ArrowDictionaryPolicy(EncodingPolicy policy) {
  return policy == EncodingPolicy::kDictionary || policy == EncodingPolicy::kPlain;
}

namespace internal {

std::vector<std::string> ArrowDictionaryPaths(
    const FileReader& file, const std::function<void(const std::string&)>& on_warning) {
  absl::StatusOr<std::vector<std::string>> columns =
      ArrowDictionaryColumns(file.key_value_metadata(), file.schema());
  if (!columns.ok()) {
    if (on_warning) on_warning(std::string(columns.status().message()));
    return {};
  }
  return *std::move(columns);
}

void KeepArrowDictionaries(const std::vector<std::string>& paths, WriterOptions* options) {
  for (const std::string& path : paths) {
    ColumnWriterOverride& override = options->column_overrides[path];
    if (!override.auto_encodings.has_value()) {
      override.auto_encodings = AutoEncodings::kDictionaryOrPlain;
    }
  }
}

}  // namespace internal
}  // namespace pqpage
