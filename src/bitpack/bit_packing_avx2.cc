// Placeholder until the AVX2 kernels land: the AVX2 table is the scalar table.
#include "bitpack/bit_packing.h"

namespace pqpage::internal {

const BitPackingKernels& Avx2BitPackingKernels() {
  static const BitPackingKernels kernels = [] {
    BitPackingKernels table = ScalarBitPackingKernels();
    table.name = "avx2";
    return table;
  }();
  return kernels;
}

}  // namespace pqpage::internal
