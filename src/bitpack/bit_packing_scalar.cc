#include "bitpack/bit_packing_scalar.h"

#include <utility>

#include "bitpack/bit_packing.h"

namespace pqpage::internal {
namespace {

template <size_t... W>
constexpr BitPackingKernels MakeScalarKernels32(std::index_sequence<W...>) {
  BitPackingKernels kernels{};
  kernels.name = "scalar";
  ((kernels.unpack32[W] = &scalar::UnpackLsb<uint32_t, W>), ...);
  ((kernels.pack32[W] = &scalar::PackLsb<uint32_t, W>), ...);
  ((kernels.unpack32_msb[W] = &scalar::UnpackMsb<uint32_t, W>), ...);
  ((kernels.pack32_msb[W] = &scalar::PackMsb<uint32_t, W>), ...);
  return kernels;
}

template <size_t... W>
constexpr BitPackingKernels AddScalarKernels64(BitPackingKernels kernels,
                                               std::index_sequence<W...>) {
  ((kernels.unpack64[W] = &scalar::UnpackLsb<uint64_t, W>), ...);
  ((kernels.pack64[W] = &scalar::PackLsb<uint64_t, W>), ...);
  ((kernels.unpack64_msb[W] = &scalar::UnpackMsb<uint64_t, W>), ...);
  ((kernels.pack64_msb[W] = &scalar::PackMsb<uint64_t, W>), ...);
  return kernels;
}

constexpr BitPackingKernels kScalarKernels =
    AddScalarKernels64(MakeScalarKernels32(std::make_index_sequence<kMaxBitWidth32 + 1>{}),
                       std::make_index_sequence<kMaxBitWidth64 + 1>{});

}  // namespace

const BitPackingKernels& ScalarBitPackingKernels() { return kScalarKernels; }

}  // namespace pqpage::internal
