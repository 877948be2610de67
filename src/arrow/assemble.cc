#include "arrow/assemble.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
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
  bool has_definitions() const { return definitions_ != nullptr; }

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

void WriteDecimal(int64_t value, int32_t width, uint8_t* out) {
  std::memcpy(out, &value, 8);
  std::memset(out + 8, value < 0 ? 0xff : 0x00, static_cast<size_t>(width - 8));
}

// Where each slot of a leaf takes its value: slot i's value is values[i] when `dense` (no null,
// no slot missing), else values[value_of_slot[i]] or none for -1.
struct LeafSlots {
  bool dense = true;
  std::vector<int64_t> value_of_slot;
  int64_t length = 0;
  int64_t nulls = 0;
  ArrowBuffer validity;

  int64_t ValueOf(int64_t slot) const {
    return dense ? slot : value_of_slot[static_cast<size_t>(slot)];
  }
};

LeafSlots FindLeafSlots(const ReadField& field, const LeafBatch& batch,
                        const ColumnDescriptor& column) {
  const Levels levels(batch, column);
  LeafSlots slots;
  if (!levels.has_definitions()) {
    slots.length = batch.levels;
    return slots;
  }
  slots.dense = false;
  slots.value_of_slot.reserve(static_cast<size_t>(levels.count()));
  ValidityBuilder validity(levels.count());
  int64_t next_value = 0;
  for (int64_t i = 0; i < levels.count(); ++i) {
    const int16_t level = levels.definition(i);
    if (level < field.slot_def) continue;
    const bool present = level >= column.max_definition_level;
    slots.value_of_slot.push_back(present ? next_value++ : -1);
    validity.Append(level >= field.valid_def);
  }
  slots.length = validity.length();
  slots.nulls = validity.nulls();
  slots.validity = validity.Finish();
  if (slots.nulls == 0 && slots.length == batch.count) slots.dense = true;
  return slots;
}

// Fixed-width values of `width` bytes, each written by write(value_index, out).
template <typename Write>
absl::Status FillFixed(const LeafSlots& slots, size_t width, ArrowBuffer& data, Write&& write) {
  data.Resize(static_cast<size_t>(slots.length) * width);
  uint8_t* out = data.data();
  for (int64_t slot = 0; slot < slots.length; ++slot, out += width) {
    const int64_t value = slots.ValueOf(slot);
    if (value >= 0) PQPAGE_RETURN_IF_ERROR(write(value, out));
  }
  return absl::OkStatus();
}

template <typename In, typename Out>
absl::Status Narrow(const LeafSlots& slots, LeafBatch& batch, ArrowBuffer& data) {
  const In* values = batch.values.As<In>();
  return FillFixed(slots, sizeof(Out), data, [&](int64_t value, uint8_t* out) {
    const auto narrowed = static_cast<Out>(values[value]);
    std::memcpy(out, &narrowed, sizeof(Out));
    return absl::OkStatus();
  });
}

// Values whose Arrow form is their physical form: the batch's buffer itself when dense.
absl::Status SameBytes(const LeafSlots& slots, LeafBatch& batch, size_t width, ArrowBuffer& data) {
  if (slots.dense) {
    data = std::move(batch.values);
    return absl::OkStatus();
  }
  const uint8_t* values = batch.values.data();
  return FillFixed(slots, width, data, [&](int64_t value, uint8_t* out) {
    std::memcpy(out, values + static_cast<size_t>(value) * width, width);
    return absl::OkStatus();
  });
}

template <typename Offset>
absl::Status FillBinary(const LeafSlots& slots, LeafBatch& batch, ArrayData& array) {
  ArrowBuffer offsets;
  offsets.Resize(static_cast<size_t>(slots.length + 1) * sizeof(Offset));
  auto* out = offsets.As<Offset>();
  int64_t end = 0;
  out[0] = 0;
  for (int64_t slot = 0; slot < slots.length; ++slot) {
    const int64_t value = slots.ValueOf(slot);
    if (value >= 0) end += batch.lengths[static_cast<size_t>(value)];
    if (end > std::numeric_limits<Offset>::max()) {
      return absl::ResourceExhaustedError(
          "a batch's byte array values pass 2 GiB; read with fewer rows per batch");
    }
    out[slot + 1] = static_cast<Offset>(end);
  }
  array.buffers.push_back(std::move(offsets));
  array.buffers.push_back(std::move(batch.values));
  return absl::OkStatus();
}

absl::StatusOr<ArrayData> AssembleLeaf(const ReadField& field, LeafBatch& batch,
                                       const ColumnDescriptor& column) {
  LeafSlots slots = FindLeafSlots(field, batch, column);
  ArrayData array;
  array.length = slots.length;
  if (field.conversion == ValueConversion::kNull) {
    array.null_count = slots.length;
    return array;
  }
  array.null_count = slots.nulls;
  array.buffers.push_back(std::move(slots.validity));
  ArrowBuffer data;
  switch (field.conversion) {
    case ValueConversion::kNull:
      break;
    case ValueConversion::kBoolean: {
      data.Resize(static_cast<size_t>((slots.length + 7) / 8));
      const uint8_t* values = batch.values.data();
      for (int64_t slot = 0; slot < slots.length; ++slot) {
        const int64_t value = slots.ValueOf(slot);
        if (value >= 0 && values[value] != 0) {
          data.data()[slot / 8] |= static_cast<uint8_t>(1u << (slot % 8));
        }
      }
      break;
    }
    case ValueConversion::kInt32:
    case ValueConversion::kFloat:
      PQPAGE_RETURN_IF_ERROR(SameBytes(slots, batch, 4, data));
      break;
    case ValueConversion::kInt64:
    case ValueConversion::kDouble:
      PQPAGE_RETURN_IF_ERROR(SameBytes(slots, batch, 8, data));
      break;
    case ValueConversion::kInt32ToInt8:
      PQPAGE_RETURN_IF_ERROR((Narrow<int32_t, int8_t>(slots, batch, data)));
      break;
    case ValueConversion::kInt32ToInt16:
      PQPAGE_RETURN_IF_ERROR((Narrow<int32_t, int16_t>(slots, batch, data)));
      break;
    case ValueConversion::kInt96ToNanos: {
      const Int96* values = batch.values.As<Int96>();
      PQPAGE_RETURN_IF_ERROR(FillFixed(slots, 8, data, [&](int64_t value, uint8_t* out) {
        const int64_t nanos = Int96ToNanos(values[value]);
        std::memcpy(out, &nanos, 8);
        return absl::OkStatus();
      }));
      break;
    }
    case ValueConversion::kInt32ToDecimal: {
      const int32_t* values = batch.values.As<int32_t>();
      PQPAGE_RETURN_IF_ERROR(FillFixed(slots, static_cast<size_t>(field.decimal_bytes), data,
                                       [&](int64_t value, uint8_t* out) {
                                         WriteDecimal(values[value], field.decimal_bytes, out);
                                         return absl::OkStatus();
                                       }));
      break;
    }
    case ValueConversion::kInt64ToDecimal: {
      const int64_t* values = batch.values.As<int64_t>();
      PQPAGE_RETURN_IF_ERROR(FillFixed(slots, static_cast<size_t>(field.decimal_bytes), data,
                                       [&](int64_t value, uint8_t* out) {
                                         WriteDecimal(values[value], field.decimal_bytes, out);
                                         return absl::OkStatus();
                                       }));
      break;
    }
    case ValueConversion::kBytesToDecimal: {
      // Each value's start among the packed bytes.
      std::vector<int64_t> starts(batch.lengths.size() + 1, 0);
      for (size_t i = 0; i < batch.lengths.size(); ++i)
        starts[i + 1] = starts[i] + batch.lengths[i];
      PQPAGE_RETURN_IF_ERROR(FillFixed(
          slots, static_cast<size_t>(field.decimal_bytes), data, [&](int64_t value, uint8_t* out) {
            const auto i = static_cast<size_t>(value);
            return WriteDecimal(batch.values.data() + starts[i], batch.lengths[i],
                                field.decimal_bytes, out);
          }));
      break;
    }
    case ValueConversion::kBinary:
      PQPAGE_RETURN_IF_ERROR(FillBinary<int32_t>(slots, batch, array));
      return array;
    case ValueConversion::kLargeBinary:
      PQPAGE_RETURN_IF_ERROR(FillBinary<int64_t>(slots, batch, array));
      return array;
    case ValueConversion::kFixedSize:
      PQPAGE_RETURN_IF_ERROR(SameBytes(slots, batch, static_cast<size_t>(field.fixed_size), data));
      break;
  }
  array.buffers.push_back(std::move(data));
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
  ValidityBuilder validity(levels.count());
  ArrowBuffer offsets;
  offsets.Reserve(static_cast<size_t>(levels.count() + 1) * sizeof(Offset));
  int64_t elements = 0;
  for (int64_t i = 0; i < levels.count(); ++i) {
    const int16_t definition = levels.definition(i);
    const int16_t repetition = levels.repetition(i);
    if (repetition <= field.slot_rep && definition >= field.slot_def) {
      const auto offset = static_cast<Offset>(elements);
      offsets.Append(&offset, sizeof(Offset));
      validity.Append(definition >= field.valid_def);
    }
    if (definition >= element.slot_def && repetition <= element.slot_rep) ++elements;
  }
  const auto end = static_cast<Offset>(elements);
  offsets.Append(&end, sizeof(Offset));
  PQPAGE_ASSIGN_OR_RETURN(ArrayData child, AssembleField(element, leaves, columns, elements));
  if (child.length != elements) return Disagree(field, elements, child.length);
  ArrayData array;
  array.length = validity.length();
  array.null_count = validity.nulls();
  array.buffers.push_back(validity.Finish());
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
