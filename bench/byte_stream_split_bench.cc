// Benchmarks of BYTE_STREAM_SPLIT encode and decode for FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY(16), through the CPU's kernels; for widths 4 and 8 also the scalar and
// AVX2 kernels directly, so both are measured on one machine. Bytes/s counts the value bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "bench_data.h"
#include "bench_runner.h"
#include "common/cpu_features.h"
#include "encodings/byte_stream_split_internal.h"
#include "pqpage/byte_stream_split.h"

namespace pqpage {
namespace {

template <typename T>
std::vector<T> Data(size_t n) {
  if constexpr (std::is_same_v<T, float>) return bench::Floats(n);
  if constexpr (std::is_same_v<T, double>) return bench::Doubles(n);
  if constexpr (std::is_same_v<T, int32_t>) return bench::BoundedInts<int32_t>(n, 1 << 20);
  if constexpr (std::is_same_v<T, int64_t>) return bench::SortedTimestamps(n);
}

template <typename T>
void BM_BssEncode(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<T> values = Data<T>(n);
  ByteStreamSplitEncoder<T> encoder;
  bench::TimeEncode(state, encoder, values);
  bench::SetCounters(state, n, n * sizeof(T));
}

template <typename T>
void BM_BssDecode(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  ByteStreamSplitEncoder<T> encoder;
  (void)encoder.Put(Data<T>(n));  // never fails
  const std::vector<uint8_t> bytes = encoder.Finish();
  std::vector<T> out(n);
  ByteStreamSplitDecoder<T> decoder;
  bench::TimeDecode(state, decoder, bytes, absl::MakeSpan(out));
  bench::SetCounters(state, n, n * sizeof(T));
}

void BM_BssEncodeFlba16(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<int64_t> words = bench::RandomInts<int64_t>(2 * n);
  ByteStreamSplitEncoder<ByteArray> encoder(16);
  std::vector<uint8_t> out;
  const absl::Span<const uint8_t> raw(reinterpret_cast<const uint8_t*>(words.data()), 16 * n);
  for (auto _ : state) {
    out.clear();
    if (!encoder.PutBytes(raw).ok()) state.SkipWithError("put");
    encoder.FinishInto(&out);
    benchmark::DoNotOptimize(out.data());
  }
  bench::SetCounters(state, n, 16 * n);
}

void BM_BssDecodeFlba16(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<int64_t> words = bench::RandomInts<int64_t>(2 * n);
  ByteStreamSplitEncoder<ByteArray> encoder(16);
  if (!encoder.PutBytes(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(words.data()), 16 * n))
           .ok()) {
    state.SkipWithError("put");
  }
  const std::vector<uint8_t> bytes = encoder.Finish();
  std::vector<uint8_t> out(16 * n);
  ByteStreamSplitDecoder<ByteArray> decoder(16);
  for (auto _ : state) {
    if (!decoder.Reset(bytes, static_cast<int64_t>(n)).ok()) state.SkipWithError("reset");
    if (!decoder.DecodeBytes(absl::MakeSpan(out)).ok()) state.SkipWithError("decode");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bench::SetCounters(state, n, 16 * n);
}

// The kernels themselves, scalar and AVX2, on the same data.
void BM_BssKernel(benchmark::State& state, bool avx2, int width, bool decode) {
  if (avx2 && !internal::UseAvx2Twins()) {
    state.SkipWithError("no AVX2");
    return;
  }
  const auto& kernels =
      avx2 ? internal::Avx2ByteStreamSplitKernels() : internal::ScalarByteStreamSplitKernels();
  const int64_t n = state.range(0);
  const std::vector<int64_t> words = bench::RandomInts<int64_t>(static_cast<size_t>(n));
  std::vector<uint8_t> in(n * width), out(n * width);
  std::memcpy(in.data(), words.data(), in.size());
  for (auto _ : state) {
    if (decode) {
      (width == 4 ? kernels.decode4 : kernels.decode8)(in.data(), n, n, out.data());
    } else {
      (width == 4 ? kernels.encode4 : kernels.encode8)(in.data(), n, n, out.data());
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bench::SetCounters(state, static_cast<size_t>(n), static_cast<size_t>(n * width));
}

#define PQPAGE_SIZES ->Arg(4096)->Arg(65536)->Arg(4 << 20)
BENCHMARK(BM_BssEncode<float>) PQPAGE_SIZES;
BENCHMARK(BM_BssDecode<float>) PQPAGE_SIZES;
BENCHMARK(BM_BssEncode<double>) PQPAGE_SIZES;
BENCHMARK(BM_BssDecode<double>) PQPAGE_SIZES;
BENCHMARK(BM_BssEncode<int32_t>) PQPAGE_SIZES;
BENCHMARK(BM_BssDecode<int32_t>) PQPAGE_SIZES;
BENCHMARK(BM_BssEncode<int64_t>) PQPAGE_SIZES;
BENCHMARK(BM_BssDecode<int64_t>) PQPAGE_SIZES;
BENCHMARK(BM_BssEncodeFlba16) PQPAGE_SIZES;
BENCHMARK(BM_BssDecodeFlba16) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_BssKernel, decode4_scalar, false, 4, true) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_BssKernel, decode4_avx2, true, 4, true) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_BssKernel, decode8_scalar, false, 8, true) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_BssKernel, decode8_avx2, true, 8, true) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_BssKernel, encode4_scalar, false, 4, false) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_BssKernel, encode4_avx2, true, 4, false) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_BssKernel, encode8_scalar, false, 8, false) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_BssKernel, encode8_avx2, true, 8, false) PQPAGE_SIZES;

}  // namespace
}  // namespace pqpage
