// How the binding turns a library status into a Python exception: the class is chosen by the
// status code (pqpage/_errors.py holds the classes and the mapping), the message is the library's
// own one-line message.
#ifndef PQPAGE_PYTHON_STATUS_ERROR_H_
#define PQPAGE_PYTHON_STATUS_ERROR_H_

#include <nanobind/nanobind.h>

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pqpage::python {

// Sets the Python exception for `status` (not OK) and throws nanobind::python_error, which
// nanobind hands back to Python. Needs the GIL.
[[noreturn]] void RaiseStatus(const absl::Status& status);

// Raises unless `status` is OK.
inline void RaiseIfError(const absl::Status& status) {
  if (!status.ok()) RaiseStatus(status);
}

// @return the value of `result`, or raises its error.
template <typename T>
T ValueOrRaise(absl::StatusOr<T> result) {
  if (!result.ok()) RaiseStatus(result.status());
  return *std::move(result);
}

}  // namespace pqpage::python

#endif  // PQPAGE_PYTHON_STATUS_ERROR_H_
