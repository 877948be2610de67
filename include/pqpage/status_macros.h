// Early-return helpers for code that calls pqpage: every pqpage function reports through
// absl::Status or absl::StatusOr, and Abseil 20220623 (Debian 12) ships no such macros. The
// library and the pqpage tool use these two; they are public so that callers can too.
#ifndef PQPAGE_STATUS_MACROS_H_
#define PQPAGE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define PQPAGE_STATUS_CONCAT_INNER(a, b) a##b
#define PQPAGE_STATUS_CONCAT(a, b) PQPAGE_STATUS_CONCAT_INNER(a, b)

// Returns the status of `expr` from the enclosing function when it is not OK.
#define PQPAGE_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::absl::Status pqpage_status_ = (expr);          \
    if (!pqpage_status_.ok()) return pqpage_status_; \
  } while (false)

// Evaluates `expr` (an absl::StatusOr<T>); returns its status when not OK, else moves the value
// into `lhs`, which may be a declaration (`auto x`) or an existing variable.
#define PQPAGE_ASSIGN_OR_RETURN(lhs, expr) \
  PQPAGE_ASSIGN_OR_RETURN_IMPL(PQPAGE_STATUS_CONCAT(pqpage_statusor_, __LINE__), lhs, expr)
// `statusor` is a name and `lhs` may be a declaration: neither can be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define PQPAGE_ASSIGN_OR_RETURN_IMPL(statusor, lhs, expr)  \
  auto statusor = (expr);                                  \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()
// NOLINTEND(bugprone-macro-parentheses)

#endif  // PQPAGE_STATUS_MACROS_H_
