#include "common/cpu_features.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace pqpage::internal {
namespace {

CpuFeatures Hardware() {
  CpuFeatures features;
#if defined(__x86_64__) || defined(__i386__)
  // __builtin_cpu_supports also checks, through XGETBV, that the OS saves the YMM (and for the
  // AVX-512 names the ZMM and mask) registers.
  __builtin_cpu_init();
  features.avx2 = __builtin_cpu_supports("avx2");
  features.bmi2 = __builtin_cpu_supports("bmi2");
  features.avx512f = __builtin_cpu_supports("avx512f");
  features.avx512bw = __builtin_cpu_supports("avx512bw");
  features.avx512vl = __builtin_cpu_supports("avx512vl");
  features.avx512vbmi = __builtin_cpu_supports("avx512vbmi");
  features.avx512vbmi2 = __builtin_cpu_supports("avx512vbmi2");
  // Not every compiler knows "lzcnt" as a __builtin_cpu_supports name: CPUID 0x80000001, ECX
  // bit 5 (ABM/LZCNT).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) != 0) features.lzcnt = (ecx & (1u << 5)) != 0;
#endif
  return features;
}

// Keeps only the features named in the comma-separated `allowed`.
CpuFeatures Narrow(CpuFeatures features, std::string_view allowed) {
  auto listed = [&](std::string_view name) {
    size_t start = 0;
    while (start <= allowed.size()) {
      const size_t end = std::min(allowed.find(',', start), allowed.size());
      if (allowed.substr(start, end - start) == name) return true;
      start = end + 1;
    }
    return false;
  };
  features.avx2 = features.avx2 && listed("avx2");
  features.bmi2 = features.bmi2 && listed("bmi2");
  features.lzcnt = features.lzcnt && listed("lzcnt");
  features.avx512f = features.avx512f && listed("avx512f");
  features.avx512bw = features.avx512bw && listed("avx512bw");
  features.avx512vl = features.avx512vl && listed("avx512vl");
  features.avx512vbmi = features.avx512vbmi && listed("avx512vbmi");
  features.avx512vbmi2 = features.avx512vbmi2 && listed("avx512vbmi2");
  return features;
}

CpuFeatures Detect() {
  const CpuFeatures hardware = Hardware();
  const char* disable = std::getenv("PQPAGE_DISABLE_SIMD");
  if (disable != nullptr && std::strcmp(disable, "1") == 0) return CpuFeatures{};
  const char* allowed = std::getenv("PQPAGE_CPU_FEATURES");
  return allowed != nullptr ? Narrow(hardware, allowed) : hardware;
}

SimdTier ChooseTier() {
  const SimdTier highest = HighestTier(DetectedCpuFeatures());
  const char* cap_name = std::getenv("PQPAGE_SIMD_TIER");
  if (cap_name == nullptr) return highest;
  SimdTier cap = SimdTier::kScalar;
  for (const SimdTier tier : {SimdTier::kAvx2, SimdTier::kAvx512}) {
    if (std::strcmp(cap_name, SimdTierName(tier)) == 0) cap = tier;
  }
  return std::min(highest, cap);
}

}  // namespace

const CpuFeatures& DetectedCpuFeatures() {
  static const CpuFeatures features = Detect();
  return features;
}

SimdTier ActiveSimdTier() {
  static const SimdTier tier = ChooseTier();
  return tier;
}

const char* SimdTierName(SimdTier tier) {
  switch (tier) {
    case SimdTier::kAvx512:
      return "avx512";
    case SimdTier::kAvx2:
      return "avx2";
    case SimdTier::kScalar:
      break;
  }
  return "scalar";
}

bool UseAvx2Twins() { return ActiveSimdTier() >= SimdTier::kAvx2; }

bool UseAvx512Twins() { return ActiveSimdTier() == SimdTier::kAvx512; }

}  // namespace pqpage::internal
