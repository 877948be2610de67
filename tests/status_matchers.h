// GoogleTest helpers for absl::Status / absl::StatusOr. Abseil 20220623 ships no gtest matchers,
// so the project keeps these few.
#ifndef PQPAGE_TESTS_STATUS_MATCHERS_H_
#define PQPAGE_TESTS_STATUS_MATCHERS_H_

#include <gtest/gtest.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pqpage::testing {

inline const absl::Status& StatusOf(const absl::Status& status) { return status; }
template <typename T>
inline const absl::Status& StatusOf(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

}  // namespace pqpage::testing

#define PQPAGE_EXPECT_OK(expr) \
  EXPECT_TRUE(::pqpage::testing::StatusOf(expr).ok()) << ::pqpage::testing::StatusOf(expr)
#define PQPAGE_ASSERT_OK(expr) \
  ASSERT_TRUE(::pqpage::testing::StatusOf(expr).ok()) << ::pqpage::testing::StatusOf(expr)
// Asserts that `expr` failed with `code` (e.g. absl::StatusCode::kDataLoss).
#define PQPAGE_EXPECT_ERROR(expr, expected_code)                     \
  EXPECT_EQ(::pqpage::testing::StatusOf(expr).code(), expected_code) \
      << ::pqpage::testing::StatusOf(expr)
// Expects that `expr` succeeded with a value equal to `expected`.
#define PQPAGE_EXPECT_OK_AND_EQ(expr, expected)                           \
  do {                                                                    \
    const auto pqpage_result = (expr);                                    \
    EXPECT_TRUE(pqpage_result.ok()) << pqpage_result.status();            \
    if (pqpage_result.ok()) EXPECT_EQ(*pqpage_result, expected) << #expr; \
  } while (false)
#define PQPAGE_ASSERT_OK_AND_ASSIGN(lhs, expr) \
  PQPAGE_ASSERT_OK_AND_ASSIGN_IMPL(PQPAGE_TEST_CONCAT(statusor_, __LINE__), lhs, expr)
#define PQPAGE_TEST_CONCAT_INNER(a, b) a##b
#define PQPAGE_TEST_CONCAT(a, b) PQPAGE_TEST_CONCAT_INNER(a, b)
#define PQPAGE_ASSERT_OK_AND_ASSIGN_IMPL(statusor, lhs, expr) \
  auto statusor = (expr);                                     \
  ASSERT_TRUE(statusor.ok()) << statusor.status();            \
  lhs = std::move(statusor).value()

#endif  // PQPAGE_TESTS_STATUS_MATCHERS_H_
