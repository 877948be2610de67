// The CPU gates of the SIMD twins: code compiled with -mavx2 -mbmi2 -mlzcnt runs only when the
// CPU has all three, the AVX-512 tier's only when it also has the five AVX-512 extensions, and
// every dispatcher follows the gates. ctest also runs this test (and the kernel suites) under
// PQPAGE_CPU_FEATURES set to every mix of the three AVX2-tier features, so a CPU that reports AVX2
// without BMI2 or LZCNT, as some virtual machines do, is simulated on any machine, and under
// PQPAGE_SIMD_TIER set to each tier.
#include "common/cpu_features.h"

#include <gtest/gtest.h>

#include <algorithm>
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

TEST(CpuGateTest, Avx512TwinsNeedAllEightFeatures) {
  for (int mask = 0; mask < 256; ++mask) {
    const CpuFeatures features{(mask & 1) != 0,  (mask & 2) != 0,  (mask & 4) != 0,
                               (mask & 8) != 0,  (mask & 16) != 0, (mask & 32) != 0,
                               (mask & 64) != 0, (mask & 128) != 0};
    EXPECT_EQ(CanRunAvx512Twins(features), mask == 255) << "mask " << mask;
    const SimdTier expected = mask == 255       ? SimdTier::kAvx512
                              : (mask & 7) == 7 ? SimdTier::kAvx2
                                                : SimdTier::kScalar;
    EXPECT_EQ(HighestTier(features), expected) << "mask " << mask;
  }
}

// PQPAGE_SIMD_TIER caps the tier and never raises it; a name it does not know caps at scalar.
TEST(CpuGateTest, TierSwitchCapsTheTier) {
  const SimdTier highest = HighestTier(DetectedCpuFeatures());
  const char* cap = std::getenv("PQPAGE_SIMD_TIER");
  const std::string name = cap == nullptr ? "" : cap;
  SimdTier expected = highest;
  if (cap != nullptr) {
    expected = SimdTier::kScalar;
    if (name == "avx2") expected = std::min(highest, SimdTier::kAvx2);
    if (name == "avx512") expected = highest;
  }
  EXPECT_EQ(ActiveSimdTier(), expected) << "PQPAGE_SIMD_TIER=" << name;
  EXPECT_EQ(UseAvx2Twins(), expected >= SimdTier::kAvx2);
  EXPECT_EQ(UseAvx512Twins(), expected == SimdTier::kAvx512);
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
  if (std::getenv("PQPAGE_SIMD_TIER") == nullptr) {
    EXPECT_EQ(twins, CanRunAvx2Twins(DetectedCpuFeatures()));
    EXPECT_EQ(UseAvx512Twins(), CanRunAvx512Twins(DetectedCpuFeatures()));
  }
  const char* tier = SimdTierName(ActiveSimdTier());
  EXPECT_STREQ(BitPacking().name, tier);
  EXPECT_STREQ(ByteStreamSplitKernelsForCpu().name, twins ? "avx2" : "scalar");
  EXPECT_EQ(DeltaPrefixSum32(), twins ? &DeltaPrefixSum32Avx2 : &DeltaPrefixSum32Scalar);
  EXPECT_EQ(DeltaPrefixSum64(), twins ? &DeltaPrefixSum64Avx2 : &DeltaPrefixSum64Scalar);
}

}  // namespace
}  // namespace pqpage::internal
