// Parses the Arrow IPC Schema message (a FlatBuffer) stored under ARROW:schema. The message is
// untrusted bytes from a file, so every read goes through FlatReader, which checks each offset,
// length and vtable against the buffer before using it; absent scalar fields take the defaults
// that Arrow's Schema.fbs declares, as generated FlatBuffers code would.
#include "file/stored_arrow_schema.h"

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
#include "file/arrow_schema_fbs.h"
#include "pqpage/arrow_schema.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

using namespace arrow_fbs;  // NOLINT(google-build-using-namespace): the format's numbers

// What the parse may produce, in bytes of strings plus kFieldCost per field, per byte of message.
// A real schema needs a few bytes of message per field and one per byte of name, far below this.
constexpr size_t kOutputPerInputByte = 16;
constexpr size_t kFieldCost = 64;

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("ARROW:schema: ", what));
}

class FlatReader {
 public:
  explicit FlatReader(std::string_view bytes) : bytes_(bytes) {}

  size_t size() const { return bytes_.size(); }

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

  // The table that field `id` (an offset) of `table` points to, or nullopt when absent.
  absl::StatusOr<std::optional<size_t>> Table(size_t table, int id) const {
    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> at, Field(table, id));
    if (!at.has_value()) return std::nullopt;
    return Follow(*at);
  }

  absl::StatusOr<uint8_t> Byte(size_t at) const {
    if (at >= bytes_.size()) return Corrupt("offset past the end");
    return static_cast<uint8_t>(bytes_[at]);
  }

  // Scalar field `id` of `table`, or `fallback` (the schema's default) when absent.
  absl::StatusOr<uint8_t> U8Field(size_t table, int id, uint8_t fallback) const {
    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> at, Field(table, id));
    if (!at.has_value()) return fallback;
    return Byte(*at);
  }
  absl::StatusOr<bool> BoolField(size_t table, int id) const {
    PQPAGE_ASSIGN_OR_RETURN(const uint8_t v, U8Field(table, id, 0));
    return v != 0;
  }
  absl::StatusOr<int16_t> I16Field(size_t table, int id, int16_t fallback) const {
    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> at, Field(table, id));
    if (!at.has_value()) return fallback;
    if (*at > bytes_.size() - 2) return Corrupt("offset past the end");
    return static_cast<int16_t>(U16(*at));
  }
  absl::StatusOr<int32_t> I32Field(size_t table, int id, int32_t fallback) const {
    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> at, Field(table, id));
    if (!at.has_value()) return fallback;
    PQPAGE_ASSIGN_OR_RETURN(const uint32_t v, U32(*at));
    return static_cast<int32_t>(v);
  }

  // A vector's element count and where its first element lies.
  absl::StatusOr<std::pair<uint32_t, size_t>> Vector(size_t at, size_t element_size) const {
    PQPAGE_ASSIGN_OR_RETURN(const size_t start, Follow(at));
    PQPAGE_ASSIGN_OR_RETURN(const uint32_t count, U32(start));
    if (count > (bytes_.size() - start - 4) / element_size) return Corrupt("vector past the end");
    return std::make_pair(count, start + 4);
  }

  // A string field `id` of `table` ("" when absent), without copying it.
  absl::StatusOr<std::string_view> StringField(size_t table, int id) const {
    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> at, Field(table, id));
    if (!at.has_value()) return std::string_view();
    PQPAGE_ASSIGN_OR_RETURN(const auto vector, Vector(*at, 1));
    return bytes_.substr(vector.second, vector.first);
  }

 private:
  uint16_t U16(size_t at) const {
    uint16_t v;
    std::memcpy(&v, bytes_.data() + at, 2);
    return v;
  }

  std::string_view bytes_;
};

// The letter the C Data Interface gives TimeUnit `unit` (SECOND, MILLISECOND, MICROSECOND,
// NANOSECOND).
absl::StatusOr<char> TimeUnitLetter(int16_t unit) {
  switch (unit) {
    case 0:
      return 's';
    case 1:
      return 'm';
    case 2:
      return 'u';
    case 3:
      return 'n';
    default:
      return Corrupt(absl::StrCat("unknown time unit ", unit));
  }
}

absl::StatusOr<std::string> IntFormat(const FlatReader& reader, size_t type) {
  PQPAGE_ASSIGN_OR_RETURN(const int32_t bit_width, reader.I32Field(type, 0, 0));
  PQPAGE_ASSIGN_OR_RETURN(const bool is_signed, reader.BoolField(type, 1));
  switch (bit_width) {
    case 8:
      return std::string(is_signed ? "c" : "C");
    case 16:
      return std::string(is_signed ? "s" : "S");
    case 32:
      return std::string(is_signed ? "i" : "I");
    case 64:
      return std::string(is_signed ? "l" : "L");
    default:
      return Corrupt(absl::StrCat("an Int of ", bit_width, " bits"));
  }
}

// Walks the message's fields into StoredArrowFields, within the output budget.
class Parser {
 public:
  explicit Parser(const FlatReader& reader)
      : reader_(reader), budget_(reader.size() * kOutputPerInputByte) {}

  // The fields of the Schema table at `schema`.
  absl::StatusOr<std::vector<StoredArrowField>> ParseFields(size_t schema) {
    PQPAGE_ASSIGN_OR_RETURN(const std::vector<size_t> tables, Tables(schema, kSchemaFields));
    std::vector<StoredArrowField> fields;
    for (size_t table : tables) {
      PQPAGE_ASSIGN_OR_RETURN(StoredArrowField field, ParseField(table, 0));
      fields.push_back(std::move(field));
    }
    return fields;
  }

 private:
  absl::StatusOr<StoredArrowField> ParseField(size_t table, int depth) {
    if (depth > kMaxDepth) return Corrupt("fields nested deeper than 64 levels");
    PQPAGE_RETURN_IF_ERROR(Spend(kFieldCost));
    StoredArrowField field;
    PQPAGE_ASSIGN_OR_RETURN(field.name, Copy(table, kFieldName));
    PQPAGE_ASSIGN_OR_RETURN(field.nullable, reader_.BoolField(table, kFieldNullable));

    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> dictionary,
                            reader_.Table(table, kFieldDictionary));
    if (dictionary.has_value()) {
      // No index type means signed 32-bit indices.
      PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> index_type,
                              reader_.Table(*dictionary, kDictionaryIndexType));
      if (index_type.has_value()) {
        PQPAGE_ASSIGN_OR_RETURN(field.dictionary_index, IntFormat(reader_, *index_type));
      } else {
        field.dictionary_index = std::string("i");
      }
      PQPAGE_ASSIGN_OR_RETURN(field.dictionary_ordered,
                              reader_.BoolField(*dictionary, kDictionaryIsOrdered));
    }

    PQPAGE_ASSIGN_OR_RETURN(const std::vector<size_t> metadata,
                            Tables(table, kFieldCustomMetadata));
    for (size_t pair : metadata) {
      PQPAGE_ASSIGN_OR_RETURN(std::string key, Copy(pair, kKeyValueKey));
      PQPAGE_ASSIGN_OR_RETURN(std::string value, Copy(pair, kKeyValueValue));
      field.metadata.emplace_back(std::move(key), std::move(value));
    }

    PQPAGE_ASSIGN_OR_RETURN(const std::vector<size_t> children, Tables(table, kFieldChildren));
    for (size_t child : children) {
      PQPAGE_ASSIGN_OR_RETURN(StoredArrowField parsed, ParseField(child, depth + 1));
      field.children.push_back(std::move(parsed));
    }
    PQPAGE_RETURN_IF_ERROR(ParseType(table, &field));
    return field;
  }

  absl::Status Spend(size_t amount) {
    if (amount > budget_) return Corrupt("more fields and names than the message can hold");
    budget_ -= amount;
    return absl::OkStatus();
  }

  // The tables a vector field `id` of `table` points to (none when absent), each element paid
  // for before it is followed so that the work stays linear in the message's size.
  absl::StatusOr<std::vector<size_t>> Tables(size_t table, int id) {
    std::vector<size_t> tables;
    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> at, reader_.Field(table, id));
    if (!at.has_value()) return tables;
    PQPAGE_ASSIGN_OR_RETURN(const auto vector, reader_.Vector(*at, 4));
    PQPAGE_RETURN_IF_ERROR(Spend(sizeof(size_t) * size_t{vector.first}));
    tables.reserve(vector.first);
    for (uint32_t i = 0; i < vector.first; ++i) {
      PQPAGE_ASSIGN_OR_RETURN(const size_t element, reader_.Follow(vector.second + 4 * size_t{i}));
      tables.push_back(element);
    }
    return tables;
  }

  absl::StatusOr<std::string> Copy(size_t table, int id) {
    PQPAGE_ASSIGN_OR_RETURN(const std::string_view text, reader_.StringField(table, id));
    PQPAGE_RETURN_IF_ERROR(Spend(text.size()));
    return std::string(text);
  }

  // Sets field->format (and map_keys_sorted) from the field's Type union, once its children are
  // parsed, and checks that their number suits the type.
  absl::Status ParseType(size_t table, StoredArrowField* field) {
    PQPAGE_ASSIGN_OR_RETURN(const uint8_t type_id, reader_.U8Field(table, kFieldTypeType, 0));
    if (type_id == 0) return Corrupt(absl::StrCat("field '", field->name, "' has no type"));
    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> type, reader_.Table(table, kFieldType));
    if (!type.has_value()) {
      return Corrupt(absl::StrCat("field '", field->name, "' has no type table"));
    }
    const size_t n = field->children.size();
    std::optional<size_t> expected_children = 0;  // nullopt: any number
    std::string& format = field->format;
    switch (static_cast<TypeId>(type_id)) {
      case TypeId::kNull:
        format = std::string("n");
        break;
      case TypeId::kInt: {
        PQPAGE_ASSIGN_OR_RETURN(format, IntFormat(reader_, *type));
        break;
      }
      case TypeId::kFloatingPoint: {
        PQPAGE_ASSIGN_OR_RETURN(const int16_t precision, reader_.I16Field(*type, 0, 0));
        if (precision < 0 || precision > 2) {
          return Corrupt(absl::StrCat("unknown floating point precision ", precision));
        }
        format = std::string(1, "efg"[precision]);
        break;
      }
      case TypeId::kBinary:
        format = std::string("z");
        break;
      case TypeId::kUtf8:
        format = std::string("u");
        break;
      case TypeId::kBool:
        format = std::string("b");
        break;
      case TypeId::kDecimal: {
        PQPAGE_ASSIGN_OR_RETURN(const int32_t precision, reader_.I32Field(*type, 0, 0));
        PQPAGE_ASSIGN_OR_RETURN(const int32_t scale, reader_.I32Field(*type, 1, 0));
        PQPAGE_ASSIGN_OR_RETURN(const int32_t bit_width, reader_.I32Field(*type, 2, 128));
        if (bit_width != 32 && bit_width != 64 && bit_width != 128 && bit_width != 256) {
          return Corrupt(absl::StrCat("a Decimal of ", bit_width, " bits"));
        }
        format = absl::StrCat("d:", precision, ",", scale);
        if (bit_width != 128) absl::StrAppend(&format, ",", bit_width);
        break;
      }
      case TypeId::kDate: {
        PQPAGE_ASSIGN_OR_RETURN(const int16_t unit, reader_.I16Field(*type, 0, 1));
        if (unit != 0 && unit != 1) return Corrupt(absl::StrCat("unknown date unit ", unit));
        format = std::string(unit == 0 ? "tdD" : "tdm");
        break;
      }
      case TypeId::kTime: {
        PQPAGE_ASSIGN_OR_RETURN(const int16_t unit, reader_.I16Field(*type, 0, 1));
        PQPAGE_ASSIGN_OR_RETURN(const int32_t bit_width, reader_.I32Field(*type, 1, 32));
        PQPAGE_ASSIGN_OR_RETURN(const char letter, TimeUnitLetter(unit));
        // Seconds and milliseconds take 32 bits, micro- and nanoseconds 64.
        if (bit_width != (unit <= 1 ? 32 : 64)) {
          return Corrupt(absl::StrCat("a Time of ", bit_width, " bits in unit ", unit));
        }
        format = absl::StrCat("tt", std::string(1, letter));
        break;
      }
      case TypeId::kTimestamp: {
        PQPAGE_ASSIGN_OR_RETURN(const int16_t unit, reader_.I16Field(*type, 0, 0));
        PQPAGE_ASSIGN_OR_RETURN(const char letter, TimeUnitLetter(unit));
        PQPAGE_ASSIGN_OR_RETURN(const std::string timezone, Copy(*type, kTimestampTimezone));
        format = absl::StrCat("ts", std::string(1, letter), ":", timezone);
        break;
      }
      case TypeId::kInterval: {
        PQPAGE_ASSIGN_OR_RETURN(const int16_t unit, reader_.I16Field(*type, 0, 0));
        if (unit < 0 || unit > 2) return Corrupt(absl::StrCat("unknown interval unit ", unit));
        format = absl::StrCat("ti", std::string(1, "MDn"[unit]));
        break;
      }
      case TypeId::kList:
        format = std::string("+l");
        expected_children = 1;
        break;
      case TypeId::kStruct:
        format = std::string("+s");
        expected_children = std::nullopt;
        break;
      case TypeId::kUnion: {
        PQPAGE_ASSIGN_OR_RETURN(format, UnionFormat(*type, n));
        expected_children = std::nullopt;
        break;
      }
      case TypeId::kFixedSizeBinary: {
        PQPAGE_ASSIGN_OR_RETURN(const int32_t width, reader_.I32Field(*type, 0, 0));
        if (width < 0) return Corrupt(absl::StrCat("a FixedSizeBinary of ", width, " bytes"));
        format = absl::StrCat("w:", width);
        break;
      }
      case TypeId::kFixedSizeList: {
        PQPAGE_ASSIGN_OR_RETURN(const int32_t size, reader_.I32Field(*type, 0, 0));
        if (size < 0) return Corrupt(absl::StrCat("a FixedSizeList of ", size, " items"));
        format = absl::StrCat("+w:", size);
        expected_children = 1;
        break;
      }
      case TypeId::kMap: {
        PQPAGE_ASSIGN_OR_RETURN(field->map_keys_sorted, reader_.BoolField(*type, 0));
        format = std::string("+m");
        expected_children = 1;
        // The one child is the entries struct of key and value.
        if (n == 1 &&
            (field->children[0].format != "+s" || !field->children[0].dictionary_index.empty() ||
             field->children[0].children.size() != 2)) {
          return Corrupt(absl::StrCat("map '", field->name, "' without a key-value struct"));
        }
        break;
      }
      case TypeId::kDuration: {
        PQPAGE_ASSIGN_OR_RETURN(const int16_t unit, reader_.I16Field(*type, 0, 1));
        PQPAGE_ASSIGN_OR_RETURN(const char letter, TimeUnitLetter(unit));
        format = absl::StrCat("tD", std::string(1, letter));
        break;
      }
      case TypeId::kLargeBinary:
        format = std::string("Z");
        break;
      case TypeId::kLargeUtf8:
        format = std::string("U");
        break;
      case TypeId::kLargeList:
        format = std::string("+L");
        expected_children = 1;
        break;
      case TypeId::kRunEndEncoded:
        format = std::string("+r");
        expected_children = 2;
        break;
      case TypeId::kBinaryView:
        format = std::string("vz");
        break;
      case TypeId::kUtf8View:
        format = std::string("vu");
        break;
      case TypeId::kListView:
        format = std::string("+vl");
        expected_children = 1;
        break;
      case TypeId::kLargeListView:
        format = std::string("+vL");
        expected_children = 1;
        break;
      default:
        return Corrupt(absl::StrCat("field '", field->name, "' has unknown type ", type_id));
    }
    if (expected_children.has_value() && n != *expected_children) {
      return Corrupt(absl::StrCat("field '", field->name, "' of type ", format, " has ", n,
                                  " children, not ", *expected_children));
    }
    return absl::OkStatus();
  }

  // "+us:" or "+ud:" and the type ids of a union of `children` members: its typeIds, or
  // 0, 1, ... when it has none.
  absl::StatusOr<std::string> UnionFormat(size_t type, size_t children) {
    PQPAGE_ASSIGN_OR_RETURN(const int16_t mode, reader_.I16Field(type, 0, 0));
    if (mode != 0 && mode != 1) return Corrupt(absl::StrCat("unknown union mode ", mode));
    std::string format(mode == 0 ? "+us:" : "+ud:");
    PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> ids_at, reader_.Field(type, kUnionTypeIds));
    if (!ids_at.has_value()) {
      for (size_t i = 0; i < children; ++i) absl::StrAppend(&format, i == 0 ? "" : ",", i);
      return format;
    }
    PQPAGE_ASSIGN_OR_RETURN(const auto ids, reader_.Vector(*ids_at, 4));
    if (ids.first != children) return Corrupt("a union with as many type ids as members");
    for (uint32_t i = 0; i < ids.first; ++i) {
      PQPAGE_ASSIGN_OR_RETURN(const uint32_t raw, reader_.U32(ids.second + 4 * size_t{i}));
      const auto id = static_cast<int32_t>(raw);
      // Type ids are 8-bit codes, 0 to 127.
      if (id < 0 || id > 127) return Corrupt(absl::StrCat("union type id ", id));
      absl::StrAppend(&format, i == 0 ? "" : ",", id);
    }
    return format;
  }

  const FlatReader& reader_;
  size_t budget_;
};

}  // namespace

absl::StatusOr<std::optional<std::vector<StoredArrowField>>> ParseStoredArrowSchema(
    const std::vector<KeyValue>& key_value_metadata) {
  const std::string* encoded = nullptr;
  for (const KeyValue& entry : key_value_metadata) {
    if (entry.key == kArrowSchemaKey && entry.value.has_value()) encoded = &*entry.value;
  }
  if (encoded == nullptr) return std::nullopt;
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
  PQPAGE_ASSIGN_OR_RETURN(const uint8_t header_type, reader.U8Field(root, kMessageHeaderType, 0));
  PQPAGE_ASSIGN_OR_RETURN(const std::optional<size_t> schema, reader.Table(root, kMessageHeader));
  if (header_type != kHeaderIsSchema || !schema.has_value()) {
    return Corrupt("not a Schema message");
  }
  Parser parser(reader);
  return parser.ParseFields(*schema);
}

}  // namespace pqpage
