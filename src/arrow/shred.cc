#include "arrow/shred.h"

#include <numeric>
#include <string>

#include "absl/strings/str_cat.h"
#include "pqpage/status_macros.h"

namespace pqpage::arrow_internal {
namespace {

using Kind = WriteNode::Kind;

absl::Status Malformed(const WriteNode& node, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Arrow array of field '", node.name, "': ", std::string(why)));
}

// Buffers an array of `node`'s kind has before any variadic ones.
int64_t BufferCount(const WriteNode& node) {
  switch (node.kind) {
    case Kind::kStruct:
    case Kind::kFixedSizeList:
      return 1;
    case Kind::kList:
    case Kind::kLargeList:
    case Kind::kMap:
      return 2;
    case Kind::kListView:
    case Kind::kLargeListView:
      return 3;
    case Kind::kLeaf:
      break;
  }
  if (!node.dictionary_index.empty()) return 2;
  switch (node.conversion) {
    case WriteConversion::kNull:
      return 0;
    case WriteConversion::kBinary:
    case WriteConversion::kLargeBinary:
    case WriteConversion::kBinaryView:
      return 3;
    default:
      return 2;
  }
}

absl::Status CheckArray(const WriteNode& node, const ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return Malformed(node, "missing or released");
  if (array->length < 0 || array->offset < 0 || array->length > INT64_MAX - array->offset) {
    return Malformed(node, "a negative length or offset");
  }
  if (array->n_buffers < BufferCount(node) || (array->n_buffers > 0 && array->buffers == nullptr)) {
    return Malformed(node, absl::StrCat("fewer than ", BufferCount(node), " buffers"));
  }
  const int64_t children =
      node.kind == Kind::kLeaf ? 0 : static_cast<int64_t>(node.children.size());
  if (array->n_children != children || (children > 0 && array->children == nullptr)) {
    return Malformed(node, absl::StrCat(array->n_children, " children, not ", children));
  }
  if (!node.dictionary_index.empty() && array->dictionary == nullptr) {
    return Malformed(node, "a dictionary type without a dictionary");
  }
  // Buffers this walk reads whenever the array has slots.
  if (array->length > 0) {
    const bool needs_offsets = node.kind == Kind::kList || node.kind == Kind::kLargeList ||
                               node.kind == Kind::kMap || node.kind == Kind::kListView ||
                               node.kind == Kind::kLargeListView;
    if (needs_offsets && array->buffers[1] == nullptr) return Malformed(node, "no offsets");
    if ((node.kind == Kind::kListView || node.kind == Kind::kLargeListView) &&
        array->buffers[2] == nullptr) {
      return Malformed(node, "no sizes");
    }
  }
  return absl::OkStatus();
}

// The validity bitmap to consult, or nullptr when every slot holds a value.
const void* Validity(const ArrowArray& array) {
  if (array.n_buffers == 0) return nullptr;
  return array.null_count == 0 ? nullptr : array.buffers[0];
}

// The child array of `array` that step `index` takes, checked against the slots it must cover.
absl::StatusOr<const ArrowArray*> ChildOf(const WriteNode& parent, const ArrowArray& array,
                                          int index, const WriteNode& child_node,
                                          int64_t min_length) {
  const ArrowArray* child = array.children[index];
  PQPAGE_RETURN_IF_ERROR(CheckArray(child_node, child));
  if (child->length < min_length) {
    return Malformed(parent, absl::StrCat("child '", child_node.name, "' has ", child->length,
                                          " slots, fewer than the ", min_length, " it needs"));
  }
  return child;
}

template <typename Offset>
Offset Load(const void* buffer, int64_t i) {
  return static_cast<const Offset*>(buffer)[i];
}

// The child range of list slot `slot` (the array's offset added).
template <typename Offset>
void ListRange(const WriteNode& node, const ArrowArray& array, int64_t slot, int64_t* start,
               int64_t* stop) {
  switch (node.kind) {
    case Kind::kFixedSizeList:
      *start = slot * node.list_size;
      *stop = *start + node.list_size;
      return;
    case Kind::kListView:
    case Kind::kLargeListView:
      *start = Load<Offset>(array.buffers[1], slot);
      *stop = *start + Load<Offset>(array.buffers[2], slot);
      return;
    default:
      *start = Load<Offset>(array.buffers[1], slot);
      *stop = Load<Offset>(array.buffers[1], slot + 1);
  }
}

// Expands each live entry of `out` into its list's elements.
template <typename Offset>
absl::Status ExpandList(const WriteNode& node, const ArrowArray& array, int64_t child_length,
                        int16_t list_repetition, bool has_repetition, ShreddedLeaf* out) {
  out->next_positions.clear();
  out->next_definitions.clear();
  out->next_repetitions.clear();
  const size_t count = out->positions.size();
  out->next_positions.reserve(count);
  out->next_definitions.reserve(count);
  out->next_repetitions.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    const int64_t index = out->positions[k];
    const int16_t definition = out->definition_levels[k];
    const int16_t repetition = has_repetition ? out->repetition_levels[k] : 0;
    int64_t start = 0;
    int64_t stop = 0;
    if (index >= 0) ListRange<Offset>(node, array, array.offset + index, &start, &stop);
    if (start < 0 || stop < start || stop > child_length) {
      return Malformed(node, absl::StrCat("list slot ", index, " spans [", start, ", ", stop,
                                          ") of a child of ", child_length, " slots"));
    }
    if (start == stop) {  // null, empty, or already ended above: one level, no value
      out->next_positions.push_back(-1);
      out->next_definitions.push_back(definition);
      out->next_repetitions.push_back(repetition);
      continue;
    }
    for (int64_t element = start; element < stop; ++element) {
      out->next_positions.push_back(element);
      out->next_definitions.push_back(static_cast<int16_t>(definition + 1));
      out->next_repetitions.push_back(element == start ? repetition : list_repetition);
    }
  }
  out->positions.swap(out->next_positions);
  out->definition_levels.swap(out->next_definitions);
  if (has_repetition) out->repetition_levels.swap(out->next_repetitions);
  return absl::OkStatus();
}

// Whether dictionary-encoded slot `slot` refers to a null dictionary entry.
bool DictionaryEntryIsNull(const WriteNode& node, const ArrowArray& indices, int64_t slot) {
  const ArrowArray& dictionary = *indices.dictionary;
  const void* validity = Validity(dictionary);
  if (validity == nullptr) return false;
  // Unsigned 64-bit indices past INT64_MAX read negative: outside, as they are.
  const auto entry = VisitIndexType(node.dictionary_index[0], [&](auto type) {
    using Index = decltype(type);
    return static_cast<int64_t>(Load<Index>(indices.buffers[1], slot));  // NOLINT: a number
  });
  // An index outside the dictionary is refused when the values are gathered.
  if (entry < 0 || entry >= dictionary.length) return false;
  return !BitIsSet(validity, dictionary.offset + entry);
}

// ShredLeaf for a path without lists: each row is one level, and a row's slot in every array
// on the path is the row shifted by the offsets of the structs above it, so the walk needs no
// per-entry positions. Rows whose every level is valid stay a dense range of the leaf.
// @return false (having written nothing) for a leaf this path does not handle: the null type, and
// dictionaries with null entries.
absl::StatusOr<bool> ShredFlat(const ArrowArray& batch, int64_t begin, int64_t end,
                               const std::vector<const WriteNode*>& path,
                               const std::vector<int>& child_indices, int16_t max_definition_level,
                               ShreddedLeaf* out) {
  const WriteNode& leaf_node = *path.back();
  if (leaf_node.conversion == WriteConversion::kNull) return false;
  const auto rows = static_cast<size_t>(end - begin);
  out->definition_levels.assign(max_definition_level > 0 ? rows : 0, 0);
  out->repetition_levels.clear();
  const ArrowArray* array = &batch;
  int64_t first = batch.offset + begin;  // the first row's logical slot in `array`'s child
  int16_t nullable_steps = 0;
  bool any_null = false;
  for (size_t step = 0; step < path.size(); ++step) {
    const WriteNode& node = *path[step];
    PQPAGE_ASSIGN_OR_RETURN(
        array, ChildOf(step == 0 ? node : *path[step - 1], *array, child_indices[step], node,
                       first + static_cast<int64_t>(rows)));
    const void* validity = Validity(*array);
    const int64_t slot = array->offset + first;
    if (node.nullable) {
      // A row reaches this level's definition when every nullable level above it was valid.
      int16_t* definitions = out->definition_levels.data();
      const int16_t above = nullable_steps++;
      if (validity == nullptr) {
        for (size_t r = 0; r < rows; ++r) definitions[r] += definitions[r] == above;
      } else {
        any_null = true;
        // Branch-free: nulls fall anywhere, and a mispredicted branch per row costs more.
        for (size_t r = 0; r < rows; ++r) {
          definitions[r] += static_cast<int16_t>(
              static_cast<int>(definitions[r] == above) &
              static_cast<int>(BitIsSet(validity, slot + static_cast<int64_t>(r))));
        }
      }
    } else if (validity != nullptr) {
      for (size_t r = 0; r < rows; ++r) {
        const bool reached =
            max_definition_level == 0 || out->definition_levels[r] == nullable_steps;
        if (reached && !BitIsSet(validity, slot + static_cast<int64_t>(r))) {
          return Malformed(node, "a null in a field that is not nullable");
        }
      }
    }
    if (node.kind == Kind::kStruct) first += array->offset;
  }
  if (!leaf_node.dictionary_index.empty() && Validity(*array->dictionary) != nullptr) {
    return false;
  }
  const int64_t leaf_first = array->offset + first;
  out->leaf = array;
  if (!any_null) {
    out->dense_begin = leaf_first;
    out->positions.clear();
    out->dense_count = static_cast<int64_t>(rows);
    return true;
  }
  out->dense_begin = -1;
  out->positions.resize(rows);
  int64_t* positions = out->positions.data();
  const int16_t* definitions = out->definition_levels.data();
  size_t present = 0;
  for (size_t r = 0; r < rows; ++r) {  // branch-free compaction
    positions[present] = leaf_first + static_cast<int64_t>(r);
    present += static_cast<size_t>(definitions[r] == max_definition_level);
  }
  out->positions.resize(present);
  return true;
}

}  // namespace

absl::Status ShredLeaf(const ArrowArray& batch, int64_t begin, int64_t end,
                       const std::vector<const WriteNode*>& path,
                       const std::vector<int>& child_indices, int16_t max_definition_level,
                       int16_t max_repetition_level, ShreddedLeaf* out) {
  if (max_repetition_level == 0) {
    PQPAGE_ASSIGN_OR_RETURN(const bool done, ShredFlat(batch, begin, end, path, child_indices,
                                                       max_definition_level, out));
    if (done) return absl::OkStatus();
  }
  out->dense_begin = -1;
  const bool has_repetition = max_repetition_level > 0;
  const int64_t rows = end - begin;
  // Entries start as the batch's rows, as slots of the top-level field's array.
  out->positions.resize(static_cast<size_t>(rows));
  std::iota(out->positions.begin(), out->positions.end(), batch.offset + begin);
  out->definition_levels.assign(static_cast<size_t>(rows), 0);
  out->repetition_levels.assign(has_repetition ? static_cast<size_t>(rows) : 0, 0);

  const ArrowArray* array = &batch;
  int16_t repetition = 0;
  for (size_t step = 0; step < path.size(); ++step) {
    const WriteNode& node = *path[step];
    // The slots the entries point at must be slots of the child.
    int64_t needed = array->offset + array->length;
    if (step == 0) needed = batch.offset + end;
    if (step > 0 && path[step - 1]->kind != Kind::kStruct) needed = 0;  // lists check per slot
    PQPAGE_ASSIGN_OR_RETURN(array, ChildOf(step == 0 ? node : *path[step - 1], *array,
                                           child_indices[step], node, needed));
    // Entries are now the array's logical slots; nulls end here.
    const void* validity = Validity(*array);
    const bool dictionary_nulls = node.kind == Kind::kLeaf && !node.dictionary_index.empty() &&
                                  Validity(*array->dictionary) != nullptr;
    const bool all_null = node.kind == Kind::kLeaf && node.conversion == WriteConversion::kNull;
    if (node.nullable) {
      for (size_t k = 0; k < out->positions.size(); ++k) {
        const int64_t index = out->positions[k];
        if (index < 0) continue;
        const int64_t slot = array->offset + index;
        if (all_null || (validity != nullptr && !BitIsSet(validity, slot)) ||
            (dictionary_nulls && DictionaryEntryIsNull(node, *array, slot))) {
          out->positions[k] = -1;
        } else {
          ++out->definition_levels[k];
        }
      }
    } else if (validity != nullptr || all_null) {
      for (const int64_t index : out->positions) {
        if (index >= 0 && (all_null || !BitIsSet(validity, array->offset + index))) {
          return Malformed(node, "a null in a field that is not nullable");
        }
      }
    }
    switch (node.kind) {
      case Kind::kStruct:
        for (int64_t& index : out->positions) {
          if (index >= 0) index += array->offset;
        }
        break;
      case Kind::kLeaf:
        break;
      default: {
        ++repetition;
        const WriteNode& child_node = node.children[0];
        const ArrowArray* child = array->children[0];
        PQPAGE_RETURN_IF_ERROR(CheckArray(child_node, child));
        const bool large = node.kind == Kind::kLargeList || node.kind == Kind::kLargeListView;
        if (node.kind == Kind::kFixedSizeList &&
            (array->offset + array->length) >
                (node.list_size == 0 ? INT64_MAX : child->length / node.list_size)) {
          return Malformed(node, "a fixed-size list whose child is too short");
        }
        PQPAGE_RETURN_IF_ERROR(large ? ExpandList<int64_t>(node, *array, child->length, repetition,
                                                           has_repetition, out)
                                     : ExpandList<int32_t>(node, *array, child->length, repetition,
                                                           has_repetition, out));
        break;
      }
    }
  }
  if (repetition != max_repetition_level) {
    return absl::InternalError("shredding path and column disagree on repetition");
  }
  // Live entries are the present values; every other entry already holds its level.
  size_t present = 0;
  for (size_t k = 0; k < out->positions.size(); ++k) {
    if (out->positions[k] < 0) continue;
    if (out->definition_levels[k] != max_definition_level) {
      return absl::InternalError("shredding path and column disagree on definition");
    }
    out->positions[present++] = out->positions[k] + array->offset;
  }
  out->positions.resize(present);
  if (max_definition_level == 0) out->definition_levels.clear();
  out->leaf = array;
  return absl::OkStatus();
}

}  // namespace pqpage::arrow_internal
