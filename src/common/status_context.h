// The one rule by which an error is told which file it is about: the file's path (and where in the
// file) before the message, unless the message starts with that path already. Writers' I/O errors
// name their file themselves, and an error passed up through two layers must not name it twice.
#ifndef PQPAGE_COMMON_STATUS_CONTEXT_H_
#define PQPAGE_COMMON_STATUS_CONTEXT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace pqpage::internal {

// `status` with "`path`: `context`" before its message (`context` is empty or ends in ": ", e.g.
// "row group 2: ").
// @return `status` unchanged when it is OK or its message starts with "`path`: "; else a status of
// the same code with the prefix.
inline absl::Status WithFileContext(const absl::Status& status, absl::string_view path,
                                    absl::string_view context = "") {
  if (status.ok()) return status;
  const std::string named = absl::StrCat(path, ": ");
  if (absl::StartsWith(status.message(), named)) return status;
  return absl::Status(status.code(), absl::StrCat(named, context, status.message()));
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_STATUS_CONTEXT_H_
