#include "bitpack/bit_packing.h"
#include "common/cpu_features.h"

namespace pqpage::internal {

const BitPackingKernels& Avx512BitPackingKernels() {
  // Built here, in a file compiled for any x86-64, from constant tables.
  static const BitPackingKernels kernels = [] {
    BitPackingKernels table = Avx2BitPackingKernels();
    table.name = "avx512";
    for (int w = 0; w <= kMaxBitWidth32; ++w) {
      if (kAvx512Unpack32.unpack32[w] != nullptr) table.unpack32[w] = kAvx512Unpack32.unpack32[w];
    }
    return table;
  }();
  return kernels;
}

const BitPackingKernels& BitPacking() {
  static const BitPackingKernels& chosen = [&]() -> const BitPackingKernels& {
    if (UseAvx512Twins()) return Avx512BitPackingKernels();
    if (UseAvx2Twins()) return Avx2BitPackingKernels();
    return ScalarBitPackingKernels();
  }();
  return chosen;
}

}  // namespace pqpage::internal
