// Run-time CPU detection, read once. Kernels compiled for AVX2/BMI2 are only reached through a
// dispatch table chosen from these answers, so the shipped binary runs on any x86-64.
#ifndef PQPAGE_COMMON_CPU_FEATURES_H_
#define PQPAGE_COMMON_CPU_FEATURES_H_

namespace pqpage::internal {

struct CpuFeatures {
  bool avx2 = false;
  bool bmi2 = false;
};

// The features of the running CPU. The environment variable PQPAGE_DISABLE_SIMD=1 reports none,
// so the scalar kernels can be tested and measured on any machine.
const CpuFeatures& GetCpuFeatures();

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_CPU_FEATURES_H_
