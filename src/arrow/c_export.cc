#include "arrow/c_export.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pqpage::arrow_internal {
namespace {

// What an exported ArrowSchema points to.
struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;  // the interface's encoding: int32 count, then length-prefixed pairs
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  ArrowSchema dictionary{};
};

void AppendInt32(std::string& out, int32_t value) {
  char bytes[4];
  std::memcpy(bytes, &value, 4);  // native byte order, as the interface specifies
  out.append(bytes, 4);
}

std::string EncodeMetadata(const std::vector<std::pair<std::string, std::string>>& metadata) {
  std::string out;
  if (metadata.empty()) return out;
  AppendInt32(out, static_cast<int32_t>(metadata.size()));
  for (const auto& [key, value] : metadata) {
    AppendInt32(out, static_cast<int32_t>(key.size()));
    out += key;
    AppendInt32(out, static_cast<int32_t>(value.size()));
    out += value;
  }
  return out;
}

void ReleaseSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  auto* data = static_cast<SchemaPrivate*>(schema->private_data);
  for (ArrowSchema& child : data->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (data->dictionary.release != nullptr) data->dictionary.release(&data->dictionary);
  delete data;
  schema->release = nullptr;
}

// What an exported ArrowArray points to.
struct ArrayPrivate {
  ArrayData data;
  std::vector<const void*> buffer_pointers;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  ArrowArray dictionary{};
};

void ReleaseArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  auto* data = static_cast<ArrayPrivate*>(array->private_data);
  for (ArrowArray& child : data->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (data->dictionary.release != nullptr) data->dictionary.release(&data->dictionary);
  delete data;
  array->release = nullptr;
}

}  // namespace

void ExportType(const ArrowType& type, ArrowSchema* out) {
  auto data = std::make_unique<SchemaPrivate>();
  data->format = type.format;
  data->name = type.name;
  data->metadata = EncodeMetadata(type.metadata);
  data->children.resize(type.children.size());
  for (size_t i = 0; i < type.children.size(); ++i) {
    ExportType(type.children[i], &data->children[i]);
    data->child_pointers.push_back(&data->children[i]);
  }
  out->format = data->format.c_str();
  out->name = data->name.c_str();
  out->metadata = data->metadata.empty() ? nullptr : data->metadata.data();
  out->flags = (type.nullable ? ARROW_FLAG_NULLABLE : 0) | type.extra_flags;
  out->n_children = static_cast<int64_t>(data->children.size());
  out->children = data->child_pointers.empty() ? nullptr : data->child_pointers.data();
  out->dictionary = nullptr;
  if (!type.dictionary.empty()) {
    ExportType(type.dictionary[0], &data->dictionary);
    out->dictionary = &data->dictionary;
  }
  out->release = &ReleaseSchema;
  out->private_data = data.release();
}

void ExportArray(ArrayData array, ArrowArray* out) {
  auto data = std::make_unique<ArrayPrivate>();
  data->data = std::move(array);
  for (size_t i = 0; i < data->data.buffers.size(); ++i) {
    ArrowBuffer& buffer = data->data.buffers[i];
    // Buffer 0 is the validity bitmap, NULL when no value is null; every other buffer is handed
    // out allocated even when empty (an empty string's data), which every importer accepts.
    if (i == 0 && buffer.size() == 0) {
      data->buffer_pointers.push_back(nullptr);
      continue;
    }
    // Reserve(1) allocates an empty buffer (at least 64 bytes), which ZeroPadding then clears.
    buffer.Reserve(1);
    buffer.ZeroPadding();
    data->buffer_pointers.push_back(buffer.data());
  }
  data->children.resize(data->data.children.size());
  for (size_t i = 0; i < data->children.size(); ++i) {
    ExportArray(std::move(data->data.children[i]), &data->children[i]);
    data->child_pointers.push_back(&data->children[i]);
  }
  data->data.children.clear();
  if (!data->data.dictionary.empty()) {
    ExportArray(std::move(data->data.dictionary[0]), &data->dictionary);
    data->data.dictionary.clear();
  }
  out->length = data->data.length;
  out->null_count = data->data.null_count;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(data->buffer_pointers.size());
  out->n_children = static_cast<int64_t>(data->children.size());
  out->buffers = data->buffer_pointers.empty() ? nullptr : data->buffer_pointers.data();
  out->children = data->child_pointers.empty() ? nullptr : data->child_pointers.data();
  out->dictionary = data->dictionary.release != nullptr ? &data->dictionary : nullptr;
  out->release = &ReleaseArray;
  out->private_data = data.release();
}

}  // namespace pqpage::arrow_internal
