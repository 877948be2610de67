// Bloom filter probes and inserts, pqpage's BloomFilter against Arrow C++'s
// BlockSplitBloomFilter, side by side in arrow_comparison_bench (names as ratios.py reads them:
// <direction>/bloom/<shape>/<arrow|pqpage>). Both filters hold the same values in the same number
// of bytes, so they set the same bits; what differs is the code.
#include <benchmark/benchmark.h>
#include <parquet/bloom_filter.h>
#include <parquet/types.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "pqpage/bloom_filter.h"
#include "pqpage/types.h"

namespace pqpage_bench {
namespace {

constexpr int kProbes = 4096;

// `count` distinct ids and as many absent ones (odd), shuffled together: half the probes hit.
std::vector<int64_t> Ids(int64_t count, uint64_t seed) {
  std::vector<int64_t> ids;
  std::mt19937_64 rng(seed);
  for (int64_t i = 0; i < count; ++i) ids.push_back(static_cast<int64_t>(rng() << 1));
  return ids;
}

std::vector<int64_t> Probes(const std::vector<int64_t>& present, uint64_t seed) {
  std::vector<int64_t> probes;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < kProbes; ++i) {
    probes.push_back(i % 2 == 0 ? present[rng() % present.size()]
                                : static_cast<int64_t>(rng() << 1 | 1));
  }
  return probes;
}

// URLs of 40 to 60 bytes.
std::vector<std::string> Urls(int count, uint64_t seed) {
  std::vector<std::string> urls;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < count; ++i) {
    urls.push_back("https://shop.example.com/item/" + std::to_string(rng() % 100000000) +
                   "?ref=" + std::to_string(rng() % 1000000));
  }
  return urls;
}

void Items(benchmark::State& state, int64_t per_iteration) {
  state.SetItemsProcessed(state.iterations() * per_iteration);
}

// Probes of an int64 filter of `bytes` holding `values` ids: the hash given (`hashed`) or the
// value hashed at each probe.
void RegisterInt64Probes(const char* shape, int64_t bytes, int64_t values, bool hashed) {
  const std::vector<int64_t> present = Ids(values, 1);
  const std::vector<int64_t> probes = Probes(present, 2);
  benchmark::RegisterBenchmark((std::string("probe/bloom/") + shape + "/arrow").c_str(),
                               [=](benchmark::State& state) {
                                 parquet::BlockSplitBloomFilter filter;
                                 filter.Init(static_cast<uint32_t>(bytes));
                                 for (const int64_t id : present)
                                   filter.InsertHash(filter.Hash(id));
                                 std::vector<uint64_t> hashes;
                                 for (const int64_t id : probes) hashes.push_back(filter.Hash(id));
                                 for (auto _ : state) {
                                   int found = 0;
                                   if (hashed) {
                                     for (const uint64_t hash : hashes)
                                       found += filter.FindHash(hash);
                                   } else {
                                     for (const int64_t id : probes)
                                       found += filter.FindHash(filter.Hash(id));
                                   }
                                   benchmark::DoNotOptimize(found);
                                 }
                                 Items(state, kProbes);
                               });
  benchmark::RegisterBenchmark((std::string("probe/bloom/") + shape + "/pqpage").c_str(),
                               [=](benchmark::State& state) {
                                 pqpage::BloomFilter filter(bytes);
                                 for (const int64_t id : present)
                                   filter.InsertHash(pqpage::BloomFilter::Hash(id));
                                 std::vector<uint64_t> hashes;
                                 for (const int64_t id : probes)
                                   hashes.push_back(pqpage::BloomFilter::Hash(id));
                                 for (auto _ : state) {
                                   int found = 0;
                                   if (hashed) {
                                     for (const uint64_t hash : hashes)
                                       found += filter.MayContainHash(hash);
                                   } else {
                                     for (const int64_t id : probes) found += filter.MayContain(id);
                                   }
                                   benchmark::DoNotOptimize(found);
                                 }
                                 Items(state, kProbes);
                               });
}

}  // namespace

void RegisterBloomFilterComparisons() {
  // In cache (64 KiB, 30,000 ids: about 1% false positives) and out of it (32 MiB).
  RegisterInt64Probes("hash_64KiB", 64 << 10, 30000, /*hashed=*/true);
  RegisterInt64Probes("int64_64KiB", 64 << 10, 30000, /*hashed=*/false);
  RegisterInt64Probes("hash_32MiB", 32 << 20, 1 << 24, /*hashed=*/true);
  // URLs: the hash of 40-60 bytes dominates.
  const std::vector<std::string> urls = Urls(kProbes, 3);
  benchmark::RegisterBenchmark("probe/bloom/url_64KiB/arrow", [=](benchmark::State& state) {
    parquet::BlockSplitBloomFilter filter;
    filter.Init(64 << 10);
    for (size_t i = 0; i < urls.size(); i += 2) filter.InsertHash(filter.Hash(urls[i]));
    for (auto _ : state) {
      int found = 0;
      for (const std::string& url : urls) {
        const parquet::ByteArray value(static_cast<uint32_t>(url.size()),
                                       reinterpret_cast<const uint8_t*>(url.data()));
        found += filter.FindHash(filter.Hash(&value));
      }
      benchmark::DoNotOptimize(found);
    }
    Items(state, kProbes);
  });
  benchmark::RegisterBenchmark("probe/bloom/url_64KiB/pqpage", [=](benchmark::State& state) {
    pqpage::BloomFilter filter(64 << 10);
    for (size_t i = 0; i < urls.size(); i += 2) {
      filter.InsertHash(pqpage::BloomFilter::Hash(std::string_view(urls[i])));
    }
    for (auto _ : state) {
      int found = 0;
      for (const std::string& url : urls) found += filter.MayContain(pqpage::ByteArray(url));
      benchmark::DoNotOptimize(found);
    }
    Items(state, kProbes);
  });
  // Building a 1 MiB filter of 500,000 ids, hashing included.
  const std::vector<int64_t> ids = Ids(500000, 4);
  benchmark::RegisterBenchmark("insert/bloom/int64_1MiB/arrow", [=](benchmark::State& state) {
    for (auto _ : state) {
      parquet::BlockSplitBloomFilter filter;
      filter.Init(1 << 20);
      for (const int64_t id : ids) filter.InsertHash(filter.Hash(id));
      benchmark::DoNotOptimize(filter.GetBitsetSize());
    }
    Items(state, static_cast<int64_t>(ids.size()));
  });
  benchmark::RegisterBenchmark("insert/bloom/int64_1MiB/pqpage", [=](benchmark::State& state) {
    for (auto _ : state) {
      pqpage::BloomFilter filter(1 << 20);
      for (const int64_t id : ids) filter.InsertHash(pqpage::BloomFilter::Hash(id));
      benchmark::DoNotOptimize(filter.num_bytes());
    }
    Items(state, static_cast<int64_t>(ids.size()));
  });
}

}  // namespace pqpage_bench
