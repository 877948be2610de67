// Run-time CPU detection and the one gate of the SIMD twins. Every *_avx2.cc file is compiled with
// -mavx2 -mbmi2 -mlzcnt, so the compiler may emit any of the three anywhere in it: such code runs
// only when the CPU has all three (a virtual machine can report AVX2 without BMI2). Every
// dispatcher asks UseAvx2Twins(), so the build flags and the check cannot disagree, and the shipped
// binary runs on any x86-64.
#ifndef PQPAGE_COMMON_CPU_FEATURES_H_
#define PQPAGE_COMMON_CPU_FEATURES_H_

namespace pqpage::internal {

struct CpuFeatures {
  bool avx2 = false;
  bool bmi2 = false;
  bool lzcnt = false;
};

// Whether code compiled with -mavx2 -mbmi2 -mlzcnt may run on a CPU with `features`.
constexpr bool CanRunAvx2Twins(const CpuFeatures& features) {
  return features.avx2 && features.bmi2 && features.lzcnt;
}

// The running CPU's features (AVX2 also needs the OS to save the YMM registers), read once and
// narrowed by the environment, so the scalar paths and every mix can be tested and measured on any
// machine: PQPAGE_CPU_FEATURES=avx2,bmi2 keeps only the features listed that the CPU has ("none"
// keeps none); PQPAGE_DISABLE_SIMD=1 is the same as "none".
const CpuFeatures& DetectedCpuFeatures();

// CanRunAvx2Twins(DetectedCpuFeatures()): the question every dispatcher asks.
bool UseAvx2Twins();

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_CPU_FEATURES_H_
