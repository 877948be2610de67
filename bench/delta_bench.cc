// Benchmarks of the DELTA_* family on realistic shapes: DELTA_BINARY_PACKED on sorted int64
// timestamps, random int32 and small-range ids; DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY on
// short strings and URL-like strings with shared prefixes. Data is generated deterministically.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench_runner.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/delta_length_byte_array.h"

namespace pqpage {
namespace {

// ---------------------------------------------------------------- data
std::vector<int64_t> Timestamps(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> v(n);
  int64_t t = 1'700'000'000'000'000;  // microseconds
  for (auto& x : v) x = (t += 1000 + static_cast<int64_t>(rng() % 200));
  return v;
}

std::vector<int32_t> RandomInt32(size_t n) {
  std::mt19937_64 rng(43);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = static_cast<int32_t>(rng());
  return v;
}

std::vector<int32_t> SmallIds(size_t n) {
  std::mt19937_64 rng(44);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = static_cast<int32_t>(rng() % 1000);
  return v;
}

std::vector<std::string> ShortStrings(size_t n) {
  std::mt19937_64 rng(45);
  std::vector<std::string> v(n);
  for (auto& s : v) {
    s.resize(4 + rng() % 12);
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
  }
  return v;
}

// Sorted-ish URLs sharing host and path prefixes, ~20-40 bytes.
std::vector<std::string> Urls(size_t n) {
  std::mt19937_64 rng(46);
  const char* hosts[] = {"https://a.example.com/", "https://www.example.org/",
                         "http://cdn.example.net/"};
  const char* dirs[] = {"img/", "api/v1/", "docs/", "u/"};
  std::vector<std::string> v(n);
  size_t host = 0, dir = 0;
  uint64_t id = 1000;
  for (auto& s : v) {
    if (rng() % 64 == 0) host = rng() % 3;
    if (rng() % 16 == 0) dir = rng() % 4;
    id += 1 + rng() % 7;
    s = std::string(hosts[host]) + dirs[dir] + std::to_string(id);
  }
  return v;
}

std::vector<ByteArray> Views(const std::vector<std::string>& strings) {
  std::vector<ByteArray> views;
  views.reserve(strings.size());
  for (const auto& s : strings) views.emplace_back(s);
  return views;
}

size_t TotalBytes(const std::vector<std::string>& strings) {
  size_t total = 0;
  for (const auto& s : strings) total += s.size();
  return total;
}

// ---------------------------------------------------------------- DELTA_BINARY_PACKED
template <typename T, std::vector<T> (*Make)(size_t)>
void BM_DeltaBinaryPackedEncode(benchmark::State& state) {
  const auto values = Make(static_cast<size_t>(state.range(0)));
  DeltaBinaryPackedEncoder<T> encoder;
  bench::TimeEncode(state, encoder, values);
  bench::SetCounters(state, values.size(), values.size() * sizeof(T));
}

template <typename T, std::vector<T> (*Make)(size_t)>
void BM_DeltaBinaryPackedDecode(benchmark::State& state) {
  const auto values = Make(static_cast<size_t>(state.range(0)));
  DeltaBinaryPackedEncoder<T> encoder;
  (void)encoder.Put(values);  // never fails
  const std::vector<uint8_t> bytes = encoder.Finish();
  std::vector<T> out(values.size());
  DeltaBinaryPackedDecoder<T> decoder;
  bench::TimeDecode(state, decoder, bytes, absl::MakeSpan(out));
  if (out != values) state.SkipWithError("round trip mismatch");
  bench::SetCounters(state, values.size(), values.size() * sizeof(T));
}

#define PQPAGE_SIZES ->Arg(4096)->Arg(65536)->Arg(4 << 20)

BENCHMARK_TEMPLATE(BM_DeltaBinaryPackedEncode, int64_t, Timestamps) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaBinaryPackedDecode, int64_t, Timestamps) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaBinaryPackedEncode, int32_t, RandomInt32) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaBinaryPackedDecode, int32_t, RandomInt32) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaBinaryPackedEncode, int32_t, SmallIds) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaBinaryPackedDecode, int32_t, SmallIds) PQPAGE_SIZES;

// ---------------------------------------------------------------- byte arrays
template <std::vector<std::string> (*Make)(size_t)>
void BM_DeltaLengthEncode(benchmark::State& state) {
  const auto strings = Make(static_cast<size_t>(state.range(0)));
  const auto views = Views(strings);
  DeltaLengthByteArrayEncoder encoder;
  bench::TimeEncode(state, encoder, views);
  bench::SetCounters(state, strings.size(), TotalBytes(strings));
}

template <std::vector<std::string> (*Make)(size_t)>
void BM_DeltaLengthDecode(benchmark::State& state) {
  const auto strings = Make(static_cast<size_t>(state.range(0)));
  DeltaLengthByteArrayEncoder encoder;
  (void)encoder.Put(Views(strings));
  const std::vector<uint8_t> bytes = encoder.Finish();
  std::vector<ByteArray> out(strings.size());
  DeltaLengthByteArrayDecoder decoder;
  bench::TimeDecode(state, decoder, bytes, absl::MakeSpan(out));
  bench::SetCounters(state, strings.size(), TotalBytes(strings));
}

template <std::vector<std::string> (*Make)(size_t)>
void BM_DeltaByteArrayEncode(benchmark::State& state) {
  const auto strings = Make(static_cast<size_t>(state.range(0)));
  const auto views = Views(strings);
  DeltaByteArrayEncoder encoder;
  bench::TimeEncode(state, encoder, views);
  bench::SetCounters(state, strings.size(), TotalBytes(strings));
}

template <std::vector<std::string> (*Make)(size_t)>
void BM_DeltaByteArrayDecode(benchmark::State& state) {
  const auto strings = Make(static_cast<size_t>(state.range(0)));
  DeltaByteArrayEncoder encoder;
  (void)encoder.Put(Views(strings));
  const std::vector<uint8_t> bytes = encoder.Finish();
  std::vector<ByteArray> out(strings.size());
  DeltaByteArrayDecoder decoder;
  bench::TimeDecode(state, decoder, bytes, absl::MakeSpan(out));
  for (size_t i = 0; i < strings.size(); ++i) {
    if (out[i].AsStringView() != strings[i]) {
      state.SkipWithError("round trip mismatch");
      break;
    }
  }
  bench::SetCounters(state, strings.size(), TotalBytes(strings));
}

BENCHMARK_TEMPLATE(BM_DeltaLengthEncode, ShortStrings) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaLengthDecode, ShortStrings) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaLengthEncode, Urls) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaLengthDecode, Urls) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaByteArrayEncode, ShortStrings) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaByteArrayDecode, ShortStrings) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaByteArrayEncode, Urls) PQPAGE_SIZES;
BENCHMARK_TEMPLATE(BM_DeltaByteArrayDecode, Urls) PQPAGE_SIZES;

}  // namespace
}  // namespace pqpage
