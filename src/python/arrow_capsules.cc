#include "python/arrow_capsules.h"

#include <string>

namespace nb = nanobind;

namespace pqpage::python {
namespace {

constexpr const char* kSchemaName = "arrow_schema";
constexpr const char* kArrayName = "arrow_array";
constexpr const char* kStreamName = "arrow_array_stream";

// The capsule's destructor for a structure of type T: release it if it still holds data, then
// free it. Runs when Python drops the capsule, with the GIL held.
template <typename T>
void ReleaseAndDelete(void* pointer) noexcept {
  T* value = static_cast<T*>(pointer);
  if (value->release != nullptr) value->release(value);
  delete value;
}

template <typename T>
nb::capsule TakeInto(T* value, const char* name) {
  T* owned = new T(*value);
  value->release = nullptr;
  return nb::capsule(owned, name, &ReleaseAndDelete<T>);
}

template <typename T>
T* Unwrap(nb::handle capsule, const char* name) {
  if (!PyCapsule_IsValid(capsule.ptr(), name)) {
    throw nb::type_error(
        (std::string("expected a PyCapsule named '") + name + "' (the Arrow PyCapsule interface)")
            .c_str());
  }
  T* value = static_cast<T*>(PyCapsule_GetPointer(capsule.ptr(), name));
  if (value == nullptr || value->release == nullptr) {
    throw nb::type_error((std::string("the '") + name + "' capsule was already consumed").c_str());
  }
  return value;
}

}  // namespace

nb::capsule SchemaCapsule(ArrowSchema* value) { return TakeInto(value, kSchemaName); }
nb::capsule StreamCapsule(ArrowArrayStream* value) { return TakeInto(value, kStreamName); }

ArrowSchema* SchemaFromCapsule(nb::handle capsule) {
  return Unwrap<ArrowSchema>(capsule, kSchemaName);
}
ArrowArray* ArrayFromCapsule(nb::handle capsule) { return Unwrap<ArrowArray>(capsule, kArrayName); }
ArrowArrayStream* StreamFromCapsule(nb::handle capsule) {
  return Unwrap<ArrowArrayStream>(capsule, kStreamName);
}

}  // namespace pqpage::python
