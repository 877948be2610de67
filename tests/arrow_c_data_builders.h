// ArrowSchema and ArrowArray structures built by hand in tests, with no Arrow library: each owns
// what it points at (strings, buffers, children, dictionary) and frees it in its release
// callback, so the sanitizers see every structure a test hands to pqpage freed exactly once.
#ifndef PQPAGE_TESTS_ARROW_C_DATA_BUILDERS_H_
#define PQPAGE_TESTS_ARROW_C_DATA_BUILDERS_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrow_c_data_checks.h"
#include "pqpage/arrow_c_data.h"

namespace pqpage::arrow_test {

// ---------------------------------------------------------------- schemas built by hand

struct SchemaSpec {
  std::string format;
  std::string name;
  int64_t flags = ARROW_FLAG_NULLABLE;
  std::vector<SchemaSpec> children;
  std::vector<SchemaSpec> dictionary;  // none, or the value type of a dictionary field
};

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::vector<ArrowSchema> children;  // sized once: the pointers below stay valid
  std::vector<ArrowSchema*> child_pointers;
  ArrowSchema dictionary{};
};

inline void ReleaseSchema(ArrowSchema* schema) {
  auto* data = static_cast<SchemaPrivate*>(schema->private_data);
  for (ArrowSchema& child : data->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (data->dictionary.release != nullptr) data->dictionary.release(&data->dictionary);
  delete data;
  schema->release = nullptr;
}

inline void ExportSchema(const SchemaSpec& spec, ArrowSchema* out) {
  auto* data = new SchemaPrivate;
  data->format = spec.format;
  data->name = spec.name;
  data->children.resize(spec.children.size());
  for (size_t c = 0; c < spec.children.size(); ++c) {
    ExportSchema(spec.children[c], &data->children[c]);
    data->child_pointers.push_back(&data->children[c]);
  }
  *out = ArrowSchema{};
  if (!spec.dictionary.empty()) {
    ExportSchema(spec.dictionary[0], &data->dictionary);
    out->dictionary = &data->dictionary;
  }
  out->format = data->format.c_str();
  out->name = data->name.c_str();
  out->flags = spec.flags;
  out->n_children = static_cast<int64_t>(spec.children.size());
  out->children = data->child_pointers.empty() ? nullptr : data->child_pointers.data();
  out->release = ReleaseSchema;
  out->private_data = data;
}

// The batches' schema: a struct of `fields`.
inline void ExportBatchSchema(std::vector<SchemaSpec> fields, OwnedSchema& out) {
  ExportSchema(SchemaSpec{"+s", "", 0, std::move(fields), {}}, &out.s);
}

// ---------------------------------------------------------------- arrays built by hand

using Buffer = std::optional<std::vector<uint8_t>>;  // nullopt: a null buffer pointer

struct ArraySpec {
  int64_t length = 0;
  int64_t null_count = 0;
  int64_t offset = 0;
  std::vector<Buffer> buffers;
  std::vector<ArraySpec> children;
  std::vector<ArraySpec> dictionary;  // none, or the dictionary of an index array
};

struct ArrayPrivate {
  std::vector<std::vector<uint8_t>> storage;
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;  // sized once: the pointers below stay valid
  std::vector<ArrowArray*> child_pointers;
  ArrowArray dictionary{};
};

inline void ReleaseArray(ArrowArray* array) {
  auto* data = static_cast<ArrayPrivate*>(array->private_data);
  for (ArrowArray& child : data->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (data->dictionary.release != nullptr) data->dictionary.release(&data->dictionary);
  delete data;
  array->release = nullptr;
}

inline void ExportArray(ArraySpec spec, ArrowArray* out) {
  auto* data = new ArrayPrivate;
  data->storage.reserve(spec.buffers.size());
  for (Buffer& buffer : spec.buffers) {
    if (!buffer.has_value()) {
      data->buffers.push_back(nullptr);
      continue;
    }
    data->storage.push_back(std::move(*buffer));
    data->storage.back().reserve(1);  // an empty buffer still has an address
    data->buffers.push_back(data->storage.back().data());
  }
  data->children.resize(spec.children.size());
  for (size_t c = 0; c < spec.children.size(); ++c) {
    ExportArray(std::move(spec.children[c]), &data->children[c]);
    data->child_pointers.push_back(&data->children[c]);
  }
  *out = ArrowArray{};
  if (!spec.dictionary.empty()) {
    ExportArray(std::move(spec.dictionary[0]), &data->dictionary);
    out->dictionary = &data->dictionary;
  }
  out->length = spec.length;
  out->null_count = spec.null_count;
  out->offset = spec.offset;
  out->n_buffers = static_cast<int64_t>(data->buffers.size());
  out->buffers = data->buffers.empty() ? nullptr : data->buffers.data();
  out->n_children = static_cast<int64_t>(spec.children.size());
  out->children = data->child_pointers.empty() ? nullptr : data->child_pointers.data();
  out->release = ReleaseArray;
  out->private_data = data;
}

// The little-endian bytes of `values`.
template <typename T>
std::vector<uint8_t> BytesOf(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// A validity bitmap of `valid` (or nullopt when every slot is valid) and the nulls it holds in
// [offset, offset + length).
inline std::pair<Buffer, int64_t> Validity(const std::vector<bool>& valid, int64_t offset,
                                           int64_t length) {
  bool any_null = false;
  for (const bool v : valid) any_null = any_null || !v;
  if (!any_null) return {std::nullopt, 0};
  std::vector<uint8_t> bits((valid.size() + 7) / 8, 0);
  int64_t nulls = 0;
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    const auto slot = static_cast<int64_t>(i);
    if (!valid[i] && slot >= offset && slot < offset + length) ++nulls;
  }
  return {std::move(bits), nulls};
}

// A primitive array whose physical slots are `values` (nullopt: null, with a junk value under
// it) and whose logical slots start at `offset`.
template <typename T>
ArraySpec Primitive(const std::vector<std::optional<T>>& values, int64_t offset = 0) {
  std::vector<T> raw;
  std::vector<bool> valid;
  for (const std::optional<T>& value : values) {
    raw.push_back(value.value_or(static_cast<T>(0x5A)));
    valid.push_back(value.has_value());
  }
  ArraySpec spec;
  spec.offset = offset;
  spec.length = static_cast<int64_t>(values.size()) - offset;
  auto [bits, nulls] = Validity(valid, offset, spec.length);
  spec.null_count = nulls;
  spec.buffers = {std::move(bits), BytesOf(raw)};
  return spec;
}

inline ArraySpec Bools(const std::vector<std::optional<bool>>& values, int64_t offset = 0) {
  std::vector<bool> valid;
  std::vector<uint8_t> bits((values.size() + 7) / 8, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    valid.push_back(values[i].has_value());
    // Under a null, a set bit: it must not be written.
    if (values[i].value_or(true)) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  ArraySpec spec;
  spec.offset = offset;
  spec.length = static_cast<int64_t>(values.size()) - offset;
  auto [validity, nulls] = Validity(valid, offset, spec.length);
  spec.null_count = nulls;
  spec.buffers = {std::move(validity), std::move(bits)};
  return spec;
}

// A utf8 array (int32 offsets); a null slot holds junk bytes.
inline ArraySpec Utf8s(const std::vector<std::optional<std::string>>& values, int64_t offset = 0) {
  std::vector<int32_t> offsets = {0};
  std::string bytes;
  std::vector<bool> valid;
  for (const std::optional<std::string>& value : values) {
    bytes += value.value_or("JUNK");
    offsets.push_back(static_cast<int32_t>(bytes.size()));
    valid.push_back(value.has_value());
  }
  ArraySpec spec;
  spec.offset = offset;
  spec.length = static_cast<int64_t>(values.size()) - offset;
  auto [validity, nulls] = Validity(valid, offset, spec.length);
  spec.null_count = nulls;
  spec.buffers = {std::move(validity), BytesOf(offsets),
                  std::vector<uint8_t>(bytes.begin(), bytes.end())};
  return spec;
}

// A list (or map, with one struct child) of int32 `offsets`; `valid` empty: no nulls.
inline ArraySpec ListOf(const std::vector<int32_t>& offsets, const std::vector<bool>& valid,
                        ArraySpec child) {
  ArraySpec spec;
  spec.length = static_cast<int64_t>(offsets.size()) - 1;
  auto [validity, nulls] = Validity(valid, 0, spec.length);
  spec.null_count = nulls;
  spec.buffers = {std::move(validity), BytesOf(offsets)};
  spec.children.push_back(std::move(child));
  return spec;
}

inline ArraySpec StructOf(int64_t length, const std::vector<bool>& valid,
                          std::vector<ArraySpec> children, int64_t offset = 0) {
  ArraySpec spec;
  spec.length = length;
  spec.offset = offset;
  auto [validity, nulls] = Validity(valid, offset, length);
  spec.null_count = nulls;
  spec.buffers = {std::move(validity)};
  spec.children = std::move(children);
  return spec;
}

}  // namespace pqpage::arrow_test

#endif  // PQPAGE_TESTS_ARROW_C_DATA_BUILDERS_H_
