// Dictionary encoding: index decode + gather into int32/int64/double/byte-array views, index-only
// decode, and building a dictionary, on low- and high-cardinality ids.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "pqpage/dictionary.h"

namespace pqpage {
namespace {

template <typename T>
T MakeValue(uint32_t id) {
  return static_cast<T>(id) * 7 + 1;
}

// `n` ids drawn from `cardinality` distinct values, Zipf-like skew so that runs occur the way
// they do in real id columns.
std::vector<uint32_t> Ids(size_t n, uint32_t cardinality) {
  std::mt19937 rng(3);
  std::vector<uint32_t> ids(n);
  for (auto& id : ids) {
    const uint32_t a = rng() % cardinality, b = rng() % cardinality;
    id = std::min(a, b);
  }
  return ids;
}

template <typename T>
void BM_DictionaryDecode(benchmark::State& state) {
  const uint32_t cardinality = static_cast<uint32_t>(state.range(0));
  const size_t n = static_cast<size_t>(state.range(1));
  std::vector<T> values;
  for (uint32_t id : Ids(n, cardinality)) values.push_back(MakeValue<T>(id));
  DictionaryEncoder<T> encoder;
  if (!encoder.Put(values).ok()) std::abort();
  const std::vector<uint8_t> page = encoder.FinishDataPage();
  const std::vector<uint8_t> dictionary_page = encoder.DictionaryPage();
  DictionaryDecoder<T> decoder;
  if (!decoder.SetDictionary(dictionary_page, encoder.num_entries()).ok()) std::abort();
  std::vector<T> out(n);
  for (auto _ : state) {
    if (!decoder.Reset(page, n).ok() || !decoder.Decode(absl::MakeSpan(out)).ok()) {
      state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * sizeof(T));
}
BENCHMARK(BM_DictionaryDecode<int32_t>)->ArgsProduct({{100, 5000}, {4096, 65536, 4 << 20}});
BENCHMARK(BM_DictionaryDecode<int64_t>)->ArgsProduct({{100, 5000}, {4096, 65536, 4 << 20}});
BENCHMARK(BM_DictionaryDecode<double>)->ArgsProduct({{5000}, {65536}});

void BM_DictionaryDecodeIndices(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<int32_t> values;
  for (uint32_t id : Ids(n, 5000)) values.push_back(MakeValue<int32_t>(id));
  DictionaryEncoder<int32_t> encoder;
  if (!encoder.Put(values).ok()) std::abort();
  const std::vector<uint8_t> page = encoder.FinishDataPage();
  DictionaryDecoder<int32_t> decoder;
  if (!decoder.SetDictionary(encoder.DictionaryPage(), encoder.num_entries()).ok()) std::abort();
  std::vector<uint32_t> out(n);
  for (auto _ : state) {
    if (!decoder.Reset(page, n).ok() || !decoder.DecodeIndices(absl::MakeSpan(out)).ok()) {
      state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_DictionaryDecodeIndices)->Arg(65536);

void BM_DictionaryDecodeStrings(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<std::string> storage;
  for (uint32_t id : Ids(n, 2000))
    storage.push_back("https://example.org/item/" + std::to_string(id));
  std::vector<ByteArray> values;
  for (const auto& s : storage) values.emplace_back(s);
  DictionaryEncoder<ByteArray> encoder;
  if (!encoder.Put(values).ok()) std::abort();
  const std::vector<uint8_t> page = encoder.FinishDataPage();
  const std::vector<uint8_t> dictionary_page = encoder.DictionaryPage();
  DictionaryDecoder<ByteArray> decoder;
  if (!decoder.SetDictionary(dictionary_page, encoder.num_entries()).ok()) std::abort();
  std::vector<ByteArray> out(n);
  for (auto _ : state) {
    if (!decoder.Reset(page, n).ok() || !decoder.Decode(absl::MakeSpan(out)).ok()) {
      state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_DictionaryDecodeStrings)->Arg(65536);

template <typename T>
void BM_DictionaryEncode(benchmark::State& state) {
  const uint32_t cardinality = static_cast<uint32_t>(state.range(0));
  const size_t n = static_cast<size_t>(state.range(1));
  std::vector<T> values;
  for (uint32_t id : Ids(n, cardinality)) values.push_back(MakeValue<T>(id));
  for (auto _ : state) {
    DictionaryEncoder<T> encoder;
    if (!encoder.Put(values).ok()) state.SkipWithError("encode failed");
    auto page = encoder.FinishDataPage();
    benchmark::DoNotOptimize(page.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_DictionaryEncode<int32_t>)->ArgsProduct({{100, 5000}, {65536}});
BENCHMARK(BM_DictionaryEncode<int64_t>)->ArgsProduct({{5000}, {65536, 4 << 20}});

}  // namespace
}  // namespace pqpage
