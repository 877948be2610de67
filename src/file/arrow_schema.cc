// Reads just enough of an Arrow IPC Schema message (a FlatBuffer) to find the dictionary-typed
// fields. The message is untrusted bytes from a file, so every read goes through FlatReader, which
// checks each offset, length and vtable against the buffer before using it.
#include "pqpage/arrow_schema.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

// Field numbers of the Arrow format's Message.fbs and Schema.fbs (a union takes two: its type and
// its value).
constexpr int kMessageHeaderType = 1;
constexpr int kMessageHeader = 2;
constexpr uint8_t kHeaderIsSchema = 1;
constexpr int kSchemaFields = 1;
constexpr int kFieldName = 0;
constexpr int kFieldTypeType = 2;
constexpr int kFieldDictionary = 4;
constexpr int kFieldChildren = 5;
// Type union members whose children Parquet nests differently from Arrow.
constexpr uint8_t kTypeList = 12;
constexpr uint8_t kTypeFixedSizeList = 16;
constexpr uint8_t kTypeMap = 17;
constexpr uint8_t kTypeLargeList = 21;
constexpr int kMaxDepth = 64;

absl::Status Corrupt(const char* what) {
  return absl::DataLossError(absl::StrCat("ARROW:schema: ", what));
}

class FlatReader {
 public:
  explicit FlatReader(std::string_view bytes) : bytes_(bytes) {}

  absl::StatusOr<uint32_t> U32(size_t at) const {
    if (at > bytes_.size() || bytes_.size() - at < 4) return Corrupt("offset past the end");
    uint32_t v;
    std::memcpy(&v, bytes_.data() + at, 4);
    return v;
  }

  // The table that the offset stored at `at` points to.
  absl::StatusOr<size_t> Follow(size_t at) const {
    PQPAGE_ASSIGN_OR_RETURN(const uint32_t offset, U32(at));
    if (offset > bytes_.size() - at) return Corrupt("offset past the end");
    return at + offset;
  }

  // Where field `id` of the table at `table` lies, or nullopt when the table does not have it.
  absl::StatusOr<std::optional<size_t>> Field(size_t table, int id) const {
    PQPAGE_ASSIGN_OR_RETURN(const uint32_t back, U32(table));
    const auto vtable = static_cast<int64_t>(table) - static_cast<int32_t>(back);
    if (vtable < 0 || static_cast<size_t>(vtable) + 4 > bytes_.size()) {
      return Corrupt("vtable outside the message");
    }
    const uint16_t vtable_size = U16(static_cast<size_t>(vtable));
    const uint16_t table_size = U16(static_cast<size_t>(vtable) + 2);
    if (static_cast<size_t>(vtable) + vtable_size > bytes_.size() ||
        table + table_size > bytes_.size()) {
      return Corrupt("table outside the message");
    }
    const size_t slot = 4 + 2 * static_cast<size_t>(id);
    if (slot + 2 > vtable_size) return std::nullopt;
    const uint16_t offset = U16(static_cast<size_t>(vtable) + slot);
    if (offset == 0) return std::nullopt;
    if (offset >= table_size) return Corrupt("field outside its table");
    return table + offset;
  }

  absl::StatusOr<uint8_t> Byte(size_t at) const {
    if (at >= bytes_.size()) return Corrupt("offset past the end");
    return static_cast<uint8_t>(bytes_[at]);
  }

  // A vector's element count and where its first element lies.
  absl::StatusOr<std::pair<uint32_t, size_t>> Vector(size_t at, size_t element_size) const {
    PQPAGE_ASSIGN_OR_RETURN(const size_t start, Follow(at));
    PQPAGE_ASSIGN_OR_RETURN(const uint32_t count, U32(start));
    if (count > (bytes_.size() - start - 4) / element_size) return Corrupt("vector past the end");
    return std::make_pair(count, start + 4);
  }

  absl::StatusOr<std::string> String(size_t at) const {
    PQPAGE_ASSIGN_OR_RETURN(const auto vector, Vector(at, 1));
    return std::string(bytes_.substr(vector.second, vector.first));
  }

 private:
  uint16_t U16(size_t at) const {
    uint16_t v;
    std::memcpy(&v, bytes_.data() + at, 2);
    return v;
  }

  std::string_view bytes_;
};

// A Parquet column path; an empty step matches any name (a list's element, which writers name
// "element", "item" or "array").
using Pattern = std::vector<std::string>;

absl::StatusOr<std::string> NameOf(const FlatReader& reader, size_t field) {
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> at, reader.Field(field, kFieldName));
  if (!at.has_value()) return std::string();
  return reader.String(*at);
}

absl::StatusOr<std::vector<size_t>> ChildrenOf(const FlatReader& reader, size_t field) {
  std::vector<size_t> children;
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> at, reader.Field(field, kFieldChildren));
  if (!at.has_value()) return children;
  PQPAGE_ASSIGN_OR_RETURN(const auto vector, reader.Vector(*at, 4));
  for (uint32_t i = 0; i < vector.first; ++i) {
    PQPAGE_ASSIGN_OR_RETURN(const size_t child, reader.Follow(vector.second + 4 * size_t{i}));
    children.push_back(child);
  }
  return children;
}

// Adds the path of every dictionary-typed field at or under `field`, whose own Parquet path is
// `path`.
absl::Status CollectDictionaries(const FlatReader& reader, size_t field, const Pattern& path,
                                 int depth, std::vector<Pattern>* out) {
  if (depth > kMaxDepth) return Corrupt("fields nested deeper than 64 levels");
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> dictionary,
                          reader.Field(field, kFieldDictionary));
  if (dictionary.has_value()) {
    out->push_back(path);
    return absl::OkStatus();
  }
  uint8_t type = 0;
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> type_at, reader.Field(field, kFieldTypeType));
  if (type_at.has_value()) {
    PQPAGE_ASSIGN_OR_RETURN(type, reader.Byte(*type_at));
  }
  PQPAGE_ASSIGN_OR_RETURN(const std::vector<size_t> children, ChildrenOf(reader, field));
  for (size_t child : children) {
    Pattern child_path = path;
    if (type == kTypeList || type == kTypeLargeList || type == kTypeFixedSizeList) {
      child_path.insert(child_path.end(), {"list", ""});
    } else if (type == kTypeMap) {
      // Arrow's entries struct is Parquet's repeated key_value group; its key and value follow.
      if (depth + 1 > kMaxDepth) return Corrupt("fields nested deeper than 64 levels");
      PQPAGE_ASSIGN_OR_RETURN(const std::vector<size_t> entries, ChildrenOf(reader, child));
      for (size_t entry : entries) {
        Pattern entry_path = path;
        PQPAGE_ASSIGN_OR_RETURN(std::string name, NameOf(reader, entry));
        entry_path.insert(entry_path.end(), {"key_value", std::move(name)});
        PQPAGE_RETURN_IF_ERROR(CollectDictionaries(reader, entry, entry_path, depth + 2, out));
      }
      continue;
    } else {
      PQPAGE_ASSIGN_OR_RETURN(std::string name, NameOf(reader, child));
      child_path.push_back(std::move(name));
    }
    PQPAGE_RETURN_IF_ERROR(CollectDictionaries(reader, child, child_path, depth + 1, out));
  }
  return absl::OkStatus();
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
  const std::string* encoded = nullptr;
  for (const KeyValue& entry : key_value_metadata) {
    if (entry.key == kArrowSchemaKey && entry.value.has_value()) encoded = &*entry.value;
  }
  if (encoded == nullptr) return std::vector<std::string>{};
  std::string message;
  if (!absl::Base64Unescape(*encoded, &message)) return Corrupt("not base64");
  // The IPC framing: an optional continuation marker (0xFFFFFFFF), then the message's length.
  std::string_view bytes = message;
  if (bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("\xff\xff\xff\xff", 4)) {
    bytes.remove_prefix(4);
  }
  if (bytes.size() < 4) return Corrupt("too short for a message");
  uint32_t length;
  std::memcpy(&length, bytes.data(), 4);
  bytes.remove_prefix(4);
  if (length > bytes.size()) return Corrupt("message length past the end");
  const FlatReader reader(bytes.substr(0, length));

  PQPAGE_ASSIGN_OR_RETURN(const size_t root, reader.Follow(0));
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> header_type,
                          reader.Field(root, kMessageHeaderType));
  if (!header_type.has_value()) return Corrupt("not a Schema message");
  PQPAGE_ASSIGN_OR_RETURN(const uint8_t type, reader.Byte(*header_type));
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> header, reader.Field(root, kMessageHeader));
  if (type != kHeaderIsSchema || !header.has_value()) return Corrupt("not a Schema message");
  PQPAGE_ASSIGN_OR_RETURN(const size_t arrow_schema, reader.Follow(*header));
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> fields,
                          reader.Field(arrow_schema, kSchemaFields));
  std::vector<Pattern> patterns;
  if (fields.has_value()) {
    PQPAGE_ASSIGN_OR_RETURN(const auto vector, reader.Vector(*fields, 4));
    for (uint32_t i = 0; i < vector.first; ++i) {
      PQPAGE_ASSIGN_OR_RETURN(const size_t field, reader.Follow(vector.second + 4 * size_t{i}));
      PQPAGE_ASSIGN_OR_RETURN(std::string name, NameOf(reader, field));
      PQPAGE_RETURN_IF_ERROR(CollectDictionaries(reader, field, {std::move(name)}, 0, &patterns));
    }
  }
  std::vector<std::string> columns;
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
