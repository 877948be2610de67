#include "bitpack/bit_packing.h"
#include "common/cpu_features.h"

namespace pqpage::internal {

const BitPackingKernels& BitPacking() {
  static const BitPackingKernels& chosen = [&]() -> const BitPackingKernels& {
    if (UseAvx2Twins()) return Avx2BitPackingKernels();
    return ScalarBitPackingKernels();
  }();
  return chosen;
}

}  // namespace pqpage::internal
