#include "pqpage/schema.h"

#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "parquet_types.h"
#include "schema/annotate_element.h"
#include "schema/logical_type_of.h"
#include "schema/schema_elements.h"

namespace pqpage {

struct Schema::Elements {
  std::vector<format::SchemaElement> list;
};

Schema::Schema() : elements_(std::make_unique<Elements>()) {}
Schema::~Schema() = default;
Schema::Schema(const Schema& other)
    : elements_(std::make_unique<Elements>(*other.elements_)),
      columns_(other.columns_),
      empty_groups_(other.empty_groups_) {}
Schema& Schema::operator=(const Schema& other) {
  if (this != &other) {
    elements_ = std::make_unique<Elements>(*other.elements_);
    columns_ = other.columns_;
    empty_groups_ = other.empty_groups_;
  }
  return *this;
}
Schema::Schema(Schema&&) noexcept = default;
Schema& Schema::operator=(Schema&&) noexcept = default;

std::optional<int> Schema::FindColumn(std::string_view path) const {
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (columns_[c].PathString() == path) return static_cast<int>(c);
  }
  return std::nullopt;
}

namespace internal {

const std::vector<format::SchemaElement>& SchemaElements::Of(const Schema& schema) {
  return schema.elements_->list;
}

absl::StatusOr<Schema> SchemaElements::ToSchema(
    const std::vector<format::SchemaElement>& elements) {
  if (elements.empty()) return absl::DataLossError("schema has no root element");
  Schema schema;
  schema.elements_->list = elements;

  // The tree is walked with an explicit stack: a hostile footer may nest a million levels deep,
  // which recursion would turn into a stack overflow.
  struct Open {
    int64_t children_left;
    int16_t definition_level;
    int16_t repetition_level;
  };
  std::vector<Open> stack;
  std::vector<std::string> path;
  const format::SchemaElement& root = elements[0];
  if (!root.__isset.num_children || root.num_children < 0) {
    return absl::DataLossError("schema root is not a group");
  }
  stack.push_back({root.num_children, 0, 0});
  size_t index = 1;
  while (!stack.empty()) {
    if (stack.back().children_left == 0) {
      stack.pop_back();
      if (!path.empty() && !stack.empty()) path.pop_back();
      continue;
    }
    if (index >= elements.size()) {
      return absl::DataLossError(absl::StrCat("schema element ", index - 1,
                                              " announces more children than the list holds"));
    }
    const format::SchemaElement& element = elements[index];
    --stack.back().children_left;
    int definition = stack.back().definition_level;
    int repetition = stack.back().repetition_level;
    if (!element.__isset.repetition_type) {
      return absl::DataLossError(
          absl::StrCat("schema element '", element.name, "' has no repetition type"));
    }
    switch (element.repetition_type) {
      case format::FieldRepetitionType::REQUIRED:
        break;
      case format::FieldRepetitionType::OPTIONAL:
        ++definition;
        break;
      case format::FieldRepetitionType::REPEATED:
        ++definition;
        ++repetition;
        break;
      default:
        return absl::DataLossError(absl::StrCat("schema element '", element.name,
                                                "' has unknown repetition type ",
                                                static_cast<int>(element.repetition_type)));
    }
    if (definition > INT16_MAX || repetition > INT16_MAX) {
      return absl::DataLossError("schema nests deeper than levels can count");
    }
    ++index;
    const bool is_group = element.__isset.num_children && element.num_children > 0;
    if (is_group) {
      path.push_back(element.name);
      stack.push_back({element.num_children, static_cast<int16_t>(definition),
                       static_cast<int16_t>(repetition)});
      continue;
    }
    if (!element.__isset.type && element.__isset.num_children) {
      // A group of no fields (parquet-go writes them for empty structs): it has no leaf column,
      // so no pages, but it stays in the element list and is reported.
      std::vector<std::string> group_path = path;
      group_path.push_back(element.name);
      schema.empty_groups_.push_back(std::move(group_path));
      continue;
    }
    if (!element.__isset.type) {
      return absl::DataLossError(
          absl::StrCat("schema leaf '", element.name, "' has no physical type"));
    }
    if (element.type < format::Type::BOOLEAN || element.type > format::Type::FIXED_LEN_BYTE_ARRAY) {
      return absl::UnimplementedError(absl::StrCat("schema leaf '", element.name,
                                                   "' has unknown physical type ",
                                                   static_cast<int>(element.type)));
    }
    ColumnDescriptor column;
    column.path = path;
    column.path.push_back(element.name);
    column.type = static_cast<PhysicalType>(element.type);
    column.logical_type = LogicalTypeOf(element);
    column.max_definition_level = static_cast<int16_t>(definition);
    column.max_repetition_level = static_cast<int16_t>(repetition);
    if (column.type == PhysicalType::kFixedLenByteArray) {
      if (!element.__isset.type_length || element.type_length <= 0) {
        return absl::DataLossError(absl::StrCat(
            "FIXED_LEN_BYTE_ARRAY column '", column.PathString(), "' has no positive type_length"));
      }
      column.type_length = element.type_length;
    }
    schema.columns_.push_back(std::move(column));
  }
  if (index != elements.size()) {
    return absl::DataLossError(
        absl::StrCat("schema lists ", elements.size(), " elements but its tree holds ", index));
  }
  return schema;
}

}  // namespace internal

// ---------------------------------------------------------------- Builder

struct Schema::Builder::State {
  std::vector<format::SchemaElement> elements;
  std::vector<size_t> open_groups;  // indices of groups whose children are being added
  absl::Status error;

  void CountChild() {
    format::SchemaElement& parent = elements[open_groups.back()];
    parent.__set_num_children(parent.num_children + 1);
  }
  void Fail(absl::Status status) {
    if (error.ok()) error = std::move(status);
  }
};

Schema::Builder::Builder() : state_(std::make_unique<State>()) {
  format::SchemaElement root;
  root.__set_name("schema");
  root.__set_num_children(0);
  state_->elements.push_back(root);
  state_->open_groups.push_back(0);
}
Schema::Builder::~Builder() = default;

namespace {

// The logical type a primitive's annotation name stands for.
std::optional<LogicalType> NamedLogicalType(std::string_view logical) {
  LogicalType type;
  if (logical.empty()) return type;
  if (logical == "STRING") {
    type.kind = LogicalKind::kString;
  } else if (logical == "DATE") {
    type.kind = LogicalKind::kDate;
  } else if (logical == "TIMESTAMP_MILLIS" || logical == "TIMESTAMP_MICROS" ||
             logical == "TIMESTAMP_NANOS") {
    type.kind = LogicalKind::kTimestamp;
    type.adjusted_to_utc = true;
    type.unit = logical == "TIMESTAMP_MILLIS"   ? TimeUnit::kMillis
                : logical == "TIMESTAMP_MICROS" ? TimeUnit::kMicros
                                                : TimeUnit::kNanos;
  } else if (logical == "FLOAT16") {
    type.kind = LogicalKind::kFloat16;
  } else if (logical == "UUID") {
    type.kind = LogicalKind::kUuid;
  } else if (logical == "JSON") {
    type.kind = LogicalKind::kJson;
  } else {
    return std::nullopt;
  }
  return type;
}

// A group's annotation: LIST or MAP, as both the logical and the converted type.
absl::Status AnnotateGroup(std::string_view logical, format::SchemaElement* element) {
  if (logical.empty()) return absl::OkStatus();
  format::LogicalType type;
  if (logical == "LIST") {
    type.__set_LIST(format::ListType());
    element->__set_converted_type(format::ConvertedType::LIST);
  } else if (logical == "MAP") {
    type.__set_MAP(format::MapType());
    element->__set_converted_type(format::ConvertedType::MAP);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("group '", element->name, "' cannot be annotated ", std::string(logical)));
  }
  element->__set_logicalType(type);
  return absl::OkStatus();
}

}  // namespace

Schema::Builder& Schema::Builder::AddPrimitive(std::string_view name, Repetition repetition,
                                               PhysicalType type, int type_length,
                                               std::string_view logical) {
  format::SchemaElement element;
  element.__set_name(std::string(name));
  element.__set_repetition_type(static_cast<format::FieldRepetitionType::type>(repetition));
  element.__set_type(static_cast<format::Type::type>(type));
  if (type == PhysicalType::kFixedLenByteArray) {
    if (type_length <= 0) {
      state_->Fail(absl::InvalidArgumentError(absl::StrCat(
          "FIXED_LEN_BYTE_ARRAY field '", std::string(name), "' needs a positive type length")));
    }
    element.__set_type_length(type_length);
  }
  const std::optional<LogicalType> named = NamedLogicalType(logical);
  if (!named.has_value()) {
    state_->Fail(absl::InvalidArgumentError(absl::StrCat(
        "primitive field '", std::string(name), "' cannot be annotated ", std::string(logical))));
  } else {
    absl::Status status = internal::AnnotateElement(*named, &element);
    if (!status.ok()) state_->Fail(std::move(status));
  }
  state_->CountChild();
  state_->elements.push_back(std::move(element));
  return *this;
}

Schema::Builder& Schema::Builder::AddLogical(std::string_view name, Repetition repetition,
                                             PhysicalType type, int type_length,
                                             const LogicalType& logical) {
  AddPrimitive(name, repetition, type, type_length);
  absl::Status status = internal::AnnotateElement(logical, &state_->elements.back());
  if (!status.ok()) state_->Fail(std::move(status));
  return *this;
}

Schema::Builder& Schema::Builder::BeginGroup(std::string_view name, Repetition repetition,
                                             std::string_view logical) {
  format::SchemaElement element;
  element.__set_name(std::string(name));
  element.__set_repetition_type(static_cast<format::FieldRepetitionType::type>(repetition));
  element.__set_num_children(0);
  absl::Status status = AnnotateGroup(logical, &element);
  if (!status.ok()) state_->Fail(std::move(status));
  state_->CountChild();
  state_->elements.push_back(std::move(element));
  state_->open_groups.push_back(state_->elements.size() - 1);
  return *this;
}

Schema::Builder& Schema::Builder::EndGroup() {
  if (state_->open_groups.size() <= 1) {
    state_->Fail(absl::InvalidArgumentError("EndGroup without a matching BeginGroup"));
  } else {
    if (state_->elements[state_->open_groups.back()].num_children == 0) {
      state_->Fail(absl::InvalidArgumentError(absl::StrCat(
          "group '", state_->elements[state_->open_groups.back()].name, "' has no fields")));
    }
    state_->open_groups.pop_back();
  }
  return *this;
}

absl::StatusOr<Schema> Schema::Builder::Build() {
  if (!state_->error.ok()) return state_->error;
  if (state_->open_groups.size() != 1) {
    return absl::InvalidArgumentError("a group was not closed with EndGroup");
  }
  absl::StatusOr<Schema> schema = internal::SchemaElements::ToSchema(state_->elements);
  if (!schema.ok()) return absl::InvalidArgumentError(schema.status().message());
  return schema;
}

}  // namespace pqpage
