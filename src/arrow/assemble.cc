#include "arrow/assemble.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "arrow/slot_kernels.h"
#include "pqpage/status_macros.h"
#include "pqpage/types.h"

namespace pqpage::arrow_internal {
namespace {

// A leaf batch's levels, with the levels a column does not store read as their only value.
class Levels {
 public:
  Levels(const LeafBatch& batch, const ColumnDescriptor& column)
      : definitions_(batch.definitions.empty() ? nullptr : batch.definitions.data()),
        repetitions_(batch.repetitions.empty() ? nullptr : batch.repetitions.data()),
        count_(batch.levels),
        max_definition_(column.max_definition_level) {}
  int64_t count() const { return count_; }
  int16_t definition(int64_t i) const {
    return definitions_ == nullptr ? max_definition_ : definitions_[i];
  }
  int16_t repetition(int64_t i) const { return repetitions_ == nullptr ? 0 : repetitions_[i]; }

 private:
  const int16_t* definitions_;
  const int16_t* repetitions_;
  int64_t count_;
  int16_t max_definition_;
};

// Collects a validity bitmap, allocated at the first null.
class ValidityBuilder {
 public:
  explicit ValidityBuilder(int64_t capacity) : capacity_(capacity) {}
  void Append(bool valid) {
    if (!valid) {
      if (nulls_ == 0) {
        bits_.Resize(static_cast<size_t>((capacity_ + 7) / 8));
        for (int64_t i = 0; i < length_; ++i) Set(i);
      }
      ++nulls_;
    } else if (nulls_ > 0) {
      Set(length_);
    }
    ++length_;
  }
  int64_t length() const { return length_; }
  int64_t nulls() const { return nulls_; }
  ArrowBuffer Finish() { return std::move(bits_); }

 private:
  void Set(int64_t i) { bits_.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8)); }
  ArrowBuffer bits_;
  int64_t capacity_;
  int64_t length_ = 0;
  int64_t nulls_ = 0;
};

// Julian day of 1970-01-01, and nanoseconds per day: INT96 timestamps count from the former.
constexpr int64_t kJulianEpochDay = 2440588;
constexpr int64_t kNanosPerDay = 86400LL * 1000 * 1000 * 1000;

int64_t Int96ToNanos(const Int96& value) {
  uint64_t nanos_of_day = 0;
  std::memcpy(&nanos_of_day, value.words, 8);
  const auto day = static_cast<int64_t>(value.words[2]) - kJulianEpochDay;
  // Wraps as Arrow C++'s conversion does for days outside int64 nanoseconds.
  return static_cast<int64_t>(static_cast<uint64_t>(day) * static_cast<uint64_t>(kNanosPerDay) +
                              nanos_of_day);
}

// Writes a big-endian two's complement integer of `size` bytes as a little-endian one of `width`.
absl::Status WriteDecimal(const uint8_t* bytes, int32_t size, int32_t width, uint8_t* out) {
  if (size > width) {
    return absl::DataLossError(
        absl::StrCat("a decimal of ", size, " bytes does not fit Arrow's ", width, " bytes"));
  }
  const uint8_t fill = size > 0 && (bytes[0] & 0x80) != 0 ? 0xff : 0x00;
  for (int32_t i = 0; i < size; ++i) out[i] = bytes[size - 1 - i];
  std::memset(out + size, fill, static_cast<size_t>(width - size));
  return absl::OkStatus();
}

absl::Status WriteDecimal(int64_t value, int32_t width, uint8_t* out) {
  if (width < 8) {
    // decimal32 (4 bytes): the value must fit, or it would come out as another number.
    const int64_t limit = int64_t{1} << (width * 8 - 1);
    if (value < -limit || value >= limit) {
      return absl::DataLossError(
          absl::StrCat("decimal value ", value, " does not fit Arrow's ", width, " bytes"));
    }
    std::memcpy(out, &value, static_cast<size_t>(width));  // little-endian: the low bytes
    return absl::OkStatus();
  }
  std::memcpy(out, &value, 8);
  std::memset(out + 8, value < 0 ? 0xff : 0x00, static_cast<size_t>(width - 8));
  return absl::OkStatus();
}

// The slots of a leaf and their validity, found in one pass over its levels: a slot at each level
// whose definition level reaches the field's slot_def, holding the next packed value when the
// level is the column's maximum. Values are taken in order, so a slot's value index never passes
// the slot's own index.
struct LeafSlots {
  int64_t length = 0;
  int64_t nulls = 0;
  ArrowBuffer validity;  // empty when nothing is null
};

// The slots of a leaf whose every level is one (no list above it: slot_def 0), found without a
// per-level walk.
LeafSlots FlatSlots(const LeafBatch& batch, const ColumnDescriptor& column) {
  LeafSlots slots;
  slots.length = batch.levels;
  if (batch.has_validity) {
    // Read as bits already: copied (a bit a row), the last byte's bits past the slots cleared.
    slots.nulls = batch.levels - batch.count;
    if (slots.nulls == 0) return slots;
    slots.validity.Append(batch.validity.data(), static_cast<size_t>((batch.levels + 7) / 8));
    if ((batch.levels & 7) != 0) {
      slots.validity.data()[batch.levels >> 3] &=
          static_cast<uint8_t>((1u << (batch.levels & 7)) - 1);
    }
    return slots;
  }
  if (batch.definitions.empty()) return slots;
  slots.validity.ResizeUninitialized(static_cast<size_t>((batch.levels + 7) / 8));
  const int64_t present = ValidityFromLevels(batch.definitions.data(), batch.levels,
                                             column.max_definition_level, slots.validity.data());
  slots.nulls = batch.levels - present;
  if (slots.nulls == 0) slots.validity = ArrowBuffer();
  return slots;
}

// Calls on_value(slot, value) for each slot holding a value, in order; returns the slots.
template <typename OnValue>
LeafSlots WalkLeaf(const ReadField& field, const LeafBatch& batch, const ColumnDescriptor& column,
                   OnValue&& on_value) {
  LeafSlots slots;
  if (batch.has_validity) {
    const uint8_t* bits = batch.validity.data();
    int64_t value = 0;
    for (int64_t slot = 0; slot < batch.levels; ++slot) {
      if (((bits[slot >> 3] >> (slot & 7)) & 1) != 0) on_value(slot, value++);
    }
    return FlatSlots(batch, column);
  }
  if (batch.definitions.empty()) {
    for (int64_t slot = 0; slot < batch.levels; ++slot) on_value(slot, slot);
    slots.length = batch.levels;
    return slots;
  }
  slots.validity.Resize(static_cast<size_t>((batch.levels + 7) / 8));
  uint8_t* bits = slots.validity.data();
  const int16_t* levels = batch.definitions.data();
  const int16_t max = column.max_definition_level;
  int64_t slot = 0;
  int64_t value = 0;
  for (int64_t i = 0; i < batch.levels; ++i) {
    const int16_t level = levels[i];
    if (level < field.slot_def) continue;
    if (level >= max) {
      bits[slot >> 3] |= static_cast<uint8_t>(1u << (slot & 7));
      on_value(slot, value++);
    }
    ++slot;
  }
  slots.length = slot;
  slots.nulls = slot - value;
  if (slots.nulls == 0) slots.validity = ArrowBuffer();
  return slots;
}

// The slots of a leaf that needs no per-value callback.
LeafSlots SlotsOf(const ReadField& field, const LeafBatch& batch, const ColumnDescriptor& column) {
  if (field.slot_def == 0 || batch.definitions.empty()) return FlatSlots(batch, column);
  LeafSlots slots;
  slots.validity.ResizeUninitialized(static_cast<size_t>((batch.levels + 7) / 8));
  const int64_t present =
      SlotValidity(batch.definitions.data(), batch.levels, field.slot_def,
                   column.max_definition_level, slots.validity.data(), &slots.length);
  slots.nulls = slots.length - present;
  if (slots.nulls == 0) slots.validity = ArrowBuffer();
  return slots;
}

// Fixed-width Arrow values of `width` bytes, each written by write(value_index, out): in order to
// the front of the buffer, then moved to their slots as SameBytes moves them, which spares a
// zero-fill of every slot and a call per slot found by walking the validity.
template <typename Write>
absl::StatusOr<LeafSlots> FillFixed(const ReadField& field, const LeafBatch& batch,
                                    const ColumnDescriptor& column, size_t width, ArrowBuffer& data,
                                    Write&& write) {
  LeafSlots slots = SlotsOf(field, batch, column);
  const int64_t present = slots.length - slots.nulls;
  if (present != batch.count) {
    return absl::InternalError(
        absl::StrCat("a leaf batch of ", batch.count, " values has ", present, " present slots"));
  }
  data.ResizeUninitialized(static_cast<size_t>(slots.length) * width);
  uint8_t* out = data.data();
  for (int64_t value = 0; value < present; ++value) {
    PQPAGE_RETURN_IF_ERROR(write(value, out + static_cast<size_t>(value) * width));
  }
  if (slots.nulls > 0) SpreadToSlots(out, width, slots.validity.data(), slots.length, present);
  return slots;
}

template <typename In, typename Out>
absl::StatusOr<LeafSlots> Narrow(const ReadField& field, LeafBatch& batch,
                                 const ColumnDescriptor& column, ArrowBuffer& data) {
  const In* values = batch.values.As<In>();
  return FillFixed(field, batch, column, sizeof(Out), data, [&](int64_t value, uint8_t* out) {
    const auto narrowed = static_cast<Out>(values[value]);
    std::memcpy(out, &narrowed, sizeof(Out));
    return absl::OkStatus();
  });
}

// INT32 or INT64 decimals, sign extended to the Arrow decimal's width (or, for decimal32, checked
// to fit it).
template <typename In>
absl::StatusOr<LeafSlots> IntegerToDecimal(const ReadField& field, LeafBatch& batch,
                                           const ColumnDescriptor& column, ArrowBuffer& data) {
  const In* values = batch.values.As<In>();
  return FillFixed(field, batch, column, static_cast<size_t>(field.decimal_bytes), data,
                   [&](int64_t value, uint8_t* out) {
                     return WriteDecimal(values[value], field.decimal_bytes, out);
                   });
}

// Values whose Arrow form is their physical form: the batch's buffer becomes the Arrow buffer,
// each value moved (from the back, so none is overwritten before it moves) to its slot.
LeafSlots SameBytes(const ReadField& field, LeafBatch& batch, const ColumnDescriptor& column,
                    size_t width, ArrowBuffer& data) {
  LeafSlots slots = SlotsOf(field, batch, column);
  data = std::move(batch.values);
  if (slots.nulls == 0) return slots;
  data.ResizeUninitialized(static_cast<size_t>(slots.length) * width);
  SpreadToSlots(data.data(), width, slots.validity.data(), slots.length,
                slots.length - slots.nulls);
  return slots;
}

template <typename Offset>
absl::StatusOr<LeafSlots> FillBinary(const ReadField& field, LeafBatch& batch,
                                     const ColumnDescriptor& column, ArrayData& array) {
  LeafSlots slots = SlotsOf(field, batch, column);
  ArrowBuffer offsets;
  offsets.ResizeUninitialized(static_cast<size_t>(slots.length + 1) * sizeof(Offset));
  const int64_t end =
      OffsetsFromLengths(batch.lengths.data(), slots.nulls == 0 ? nullptr : slots.validity.data(),
                         slots.length, offsets.As<Offset>());
  if (end > std::numeric_limits<Offset>::max()) {
    return absl::ResourceExhaustedError(
        "a batch's byte array values pass 2 GiB; read with fewer rows per batch");
  }
  array.buffers.push_back(std::move(offsets));
  array.buffers.push_back(std::move(batch.values));
  return slots;
}

// Byte arrays as a dictionary array: indices (0 under nulls) into the batch's distinct values,
// numbered in the order they first appear.
template <typename Offset, typename Index>
absl::StatusOr<LeafSlots> FillDictionary(const ReadField& field, LeafBatch& batch,
                                         const ColumnDescriptor& column, ArrayData& array) {
  ArrowBuffer indices;
  indices.Resize(static_cast<size_t>(batch.levels) * sizeof(Index));
  auto* out = indices.As<Index>();
  ArrowBuffer offsets;
  ArrowBuffer data;
  const Offset zero = 0;
  offsets.Append(&zero, sizeof(Offset));
  absl::flat_hash_map<absl::string_view, int64_t> ids;
  const auto* bytes = reinterpret_cast<const char*>(batch.values.data());
  const int32_t* lengths = batch.lengths.data();
  int64_t start = 0;  // values are taken in order: a running start finds each one's bytes
  LeafSlots slots = WalkLeaf(field, batch, column, [&](int64_t slot, int64_t value) {
    const absl::string_view text(bytes + start, static_cast<size_t>(lengths[value]));
    start += lengths[value];
    const auto [entry, added] = ids.try_emplace(text, static_cast<int64_t>(ids.size()));
    if (added) {
      data.Append(text.data(), text.size());
      const auto end = static_cast<Offset>(data.size());
      offsets.Append(&end, sizeof(Offset));
    }
    out[slot] = static_cast<Index>(entry->second);
  });
  if (!ids.empty() && ids.size() - 1 > static_cast<size_t>(std::numeric_limits<Index>::max())) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "a batch of '", field.type.name, "' has ", ids.size(),
        " distinct values, more than its dictionary's indices reach; read fewer rows per batch"));
  }
  if (data.size() > static_cast<size_t>(std::numeric_limits<Offset>::max())) {
    return absl::ResourceExhaustedError(
        "a batch's distinct byte array values pass 2 GiB; read with fewer rows per batch");
  }
  indices.Resize(static_cast<size_t>(slots.length) * sizeof(Index));
  ArrayData values;
  values.length = static_cast<int64_t>(ids.size());
  values.buffers.emplace_back();
  values.buffers.push_back(std::move(offsets));
  values.buffers.push_back(std::move(data));
  array.buffers.push_back(std::move(indices));
  array.dictionary.push_back(std::move(values));
  return slots;
}

template <typename Offset>
absl::StatusOr<LeafSlots> FillDictionaryOffsets(const ReadField& field, LeafBatch& batch,
                                                const ColumnDescriptor& column, ArrayData& array) {
  switch (field.dictionary_index[0]) {
    case 'c':
    case 'C':
      return FillDictionary<Offset, int8_t>(field, batch, column, array);
    case 's':
    case 'S':
      return FillDictionary<Offset, int16_t>(field, batch, column, array);
    case 'l':
    case 'L':
      return FillDictionary<Offset, int64_t>(field, batch, column, array);
    default:
      return FillDictionary<Offset, int32_t>(field, batch, column, array);
  }
}

absl::StatusOr<LeafSlots> FillDictionaryOf(const ReadField& field, LeafBatch& batch,
                                           const ColumnDescriptor& column, ArrayData& array) {
  if (field.conversion == ValueConversion::kLargeBinary) {
    return FillDictionaryOffsets<int64_t>(field, batch, column, array);
  }
  return FillDictionaryOffsets<int32_t>(field, batch, column, array);
}

absl::StatusOr<ArrayData> AssembleLeaf(const ReadField& field, LeafBatch& batch,
                                       const ColumnDescriptor& column) {
  ArrayData array;
  ArrowBuffer data;
  LeafSlots slots;
  // The validity bitmap goes first; it is filled in once the slots are known.
  array.buffers.emplace_back();
  if (field.dictionary) {
    PQPAGE_ASSIGN_OR_RETURN(slots, FillDictionaryOf(field, batch, column, array));
    array.length = slots.length;
    array.null_count = slots.nulls;
    array.buffers[0] = std::move(slots.validity);
    return array;
  }
  switch (field.conversion) {
    case ValueConversion::kNull:
      slots = SlotsOf(field, batch, column);
      array.length = slots.length;
      array.null_count = slots.length;
      array.buffers.clear();
      return array;
    case ValueConversion::kBoolean: {
      data.Resize(static_cast<size_t>((batch.levels + 7) / 8));
      const uint8_t* values = batch.values.data();
      uint8_t* bits = data.data();
      slots = WalkLeaf(field, batch, column, [&](int64_t slot, int64_t value) {
        if (values[value] != 0) bits[slot >> 3] |= static_cast<uint8_t>(1u << (slot & 7));
      });
      data.Resize(static_cast<size_t>((slots.length + 7) / 8));
      break;
    }
    case ValueConversion::kInt32:
    case ValueConversion::kFloat:
      slots = SameBytes(field, batch, column, 4, data);
      break;
    case ValueConversion::kInt64:
    case ValueConversion::kDouble:
      slots = SameBytes(field, batch, column, 8, data);
      break;
    case ValueConversion::kFixedSize:
      slots = SameBytes(field, batch, column, static_cast<size_t>(field.fixed_size), data);
      break;
    case ValueConversion::kInt32ToInt8: {
      PQPAGE_ASSIGN_OR_RETURN(slots, (Narrow<int32_t, int8_t>(field, batch, column, data)));
      break;
    }
    case ValueConversion::kInt32ToInt16: {
      PQPAGE_ASSIGN_OR_RETURN(slots, (Narrow<int32_t, int16_t>(field, batch, column, data)));
      break;
    }
    case ValueConversion::kInt96ToNanos: {
      const Int96* values = batch.values.As<Int96>();
      PQPAGE_ASSIGN_OR_RETURN(
          slots, FillFixed(field, batch, column, 8, data, [&](int64_t value, uint8_t* out) {
            const int64_t nanos = Int96ToNanos(values[value]);
            std::memcpy(out, &nanos, 8);
            return absl::OkStatus();
          }));
      break;
    }
    case ValueConversion::kInt32ToDecimal: {
      PQPAGE_ASSIGN_OR_RETURN(slots, IntegerToDecimal<int32_t>(field, batch, column, data));
      break;
    }
    case ValueConversion::kInt64ToDecimal: {
      PQPAGE_ASSIGN_OR_RETURN(slots, IntegerToDecimal<int64_t>(field, batch, column, data));
      break;
    }
    case ValueConversion::kBytesToDecimal: {
      // Values are taken in order, so one running start finds each among the packed bytes.
      int64_t start = 0;
      const uint8_t* bytes = batch.values.data();
      PQPAGE_ASSIGN_OR_RETURN(
          slots, FillFixed(field, batch, column, static_cast<size_t>(field.decimal_bytes), data,
                           [&](int64_t value, uint8_t* out) {
                             const int32_t size = batch.lengths[static_cast<size_t>(value)];
                             absl::Status written =
                                 WriteDecimal(bytes + start, size, field.decimal_bytes, out);
                             start += size;
                             return written;
                           }));
      break;
    }
    case ValueConversion::kBinary: {
      PQPAGE_ASSIGN_OR_RETURN(slots, FillBinary<int32_t>(field, batch, column, array));
      break;
    }
    case ValueConversion::kLargeBinary: {
      PQPAGE_ASSIGN_OR_RETURN(slots, FillBinary<int64_t>(field, batch, column, array));
      break;
    }
  }
  if (field.conversion != ValueConversion::kBinary &&
      field.conversion != ValueConversion::kLargeBinary) {
    array.buffers.push_back(std::move(data));
  }
  array.length = slots.length;
  array.null_count = slots.nulls;
  array.buffers[0] = std::move(slots.validity);
  return array;
}

absl::Status Disagree(const ReadField& field, int64_t expected, int64_t found) {
  return absl::DataLossError(absl::StrCat("the columns under '", field.type.name,
                                          "' disagree on its shape: ", expected,
                                          " entries from one, ", found, " from another"));
}

template <typename Offset>
absl::StatusOr<ArrayData> AssembleList(const ReadField& field, std::vector<LeafBatch>& leaves,
                                       const std::vector<ColumnDescriptor>& columns) {
  const ReadField& element = field.children[0];
  const auto leaf = static_cast<size_t>(field.leaf);
  const Levels levels(leaves[leaf], columns[leaf]);
  const int64_t count = levels.count();
  // Slots are at most the levels: offsets and bits are sized for them, then cut.
  ArrowBuffer offsets;
  offsets.ResizeUninitialized(static_cast<size_t>(count + 1) * sizeof(Offset));
  auto* out = offsets.As<Offset>();
  ArrowBuffer validity;
  validity.ResizeUninitialized(static_cast<size_t>((count + 7) / 8));
  uint8_t* bits = validity.data();
  int64_t slots = 0;
  int64_t nulls = 0;
  int64_t elements = 0;
  uint32_t byte = 0;  // the bits of the slots since the last whole byte
  // Locals, so the loop keeps them in registers, and no branch: each level writes its offset,
  // which the next slot overwrites when the level is not one.
  const int16_t slot_rep = field.slot_rep;
  const int16_t slot_def = field.slot_def;
  const int16_t valid_def = field.valid_def;
  const int16_t element_rep = element.slot_rep;
  const int16_t element_def = element.slot_def;
  for (int64_t i = 0; i < count; ++i) {
    const int16_t definition = levels.definition(i);
    const int16_t repetition = levels.repetition(i);
    const int is_slot =
        static_cast<int>(repetition <= slot_rep) & static_cast<int>(definition >= slot_def);
    const int valid = static_cast<int>(definition >= valid_def) & is_slot;
    out[slots] = static_cast<Offset>(elements);
    nulls += is_slot - valid;
    // The byte being filled is stored at every level, and restarted once full: slots open rows
    // at random, so a branch on the byte boundary would be mispredicted at every few rows.
    byte |= static_cast<uint32_t>(valid) << (slots & 7);
    bits[slots >> 3] = static_cast<uint8_t>(byte);
    slots += is_slot;
    byte &= 0u - static_cast<uint32_t>((slots & 7) != 0);
    elements +=
        static_cast<int>(definition >= element_def) & static_cast<int>(repetition <= element_rep);
  }
  out[slots] = static_cast<Offset>(elements);
  offsets.ResizeUninitialized(static_cast<size_t>(slots + 1) * sizeof(Offset));
  if (nulls == 0) {
    validity = ArrowBuffer();
  } else {
    validity.ResizeUninitialized(static_cast<size_t>((slots + 7) / 8));
  }
  PQPAGE_ASSIGN_OR_RETURN(ArrayData child, AssembleField(element, leaves, columns, elements));
  if (child.length != elements) return Disagree(field, elements, child.length);
  ArrayData array;
  array.length = slots;
  array.null_count = nulls;
  array.buffers.push_back(std::move(validity));
  array.buffers.push_back(std::move(offsets));
  array.children.push_back(std::move(child));
  return array;
}

// A struct without leaves under it: a slot wherever its parent has one, all null if it may be.
ArrayData AssembleEmptyStruct(const ReadField& field, int64_t parent_slots) {
  ArrayData array;
  array.length = parent_slots;
  array.buffers.emplace_back();
  if (field.type.nullable && parent_slots > 0) {
    array.null_count = parent_slots;
    array.buffers[0].Resize(static_cast<size_t>((parent_slots + 7) / 8));
  }
  for (const ReadField& child : field.children) {
    array.children.push_back(AssembleEmptyStruct(child, parent_slots));
  }
  return array;
}

absl::StatusOr<ArrayData> AssembleStruct(const ReadField& field, std::vector<LeafBatch>& leaves,
                                         const std::vector<ColumnDescriptor>& columns,
                                         int64_t parent_slots) {
  if (field.leaf < 0) return AssembleEmptyStruct(field, parent_slots);
  const auto leaf = static_cast<size_t>(field.leaf);
  const Levels levels(leaves[leaf], columns[leaf]);
  ValidityBuilder validity(levels.count());
  for (int64_t i = 0; i < levels.count(); ++i) {
    const int16_t definition = levels.definition(i);
    if (levels.repetition(i) <= field.slot_rep && definition >= field.slot_def) {
      validity.Append(definition >= field.valid_def);
    }
  }
  ArrayData array;
  array.length = validity.length();
  array.null_count = validity.nulls();
  array.buffers.push_back(validity.Finish());
  for (const ReadField& child_field : field.children) {
    PQPAGE_ASSIGN_OR_RETURN(ArrayData child,
                            AssembleField(child_field, leaves, columns, array.length));
    if (child.length != array.length) return Disagree(field, array.length, child.length);
    array.children.push_back(std::move(child));
  }
  return array;
}

}  // namespace

absl::StatusOr<ArrayData> AssembleField(const ReadField& field, std::vector<LeafBatch>& leaves,
                                        const std::vector<ColumnDescriptor>& columns,
                                        int64_t parent_slots) {
  if (field.leaf < 0 && field.kind != ReadField::Kind::kStruct) {
    return absl::DataLossError(absl::StrCat("'", field.type.name, "' has no column to read"));
  }
  switch (field.kind) {
    case ReadField::Kind::kLeaf: {
      const auto leaf = static_cast<size_t>(field.leaf);
      return AssembleLeaf(field, leaves[leaf], columns[leaf]);
    }
    case ReadField::Kind::kStruct:
      return AssembleStruct(field, leaves, columns, parent_slots);
    case ReadField::Kind::kList:
    case ReadField::Kind::kMap:
      if (field.type.format == "+L") return AssembleList<int64_t>(field, leaves, columns);
      return AssembleList<int32_t>(field, leaves, columns);
  }
  return absl::InternalError("unknown field kind");
}

}  // namespace pqpage::arrow_internal
