// Benchmarks of PLAIN: fixed-width encode/decode against a memcpy of the same bytes (the bound the
// fixed-width paths should reach), BYTE_ARRAY on short and long strings (views and Arrow-style
// offsets), and booleans.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <vector>

#include "bench_data.h"
#include "bench_runner.h"
#include "pqpage/plain.h"

namespace pqpage {
namespace {

template <typename T>
std::vector<T> FixedData(size_t n) {
  if constexpr (std::is_same_v<T, int32_t>) return bench::RandomInts<int32_t>(n);
  if constexpr (std::is_same_v<T, int64_t>) return bench::SortedTimestamps(n);
  if constexpr (std::is_same_v<T, double>) return bench::Doubles(n);
}

template <typename T>
void BM_MemcpyBaseline(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<T> values = FixedData<T>(n);
  std::vector<T> out(n);
  for (auto _ : state) {
    std::memcpy(out.data(), values.data(), n * sizeof(T));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bench::SetCounters(state, n, n * sizeof(T));
}

template <typename T>
void BM_PlainEncode(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<T> values = FixedData<T>(n);
  PlainEncoder<T> encoder;
  bench::TimeEncode(state, encoder, values);
  bench::SetCounters(state, n, n * sizeof(T));
}

template <typename T>
void BM_PlainDecode(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<T> values = FixedData<T>(n);
  PlainEncoder<T> encoder;
  (void)encoder.Put(values);  // never fails
  const std::vector<uint8_t> bytes = encoder.Finish();
  std::vector<T> out(n);
  PlainDecoder<T> decoder;
  bench::TimeDecode(state, decoder, bytes, absl::MakeSpan(out));
  bench::SetCounters(state, n, n * sizeof(T));
}

#define PQPAGE_SIZES ->Arg(4096)->Arg(65536)->Arg(4 << 20)
BENCHMARK(BM_MemcpyBaseline<int32_t>) PQPAGE_SIZES;
BENCHMARK(BM_PlainEncode<int32_t>) PQPAGE_SIZES;
BENCHMARK(BM_PlainDecode<int32_t>) PQPAGE_SIZES;
BENCHMARK(BM_MemcpyBaseline<int64_t>) PQPAGE_SIZES;
BENCHMARK(BM_PlainEncode<int64_t>) PQPAGE_SIZES;
BENCHMARK(BM_PlainDecode<int64_t>) PQPAGE_SIZES;
BENCHMARK(BM_MemcpyBaseline<double>) PQPAGE_SIZES;
BENCHMARK(BM_PlainEncode<double>) PQPAGE_SIZES;
BENCHMARK(BM_PlainDecode<double>) PQPAGE_SIZES;

// ---------------------------------------------------------------- BYTE_ARRAY
std::vector<std::string> Strings(bool long_strings, size_t n) {
  return long_strings ? bench::LongStrings(n) : bench::ShortStrings(n);
}

void BM_PlainEncodeByteArray(benchmark::State& state, bool long_strings) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<std::string> strings = Strings(long_strings, n);
  const std::vector<ByteArray> values = bench::MakeByteArrays(strings);
  PlainEncoder<ByteArray> encoder;
  bench::TimeEncode(state, encoder, values);
  bench::SetCounters(state, n, bench::TotalBytes(strings) + 4 * n);
}

// A PLAIN page of `strings`.
std::vector<uint8_t> PlainPage(benchmark::State& state, const std::vector<std::string>& strings) {
  PlainEncoder<ByteArray> encoder;
  if (!encoder.Put(bench::MakeByteArrays(strings)).ok()) state.SkipWithError("put");
  return encoder.Finish();
}

void BM_PlainDecodeByteArray(benchmark::State& state, bool long_strings) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> bytes = PlainPage(state, Strings(long_strings, n));
  std::vector<ByteArray> out(n);
  PlainDecoder<ByteArray> decoder;
  bench::TimeDecode(state, decoder, bytes, absl::MakeSpan(out));
  bench::SetCounters(state, n, bytes.size());
}

void BM_PlainDecodeByteArrayToOffsets(benchmark::State& state, bool long_strings) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> bytes = PlainPage(state, Strings(long_strings, n));
  std::vector<int32_t> offsets;
  std::vector<uint8_t> data;
  PlainDecoder<ByteArray> decoder;
  for (auto _ : state) {
    offsets.clear();
    data.clear();
    if (!decoder.Reset(bytes, static_cast<int64_t>(n)).ok()) state.SkipWithError("reset");
    auto got = decoder.DecodeToOffsets(static_cast<int64_t>(n), &offsets, &data);
    if (!got.ok() || *got != static_cast<int64_t>(n)) state.SkipWithError("decode");
    benchmark::DoNotOptimize(data.data());
  }
  bench::SetCounters(state, n, bytes.size());
}

// Copies into one buffer with their lengths (what the Arrow reader does with PLAIN strings); the
// buffer is reused, as a reader's recycled batch buffers are.
void BM_PlainDecodeByteArrayCopies(benchmark::State& state, bool long_strings) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> bytes = PlainPage(state, Strings(long_strings, n));
  std::vector<int32_t> lengths(n);
  std::vector<uint8_t> data(bytes.size());
  PlainDecoder<ByteArray> decoder;
  for (auto _ : state) {
    if (!decoder.Reset(bytes, static_cast<int64_t>(n)).ok()) state.SkipWithError("reset");
    const absl::Status copied = decoder.DecodeCopies(static_cast<int64_t>(n), lengths.data(),
                                                     [&](size_t) { return data.data(); });
    if (!copied.ok()) state.SkipWithError("decode");
    benchmark::DoNotOptimize(data.data());
  }
  bench::SetCounters(state, n, bytes.size());
}

// Long strings average 550 bytes: 1M of them is already 550 MB, so they stop there.
BENCHMARK_CAPTURE(BM_PlainEncodeByteArray, short, false) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_PlainEncodeByteArray, long, true)->Arg(4096)->Arg(65536)->Arg(1 << 20);
BENCHMARK_CAPTURE(BM_PlainDecodeByteArray, short, false) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_PlainDecodeByteArray, long, true)->Arg(4096)->Arg(65536)->Arg(1 << 20);
BENCHMARK_CAPTURE(BM_PlainDecodeByteArrayToOffsets, short, false) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_PlainDecodeByteArrayCopies, short, false) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_PlainDecodeByteArrayCopies, long, true)->Arg(4096)->Arg(65536);
BENCHMARK_CAPTURE(BM_PlainDecodeByteArrayToOffsets, long, true)
    ->Arg(4096)
    ->Arg(65536)
    ->Arg(1 << 20);

// ---------------------------------------------------------------- BOOLEAN
void BM_PlainEncodeBoolean(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> ids = bench::BoundedInts<uint8_t>(n, 2);
  std::unique_ptr<bool[]> values(new bool[n]);
  for (size_t i = 0; i < n; ++i) values[i] = ids[i] != 0;
  PlainEncoder<bool> encoder;
  bench::TimeEncode(state, encoder, absl::MakeConstSpan(values.get(), n));
  bench::SetCounters(state, n, n);
}

void BM_PlainDecodeBoolean(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> ids = bench::BoundedInts<uint8_t>(n, 2);
  std::unique_ptr<bool[]> values(new bool[n]);
  for (size_t i = 0; i < n; ++i) values[i] = ids[i] != 0;
  PlainEncoder<bool> encoder;
  (void)encoder.Put(absl::MakeConstSpan(values.get(), n));  // never fails
  const std::vector<uint8_t> bytes = encoder.Finish();
  PlainDecoder<bool> decoder;
  bench::TimeDecode(state, decoder, bytes, absl::MakeSpan(values.get(), n));
  bench::SetCounters(state, n, n);
}

BENCHMARK(BM_PlainEncodeBoolean) PQPAGE_SIZES;
BENCHMARK(BM_PlainDecodeBoolean) PQPAGE_SIZES;

}  // namespace
}  // namespace pqpage
