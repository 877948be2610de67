// RLE/bit-packed hybrid: decode to integers, to int16 levels and to a validity bitmap, and encode,
// on the shapes levels and dictionary indices take in practice.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "pqpage/rle_bit_packed_hybrid.h"

namespace pqpage {
namespace {

// Random values of `width` bits: the bit-packed-only case.
std::vector<uint32_t> RandomValues(size_t n, int width) {
  std::mt19937 rng(42);
  std::vector<uint32_t> v(n);
  const uint32_t mask = width == 32 ? ~0u : (1u << width) - 1;
  for (auto& x : v) x = rng() & mask;
  return v;
}

// Definition levels of an optional column with ~10% nulls scattered at random, and with nulls
// clustered in runs (both shapes real data has).
std::vector<uint32_t> Validity(size_t n, bool clustered) {
  std::mt19937 rng(7);
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n;) {
    if (clustered) {
      const size_t run = 1 + rng() % 200;
      const uint32_t value = rng() % 10 != 0;
      for (size_t k = 0; k < run && i < n; ++k) v[i++] = value;
    } else {
      v[i++] = rng() % 10 != 0;
    }
  }
  return v;
}

std::vector<uint8_t> Encode(const std::vector<uint32_t>& values, int width) {
  RleBitPackedHybridEncoder encoder(width);
  if (!encoder.Put(values).ok()) std::abort();
  return encoder.Finish();
}

void BM_HybridDecodeBitPacked(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  const size_t n = static_cast<size_t>(state.range(1));
  const std::vector<uint8_t> bytes = Encode(RandomValues(n, width), width);
  std::vector<uint32_t> out(n);
  RleBitPackedHybridDecoder decoder;
  for (auto _ : state) {
    if (!decoder.Reset(bytes, width, n).ok() || !decoder.Decode(absl::MakeSpan(out)).ok()) {
      state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * sizeof(uint32_t));
}
BENCHMARK(BM_HybridDecodeBitPacked)
    ->ArgsProduct({{1, 3, 8, 12, 17, 25}, {65536}})
    ->Args({8, 4096})
    ->Args({8, 4 << 20});

void BM_LevelsToValidityBitmap(benchmark::State& state) {
  const bool clustered = state.range(0) != 0;
  const size_t n = static_cast<size_t>(state.range(1));
  const std::vector<uint8_t> bytes = Encode(Validity(n, clustered), 1);
  std::vector<uint8_t> bitmap(n / 8 + 2);
  RleBitPackedHybridDecoder decoder;
  for (auto _ : state) {
    if (!decoder.Reset(bytes, 1, n).ok()) state.SkipWithError("reset failed");
    auto ones = decoder.DecodeToBitmap(bitmap.data(), 0, n);
    benchmark::DoNotOptimize(ones);
    benchmark::DoNotOptimize(bitmap.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetLabel(clustered ? "clustered nulls" : "scattered nulls");
}
BENCHMARK(BM_LevelsToValidityBitmap)->ArgsProduct({{0, 1}, {4096, 65536, 4 << 20}});

void BM_LevelsToInt16(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> bytes = Encode(Validity(n, false), 1);
  std::vector<int16_t> out(n);
  RleBitPackedHybridDecoder decoder;
  for (auto _ : state) {
    if (!decoder.Reset(bytes, 1, n).ok() || !decoder.DecodeLevels(absl::MakeSpan(out), 1).ok()) {
      state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_LevelsToInt16)->Arg(65536);

void BM_HybridEncode(benchmark::State& state) {
  const int shape = static_cast<int>(state.range(0));
  const size_t n = static_cast<size_t>(state.range(1));
  const int width = shape == 0 ? 8 : 1;
  const std::vector<uint32_t> values = shape == 0 ? RandomValues(n, 8) : Validity(n, shape == 2);
  RleBitPackedHybridEncoder encoder(width);
  std::vector<uint8_t> out;
  for (auto _ : state) {
    out.clear();
    if (!encoder.Put(values).ok()) state.SkipWithError("encode failed");
    encoder.FinishInto(&out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetLabel(shape == 0   ? "random width 8"
                 : shape == 1 ? "scattered nulls"
                              : "clustered nulls");
}
BENCHMARK(BM_HybridEncode)->ArgsProduct({{0, 1, 2}, {4096, 65536, 4 << 20}});

void BM_MemcpyBaseline(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<uint32_t> in(n, 1), out(n);
  for (auto _ : state) {
    std::memcpy(out.data(), in.data(), n * sizeof(uint32_t));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * sizeof(uint32_t));
}
BENCHMARK(BM_MemcpyBaseline)->Arg(65536);

}  // namespace
}  // namespace pqpage
