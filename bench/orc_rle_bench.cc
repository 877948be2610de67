// ORC's integer RLE v2 beside Parquet's DELTA_BINARY_PACKED, on the same int64 columns: sorted ids,
// timestamps, clock times with repeats, small counts, low-cardinality codes, small values with rare
// huge outliers (PATCHED_BASE's case) and uniform random 64-bit values. Each benchmark encodes or
// decodes 65,536 values per iteration and reports values/s and the encoded size ("encoded_bytes").
// Run: build/orc_rle_bench --benchmark_filter=Decode (or Encode).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "bench_data.h"
#include "bench_runner.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/orc/integer_rle_v1.h"
#include "pqpage/orc/integer_rle_v2.h"

namespace pqpage {
namespace {

constexpr size_t kValues = 65536;

std::vector<int64_t> Ids(size_t n) {
  std::vector<int64_t> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = 1'000'000 + static_cast<int64_t>(i);
  return values;
}
std::vector<int64_t> Timestamps(size_t n) { return bench::SortedTimestamps(n); }
// Seconds of the day at which events happen, many events per second: long runs of equal values.
std::vector<int64_t> ClockSeconds(size_t n) {
  bench::BenchRng rng(12);
  std::vector<int64_t> values(n);
  int64_t second = 8 * 3600;
  for (auto& value : values) value = (second += rng.Next() % 8 == 0 ? 1 : 0);
  return values;
}
std::vector<int64_t> SmallCounts(size_t n) { return bench::BoundedInts<int64_t>(n, 1000); }
std::vector<int64_t> Codes(size_t n) { return bench::LowCardinalityIds<int64_t>(n, 20); }
std::vector<int64_t> Outliers(size_t n) {
  bench::BenchRng rng(13);
  std::vector<int64_t> values(n);
  for (auto& value : values) {
    value = rng.Next() % 200 == 0 ? static_cast<int64_t>(rng.Next() >> 12)
                                  : static_cast<int64_t>(rng.Next() % 500);
  }
  return values;
}
std::vector<int64_t> Random64(size_t n) { return bench::RandomInts<int64_t>(n); }

template <std::vector<int64_t> (*Make)(size_t)>
void BM_OrcRleV2Encode(benchmark::State& state) {
  const std::vector<int64_t> values = Make(kValues);
  orc::IntegerRleV2Encoder encoder(orc::Signedness::kSigned);
  bench::TimeEncode(state, encoder, absl::MakeConstSpan(values));
  bench::SetCounters(state, values.size(), values.size() * sizeof(int64_t));
}

template <std::vector<int64_t> (*Make)(size_t)>
void BM_OrcRleV2Decode(benchmark::State& state) {
  const std::vector<int64_t> values = Make(kValues);
  orc::IntegerRleV2Encoder encoder(orc::Signedness::kSigned);
  (void)encoder.Put(values);
  const std::vector<uint8_t> stream = encoder.Finish();
  orc::IntegerRleV2Decoder decoder(orc::Signedness::kSigned);
  std::vector<int64_t> out(values.size());
  bench::TimeDecode(state, decoder, absl::MakeConstSpan(stream), absl::MakeSpan(out));
  bench::SetCounters(state, values.size(), values.size() * sizeof(int64_t));
  state.counters["encoded_bytes"] = static_cast<double>(stream.size());
}

template <std::vector<int64_t> (*Make)(size_t)>
void BM_OrcRleV1Decode(benchmark::State& state) {
  const std::vector<int64_t> values = Make(kValues);
  orc::IntegerRleV1Encoder encoder(orc::Signedness::kSigned);
  (void)encoder.Put(values);
  const std::vector<uint8_t> stream = encoder.Finish();
  orc::IntegerRleV1Decoder decoder(orc::Signedness::kSigned);
  std::vector<int64_t> out(values.size());
  bench::TimeDecode(state, decoder, absl::MakeConstSpan(stream), absl::MakeSpan(out));
  bench::SetCounters(state, values.size(), values.size() * sizeof(int64_t));
  state.counters["encoded_bytes"] = static_cast<double>(stream.size());
}

template <std::vector<int64_t> (*Make)(size_t)>
void BM_DeltaBinaryPackedEncode(benchmark::State& state) {
  const std::vector<int64_t> values = Make(kValues);
  DeltaBinaryPackedEncoder<int64_t> encoder;
  bench::TimeEncode(state, encoder, absl::MakeConstSpan(values));
  bench::SetCounters(state, values.size(), values.size() * sizeof(int64_t));
}

template <std::vector<int64_t> (*Make)(size_t)>
void BM_DeltaBinaryPackedDecode(benchmark::State& state) {
  const std::vector<int64_t> values = Make(kValues);
  DeltaBinaryPackedEncoder<int64_t> encoder;
  (void)encoder.Put(values);
  const std::vector<uint8_t> page = encoder.Finish();
  DeltaBinaryPackedDecoder<int64_t> decoder;
  std::vector<int64_t> out(values.size());
  bench::TimeDecode(state, decoder, absl::MakeConstSpan(page), absl::MakeSpan(out));
  bench::SetCounters(state, values.size(), values.size() * sizeof(int64_t));
  state.counters["encoded_bytes"] = static_cast<double>(page.size());
}

#define PQPAGE_ORC_SHAPE(Shape)                          \
  BENCHMARK_TEMPLATE(BM_OrcRleV2Encode, Shape);          \
  BENCHMARK_TEMPLATE(BM_DeltaBinaryPackedEncode, Shape); \
  BENCHMARK_TEMPLATE(BM_OrcRleV2Decode, Shape);          \
  BENCHMARK_TEMPLATE(BM_OrcRleV1Decode, Shape);          \
  BENCHMARK_TEMPLATE(BM_DeltaBinaryPackedDecode, Shape);

PQPAGE_ORC_SHAPE(Ids)
PQPAGE_ORC_SHAPE(Timestamps)
PQPAGE_ORC_SHAPE(ClockSeconds)
PQPAGE_ORC_SHAPE(SmallCounts)
PQPAGE_ORC_SHAPE(Codes)
PQPAGE_ORC_SHAPE(Outliers)
PQPAGE_ORC_SHAPE(Random64)
#undef PQPAGE_ORC_SHAPE

}  // namespace
}  // namespace pqpage
