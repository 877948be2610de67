// Temporary file paths for tests. ctest runs every test case as its own process, side by side
// (and CI may run two builds' suites at once), so a fixed name in TempDir() lets one test read a
// file another is rewriting. Every path made here names the running test and the process.
#ifndef PQPAGE_TESTS_TEMP_PATH_H_
#define PQPAGE_TESTS_TEMP_PATH_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"

namespace pqpage::testing {

// A path in the test temporary directory, ending in `name`, that no other test or process
// uses. Must be called while a test runs.
inline std::string TestTempPath(const std::string& name) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string test = absl::StrCat(info->test_suite_name(), "_", info->name());
  std::replace(test.begin(), test.end(), '/', '_');  // parameterised tests' names hold '/'
  return absl::StrCat(::testing::TempDir(), "/", test, "_", getpid(), "_", name);
}

}  // namespace pqpage::testing

#endif  // PQPAGE_TESTS_TEMP_PATH_H_
