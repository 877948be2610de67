#include "arrow/read_field.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "pqpage/status_macros.h"

namespace pqpage::arrow_internal {
namespace {

// The converted types the nested forms are recognised by (the format's ids).
constexpr int32_t kConvertedMap = 1;
constexpr int32_t kConvertedMapKeyValue = 2;
constexpr int32_t kConvertedList = 3;

// One schema element with its levels and the leaves under it, as a tree.
struct Node {
  const SchemaElement* element = nullptr;
  Repetition repetition = Repetition::kRequired;
  int16_t def = 0;  // definition level of this element (optional and repeated ones count)
  int16_t rep = 0;  // repetition level of this element
  int first_leaf = 0;
  int leaf_end = 0;  // one past its last leaf
  std::vector<Node> children;

  bool is_leaf() const { return !element->num_children.has_value(); }
  const std::string& name() const { return element->name; }
};

absl::Status BuildNode(const std::vector<SchemaElement>& elements, size_t& next, int& next_leaf,
                       int16_t parent_def, int16_t parent_rep, int depth, Node& node) {
  if (next >= elements.size()) return absl::DataLossError("the schema's element list ends early");
  if (depth > 200) return absl::DataLossError("the schema nests too deep");
  node.element = &elements[next++];
  // The root defines and repeats nothing, whatever repetition a writer gave it.
  node.repetition = depth == 0 ? Repetition::kRequired
                               : static_cast<Repetition>(node.element->repetition_id.value_or(0));
  node.def = static_cast<int16_t>(parent_def + (node.repetition != Repetition::kRequired ? 1 : 0));
  node.rep = static_cast<int16_t>(parent_rep + (node.repetition == Repetition::kRepeated ? 1 : 0));
  node.first_leaf = next_leaf;
  if (node.is_leaf()) {
    ++next_leaf;
  } else {
    const int32_t count = *node.element->num_children;
    if (count < 0 || static_cast<size_t>(count) > elements.size() - next) {
      return absl::DataLossError("a schema group has more children than the list holds");
    }
    node.children.resize(static_cast<size_t>(count));
    for (Node& child : node.children) {
      PQPAGE_RETURN_IF_ERROR(
          BuildNode(elements, next, next_leaf, node.def, node.rep, depth + 1, child));
    }
  }
  node.leaf_end = next_leaf;
  return absl::OkStatus();
}

bool IsAnnotated(const Node& node, const char* logical, int32_t converted) {
  return node.element->logical_type == logical || node.element->converted_type_id == converted;
}

std::string DecimalFormat(const LogicalType& type) {
  std::string format = absl::StrCat("d:", type.precision, ",", type.scale);
  if (type.precision > 38) format += ",256";
  return format;
}

char TimeUnitLetter(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return 'm';
    case TimeUnit::kMicros:
      return 'u';
    case TimeUnit::kNanos:
      return 'n';
  }
  return 'u';
}

// The Arrow type and value conversion of a leaf column, as Arrow C++ maps it.
void MapLeaf(const ColumnDescriptor& column, ReadField& field) {
  const LogicalType& logical = column.logical_type;
  std::string& format = field.type.format;
  if (logical.kind == LogicalKind::kNull) {
    format = "n";
    field.conversion = ValueConversion::kNull;
    return;
  }
  if (logical.kind == LogicalKind::kDecimal && column.type != PhysicalType::kBoolean &&
      column.type != PhysicalType::kFloat && column.type != PhysicalType::kDouble &&
      column.type != PhysicalType::kInt96) {
    format = DecimalFormat(logical);
    field.decimal_bytes = logical.precision > 38 ? 32 : 16;
    field.conversion = column.type == PhysicalType::kInt32   ? ValueConversion::kInt32ToDecimal
                       : column.type == PhysicalType::kInt64 ? ValueConversion::kInt64ToDecimal
                                                             : ValueConversion::kBytesToDecimal;
    return;
  }
  switch (column.type) {
    case PhysicalType::kBoolean:
      format = "b";
      field.conversion = ValueConversion::kBoolean;
      return;
    case PhysicalType::kInt32:
      field.conversion = ValueConversion::kInt32;
      format = "i";
      if (logical.kind == LogicalKind::kDate) {
        format = "tdD";
      } else if (logical.kind == LogicalKind::kTime && logical.unit == TimeUnit::kMillis) {
        format = "ttm";
      } else if (logical.kind == LogicalKind::kInteger) {
        const bool is_signed = logical.is_signed;
        if (logical.bit_width == 8) {
          format = is_signed ? "c" : "C";
          field.conversion = ValueConversion::kInt32ToInt8;
        } else if (logical.bit_width == 16) {
          format = is_signed ? "s" : "S";
          field.conversion = ValueConversion::kInt32ToInt16;
        } else {
          format = is_signed ? "i" : "I";
        }
      }
      return;
    case PhysicalType::kInt64:
      field.conversion = ValueConversion::kInt64;
      format = "l";
      if (logical.kind == LogicalKind::kInteger) {
        format = logical.is_signed ? "l" : "L";
      } else if (logical.kind == LogicalKind::kTime && logical.unit != TimeUnit::kMillis) {
        format = std::string("tt") + TimeUnitLetter(logical.unit);
      } else if (logical.kind == LogicalKind::kTimestamp) {
        // The converted types TIMESTAMP_MILLIS / TIMESTAMP_MICROS count as adjusted to UTC.
        format = std::string("ts") + TimeUnitLetter(logical.unit) +
                 (logical.adjusted_to_utc ? ":UTC" : ":");
      }
      return;
    case PhysicalType::kInt96:
      format = "tsn:";
      field.conversion = ValueConversion::kInt96ToNanos;
      return;
    case PhysicalType::kFloat:
      format = "f";
      field.conversion = ValueConversion::kFloat;
      return;
    case PhysicalType::kDouble:
      format = "g";
      field.conversion = ValueConversion::kDouble;
      return;
    case PhysicalType::kByteArray: {
      const bool text = logical.kind == LogicalKind::kString ||
                        logical.kind == LogicalKind::kEnum || logical.kind == LogicalKind::kJson;
      format = text ? "u" : "z";
      field.conversion = ValueConversion::kBinary;
      return;
    }
    case PhysicalType::kFixedLenByteArray:
      field.conversion = ValueConversion::kFixedSize;
      field.fixed_size = column.type_length;
      if (logical.kind == LogicalKind::kFloat16 && column.type_length == 2) {
        format = "e";
      } else {
        format = absl::StrCat("w:", column.type_length);
      }
      return;
  }
}

class Mapper {
 public:
  Mapper(const std::vector<ColumnDescriptor>& columns, const std::vector<bool>& selected,
         bool keep_empty_groups)
      : columns_(columns), selected_(selected), keep_empty_groups_(keep_empty_groups) {}

  // Whether `node` has a selected leaf, or is a group without leaves kept as Arrow C++ keeps
  // them (an empty struct) when every column is read.
  bool Keeps(const Node& node) const {
    if (node.first_leaf == node.leaf_end) return keep_empty_groups_ && !node.is_leaf();
    for (int leaf = node.first_leaf; leaf < node.leaf_end; ++leaf) {
      if (selected_[static_cast<size_t>(leaf)]) return true;
    }
    return false;
  }

  // `node` as a field with a slot at slot_def / slot_rep. A repeated node outside a LIST or MAP
  // group is a list of itself; `as_element` reads a repeated node as the element it repeats.
  absl::StatusOr<ReadField> Map(const Node& node, int16_t slot_def, int16_t slot_rep,
                                bool as_element) {
    if (node.repetition == Repetition::kRepeated && !as_element) {
      ReadField list = Start(ReadField::Kind::kList, node, slot_def, slot_rep);
      list.type.format = "+l";
      list.type.nullable = false;
      list.valid_def = slot_def;
      PQPAGE_ASSIGN_OR_RETURN(ReadField element, Map(node, node.def, node.rep, true));
      list.children.push_back(std::move(element));
      return list;
    }
    if (node.is_leaf()) {
      ReadField leaf = Start(ReadField::Kind::kLeaf, node, slot_def, slot_rep);
      MapLeaf(columns_[static_cast<size_t>(node.first_leaf)], leaf);
      return leaf;
    }
    // A repeated group annotated LIST or MAP is, as an element, a list or map itself.
    if (IsAnnotated(node, "LIST", kConvertedList)) return MapList(node, slot_def, slot_rep);
    if (IsAnnotated(node, "MAP", kConvertedMap) ||
        (!as_element && node.element->converted_type_id == kConvertedMapKeyValue)) {
      return MapMap(node, slot_def, slot_rep);
    }
    ReadField group = Start(ReadField::Kind::kStruct, node, slot_def, slot_rep);
    group.type.format = "+s";
    for (const Node& child : node.children) {
      if (!Keeps(child)) continue;
      PQPAGE_ASSIGN_OR_RETURN(ReadField field, Map(child, slot_def, slot_rep, false));
      group.children.push_back(std::move(field));
    }
    return group;
  }

 private:
  ReadField Start(ReadField::Kind kind, const Node& node, int16_t slot_def, int16_t slot_rep) {
    ReadField field;
    field.kind = kind;
    field.type.name = node.name();
    field.type.nullable = node.repetition == Repetition::kOptional;
    field.slot_def = slot_def;
    field.slot_rep = slot_rep;
    field.valid_def = node.def;
    for (int leaf = node.first_leaf; leaf < node.leaf_end; ++leaf) {
      if (selected_[static_cast<size_t>(leaf)]) {
        field.leaf = leaf;
        break;
      }
    }
    return field;
  }

  // A LIST group: its one repeated child is the element itself (two-level forms) or holds it.
  absl::StatusOr<ReadField> MapList(const Node& node, int16_t slot_def, int16_t slot_rep) {
    if (node.children.size() != 1 || node.children[0].repetition != Repetition::kRepeated) {
      return absl::DataLossError(absl::StrCat("the LIST group '", node.name(),
                                              "' does not hold exactly one repeated field"));
    }
    const Node& repeated = node.children[0];
    ReadField list = Start(ReadField::Kind::kList, node, slot_def, slot_rep);
    list.type.format = "+l";
    const bool element_is_repeated = repeated.is_leaf() || repeated.children.size() > 1 ||
                                     repeated.name() == "array" ||
                                     absl::EndsWith(repeated.name(), "_tuple");
    ReadField element;
    if (element_is_repeated) {
      PQPAGE_ASSIGN_OR_RETURN(element, Map(repeated, repeated.def, repeated.rep, true));
    } else {
      PQPAGE_ASSIGN_OR_RETURN(element,
                              Map(repeated.children[0], repeated.def, repeated.rep, false));
    }
    list.children.push_back(std::move(element));
    return list;
  }

  // A MAP (or MAP_KEY_VALUE) group: one repeated group of a required key and a value. A group
  // of keys alone reads as a list of the keys; with only one of key and value selected, a map
  // reads as a list of structs of what is left.
  absl::StatusOr<ReadField> MapMap(const Node& node, int16_t slot_def, int16_t slot_rep) {
    if (node.children.size() != 1 || node.children[0].repetition != Repetition::kRepeated ||
        node.children[0].is_leaf() || node.children[0].children.empty() ||
        node.children[0].children.size() > 2) {
      return absl::DataLossError(
          absl::StrCat("the MAP group '", node.name(),
                       "' does not hold one repeated group of a key and a value"));
    }
    const Node& entries = node.children[0];
    if (entries.children[0].repetition != Repetition::kRequired) {
      return absl::DataLossError(
          absl::StrCat("the MAP group '", node.name(), "' has keys that are not required"));
    }
    ReadField map = Start(ReadField::Kind::kMap, node, slot_def, slot_rep);
    if (entries.children.size() == 1) {
      map.kind = ReadField::Kind::kList;
      map.type.format = "+l";
      PQPAGE_ASSIGN_OR_RETURN(ReadField key,
                              Map(entries.children[0], entries.def, entries.rep, false));
      map.children.push_back(std::move(key));
      return map;
    }
    map.type.format = "+m";
    PQPAGE_ASSIGN_OR_RETURN(ReadField entry, Map(entries, entries.def, entries.rep, true));
    if (entry.children.size() != 2) {
      map.kind = ReadField::Kind::kList;
      map.type.format = "+l";
    } else {
      entry.children[0].type.nullable = false;
    }
    map.children.push_back(std::move(entry));
    return map;
  }

  const std::vector<ColumnDescriptor>& columns_;
  const std::vector<bool>& selected_;
  bool keep_empty_groups_;
};

}  // namespace

void MarkExtensionTypes(const std::vector<ColumnDescriptor>& columns,
                        std::vector<ReadField>& fields) {
  for (ReadField& field : fields) {
    MarkExtensionTypes(columns, field.children);
    if (field.kind != ReadField::Kind::kLeaf || field.leaf < 0 || !field.type.dictionary.empty()) {
      continue;
    }
    const LogicalKind kind = columns[static_cast<size_t>(field.leaf)].logical_type.kind;
    const std::string& format = field.type.format;
    const char* name = nullptr;
    if (kind == LogicalKind::kUuid && format == "w:16") name = "arrow.uuid";
    if (kind == LogicalKind::kJson && (format == "u" || format == "U" || format == "vu")) {
      name = "arrow.json";
    }
    if (name == nullptr) continue;
    field.type.metadata.emplace_back("ARROW:extension:name", name);
    field.type.metadata.emplace_back("ARROW:extension:metadata", "");
  }
}

absl::StatusOr<std::vector<ReadField>> MapSchema(const std::vector<SchemaElement>& file_schema,
                                                 const std::vector<ColumnDescriptor>& columns,
                                                 const std::vector<bool>& selected) {
  if (file_schema.empty()) return absl::DataLossError("the schema has no root element");
  size_t next = 0;
  int next_leaf = 0;
  Node root;
  PQPAGE_RETURN_IF_ERROR(BuildNode(file_schema, next, next_leaf, 0, 0, 0, root));
  if (root.is_leaf() || static_cast<size_t>(next_leaf) != columns.size() ||
      selected.size() != columns.size()) {
    return absl::DataLossError("the schema's root and its leaf columns do not agree");
  }
  bool all_selected = true;
  for (const bool flag : selected) all_selected = all_selected && flag;
  Mapper mapper(columns, selected, all_selected);
  std::vector<ReadField> fields;
  for (const Node& child : root.children) {
    if (!mapper.Keeps(child)) continue;
    PQPAGE_ASSIGN_OR_RETURN(ReadField field, mapper.Map(child, 0, 0, false));
    fields.push_back(std::move(field));
  }
  return fields;
}

ArrowType TypeOf(const ReadField& field) {
  ArrowType type = field.type;
  type.children.clear();
  for (const ReadField& child : field.children) type.children.push_back(TypeOf(child));
  if (field.dictionary) {
    ArrowType values;
    values.format = type.format;
    type.format = field.dictionary_index;
    type.dictionary.push_back(std::move(values));
  }
  return type;
}

}  // namespace pqpage::arrow_internal
