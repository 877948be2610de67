// Throughput of the bit-packing kernel table: the scalar table against the AVX2 table for every
// unpack32 width, a selection of pack32 and unpack64 widths, and a memcpy of the same output size
// as the ceiling. Names read <op>/<table>/w<width>/<values>; items are values, bytes are the output
// bytes (unpack) or input bytes (pack), so bytes/s compare directly with the memcpy rows.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bitpack/bit_packing.h"
#include "common/cpu_features.h"

namespace pqpage::internal {
namespace {

// Uniform values over the full width: every bit pattern, deterministic per width.
template <typename T>
std::vector<T> RandomValues(size_t count, int width) {
  std::mt19937_64 rng(0x5EED0000u + static_cast<unsigned>(width));
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  std::vector<T> values(count);
  for (T& v : values) v = static_cast<T>(rng() & mask);
  return values;
}

const BitPackingKernels* TableByName(const std::string& name) {
  if (name == "scalar") return &ScalarBitPackingKernels();
  if (name == "avx2" && UseAvx2Twins()) return &Avx2BitPackingKernels();
  if (name == "avx512" && UseAvx512Twins()) return &Avx512BitPackingKernels();
  return nullptr;
}

void BM_Unpack32(benchmark::State& state, std::string table_name, int width) {
  const BitPackingKernels* table = TableByName(table_name);
  if (table == nullptr) return state.SkipWithError("this tier is not available");
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<uint32_t> values = RandomValues<uint32_t>(count, width);
  std::vector<uint8_t> packed(count * width / 8);
  ScalarBitPackingKernels().pack32[width](values.data(), packed.data(), count);
  std::vector<uint32_t> out(count);
  for (auto _ : state) {
    table->unpack32[width](packed.data(), out.data(), count);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  if (out != values) state.SkipWithError("unpack32 result differs from the input");
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(count));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(count * sizeof(uint32_t)));
}

void BM_Pack32(benchmark::State& state, std::string table_name, int width) {
  const BitPackingKernels* table = TableByName(table_name);
  if (table == nullptr) return state.SkipWithError("this tier is not available");
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<uint32_t> values = RandomValues<uint32_t>(count, width);
  std::vector<uint8_t> packed(count * width / 8);
  for (auto _ : state) {
    table->pack32[width](values.data(), packed.data(), count);
    benchmark::DoNotOptimize(packed.data());
    benchmark::ClobberMemory();
  }
  std::vector<uint32_t> back(count);
  ScalarBitPackingKernels().unpack32[width](packed.data(), back.data(), count);
  if (back != values) state.SkipWithError("pack32 result does not unpack to the input");
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(count));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(count * sizeof(uint32_t)));
}

void BM_Unpack64(benchmark::State& state, std::string table_name, int width) {
  const BitPackingKernels* table = TableByName(table_name);
  if (table == nullptr) return state.SkipWithError("this tier is not available");
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<uint64_t> values = RandomValues<uint64_t>(count, width);
  std::vector<uint8_t> packed(count * width / 8);
  ScalarBitPackingKernels().pack64[width](values.data(), packed.data(), count);
  std::vector<uint64_t> out(count);
  for (auto _ : state) {
    table->unpack64[width](packed.data(), out.data(), count);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  if (out != values) state.SkipWithError("unpack64 result differs from the input");
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(count));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(count * sizeof(uint64_t)));
}

// The ceiling for unpack32: copying count 32-bit values (the bytes unpack32 writes).
void BM_Memcpy32(benchmark::State& state) {
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<uint32_t> values = RandomValues<uint32_t>(count, 32);
  std::vector<uint32_t> out(count);
  for (auto _ : state) {
    std::memcpy(out.data(), values.data(), count * sizeof(uint32_t));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(count));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(count * sizeof(uint32_t)));
}

constexpr int64_t kRun = 512;  // about one bit-packed run of the hybrid encoding (<= 504 values)
constexpr int64_t kSmall = 4096;
constexpr int64_t kMedium = 65536;
constexpr int64_t kLarge = 4 << 20;

bool IsSizeSweepWidth(int width) { return width == 1 || width == 8 || width == 17 || width == 31; }

int RegisterAll() {
  benchmark::RegisterBenchmark("memcpy32", BM_Memcpy32)
      ->Arg(kRun)
      ->Arg(kSmall)
      ->Arg(kMedium)
      ->Arg(kLarge);
  for (const char* table : {"scalar", "avx2", "avx512"}) {
    for (int width = 0; width <= 32; ++width) {
      auto* b = benchmark::RegisterBenchmark(
          ("unpack32/" + std::string(table) + "/w" + std::to_string(width)).c_str(), BM_Unpack32,
          std::string(table), width);
      if (IsSizeSweepWidth(width)) b->Arg(kRun)->Arg(kSmall);
      b->Arg(kMedium);
      if (IsSizeSweepWidth(width)) b->Arg(kLarge);
    }
  }
  for (const char* table : {"scalar", "avx2", "avx512"}) {
    for (int width : {1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 20, 24, 27, 30, 31}) {
      auto* b = benchmark::RegisterBenchmark(
          ("pack32/" + std::string(table) + "/w" + std::to_string(width)).c_str(), BM_Pack32,
          std::string(table), width);
      if (IsSizeSweepWidth(width)) b->Arg(kRun)->Arg(kSmall);
      b->Arg(kMedium);
      if (IsSizeSweepWidth(width)) b->Arg(kLarge);
    }
  }
  for (const char* table : {"scalar", "avx2", "avx512"}) {
    for (int width : {1, 7, 13, 20, 32, 33, 40, 47, 56, 60, 63}) {
      benchmark::RegisterBenchmark(
          ("unpack64/" + std::string(table) + "/w" + std::to_string(width)).c_str(), BM_Unpack64,
          std::string(table), width)
          ->Arg(kMedium);
    }
  }
  return 0;
}

const int kRegistered = RegisterAll();

}  // namespace
}  // namespace pqpage::internal
