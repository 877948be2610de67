// Builds the Arrow IPC Schema message (a FlatBuffer) by hand, front to back: each table is
// written before what it points to, its offset slots patched once their targets are placed, so
// every uoffset points forward as FlatBuffers requires. Each vtable sits right before its table.
// Arrow C++ runs flatbuffers' Verifier over the message, which wants every scalar aligned to its
// size from the start of the FlatBuffer, so the builder aligns each field, string and vector.
#include "file/stored_arrow_schema_write.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "file/arrow_schema_fbs.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

using namespace arrow_fbs;  // NOLINT(google-build-using-namespace): the format's numbers

constexpr uint16_t kMetadataV5 = 4;
constexpr int kMaxFieldIds = 8;

absl::Status Invalid(absl::string_view field, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("Arrow schema field '", field, "': ", what));
}

size_t AlignUp(size_t at, size_t alignment) { return (at + alignment - 1) / alignment * alignment; }

// The FlatBuffer's bytes, appended to; position 0 holds the root table's offset.
class FlatBuilder {
 public:
  FlatBuilder() : bytes_(4, '\0') {}

  size_t size() const { return bytes_.size(); }
  void Align(size_t alignment) { bytes_.resize(AlignUp(bytes_.size(), alignment), '\0'); }
  // `size` bytes of `bits`, little-endian.
  void Put(uint64_t bits, size_t size) {
    for (size_t i = 0; i < size; ++i) bytes_.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  }
  // Points the uoffset at `slot` to `target`, which lies after it.
  void Patch(size_t slot, size_t target) {
    const auto offset = static_cast<uint32_t>(target - slot);
    for (size_t i = 0; i < 4; ++i) bytes_[slot + i] = static_cast<char>((offset >> (8 * i)) & 0xff);
  }
  // A string (u32 length, bytes, NUL); returns where it starts.
  size_t String(absl::string_view text) {
    Align(4);
    const size_t at = size();
    Put(text.size(), 4);
    bytes_.append(text.data(), text.size());
    bytes_.push_back('\0');
    return at;
  }
  // A vector of `count` 4-byte elements, zero until patched or set; returns where it starts (the
  // first element lies 4 bytes on).
  size_t Vector(size_t count) {
    Align(4);
    const size_t at = size();
    Put(count, 4);
    bytes_.resize(bytes_.size() + 4 * count, '\0');
    return at;
  }
  void Set32(size_t at, uint32_t value) {
    for (size_t i = 0; i < 4; ++i) bytes_[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
  }
  std::string Take() && { return std::move(bytes_); }

 private:
  std::string bytes_;
};

// One table's fields, collected and then written with their vtable.
class TableWriter {
 public:
  using Slots = std::array<size_t, kMaxFieldIds>;  // where each offset field lies, by id

  TableWriter& Scalar(int id, size_t size, uint64_t bits) {
    entries_.push_back({id, size, bits, false});
    return *this;
  }
  TableWriter& Offset(int id) {
    entries_.push_back({id, 4, 0, true});
    return *this;
  }

  // Appends the vtable, then the table; returns where the table starts. Offset fields are left
  // zero, for Patch once their targets are written.
  size_t Write(FlatBuilder* out, Slots* slots) {
    // Widest first, so that alignment padding inside the table is rare.
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& a, const Entry& b) { return a.size > b.size; });
    int max_id = -1;
    for (const Entry& entry : entries_) max_id = std::max(max_id, entry.id);
    const size_t vtable_size = 4 + 2 * static_cast<size_t>(max_id + 1);
    out->Align(2);
    const size_t vtable = out->size();
    const size_t table = AlignUp(vtable + vtable_size, 4);
    std::vector<size_t> at(entries_.size());
    std::array<size_t, kMaxFieldIds> by_id{};
    size_t end = table + 4;  // past the soffset to the vtable
    for (size_t i = 0; i < entries_.size(); ++i) {
      at[i] = AlignUp(end, entries_[i].size);
      end = at[i] + entries_[i].size;
      by_id[static_cast<size_t>(entries_[i].id)] = at[i] - table;
    }
    out->Put(vtable_size, 2);
    out->Put(end - table, 2);
    for (int id = 0; id <= max_id; ++id) out->Put(by_id[static_cast<size_t>(id)], 2);
    out->Align(4);
    out->Put(table - vtable, 4);
    for (size_t i = 0; i < entries_.size(); ++i) {
      out->Align(entries_[i].size);
      out->Put(entries_[i].bits, entries_[i].size);
      if (entries_[i].offset) (*slots)[static_cast<size_t>(entries_[i].id)] = at[i];
    }
    return table;
  }

 private:
  struct Entry {
    int id;
    size_t size;
    uint64_t bits;
    bool offset;
  };
  std::vector<Entry> entries_;
};

// A format string's Type union member: the scalars of its table, and what else it holds.
struct TypeTable {
  TypeId id = TypeId::kNull;
  TableWriter table;
  std::string timezone;                 // Timestamp's, written when not empty
  std::optional<std::vector<int>> ids;  // Union's typeIds
  std::optional<size_t> children = 0;   // nullopt: any number
};

// `text` as an int32 when it is spelled as absl::StrCat spells one.
std::optional<int32_t> CanonicalInt(absl::string_view text) {
  int32_t value;
  if (!absl::SimpleAtoi(text, &value) || absl::StrCat(value) != text) return std::nullopt;
  return value;
}

// TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND) from its C Data Interface letter.
std::optional<int> TimeUnit(char letter) {
  const absl::string_view letters = "smun";
  const size_t unit = letters.find(letter);
  if (unit == absl::string_view::npos) return std::nullopt;
  return static_cast<int>(unit);
}

// Int's bitWidth and is_signed from an integer format ("c" ... "L").
std::optional<std::pair<int, bool>> IntType(absl::string_view format) {
  if (format.size() != 1) return std::nullopt;
  const absl::string_view letters = "cCsSiIlL";
  const size_t i = letters.find(format[0]);
  if (i == absl::string_view::npos) return std::nullopt;
  return std::make_pair(8 << (i / 2), i % 2 == 0);
}

std::optional<TypeTable> Simple(TypeId id, std::optional<size_t> children = 0) {
  TypeTable type;
  type.id = id;
  type.children = children;
  return type;
}

std::optional<TypeTable> WithShort(TypeId id, int16_t value) {
  TypeTable type;
  type.id = id;
  type.table.Scalar(0, 2, static_cast<uint16_t>(value));
  return type;
}

// The type table for `format`, or nullopt when ParseStoredArrowSchema never produces it.
std::optional<TypeTable> TypeOf(absl::string_view format) {
  if (const auto int_type = IntType(format)) {
    TypeTable type;
    type.id = TypeId::kInt;
    type.table.Scalar(0, 4, static_cast<uint32_t>(int_type->first))
        .Scalar(1, 1, int_type->second ? 1 : 0);
    return type;
  }
  if (format == "n") return Simple(TypeId::kNull);
  if (format == "b") return Simple(TypeId::kBool);
  if (format == "e") return WithShort(TypeId::kFloatingPoint, 0);
  if (format == "f") return WithShort(TypeId::kFloatingPoint, 1);
  if (format == "g") return WithShort(TypeId::kFloatingPoint, 2);
  if (format == "z") return Simple(TypeId::kBinary);
  if (format == "Z") return Simple(TypeId::kLargeBinary);
  if (format == "vz") return Simple(TypeId::kBinaryView);
  if (format == "u") return Simple(TypeId::kUtf8);
  if (format == "U") return Simple(TypeId::kLargeUtf8);
  if (format == "vu") return Simple(TypeId::kUtf8View);
  if (format == "tdD") return WithShort(TypeId::kDate, 0);
  if (format == "tdm") return WithShort(TypeId::kDate, 1);
  if (format == "tiM") return WithShort(TypeId::kInterval, 0);
  if (format == "tiD") return WithShort(TypeId::kInterval, 1);
  if (format == "tin") return WithShort(TypeId::kInterval, 2);
  if (format == "+l") return Simple(TypeId::kList, 1);
  if (format == "+L") return Simple(TypeId::kLargeList, 1);
  if (format == "+vl") return Simple(TypeId::kListView, 1);
  if (format == "+vL") return Simple(TypeId::kLargeListView, 1);
  if (format == "+s") return Simple(TypeId::kStruct, std::nullopt);
  if (format == "+m") return Simple(TypeId::kMap, 1);
  if (format == "+r") return Simple(TypeId::kRunEndEncoded, 2);
  if (format.size() == 3 && format.substr(0, 2) == "tt") {
    const std::optional<int> unit = TimeUnit(format[2]);
    if (!unit.has_value()) return std::nullopt;
    std::optional<TypeTable> type = WithShort(TypeId::kTime, static_cast<int16_t>(*unit));
    // Seconds and milliseconds take 32 bits, micro- and nanoseconds 64.
    type->table.Scalar(1, 4, *unit <= 1 ? 32 : 64);
    return type;
  }
  if (format.size() == 3 && format.substr(0, 2) == "tD") {
    const std::optional<int> unit = TimeUnit(format[2]);
    if (!unit.has_value()) return std::nullopt;
    return WithShort(TypeId::kDuration, static_cast<int16_t>(*unit));
  }
  if (format.size() >= 4 && format.substr(0, 2) == "ts" && format[3] == ':') {
    const std::optional<int> unit = TimeUnit(format[2]);
    if (!unit.has_value()) return std::nullopt;
    std::optional<TypeTable> type = WithShort(TypeId::kTimestamp, static_cast<int16_t>(*unit));
    type->timezone = std::string(format.substr(4));
    if (!type->timezone.empty()) type->table.Offset(kTimestampTimezone);
    return type;
  }
  if (format.substr(0, 2) == "d:") {
    const std::vector<absl::string_view> parts = absl::StrSplit(format.substr(2), ',');
    if (parts.size() != 2 && parts.size() != 3) return std::nullopt;
    const std::optional<int32_t> precision = CanonicalInt(parts[0]);
    const std::optional<int32_t> scale = CanonicalInt(parts[1]);
    // 128 bits is the default, which the parser leaves unspelled.
    const std::optional<int32_t> bit_width =
        parts.size() == 2 ? std::optional<int32_t>(128) : CanonicalInt(parts[2]);
    if (!precision.has_value() || !scale.has_value() || !bit_width.has_value() ||
        (*bit_width != 32 && *bit_width != 64 && *bit_width != 256 &&
         (*bit_width != 128 || parts.size() == 3))) {
      return std::nullopt;
    }
    TypeTable type;
    type.id = TypeId::kDecimal;
    type.table.Scalar(0, 4, static_cast<uint32_t>(*precision))
        .Scalar(1, 4, static_cast<uint32_t>(*scale))
        .Scalar(2, 4, static_cast<uint32_t>(*bit_width));
    return type;
  }
  const bool fixed_list = format.substr(0, 3) == "+w:";
  if (fixed_list || format.substr(0, 2) == "w:") {
    const std::optional<int32_t> width = CanonicalInt(format.substr(fixed_list ? 3 : 2));
    if (!width.has_value() || *width < 0) return std::nullopt;
    TypeTable type;
    type.id = fixed_list ? TypeId::kFixedSizeList : TypeId::kFixedSizeBinary;
    type.children = fixed_list ? 1 : 0;
    type.table.Scalar(0, 4, static_cast<uint32_t>(*width));
    return type;
  }
  if (format.substr(0, 4) == "+us:" || format.substr(0, 4) == "+ud:") {
    std::optional<TypeTable> type = WithShort(TypeId::kUnion, format[2] == 's' ? 0 : 1);
    type->ids.emplace();
    if (format.size() > 4) {
      for (absl::string_view part : absl::StrSplit(format.substr(4), ',')) {
        const std::optional<int32_t> id = CanonicalInt(part);
        // Type ids are 8-bit codes, 0 to 127.
        if (!id.has_value() || *id < 0 || *id > 127) return std::nullopt;
        type->ids->push_back(*id);
      }
    }
    type->children = type->ids->size();
    type->table.Offset(kUnionTypeIds);
    return type;
  }
  return std::nullopt;
}

class SchemaWriter {
 public:
  absl::StatusOr<std::string> Write(
      const std::vector<StoredArrowField>& fields,
      const std::vector<std::pair<std::string, std::string>>& schema_metadata) {
    TableWriter::Slots slots{};
    const size_t message = TableWriter()
                               .Scalar(kMessageVersion, 2, kMetadataV5)
                               .Scalar(kMessageHeaderType, 1, kHeaderIsSchema)
                               .Offset(kMessageHeader)
                               .Scalar(kMessageBodyLength, 8, 0)
                               .Write(&out_, &slots);
    out_.Patch(0, message);
    const size_t header_slot = slots[kMessageHeader];
    TableWriter schema;
    schema.Scalar(kSchemaEndianness, 2, 0).Offset(kSchemaFields);  // Little
    if (!schema_metadata.empty()) schema.Offset(kSchemaCustomMetadata);
    out_.Patch(header_slot, schema.Write(&out_, &slots));
    const TableWriter::Slots schema_slots = slots;
    // Arrow C++ refuses a Schema without a fields vector, so it is written even when empty.
    PQPAGE_RETURN_IF_ERROR(WriteFields(fields, 0, schema_slots[kSchemaFields]));
    if (!schema_metadata.empty()) {
      WriteKeyValues(schema_metadata, schema_slots[kSchemaCustomMetadata]);
    }
    // Uoffsets are 32 bits, and flatbuffers refuses buffers of 2 GiB or more.
    if (out_.size() >= (size_t{1} << 31) - 8) {
      return absl::InvalidArgumentError("Arrow schema: too large for a FlatBuffer");
    }

    // The encapsulated message: continuation marker, length, FlatBuffer padded to 8 bytes.
    out_.Align(8);
    std::string message_bytes = std::move(out_).Take();
    std::string framed("\xff\xff\xff\xff", 4);
    const auto length = static_cast<uint32_t>(message_bytes.size());
    for (int i = 0; i < 4; ++i) framed.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
    framed += message_bytes;
    return absl::Base64Escape(framed);
  }

 private:
  absl::Status WriteFields(const std::vector<StoredArrowField>& fields, int depth, size_t slot) {
    const size_t vector = out_.Vector(fields.size());
    out_.Patch(slot, vector);
    for (size_t i = 0; i < fields.size(); ++i) {
      PQPAGE_RETURN_IF_ERROR(WriteField(fields[i], depth, vector + 4 + 4 * i));
    }
    return absl::OkStatus();
  }

  absl::Status WriteField(const StoredArrowField& field, int depth, size_t slot) {
    if (depth > kMaxDepth) return Invalid(field.name, "nested deeper than 64 levels");
    std::optional<TypeTable> type = TypeOf(field.format);
    if (!type.has_value()) {
      return Invalid(field.name, absl::StrCat("format '", field.format,
                                              "' is not one ParseStoredArrowSchema produces"));
    }
    PQPAGE_RETURN_IF_ERROR(CheckShape(field, *type));
    if (type->id == TypeId::kMap) type->table.Scalar(0, 1, field.map_keys_sorted ? 1 : 0);
    const std::optional<std::pair<int, bool>> index_type = IntType(field.dictionary_index);

    TableWriter table;
    table.Offset(kFieldName)
        .Scalar(kFieldNullable, 1, field.nullable ? 1 : 0)
        .Scalar(kFieldTypeType, 1, static_cast<uint8_t>(type->id))
        .Offset(kFieldType)
        .Offset(kFieldChildren);  // Arrow C++ refuses a Field without one, even when empty
    if (index_type.has_value()) table.Offset(kFieldDictionary);
    if (!field.metadata.empty()) table.Offset(kFieldCustomMetadata);
    TableWriter::Slots slots{};
    out_.Patch(slot, table.Write(&out_, &slots));
    out_.Patch(slots[kFieldName], out_.String(field.name));

    TableWriter::Slots type_slots{};
    out_.Patch(slots[kFieldType], type->table.Write(&out_, &type_slots));
    if (!type->timezone.empty()) {
      out_.Patch(type_slots[kTimestampTimezone], out_.String(type->timezone));
    }
    if (type->ids.has_value()) {
      const size_t ids = out_.Vector(type->ids->size());
      out_.Patch(type_slots[kUnionTypeIds], ids);
      for (size_t i = 0; i < type->ids->size(); ++i) {
        out_.Set32(ids + 4 + 4 * i, static_cast<uint32_t>((*type->ids)[i]));
      }
    }

    if (index_type.has_value()) {
      TableWriter::Slots dictionary_slots{};
      const size_t dictionary = TableWriter()
                                    .Scalar(kDictionaryId, 8, next_dictionary_id_++)
                                    .Offset(kDictionaryIndexType)
                                    .Scalar(kDictionaryIsOrdered, 1, field.dictionary_ordered)
                                    .Write(&out_, &dictionary_slots);
      out_.Patch(slots[kFieldDictionary], dictionary);
      TableWriter::Slots unused{};
      const size_t int_table = TableWriter()
                                   .Scalar(0, 4, static_cast<uint32_t>(index_type->first))
                                   .Scalar(1, 1, index_type->second ? 1 : 0)
                                   .Write(&out_, &unused);
      out_.Patch(dictionary_slots[kDictionaryIndexType], int_table);
    }

    PQPAGE_RETURN_IF_ERROR(WriteFields(field.children, depth + 1, slots[kFieldChildren]));
    if (!field.metadata.empty()) WriteKeyValues(field.metadata, slots[kFieldCustomMetadata]);
    return absl::OkStatus();
  }

  // What the parser would refuse or read back differently, besides the format itself.
  static absl::Status CheckShape(const StoredArrowField& field, const TypeTable& type) {
    const size_t n = field.children.size();
    if (type.children.has_value() && n != *type.children) {
      return Invalid(field.name, absl::StrCat("format '", field.format, "' with ", n,
                                              " children, not ", *type.children));
    }
    if (type.id == TypeId::kMap) {
      const StoredArrowField& entries = field.children[0];
      if (entries.format != "+s" || !entries.dictionary_index.empty() ||
          entries.children.size() != 2) {
        return Invalid(field.name, "a map's child must be a struct of key and value");
      }
    } else if (field.map_keys_sorted) {
      return Invalid(field.name, "map_keys_sorted on a type that is not a map");
    }
    if (!field.dictionary_index.empty() && !IntType(field.dictionary_index).has_value()) {
      return Invalid(field.name, absl::StrCat("dictionary index type '", field.dictionary_index,
                                              "' is not an integer"));
    }
    if (field.dictionary_index.empty() && field.dictionary_ordered) {
      return Invalid(field.name, "dictionary_ordered without a dictionary");
    }
    return absl::OkStatus();
  }

  void WriteKeyValues(const std::vector<std::pair<std::string, std::string>>& pairs, size_t slot) {
    const size_t vector = out_.Vector(pairs.size());
    out_.Patch(slot, vector);
    for (size_t i = 0; i < pairs.size(); ++i) {
      TableWriter::Slots slots{};
      const size_t pair =
          TableWriter().Offset(kKeyValueKey).Offset(kKeyValueValue).Write(&out_, &slots);
      out_.Patch(vector + 4 + 4 * i, pair);
      out_.Patch(slots[kKeyValueKey], out_.String(pairs[i].first));
      out_.Patch(slots[kKeyValueValue], out_.String(pairs[i].second));
    }
  }

  FlatBuilder out_;
  uint64_t next_dictionary_id_ = 0;
};

}  // namespace

absl::StatusOr<std::string> SerializeStoredArrowSchema(
    const std::vector<StoredArrowField>& fields,
    const std::vector<std::pair<std::string, std::string>>& schema_metadata) {
  return SchemaWriter().Write(fields, schema_metadata);
}

}  // namespace pqpage
