// The timing loops the codec benchmarks share: encode a whole page (Put + FinishInto) or decode a
// whole page (Reset + Decode) once per iteration, and report items/s and bytes/s. Keeping one copy
// means every codec is timed the same way, so their figures compare.
#ifndef PQPAGE_BENCH_BENCH_RUNNER_H_
#define PQPAGE_BENCH_BENCH_RUNNER_H_

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"

namespace pqpage::bench {

// Reports items/s and bytes/s from what one iteration handles; call after the timing loop.
inline void SetCounters(benchmark::State& state, size_t items_per_run, size_t bytes_per_run) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * items_per_run));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes_per_run));
}

// Times encoding `values` into one page per iteration, reusing the output buffer so the loop
// measures the encoder rather than the allocator. Encoders whose Put can reject a value return
// absl::Status; a rejection ends the run with an error instead of timing a partial page. Leaves the
// page size in the "encoded_bytes" counter.
template <typename Encoder, typename Values>
void TimeEncode(benchmark::State& state, Encoder& encoder, const Values& values) {
  std::vector<uint8_t> out;
  for (auto _ : state) {
    out.clear();
    if constexpr (std::is_void_v<decltype(encoder.Put(values))>) {
      encoder.Put(values);
    } else {
      if (!encoder.Put(values).ok()) {
        state.SkipWithError("put failed");
        break;
      }
    }
    encoder.FinishInto(&out);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["encoded_bytes"] = static_cast<double>(out.size());
}

// Times decoding the page `bytes` into all of `out` per iteration (Reset + Decode, so the header
// parse is counted too). ClobberMemory keeps the compiler from dropping the stores into `out`.
template <typename Decoder, typename Out>
void TimeDecode(benchmark::State& state, Decoder& decoder, absl::Span<const uint8_t> bytes,
                absl::Span<Out> out) {
  for (auto _ : state) {
    if (!decoder.Reset(bytes, static_cast<int64_t>(out.size())).ok() || !decoder.Decode(out).ok()) {
      state.SkipWithError("decode failed");
      break;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}

}  // namespace pqpage::bench

#endif  // PQPAGE_BENCH_BENCH_RUNNER_H_
