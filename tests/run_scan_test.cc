// The hybrid encoder's run scanner against a brute-force definition of "first run of at least L".
#include "encodings/run_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "common/cpu_features.h"

namespace pqpage::internal {
namespace {

size_t ReferenceFind(const std::vector<uint32_t>& v, size_t from, size_t min_length) {
  size_t start = from;
  while (start < v.size()) {
    size_t end = start + 1;
    while (end < v.size() && v[end] == v[start]) ++end;
    if (end - start >= min_length || end == v.size()) return start;
    start = end;
  }
  return from;
}

TEST(RunScanTest, FindsTheFirstLongRunOrTheLastRun) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t n = 1 + rng() % 300;
    const uint32_t alphabet = 1 + rng() % 4;
    const size_t max_run = 1 + rng() % 40;
    std::vector<uint32_t> v;
    while (v.size() < n) {
      const uint32_t value = rng() % alphabet;
      const size_t run = 1 + rng() % max_run;
      for (size_t k = 0; k < run && v.size() < n; ++k) v.push_back(value);
    }
    const size_t from = rng() % n;
    const size_t min_length = 1 + rng() % 32;
    const size_t expected = ReferenceFind(v, from, min_length);
    ASSERT_EQ(FindRunOfAtLeast(v.data(), from, n, min_length), expected)
        << "trial " << trial << " n " << n << " from " << from << " L " << min_length;
    ASSERT_EQ(FindRunOfAtLeastScalar(v.data(), from, n, min_length), expected);
    const uint32_t value = v[from];
    size_t end = from;
    while (end < n && v[end] == value) ++end;
    ASSERT_EQ(EndOfRun(v.data(), from, n, value), end);
    ASSERT_EQ(EndOfRunScalar(v.data(), from, n, value), end);
    if (UseAvx2Twins()) {
      ASSERT_EQ(FindRunOfAtLeastAvx2(v.data(), from, n, min_length), expected);
      ASSERT_EQ(EndOfRunAvx2(v.data(), from, n, value), end);
    }
  }
}

TEST(RunScanTest, VectorAndScalarMasksAgree) {
  if (!UseAvx2Twins()) GTEST_SKIP() << "no AVX2 on this CPU";
  std::mt19937 rng(9);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint32_t> v(33);
    for (auto& x : v) x = rng() % 3;
    ASSERT_EQ(EqualNeighbourMaskAvx2(v.data() + 1), EqualNeighbourMaskScalar(v.data() + 1));
    ASSERT_EQ(EqualValueMaskAvx2(v.data(), 1), EqualValueMaskScalar(v.data(), 1));
  }
}

}  // namespace
}  // namespace pqpage::internal
