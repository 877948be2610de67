// Deterministic data generators for the benchmarks: realistic column shapes (sorted timestamps,
// random ints, low-cardinality ids, short / long / URL-like strings, doubles), the same bytes on
// every run for a given seed. Self-contained (standard library only), so any bench file can include
// it. Strings are returned as std::string; MakeByteArrays gives pqpage::ByteArray views of them.
#ifndef PQPAGE_BENCH_BENCH_DATA_H_
#define PQPAGE_BENCH_BENCH_DATA_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pqpage/types.h"

namespace pqpage::bench {

// A small, fast, fixed-output generator (SplitMix64): std::mt19937's output is fixed too, but
// distributions are not portable across standard libraries.
class BenchRng {
 public:
  explicit BenchRng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound), bound > 0 (the slight modulo bias is irrelevant here).
  uint64_t Below(uint64_t bound) { return Next() % bound; }

 private:
  uint64_t state_;
};

// Microsecond timestamps from 2024-01-01, increasing by 0..2 ms per row.
inline std::vector<int64_t> SortedTimestamps(size_t n, uint64_t seed = 1) {
  BenchRng rng(seed);
  std::vector<int64_t> out(n);
  int64_t t = 1704067200000000LL;
  for (size_t i = 0; i < n; ++i) {
    t += static_cast<int64_t>(rng.Below(2000));
    out[i] = t;
  }
  return out;
}

// Uniformly random integers over the whole range of T (int32_t or int64_t).
template <typename T>
inline std::vector<T> RandomInts(size_t n, uint64_t seed = 2) {
  BenchRng rng(seed);
  std::vector<T> out(n);
  for (auto& v : out) v = static_cast<T>(rng.Next());
  return out;
}

// Random non-negative integers below `bound` (small magnitudes, e.g. counts or sizes).
template <typename T>
inline std::vector<T> BoundedInts(size_t n, uint64_t bound, uint64_t seed = 3) {
  BenchRng rng(seed);
  std::vector<T> out(n);
  for (auto& v : out) v = static_cast<T>(rng.Below(bound));
  return out;
}

// Ids drawn from `cardinality` distinct values, skewed towards the small ones.
template <typename T>
inline std::vector<T> LowCardinalityIds(size_t n, uint64_t cardinality = 100, uint64_t seed = 4) {
  BenchRng rng(seed);
  std::vector<T> out(n);
  for (auto& v : out) {
    const uint64_t a = rng.Below(cardinality), b = rng.Below(cardinality);
    v = static_cast<T>(a < b ? a : b);
  }
  return out;
}

// Prices-like doubles: a random walk rounded to cents.
inline std::vector<double> Doubles(size_t n, uint64_t seed = 5) {
  BenchRng rng(seed);
  std::vector<double> out(n);
  double price = 100.0;
  for (auto& v : out) {
    price += (static_cast<double>(rng.Below(2001)) - 1000.0) / 1000.0;
    if (price < 1.0) price = 1.0;
    v = static_cast<double>(static_cast<int64_t>(price * 100.0)) / 100.0;
  }
  return out;
}

// Sensor-like floats: a slow sine plus noise.
inline std::vector<float> Floats(size_t n, uint64_t seed = 6) {
  BenchRng rng(seed);
  std::vector<float> out(n);
  float value = 20.0f;
  for (auto& v : out) {
    value += (static_cast<float>(rng.Below(1001)) - 500.0f) / 5000.0f;
    v = value;
  }
  return out;
}

inline std::string RandomText(BenchRng& rng, size_t length) {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s(length, ' ');
  for (auto& c : s) c = kAlphabet[rng.Below(sizeof(kAlphabet) - 1)];
  return s;
}

// Strings of `min_length`..`max_length` random characters (short: names, codes).
inline std::vector<std::string> ShortStrings(size_t n, size_t min_length = 4,
                                             size_t max_length = 16, uint64_t seed = 7) {
  BenchRng rng(seed);
  std::vector<std::string> out(n);
  for (auto& s : out) s = RandomText(rng, min_length + rng.Below(max_length - min_length + 1));
  return out;
}

// Long strings (documents, JSON blobs): 100..1000 characters by default.
inline std::vector<std::string> LongStrings(size_t n, size_t min_length = 100,
                                            size_t max_length = 1000, uint64_t seed = 8) {
  return ShortStrings(n, min_length, max_length, seed);
}

// URL-like strings sharing long prefixes, sorted-ish by host: good for prefix (delta) encodings.
inline std::vector<std::string> UrlLikeStrings(size_t n, uint64_t seed = 9) {
  BenchRng rng(seed);
  static const char* const kHosts[] = {"https://www.example.com/", "https://shop.example.org/",
                                       "https://docs.example.net/", "http://cdn.example.io/"};
  static const char* const kPaths[] = {"products/", "articles/2024/", "static/img/",
                                       "api/v2/items/"};
  std::vector<std::string> out(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t host = (i * 4) / (n == 0 ? 1 : n);  // grouped by host
    out[i] = std::string(kHosts[host % 4]) + kPaths[rng.Below(4)] +
             std::to_string(rng.Below(100000)) + "/" + RandomText(rng, rng.Below(12));
  }
  return out;
}

// Views of `strings` (which must outlive them).
inline std::vector<ByteArray> MakeByteArrays(const std::vector<std::string>& strings) {
  std::vector<ByteArray> out;
  out.reserve(strings.size());
  for (const auto& s : strings) out.emplace_back(std::string_view(s));
  return out;
}

// Total bytes of the strings' contents.
inline size_t TotalBytes(const std::vector<std::string>& strings) {
  size_t total = 0;
  for (const auto& s : strings) total += s.size();
  return total;
}

}  // namespace pqpage::bench

#endif  // PQPAGE_BENCH_BENCH_DATA_H_
