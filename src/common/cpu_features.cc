#include "common/cpu_features.h"

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
  __builtin_cpu_init();
  features.avx2 = __builtin_cpu_supports("avx2");
  features.bmi2 = __builtin_cpu_supports("bmi2");
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
  return features;
}

CpuFeatures Detect() {
  const CpuFeatures hardware = Hardware();
  const char* disable = std::getenv("PQPAGE_DISABLE_SIMD");
  if (disable != nullptr && std::strcmp(disable, "1") == 0) return CpuFeatures{};
  const char* allowed = std::getenv("PQPAGE_CPU_FEATURES");
  return allowed != nullptr ? Narrow(hardware, allowed) : hardware;
}

}  // namespace

const CpuFeatures& DetectedCpuFeatures() {
  static const CpuFeatures features = Detect();
  return features;
}

bool UseAvx2Twins() {
  static const bool use = CanRunAvx2Twins(DetectedCpuFeatures());
  return use;
}

}  // namespace pqpage::internal
