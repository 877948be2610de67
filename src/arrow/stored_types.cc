#include "arrow/stored_types.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "file/stored_arrow_schema.h"
#include "pqpage/status_macros.h"

namespace pqpage::arrow_internal {
namespace {

// "tsu:UTC" -> "UTC"; "" for a format that is no timestamp.
absl::string_view TimeZoneOf(absl::string_view format) {
  if (!absl::StartsWith(format, "ts") || format.size() < 4) return "";
  return format.substr(4);
}

void Apply(const StoredArrowField& stored, ReadField& field) {
  std::string& format = field.type.format;
  // Arrow C++ reads a dictionary type straight into a dictionary for byte arrays alone.
  const bool binary =
      field.kind == ReadField::Kind::kLeaf && (field.conversion == ValueConversion::kBinary ||
                                               field.conversion == ValueConversion::kLargeBinary);
  if (!stored.dictionary_index.empty()) {
    // As Arrow C++, the dictionary comes back, its values' offsets do not (a dictionary of
    // large strings reads as one of strings).
    field.dictionary = binary;
    if (binary && stored.dictionary_index.size() == 1 &&
        absl::string_view("cCsSiIlL").find(stored.dictionary_index[0]) != absl::string_view::npos) {
      field.dictionary_index = stored.dictionary_index;
    }
    return;
  }
  switch (field.kind) {
    case ReadField::Kind::kLeaf:
      if (format == "u" && stored.format == "U") {
        format = "U";
        field.conversion = ValueConversion::kLargeBinary;
      } else if (format == "z" && stored.format == "Z") {
        format = "Z";
        field.conversion = ValueConversion::kLargeBinary;
      } else if (absl::StartsWith(format, "ts") && absl::StartsWith(stored.format, "ts") &&
                 TimeZoneOf(format) == "UTC" && !TimeZoneOf(stored.format).empty()) {
        // Parquet keeps only whether a timestamp is UTC-adjusted; the writer's zone comes back.
        format = format.substr(0, 4) + std::string(TimeZoneOf(stored.format));
      } else if (format == "l" && absl::StartsWith(stored.format, "tD")) {
        format = stored.format;  // a duration, stored as plain int64
      } else if (field.decimal_bytes == 16 &&
                 (stored.format == format + ",32" || stored.format == format + ",64")) {
        // decimal32 / decimal64 of the same precision and scale: narrower values.
        field.decimal_bytes = stored.format.back() == '2' ? 4 : 8;
        format = stored.format;
      }
      return;
    case ReadField::Kind::kList:
      if (stored.children.size() != 1) return;
      if (format == "+l" && stored.format == "+L") format = "+L";
      if (stored.format == "+l" || stored.format == "+L") {
        Apply(stored.children[0], field.children[0]);
      }
      return;
    case ReadField::Kind::kMap:
      if (stored.format == "+m" && stored.children.size() == 1) {
        const StoredArrowField& entries = stored.children[0];
        ReadField& entry = field.children[0];
        for (size_t i = 0; i < entry.children.size() && i < entries.children.size(); ++i) {
          Apply(entries.children[i], entry.children[i]);
        }
      }
      return;
    case ReadField::Kind::kStruct:
      if (stored.format != "+s") return;
      for (ReadField& child : field.children) {
        for (const StoredArrowField& stored_child : stored.children) {
          if (stored_child.name == child.type.name) {
            Apply(stored_child, child);
            break;
          }
        }
      }
      return;
  }
}

}  // namespace

absl::Status ApplyStoredTypes(const std::vector<KeyValue>& key_value_metadata,
                              std::vector<ReadField>& fields) {
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<std::vector<StoredArrowField>> stored,
                          ParseStoredArrowSchema(key_value_metadata));
  if (!stored) return absl::OkStatus();
  for (ReadField& field : fields) {
    for (const StoredArrowField& stored_field : *stored) {
      if (stored_field.name == field.type.name) {
        Apply(stored_field, field);
        break;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace pqpage::arrow_internal
