#include "python/status_error.h"

#include <string>

namespace nb = nanobind;

namespace pqpage::python {

void RaiseStatus(const absl::Status& status) {
  nb::object errors = nb::module_::import_("pqpage._errors");
  nb::object error_class = errors.attr("error_class")(static_cast<int>(status.code()));
  PyErr_SetString(error_class.ptr(), std::string(status.message()).c_str());
  throw nb::python_error();
}

}  // namespace pqpage::python
