// Finds the dictionary-typed fields of the stored Arrow schema (parsed by ParseStoredArrowSchema)
// and matches them to the Parquet columns the way Arrow maps its nested types to Parquet.
#include "pqpage/arrow_schema.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "file/stored_arrow_schema.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

// A Parquet column path; an empty step matches any name (a list's element, which writers name
// "element", "item" or "array").
using Pattern = std::vector<std::string>;

// Adds the path of every dictionary-typed field at or under `field`, whose own Parquet path is
// `path`. The parse bounded the nesting, so this recursion is bounded too.
void CollectDictionaries(const StoredArrowField& field, const Pattern& path,
                         std::vector<Pattern>* out) {
  if (!field.dictionary_index.empty()) {
    out->push_back(path);
    return;
  }
  const bool is_list =
      field.format == "+l" || field.format == "+L" || field.format.starts_with("+w:");
  for (const StoredArrowField& child : field.children) {
    if (field.format == "+m") {
      // Arrow's entries struct is Parquet's repeated key_value group; its key and value follow.
      for (const StoredArrowField& entry : child.children) {
        Pattern entry_path = path;
        entry_path.insert(entry_path.end(), {"key_value", entry.name});
        CollectDictionaries(entry, entry_path, out);
      }
      continue;
    }
    Pattern child_path = path;
    if (is_list) {
      child_path.insert(child_path.end(), {"list", ""});
    } else {
      child_path.push_back(child.name);
    }
    CollectDictionaries(child, child_path, out);
  }
}

bool Matches(const Pattern& pattern, const std::vector<std::string>& column_path) {
  if (pattern.size() > column_path.size()) return false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (!pattern[i].empty() && pattern[i] != column_path[i]) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ArrowDictionaryColumns(
    const std::vector<KeyValue>& key_value_metadata, const Schema& schema) {
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<std::vector<StoredArrowField>> fields,
                          ParseStoredArrowSchema(key_value_metadata));
  std::vector<std::string> columns;
  if (!fields.has_value()) return columns;
  std::vector<Pattern> patterns;
  for (const StoredArrowField& field : *fields) {
    CollectDictionaries(field, {field.name}, &patterns);
  }
  for (const ColumnDescriptor& column : schema.columns()) {
    for (const Pattern& pattern : patterns) {
      if (Matches(pattern, column.path)) {
        columns.push_back(column.PathString());
        break;
      }
    }
  }
  return columns;
}

}  // namespace pqpage
