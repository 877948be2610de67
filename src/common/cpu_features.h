// Run-time CPU detection and the gates of the SIMD twins. Kernels come in up to three tiers:
//   - scalar: portable code, every x86-64 and every other CPU;
//   - AVX2: the *_avx2.cc files, compiled with -mavx2 -mbmi2 -mlzcnt, so the compiler may emit any
//     of the three anywhere in them: they run only when the CPU has all three (a virtual machine
//     can report AVX2 without BMI2);
//   - AVX-512: the *_avx512.cc files, compiled with the AVX2 flags plus -mavx512f -mavx512bw
//     -mavx512vl -mavx512vbmi -mavx512vbmi2: they run only when the CPU (and the OS, which must
//     save the ZMM and mask registers) has all eight. Ice Lake and later Intel cores and AMD Zen 4
//     and later have them; Skylake-X lacks VBMI and so stays on AVX2.
// Every dispatcher asks UseAvx2Twins() or UseAvx512Twins(), which read the same feature sets the
// build flags name, so the flags and the checks cannot disagree, and the shipped binary runs on any
// x86-64.
#ifndef PQPAGE_COMMON_CPU_FEATURES_H_
#define PQPAGE_COMMON_CPU_FEATURES_H_

namespace pqpage::internal {

struct CpuFeatures {
  bool avx2 = false;
  bool bmi2 = false;
  bool lzcnt = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512vbmi = false;
  bool avx512vbmi2 = false;
};

// The instruction-set tiers, in increasing order: each needs the one below it.
enum class SimdTier { kScalar = 0, kAvx2 = 1, kAvx512 = 2 };

// Whether code compiled with -mavx2 -mbmi2 -mlzcnt may run on a CPU with `features`.
constexpr bool CanRunAvx2Twins(const CpuFeatures& features) {
  return features.avx2 && features.bmi2 && features.lzcnt;
}

// Whether code compiled with the AVX2 flags and -mavx512{f,bw,vl,vbmi,vbmi2} may run on a CPU with
// `features`.
constexpr bool CanRunAvx512Twins(const CpuFeatures& features) {
  return CanRunAvx2Twins(features) && features.avx512f && features.avx512bw && features.avx512vl &&
         features.avx512vbmi && features.avx512vbmi2;
}

// The highest tier `features` allow.
constexpr SimdTier HighestTier(const CpuFeatures& features) {
  if (CanRunAvx512Twins(features)) return SimdTier::kAvx512;
  if (CanRunAvx2Twins(features)) return SimdTier::kAvx2;
  return SimdTier::kScalar;
}

// The running CPU's features, read once and narrowed by the environment, so the lower tiers and
// every mix of features can be tested and measured on any machine:
//   - PQPAGE_CPU_FEATURES=avx2,bmi2 keeps only the features listed that the CPU has ("none" keeps
//     none); the names are those of the fields above;
//   - PQPAGE_DISABLE_SIMD=1 is the same as "none".
const CpuFeatures& DetectedCpuFeatures();

// The tier every dispatcher uses: HighestTier(DetectedCpuFeatures()), capped by
// PQPAGE_SIMD_TIER=scalar|avx2|avx512 when that is set. A value other than those three caps at
// scalar, so a mistyped switch never runs more than was asked for.
SimdTier ActiveSimdTier();

// "scalar", "avx2" or "avx512": the names PQPAGE_SIMD_TIER takes and the kernel tables report.
const char* SimdTierName(SimdTier tier);

// ActiveSimdTier() >= kAvx2 / == kAvx512: the questions the dispatchers ask.
bool UseAvx2Twins();
bool UseAvx512Twins();

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_CPU_FEATURES_H_
