#include "common/cpu_features.h"

#include <cstdlib>
#include <cstring>

namespace pqpage::internal {
namespace {

CpuFeatures DetectCpuFeatures() {
  CpuFeatures features;
  const char* disable = std::getenv("PQPAGE_DISABLE_SIMD");
  if (disable != nullptr && std::strcmp(disable, "1") == 0) return features;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  features.avx2 = __builtin_cpu_supports("avx2");
  features.bmi2 = __builtin_cpu_supports("bmi2");
#endif
  return features;
}

}  // namespace

const CpuFeatures& GetCpuFeatures() {
  static const CpuFeatures features = DetectCpuFeatures();
  return features;
}

}  // namespace pqpage::internal
