#include "bitpack/bit_packing.h"
#include "common/cpu_features.h"

namespace pqpage::internal {

const BitPackingKernels& BitPacking() {
  static const BitPackingKernels& chosen = [&]() -> const BitPackingKernels& {
    const CpuFeatures& cpu = GetCpuFeatures();
    if (cpu.avx2 && cpu.bmi2) return Avx2BitPackingKernels();
    return ScalarBitPackingKernels();
  }();
  return chosen;
}

}  // namespace pqpage::internal
