// Benchmarks of GroupVarInt (seed 003; not a Parquet encoding) on small ids (mostly 1-2 byte
// values), random ints (full width) and sorted timestamps (int64). Bytes/s counts the values'
// in-memory size.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_data.h"
#include "bench_runner.h"
#include "pqpage/group_var_int.h"

namespace pqpage {
namespace {

template <typename T>
std::vector<T> Data(int shape, size_t n) {
  switch (shape) {
    case 0:
      return bench::LowCardinalityIds<T>(n, 1000);
    case 1:
      return bench::RandomInts<T>(n);
    default:
      if constexpr (sizeof(T) == 8) return bench::SortedTimestamps(n);
      return bench::BoundedInts<T>(n, 1 << 20);
  }
}

template <typename T>
void BM_GroupVarIntEncode(benchmark::State& state, int shape) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<T> values = Data<T>(shape, n);
  GroupVarIntEncoder<T> encoder;
  bench::TimeEncode(state, encoder, values);
  bench::SetCounters(state, n, n * sizeof(T));
}

template <typename T>
void BM_GroupVarIntDecode(benchmark::State& state, int shape) {
  const size_t n = static_cast<size_t>(state.range(0));
  GroupVarIntEncoder<T> encoder;
  (void)encoder.Put(Data<T>(shape, n));  // never fails
  const std::vector<uint8_t> bytes = encoder.Finish();
  state.counters["encoded_bytes_per_value"] = static_cast<double>(bytes.size()) / n;
  std::vector<T> out(n);
  GroupVarIntDecoder<T> decoder;
  bench::TimeDecode(state, decoder, bytes, absl::MakeSpan(out));
  bench::SetCounters(state, n, n * sizeof(T));
}

void BM_Encode32(benchmark::State& state, int shape) {
  BM_GroupVarIntEncode<int32_t>(state, shape);
}
void BM_Decode32(benchmark::State& state, int shape) {
  BM_GroupVarIntDecode<int32_t>(state, shape);
}
void BM_Encode64(benchmark::State& state, int shape) {
  BM_GroupVarIntEncode<int64_t>(state, shape);
}
void BM_Decode64(benchmark::State& state, int shape) {
  BM_GroupVarIntDecode<int64_t>(state, shape);
}

#define PQPAGE_SIZES ->Arg(4096)->Arg(65536)->Arg(4 << 20)
BENCHMARK_CAPTURE(BM_Encode32, small_ids, 0) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_Decode32, small_ids, 0) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_Encode32, random, 1) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_Decode32, random, 1) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_Encode64, small_ids, 0) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_Decode64, small_ids, 0) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_Encode64, timestamps, 2) PQPAGE_SIZES;
BENCHMARK_CAPTURE(BM_Decode64, timestamps, 2) PQPAGE_SIZES;

}  // namespace
}  // namespace pqpage
