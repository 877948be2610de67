#include "arrow/write_field.h"

#include <charconv>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "pqpage/status_macros.h"

namespace pqpage::arrow_internal {
namespace {

// A leaf's Parquet type and how its values convert.
struct LeafType {
  PhysicalType physical = PhysicalType::kInt32;
  int type_length = 0;
  LogicalType logical;
  WriteConversion conversion = WriteConversion::kNull;
  int32_t source_width = 0;
  int32_t decimal_bytes = 0;
};

absl::Status BadField(std::string_view name, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Arrow field '", std::string(name), "': ", std::string(why)));
}

// The decimal number in `text`, which must be all of it and at least `min`.
std::optional<int64_t> ParseNumber(std::string_view text, int64_t min = 0) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min) return std::nullopt;
  return value;
}

// The metadata of an ArrowSchema: int32 count, then (int32 length, bytes) for each key and value.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> ReadMetadata(
    const char* metadata, std::string_view name) {
  std::vector<std::pair<std::string, std::string>> out;
  if (metadata == nullptr) return out;
  auto read_int = [&metadata]() {
    int32_t value = 0;
    std::memcpy(&value, metadata, sizeof(value));
    metadata += sizeof(value);
    return value;
  };
  const int32_t count = read_int();
  if (count < 0) return BadField(name, "metadata with a negative count");
  for (int32_t i = 0; i < count; ++i) {
    std::string pair[2];
    for (std::string& text : pair) {
      const int32_t length = read_int();
      if (length < 0) return BadField(name, "metadata with a negative length");
      text.assign(metadata, static_cast<size_t>(length));
      metadata += length;
    }
    out.emplace_back(std::move(pair[0]), std::move(pair[1]));
  }
  return out;
}

std::string_view ExtensionName(const std::vector<std::pair<std::string, std::string>>& metadata) {
  for (const auto& [key, value] : metadata) {
    if (key == "ARROW:extension:name") return value;
  }
  return {};
}

LeafType Integer(int8_t width, bool is_signed, WriteConversion conversion) {
  LeafType leaf;
  leaf.physical = width == 64 ? PhysicalType::kInt64 : PhysicalType::kInt32;
  leaf.logical.kind = LogicalKind::kInteger;
  leaf.logical.bit_width = width;
  leaf.logical.is_signed = is_signed;
  leaf.conversion = conversion;
  return leaf;
}

LeafType Temporal(LogicalKind kind, TimeUnit unit, bool utc, WriteConversion conversion) {
  LeafType leaf;
  leaf.physical =
      conversion == WriteConversion::kInt64 || conversion == WriteConversion::kSecondsToMillis64
          ? PhysicalType::kInt64
          : PhysicalType::kInt32;
  leaf.logical.kind = kind;
  leaf.logical.unit = unit;
  leaf.logical.adjusted_to_utc = utc;
  leaf.conversion = conversion;
  return leaf;
}

// The fewest bytes of two's complement that hold `precision` decimal digits.
int32_t DecimalBytes(int32_t precision) {
  int32_t bytes = 1;
  // 10^precision - 1 must fit below 2^(8*bytes-1): compare digit counts through log10(2).
  while (static_cast<double>(8 * bytes - 1) * 0.30102999566398119521 < precision) ++bytes;
  return bytes;
}

absl::StatusOr<LeafType> Decimal(std::string_view params, std::string_view name) {
  // "P,S" or "P,S,W".
  const size_t comma = params.find(',');
  if (comma == std::string_view::npos) return BadField(name, "a decimal without a scale");
  std::string_view rest = params.substr(comma + 1);
  int64_t width = 128;
  const size_t second = rest.find(',');
  if (second != std::string_view::npos) {
    const std::optional<int64_t> parsed = ParseNumber(rest.substr(second + 1));
    if (!parsed || (*parsed != 32 && *parsed != 64 && *parsed != 128 && *parsed != 256)) {
      return BadField(name, "a decimal of an unknown bit width");
    }
    width = *parsed;
    rest = rest.substr(0, second);
  }
  const std::optional<int64_t> precision = ParseNumber(params.substr(0, comma), 1);
  // A negative scale has no Parquet form (the format's scale is at least 0).
  const std::optional<int64_t> scale = ParseNumber(rest);
  if (!precision || !scale || *precision > 76 || *scale > *precision) {
    return BadField(name, "a decimal whose precision or scale Parquet cannot hold");
  }
  LeafType leaf;
  leaf.logical.kind = LogicalKind::kDecimal;
  leaf.logical.precision = static_cast<int32_t>(*precision);
  leaf.logical.scale = static_cast<int32_t>(*scale);
  leaf.source_width = static_cast<int32_t>(width / 8);
  if (*precision <= 9) {
    leaf.physical = PhysicalType::kInt32;
    leaf.conversion = WriteConversion::kDecimalToInt32;
  } else if (*precision <= 18) {
    leaf.physical = PhysicalType::kInt64;
    leaf.conversion = WriteConversion::kDecimalToInt64;
  } else {
    leaf.physical = PhysicalType::kFixedLenByteArray;
    leaf.decimal_bytes = DecimalBytes(leaf.logical.precision);
    leaf.type_length = leaf.decimal_bytes;
    leaf.conversion = WriteConversion::kDecimalToBytes;
  }
  if (leaf.source_width < 16 && leaf.decimal_bytes > leaf.source_width) {
    return BadField(name, "a decimal whose precision passes its bit width");
  }
  return leaf;
}

TimeUnit UnitOf(char unit) {
  return unit == 'm' ? TimeUnit::kMillis : unit == 'u' ? TimeUnit::kMicros : TimeUnit::kNanos;
}

// The Parquet type of a leaf of Arrow format `format`.
absl::StatusOr<LeafType> MapLeaf(std::string_view format, std::string_view extension,
                                 std::string_view name) {
  LeafType leaf;
  if (format.size() == 1) {
    switch (format[0]) {
      case 'n':
        leaf.logical.kind = LogicalKind::kNull;
        return leaf;
      case 'b':
        leaf.physical = PhysicalType::kBoolean;
        leaf.conversion = WriteConversion::kBoolean;
        return leaf;
      case 'c':
        return Integer(8, true, WriteConversion::kInt8ToInt32);
      case 'C':
        return Integer(8, false, WriteConversion::kUInt8ToInt32);
      case 's':
        return Integer(16, true, WriteConversion::kInt16ToInt32);
      case 'S':
        return Integer(16, false, WriteConversion::kUInt16ToInt32);
      case 'i':
        leaf.conversion = WriteConversion::kInt32;
        return leaf;
      case 'I':
        return Integer(32, false, WriteConversion::kInt32);
      case 'l':
        leaf.physical = PhysicalType::kInt64;
        leaf.conversion = WriteConversion::kInt64;
        return leaf;
      case 'L':
        return Integer(64, false, WriteConversion::kInt64);
      case 'e':
        leaf.physical = PhysicalType::kFixedLenByteArray;
        leaf.type_length = 2;
        leaf.logical.kind = LogicalKind::kFloat16;
        leaf.conversion = WriteConversion::kFixedSize;
        leaf.source_width = 2;
        return leaf;
      case 'f':
        leaf.physical = PhysicalType::kFloat;
        leaf.conversion = WriteConversion::kFloat;
        return leaf;
      case 'g':
        leaf.physical = PhysicalType::kDouble;
        leaf.conversion = WriteConversion::kDouble;
        return leaf;
      case 'u':
      case 'U':
      case 'z':
      case 'Z':
        leaf.physical = PhysicalType::kByteArray;
        leaf.conversion = (format[0] == 'u' || format[0] == 'z') ? WriteConversion::kBinary
                                                                 : WriteConversion::kLargeBinary;
        if (format[0] == 'u' || format[0] == 'U') {
          leaf.logical.kind = extension == "arrow.json" ? LogicalKind::kJson : LogicalKind::kString;
        }
        return leaf;
      default:
        break;
    }
  }
  if (format == "vu" || format == "vz") {
    leaf.physical = PhysicalType::kByteArray;
    leaf.conversion = WriteConversion::kBinaryView;
    if (format == "vu") {
      leaf.logical.kind = extension == "arrow.json" ? LogicalKind::kJson : LogicalKind::kString;
    }
    return leaf;
  }
  if (format.starts_with("w:")) {
    const std::optional<int64_t> width = ParseNumber(format.substr(2), 1);
    if (!width || *width > INT32_MAX) return BadField(name, "a fixed-size binary of no width");
    leaf.physical = PhysicalType::kFixedLenByteArray;
    leaf.type_length = static_cast<int>(*width);
    leaf.conversion = WriteConversion::kFixedSize;
    leaf.source_width = static_cast<int32_t>(*width);
    if (extension == "arrow.uuid" && *width == 16) leaf.logical.kind = LogicalKind::kUuid;
    return leaf;
  }
  if (format.starts_with("d:")) return Decimal(format.substr(2), name);
  if (format == "tdD") {
    return Temporal(LogicalKind::kDate, TimeUnit::kMillis, false, WriteConversion::kInt32);
  }
  if (format == "tdm") {
    return Temporal(LogicalKind::kDate, TimeUnit::kMillis, false, WriteConversion::kDate64ToDays);
  }
  if (format == "tts") {
    return Temporal(LogicalKind::kTime, TimeUnit::kMillis, false,
                    WriteConversion::kSecondsToMillis32);
  }
  if (format == "ttm") {
    return Temporal(LogicalKind::kTime, TimeUnit::kMillis, false, WriteConversion::kInt32);
  }
  if (format == "ttu" || format == "ttn") {
    return Temporal(LogicalKind::kTime, UnitOf(format[2]), false, WriteConversion::kInt64);
  }
  if (format.size() >= 4 && format.starts_with("ts") && format[3] == ':' &&
      std::string_view("smun").find(format[2]) != std::string_view::npos) {
    const bool utc = format.size() > 4;  // a time zone: instants, adjusted to UTC
    if (format[2] == 's') {
      return Temporal(LogicalKind::kTimestamp, TimeUnit::kMillis, utc,
                      WriteConversion::kSecondsToMillis64);
    }
    return Temporal(LogicalKind::kTimestamp, UnitOf(format[2]), utc, WriteConversion::kInt64);
  }
  if (format.size() == 3 && format.starts_with("tD") &&
      std::string_view("smun").find(format[2]) != std::string_view::npos) {
    leaf.physical = PhysicalType::kInt64;
    leaf.conversion = WriteConversion::kInt64;
    return leaf;
  }
  return BadField(
      name, absl::StrCat("type '", std::string(format), "' has no Parquet form pqpage writes"));
}

bool IsIndexFormat(std::string_view format) {
  return format.size() == 1 &&
         std::string_view("cCsSiIlL").find(format[0]) != std::string_view::npos;
}

class Planner {
 public:
  absl::Status Field(const ArrowSchema& arrow, int depth, WriteNode* node,
                     StoredArrowField* stored) {
    if (depth > 64) return absl::InvalidArgumentError("Arrow schema nests deeper than 64 levels");
    if (arrow.format == nullptr || arrow.release == nullptr) {
      return absl::InvalidArgumentError("Arrow schema has a released or empty field");
    }
    node->name = arrow.name == nullptr ? "" : arrow.name;
    node->nullable = (arrow.flags & ARROW_FLAG_NULLABLE) != 0 && !required_;
    required_ = false;
    stored->name = node->name;
    stored->nullable = node->nullable;
    stored->dictionary_ordered = (arrow.flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0;
    stored->map_keys_sorted = (arrow.flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
    PQPAGE_ASSIGN_OR_RETURN(stored->metadata, ReadMetadata(arrow.metadata, node->name));
    if (arrow.n_children < 0 || (arrow.n_children > 0 && arrow.children == nullptr)) {
      return BadField(node->name, "a negative child count or no children array");
    }
    const ArrowSchema* value_type = &arrow;
    if (arrow.dictionary != nullptr) {
      if (!IsIndexFormat(arrow.format)) return BadField(node->name, "a dictionary index type");
      node->dictionary_index = arrow.format;
      stored->dictionary_index = arrow.format;
      value_type = arrow.dictionary;
      if (value_type->format == nullptr || value_type->n_children != 0) {
        return BadField(node->name, "a dictionary of a nested or missing value type");
      }
    }
    const std::string_view format = value_type->format;
    stored->format = format;
    // The C interface may spell decimal128's default width ("d:21,1,128", as DuckDB does); the
    // stored schema takes the spelling without it.
    if (format.starts_with("d:") && format.ends_with(",128") &&
        std::count(format.begin(), format.end(), ',') == 2) {
      stored->format = format.substr(0, format.size() - 4);
    }
    using Kind = WriteNode::Kind;
    if (format == "+s") {
      node->kind = Kind::kStruct;
      if (arrow.n_children == 0) {
        return BadField(node->name, "a struct without fields has no Parquet form");
      }
    } else if (format == "+l" || format == "+L" || format == "+vl" || format == "+vL" ||
               format.starts_with("+w:")) {
      node->kind = format == "+l"    ? Kind::kList
                   : format == "+L"  ? Kind::kLargeList
                   : format == "+vl" ? Kind::kListView
                   : format == "+vL" ? Kind::kLargeListView
                                     : Kind::kFixedSizeList;
      if (node->kind == Kind::kFixedSizeList) {
        const std::optional<int64_t> size = ParseNumber(format.substr(3), 0);
        if (!size) return BadField(node->name, "a fixed-size list of no size");
        node->list_size = *size;
      }
      if (arrow.n_children != 1) return BadField(node->name, "a list without one child");
    } else if (format == "+m") {
      node->kind = Kind::kMap;
      const ArrowSchema* entries = arrow.n_children == 1 ? arrow.children[0] : nullptr;
      if (entries == nullptr || entries->format == nullptr ||
          std::string_view(entries->format) != "+s" || entries->n_children != 2) {
        return BadField(node->name, "a map without an entries struct of key and value");
      }
    } else if (arrow.n_children != 0) {
      return BadField(node->name, absl::StrCat("type '", std::string(format), "' with children"));
    } else {
      PQPAGE_ASSIGN_OR_RETURN(const LeafType leaf,
                              MapLeaf(format, ExtensionName(stored->metadata), node->name));
      node->kind = Kind::kLeaf;
      node->conversion = leaf.conversion;
      node->source_width = leaf.source_width;
      node->decimal_bytes = leaf.decimal_bytes;
      if (leaf.logical.kind == LogicalKind::kNull) node->nullable = true;
      node->column = static_cast<int>(paths_.size());
      paths_.push_back(open_path_);
      paths_.back().push_back(node);
      child_indices_.push_back(open_children_);
      builder_.AddLogical(parquet_name_,
                          node->nullable ? Repetition::kOptional : Repetition::kRequired,
                          leaf.physical, leaf.type_length, leaf.logical);
      return absl::OkStatus();
    }
    return Nested(arrow, depth, node, stored);
  }

  absl::StatusOr<WritePlan> Finish(std::vector<WriteNode> fields,
                                   std::vector<StoredArrowField> stored) {
    WritePlan plan;
    PQPAGE_ASSIGN_OR_RETURN(plan.schema, builder_.Build());
    plan.fields = std::move(fields);  // the nodes' addresses stay: the vector's buffer moves
    plan.stored_fields = std::move(stored);
    plan.paths = std::move(paths_);
    plan.child_indices = std::move(child_indices_);
    return plan;
  }

  std::string parquet_name_;
  std::vector<int> open_children_;

 private:
  absl::Status Nested(const ArrowSchema& arrow, int depth, WriteNode* node,
                      StoredArrowField* stored) {
    using Kind = WriteNode::Kind;
    const Repetition repetition = node->nullable ? Repetition::kOptional : Repetition::kRequired;
    node->children.resize(static_cast<size_t>(arrow.n_children));
    stored->children.resize(static_cast<size_t>(arrow.n_children));
    open_path_.push_back(node);
    if (node->kind == Kind::kStruct) {
      builder_.BeginGroup(parquet_name_, repetition);
      for (int64_t i = 0; i < arrow.n_children; ++i) {
        PQPAGE_RETURN_IF_ERROR(Child(arrow, i, depth, node, stored, ""));
      }
      builder_.EndGroup();
    } else if (node->kind == Kind::kMap) {
      builder_.BeginGroup(parquet_name_, repetition, "MAP");
      builder_.BeginGroup("key_value", Repetition::kRepeated);
      // The entries struct is a step of its own: its two children follow it.
      WriteNode& entries = node->children[0];
      StoredArrowField& stored_entries = stored->children[0];
      const ArrowSchema& entries_type = *arrow.children[0];
      entries.kind = Kind::kStruct;
      entries.name = entries_type.name == nullptr ? "entries" : entries_type.name;
      entries.nullable = false;
      stored_entries.name = entries.name;
      stored_entries.nullable = false;
      stored_entries.format = "+s";
      PQPAGE_ASSIGN_OR_RETURN(stored_entries.metadata,
                              ReadMetadata(entries_type.metadata, entries.name));
      entries.children.resize(2);
      stored_entries.children.resize(2);
      open_children_.push_back(0);
      open_path_.push_back(&entries);
      // A map's keys are never null (the Arrow format); Parquet's key is required.
      required_ = true;
      PQPAGE_RETURN_IF_ERROR(Child(entries_type, 0, depth + 1, &entries, &stored_entries, "key"));
      PQPAGE_RETURN_IF_ERROR(Child(entries_type, 1, depth + 1, &entries, &stored_entries, "value"));
      open_path_.pop_back();
      open_children_.pop_back();
      builder_.EndGroup();
      builder_.EndGroup();
    } else {
      builder_.BeginGroup(parquet_name_, repetition, "LIST");
      builder_.BeginGroup("list", Repetition::kRepeated);
      PQPAGE_RETURN_IF_ERROR(Child(arrow, 0, depth, node, stored, "element"));
      builder_.EndGroup();
      builder_.EndGroup();
    }
    open_path_.pop_back();
    return absl::OkStatus();
  }

  // Plans child `i` of `arrow`, named `parquet_name` in Parquet ("" keeps its Arrow name).
  absl::Status Child(const ArrowSchema& arrow, int64_t i, int depth, WriteNode* node,
                     StoredArrowField* stored, std::string_view parquet_name) {
    const ArrowSchema* child = arrow.children[i];
    if (child == nullptr) return BadField(node->name, "a missing child");
    parquet_name_ = !parquet_name.empty()    ? std::string(parquet_name)
                    : child->name == nullptr ? std::string()
                                             : std::string(child->name);
    open_children_.push_back(static_cast<int>(i));
    PQPAGE_RETURN_IF_ERROR(Field(*child, depth + 1, &node->children[static_cast<size_t>(i)],
                                 &stored->children[static_cast<size_t>(i)]));
    open_children_.pop_back();
    return absl::OkStatus();
  }

  Schema::Builder builder_;
  bool required_ = false;  // the next field is written REQUIRED whatever its nullability
  std::vector<const WriteNode*> open_path_;
  std::vector<std::vector<const WriteNode*>> paths_;
  std::vector<std::vector<int>> child_indices_;
};

}  // namespace

absl::StatusOr<WritePlan> PlanArrowWrite(const ArrowSchema& schema) {
  if (schema.release == nullptr || schema.format == nullptr ||
      std::string_view(schema.format) != "+s") {
    return absl::InvalidArgumentError("the batches' Arrow schema is not a struct (\"+s\")");
  }
  if (schema.n_children < 0 || (schema.n_children > 0 && schema.children == nullptr)) {
    return absl::InvalidArgumentError("the batches' Arrow schema has no children array");
  }
  Planner planner;
  std::vector<WriteNode> fields(static_cast<size_t>(schema.n_children));
  std::vector<StoredArrowField> stored(fields.size());
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const ArrowSchema* child = schema.children[i];
    if (child == nullptr) return absl::InvalidArgumentError("the batches' schema lacks a field");
    planner.parquet_name_ = child->name == nullptr ? "" : child->name;
    planner.open_children_ = {static_cast<int>(i)};
    PQPAGE_RETURN_IF_ERROR(
        planner.Field(*child, 1, &fields[static_cast<size_t>(i)], &stored[static_cast<size_t>(i)]));
  }
  using Metadata = std::vector<std::pair<std::string, std::string>>;
  PQPAGE_ASSIGN_OR_RETURN(Metadata metadata, ReadMetadata(schema.metadata, "(schema)"));
  PQPAGE_ASSIGN_OR_RETURN(WritePlan plan, planner.Finish(std::move(fields), std::move(stored)));
  plan.schema_metadata = std::move(metadata);
  return plan;
}

}  // namespace pqpage::arrow_internal
