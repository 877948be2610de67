// The one CPU gate of the SIMD twins: code compiled with -mavx2 -mbmi2 -mlzcnt runs only when the
// CPU has all three, and every dispatcher follows the gate. ctest also runs this test (and the
// kernel suites) under PQPAGE_CPU_FEATURES set to every mix of the three features, so a CPU that
// reports AVX2 without BMI2 or LZCNT, as some virtual machines do, is simulated on any machine.
#include "common/cpu_features.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "bitpack/bit_packing.h"
#include "encodings/byte_stream_split_internal.h"
#include "encodings/delta_internal.h"

namespace pqpage::internal {
namespace {

TEST(CpuGateTest, TwinsNeedAvx2Bmi2AndLzcnt) {
  for (int mask = 0; mask < 8; ++mask) {
    const CpuFeatures features{(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0};
    EXPECT_EQ(CanRunAvx2Twins(features), mask == 7) << "mask " << mask;
  }
}

TEST(CpuGateTest, EnvironmentOnlyNarrowsTheFeatures) {
  const char* allowed = std::getenv("PQPAGE_CPU_FEATURES");
  if (allowed == nullptr) GTEST_SKIP() << "PQPAGE_CPU_FEATURES not set";
  const std::string list = std::string(",") + allowed + ",";
  const CpuFeatures& detected = DetectedCpuFeatures();
  if (list.find(",avx2,") == std::string::npos) EXPECT_FALSE(detected.avx2);
  if (list.find(",bmi2,") == std::string::npos) EXPECT_FALSE(detected.bmi2);
  if (list.find(",lzcnt,") == std::string::npos) EXPECT_FALSE(detected.lzcnt);
}

TEST(CpuGateTest, EveryDispatcherFollowsTheGate) {
  const bool twins = UseAvx2Twins();
  EXPECT_EQ(twins, CanRunAvx2Twins(DetectedCpuFeatures()));
  EXPECT_STREQ(BitPacking().name, twins ? "avx2" : "scalar");
  EXPECT_STREQ(ByteStreamSplitKernelsForCpu().name, twins ? "avx2" : "scalar");
  EXPECT_EQ(DeltaPrefixSum32(), twins ? &DeltaPrefixSum32Avx2 : &DeltaPrefixSum32Scalar);
  EXPECT_EQ(DeltaPrefixSum64(), twins ? &DeltaPrefixSum64Avx2 : &DeltaPrefixSum64Scalar);
}

}  // namespace
}  // namespace pqpage::internal
