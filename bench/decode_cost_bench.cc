// The decode cost, per value, of every (physical type, encoding) the format allows for values, on
// realistic data shapes: the measurements behind src/page/decode_costs.inc, the table the page
// builder's auto policy consults to break size ties by decode speed.
// bench/decode_costs/make_decode_costs.py runs these and writes the table (see the README there).
//
// BM_DecodeCost/<TYPE>/<ENCODING>/<shape> encodes one page of 65,536 values with MakeEncoder and
// times Reset + Decode of the whole page through the Decoder<T> that MakeDecoder gives, so every
// encoding pays what a reader pays: one virtual call per batch and the page's setup. The encodings
// are those EncodingAllowed admits for the type, with RLE_DICTIONARY standing for PLAIN_DICTIONARY
// (the same data pages). Every shape goes to every encoding, so the figures of one type compare.
// Counters: time_per_value (CPU seconds per decoded value: what the table keeps, in ns),
// stored_bytes_per_value (the data page plus, for a dictionary, the dictionary page).
//
// A dictionary encoder that fills (over 1 MiB of distinct values, MakeEncoder's default limit) ends
// its run with an error starting "dictionary full": a writer falls back to another encoding there,
// so no page of that shape is ever dictionary-encoded, and the script leaves the run out.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "bench_data.h"
#include "bench_runner.h"
#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/dictionary.h"
#include "pqpage/types.h"

namespace pqpage::bench {
namespace {

constexpr size_t kValues = 65536;
constexpr double kPi = 3.14159265358979323846;

// Uniform in [0, 1), from the top 53 bits.
double Uniform(BenchRng& rng) { return static_cast<double>(rng.Next() >> 11) * 0x1.0p-53; }

// A standard normal draw (Box-Muller), for the log-normal shapes.
double Normal(BenchRng& rng) {
  const double u1 = 1.0 - Uniform(rng);  // in (0, 1]: log(0) is out
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * Uniform(rng));
}

// An index in [0, size), skewed towards 0 (the least of three uniform picks): real columns repeat
// their popular values far more often than the rest.
size_t Skewed(BenchRng& rng, size_t size) {
  return static_cast<size_t>(std::min({rng.Below(size), rng.Below(size), rng.Below(size)}));
}

// ---------------------------------------------------------------- BOOLEAN (as 0/1 bytes)

// A flag that holds for long stretches of rows (is_weekend in time order): runs of 1..4000.
std::vector<uint8_t> BoolLongRuns(size_t n) {
  BenchRng rng(101);
  std::vector<uint8_t> out;
  uint8_t value = 0;
  while (out.size() < n) {
    const size_t run = std::min<size_t>(1 + rng.Below(4000), n - out.size());
    out.insert(out.end(), run, value);
    value ^= 1;
  }
  return out;
}

std::vector<uint8_t> BoolRandom(size_t n) {
  BenchRng rng(102);
  std::vector<uint8_t> out(n);
  for (auto& v : out) v = static_cast<uint8_t>(rng.Below(2));
  return out;
}

// A flag that is rarely set (is_error): 1 row in 100, scattered.
std::vector<uint8_t> BoolRareTrue(size_t n) {
  BenchRng rng(103);
  std::vector<uint8_t> out(n);
  for (auto& v : out) v = rng.Below(100) == 0 ? 1 : 0;
  return out;
}

// ---------------------------------------------------------------- INT32

// The hour of day of events in no particular order, busier by day than by night.
std::vector<int32_t> Hours(size_t n) {
  static constexpr int kWeights[24] = {1,  1,  1, 1, 1, 2,  3,  5,  7, 8, 8, 9,
                                       10, 10, 9, 9, 9, 10, 11, 11, 9, 6, 4, 2};
  int total = 0;
  for (int w : kWeights) total += w;
  BenchRng rng(201);
  std::vector<int32_t> out(n);
  for (auto& v : out) {
    int pick = static_cast<int>(rng.Below(static_cast<uint64_t>(total)));
    int hour = 0;
    while (pick >= kWeights[hour]) pick -= kWeights[hour++];
    v = hour;
  }
  return out;
}

// Clock times as hhmm (1437 is 14:37) of one day's events in arrival order, about 45 a minute, one
// in ten a minute or two behind its neighbours (a late arrival): runs with local repeats.
std::vector<int32_t> ClockTimes(size_t n) {
  BenchRng rng(202);
  std::vector<int32_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    int minute = static_cast<int>(i * 1440 / n);
    if (rng.Below(10) == 0) minute = std::max(0, minute - 1 - static_cast<int>(rng.Below(2)));
    out[i] = (minute / 60) * 100 + minute % 60;
  }
  return out;
}

// ---------------------------------------------------------------- INT64

// Surrogate keys in key order: consecutive, with a gap where rows were deleted every 50 or so.
std::vector<int64_t> SortedIds(size_t n) {
  BenchRng rng(301);
  std::vector<int64_t> out(n);
  int64_t id = 1'000'000'000;
  for (auto& v : out) {
    id += rng.Below(50) == 0 ? 2 + static_cast<int64_t>(rng.Below(1000)) : 1;
    v = id;
  }
  return out;
}

// Microsecond timestamps of events at a steady 1,000 a second, each up to 0.5 ms off its slot (so
// neighbours are now and then out of order).
std::vector<int64_t> SteadyTimestamps(size_t n) {
  BenchRng rng(302);
  std::vector<int64_t> out(n);
  const int64_t start = 1'704'096'000'000'000;  // 2024-01-01 08:00 UTC
  for (size_t i = 0; i < n; ++i) {
    out[i] = start + static_cast<int64_t>(i) * 1000 + static_cast<int64_t>(rng.Below(1001)) - 500;
  }
  return out;
}

// Amounts in cents, log-normal around 25.00: mostly small, a long tail of large ones.
std::vector<int64_t> MoneyCents(size_t n) {
  BenchRng rng(303);
  std::vector<int64_t> out(n);
  for (auto& v : out) v = std::max<int64_t>(1, std::llround(2500.0 * std::exp(1.2 * Normal(rng))));
  return out;
}

// ---------------------------------------------------------------- INT96

// The INT96 timestamp layout Impala, Hive and older Spark write: nanoseconds of the day in the
// first 8 bytes, the Julian day number in the last 4, all little-endian.
Int96 ImpalaTimestamp(uint32_t julian_day, uint64_t nanos_of_day) {
  Int96 value;
  value.words[0] = static_cast<uint32_t>(nanos_of_day);
  value.words[1] = static_cast<uint32_t>(nanos_of_day >> 32);
  value.words[2] = julian_day;
  return value;
}

constexpr uint32_t kJulian20240101 = 2'460'311;
constexpr uint64_t kNanosPerSecond = 1'000'000'000;

// Event times in order, 1,000 a second from 08:00, at microsecond precision.
std::vector<Int96> SortedEventTimes(size_t n) {
  BenchRng rng(401);
  std::vector<Int96> out(n);
  const uint64_t start = 8 * 3600 * kNanosPerSecond;
  for (size_t i = 0; i < n; ++i) {
    out[i] = ImpalaTimestamp(kJulian20240101, start + (i * 1000 + rng.Below(1000)) * 1000);
  }
  return out;
}

// Whole-second times anywhere in one year, in no order (a last_login column).
std::vector<Int96> ScatteredSeconds(size_t n) {
  BenchRng rng(402);
  std::vector<Int96> out(n);
  for (auto& v : out) {
    v = ImpalaTimestamp(kJulian20240101 + static_cast<uint32_t>(rng.Below(366)),
                        rng.Below(86400) * kNanosPerSecond);
  }
  return out;
}

// ---------------------------------------------------------------- FLOAT and DOUBLE

template <typename F>
F RoundToCents(double x) {
  return static_cast<F>(std::round(x * 100.0) / 100.0);
}

// Readings of a slowly drifting sensor (a temperature), as the device reports them: to 0.01.
template <typename F>
std::vector<F> SensorReadings(size_t n) {
  BenchRng rng(501);
  std::vector<F> out(n);
  double level = 21.5;
  for (auto& v : out) {
    level += (Uniform(rng) - 0.5) * 0.1;
    v = RoundToCents<F>(level);
  }
  return out;
}

// Prices of a 500-item catalogue (log-normal around 20, ending in .99, .49 or .00), in the skewed
// mix of a sales table.
template <typename F>
std::vector<F> Prices(size_t n) {
  BenchRng rng(502);
  static constexpr double kEndings[] = {0.99, 0.49, 0.0};
  std::vector<F> catalogue(500);
  for (auto& price : catalogue) {
    price = RoundToCents<F>(std::floor(20.0 * std::exp(Normal(rng))) + kEndings[rng.Below(3)]);
  }
  std::vector<F> out(n);
  for (auto& v : out) v = catalogue[Skewed(rng, catalogue.size())];
  return out;
}

// Computed ratios with every mantissa bit in use (what a division leaves): no repeats, no shared
// digits, the hardest case for every encoding but PLAIN.
template <typename F>
std::vector<F> ComputedRatios(size_t n) {
  BenchRng rng(503);
  std::vector<F> out(n);
  for (auto& v : out) v = static_cast<F>(Uniform(rng) * 3.0);
  return out;
}

// ---------------------------------------------------------------- BYTE_ARRAY

// One of 20 category names, skewed.
std::vector<std::string> Categories(size_t n) {
  static const char* const kNames[] = {
      "electronics",  "books",   "clothing", "home & garden", "toys",        "sports", "beauty",
      "automotive",   "grocery", "health",   "jewelry",       "music",       "movies", "office",
      "pet supplies", "shoes",   "software", "tools",         "video games", "baby"};
  BenchRng rng(601);
  std::vector<std::string> out(n);
  for (auto& s : out) s = kNames[Skewed(rng, std::size(kNames))];
  return out;
}

// Page URLs of a web log: 4,000 pages over six hosts and a few sections (long shared prefixes),
// visited in a skewed mix.
std::vector<std::string> Urls(size_t n) {
  static const char* const kHosts[] = {"https://www.example.com/",  "https://shop.example.com/",
                                       "https://blog.example.org/", "https://docs.example.net/",
                                       "https://m.example.com/",    "http://static.example.io/"};
  static const char* const kSections[] = {"products/", "articles/2024/", "category/",
                                          "help/faq/", "user/profile/",  "search?q="};
  BenchRng rng(602);
  std::vector<std::string> pages(4000);
  for (auto& page : pages) {
    page = std::string(kHosts[rng.Below(std::size(kHosts))]) +
           kSections[rng.Below(std::size(kSections))] + RandomText(rng, 4 + rng.Below(16)) + "-" +
           std::to_string(rng.Below(100000));
  }
  std::vector<std::string> out(n);
  for (auto& s : out) s = pages[Skewed(rng, pages.size())];
  return out;
}

// Free text of 20..200 bytes (comments, descriptions): words of a small vocabulary, so the bytes
// look like text, but every value is different.
std::vector<std::string> FreeText(size_t n) {
  static const char* const kWords[] = {
      "the",     "a",      "order",    "arrived", "late",    "and", "was",    "damaged",
      "great",   "price",  "would",    "buy",     "again",   "not", "as",     "described",
      "quality", "is",     "good",     "for",     "money",   "box", "small",  "size",
      "fits",    "well",   "colour",   "faded",   "after",   "one", "wash",   "customer",
      "service", "helped", "quickly",  "refund",  "took",    "two", "weeks",  "very",
      "happy",   "with",   "purchase", "works",   "fine",    "but", "noisy",  "battery",
      "lasts",   "all",    "day",      "screen",  "cracked", "on",  "second", "use"};
  BenchRng rng(603);
  std::vector<std::string> out(n);
  for (auto& s : out) {
    const size_t length = 20 + rng.Below(181);
    while (s.size() < length) {
      if (!s.empty()) s += ' ';
      s += kWords[rng.Below(std::size(kWords))];
    }
    s.resize(length);
  }
  return out;
}

// Identifiers like "N12345" (aircraft tails, order numbers): a letter and 5 or 6 digits, nearly
// all distinct.
std::vector<std::string> HighCardinalityIds(size_t n) {
  BenchRng rng(604);
  std::vector<std::string> out(n);
  for (auto& s : out) {
    s = std::string(1, "NCK"[rng.Below(3)]) + std::to_string(10000 + rng.Below(990000));
  }
  return out;
}

// ---------------------------------------------------------------- FIXED_LEN_BYTE_ARRAY(16)

constexpr int kFlbaLength = 16;

// Random (version 4) UUIDs.
std::vector<std::string> Uuids(size_t n) {
  BenchRng rng(701);
  std::vector<std::string> out(n, std::string(kFlbaLength, '\0'));
  for (auto& s : out) {
    const uint64_t halves[2] = {rng.Next(), rng.Next()};
    std::memcpy(s.data(), halves, kFlbaLength);
    s[6] = static_cast<char>((s[6] & 0x0F) | 0x40);
    s[8] = static_cast<char>((s[8] & 0x3F) | 0x80);
  }
  return out;
}

// DECIMAL(38, 2) amounts (big-endian two's complement, as the format stores decimals): log-normal
// cents, one in ten negative (refunds). Most bytes are the leading 0x00 or 0xFF.
std::vector<std::string> Decimals(size_t n) {
  BenchRng rng(702);
  std::vector<std::string> out(n, std::string(kFlbaLength, '\0'));
  for (auto& s : out) {
    int64_t cents = std::max<int64_t>(1, std::llround(2500.0 * std::exp(1.5 * Normal(rng))));
    if (rng.Below(10) == 0) cents = -cents;
    const auto bits = static_cast<uint64_t>(cents);
    for (int i = 0; i < kFlbaLength; ++i) {
      const int shift = 8 * (kFlbaLength - 1 - i);
      s[i] = static_cast<char>(shift < 64 ? bits >> shift : (cents < 0 ? 0xFF : 0x00));
    }
  }
  return out;
}

// ---------------------------------------------------------------- the benchmark

// Bit for bit (NaN payloads, -0.0), byte for byte for byte arrays.
template <typename T>
bool SameValue(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, ByteArray> || std::is_same_v<T, Int96>) {
    return a == b;
  } else {
    // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): the bits are what must match
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
}

template <typename T>
void DecodeCost(benchmark::State& state, const ColumnDescriptor& column, Encoding encoding,
                absl::Span<const T> values) {
  auto encoder = MakeEncoder<T>(encoding, column);
  auto decoder = MakeDecoder<T>(encoding, column);
  if (!encoder.ok() || !decoder.ok()) {
    state.SkipWithError("no codec for this type and encoding");
    return;
  }
  if (const absl::Status status = (*encoder)->Put(values); !status.ok()) {
    const std::string message =
        status.code() == absl::StatusCode::kResourceExhausted
            ? "dictionary full (the writer would fall back): " + status.ToString()
            : "put failed: " + status.ToString();
    state.SkipWithError(message.c_str());
    return;
  }
  // Dictionary encodings: the decoder gets the chunk's dictionary page, as the page decoder gives
  // it before the first data page. The page must outlive the decoder's use (byte-array entries are
  // views into it).
  std::vector<uint8_t> dictionary_page;
  if constexpr (!std::is_same_v<T, bool>) {  // BOOLEAN has no dictionary classes
    if (auto* dictionary_encoder = dynamic_cast<DictionaryEncoder<T>*>(encoder->get())) {
      dictionary_page = dictionary_encoder->DictionaryPage();
      auto* dictionary_decoder = dynamic_cast<DictionaryDecoder<T>*>(decoder->get());
      if (dictionary_decoder == nullptr ||
          !dictionary_decoder->SetDictionary(dictionary_page, dictionary_encoder->num_entries())
               .ok()) {
        state.SkipWithError("dictionary page rejected");
        return;
      }
    }
  }
  const std::vector<uint8_t> page = (*encoder)->Finish();

  // std::vector<bool> has no bool* to make a span of, hence one plain allocation for every T.
  const size_t n = values.size();
  std::unique_ptr<T[]> out_storage(new T[n]());
  const absl::Span<T> out(out_storage.get(), n);
  // A decoder that is fast because it is wrong must not make the table: check one round trip.
  Decoder<T>& page_decoder = **decoder;
  if (!page_decoder.Reset(page, static_cast<int64_t>(n)).ok() || !page_decoder.Decode(out).ok() ||
      !std::equal(out.begin(), out.end(), values.begin(), SameValue<T>)) {
    state.SkipWithError("round trip failed: the decoded values differ from those encoded");
    return;
  }

  TimeDecode(state, page_decoder, page, out);
  const size_t stored_bytes = page.size() + dictionary_page.size();
  SetCounters(state, n, stored_bytes);
  // With kIsIterationInvariantRate | kInvert a counter of n reports CPU time / (n * iterations):
  // seconds per decoded value (the console shows it as ps or ns).
  state.counters["time_per_value"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
  state.counters["stored_bytes_per_value"] =
      static_cast<double>(stored_bytes) / static_cast<double>(n);
}

// Every encoding of values: PLAIN_DICTIONARY is left out for RLE_DICTIONARY, whose data pages it
// shares, and BIT_PACKED holds only levels. EncodingAllowed picks those of each type.
constexpr Encoding kEncodings[] = {Encoding::kPlain,
                                   Encoding::kRle,
                                   Encoding::kDeltaBinaryPacked,
                                   Encoding::kDeltaLengthByteArray,
                                   Encoding::kDeltaByteArray,
                                   Encoding::kRleDictionary,
                                   Encoding::kByteStreamSplit};

// Registers the shape `shape` of `type` under every encoding the format allows for it. `make(n)`
// gives the values: as T, or as 0/1 bytes for bool, or as strings for byte arrays. Data is made
// when a run starts (not at registration), so a filtered-out benchmark costs nothing.
template <typename T, typename Make>
void RegisterShape(PhysicalType type, const char* shape, Make make) {
  ColumnDescriptor column;
  column.path = {"c"};
  column.type = type;
  column.type_length = type == PhysicalType::kFixedLenByteArray ? kFlbaLength : 0;
  for (Encoding encoding : kEncodings) {
    if (!EncodingAllowed(encoding, type)) continue;
    const std::string name = "BM_DecodeCost/" + std::string(PhysicalTypeName(type)) + "/" +
                             std::string(EncodingName(encoding)) + "/" + shape;
    benchmark::RegisterBenchmark(name.c_str(), [column, encoding, make](benchmark::State& state) {
      const auto source = make(kValues);
      if constexpr (std::is_same_v<T, ByteArray>) {
        const std::vector<ByteArray> views = MakeByteArrays(source);
        DecodeCost<ByteArray>(state, column, encoding, views);
      } else if constexpr (std::is_same_v<T, bool>) {
        std::unique_ptr<bool[]> flags(new bool[source.size()]);
        for (size_t i = 0; i < source.size(); ++i) flags[i] = source[i] != 0;
        DecodeCost<bool>(state, column, encoding, absl::MakeConstSpan(flags.get(), source.size()));
      } else {
        DecodeCost<T>(state, column, encoding, absl::MakeConstSpan(source));
      }
    });
  }
}

int RegisterAll() {
  RegisterShape<bool>(PhysicalType::kBoolean, "long_runs", BoolLongRuns);
  RegisterShape<bool>(PhysicalType::kBoolean, "random", BoolRandom);
  RegisterShape<bool>(PhysicalType::kBoolean, "rare_true", BoolRareTrue);

  RegisterShape<int32_t>(PhysicalType::kInt32, "hours", Hours);
  RegisterShape<int32_t>(PhysicalType::kInt32, "clock_hhmm", ClockTimes);
  RegisterShape<int32_t>(PhysicalType::kInt32, "random",
                         [](size_t n) { return RandomInts<int32_t>(n, 203); });

  RegisterShape<int64_t>(PhysicalType::kInt64, "sorted_ids", SortedIds);
  RegisterShape<int64_t>(PhysicalType::kInt64, "timestamps_us", SteadyTimestamps);
  RegisterShape<int64_t>(PhysicalType::kInt64, "money_cents", MoneyCents);
  RegisterShape<int64_t>(PhysicalType::kInt64, "random",
                         [](size_t n) { return RandomInts<int64_t>(n, 304); });

  RegisterShape<Int96>(PhysicalType::kInt96, "sorted_event_times", SortedEventTimes);
  RegisterShape<Int96>(PhysicalType::kInt96, "scattered_seconds", ScatteredSeconds);

  RegisterShape<float>(PhysicalType::kFloat, "sensor", SensorReadings<float>);
  RegisterShape<float>(PhysicalType::kFloat, "prices", Prices<float>);
  RegisterShape<float>(PhysicalType::kFloat, "computed", ComputedRatios<float>);

  RegisterShape<double>(PhysicalType::kDouble, "sensor", SensorReadings<double>);
  RegisterShape<double>(PhysicalType::kDouble, "prices", Prices<double>);
  RegisterShape<double>(PhysicalType::kDouble, "computed", ComputedRatios<double>);

  RegisterShape<ByteArray>(PhysicalType::kByteArray, "categories", Categories);
  RegisterShape<ByteArray>(PhysicalType::kByteArray, "urls", Urls);
  RegisterShape<ByteArray>(PhysicalType::kByteArray, "free_text", FreeText);
  RegisterShape<ByteArray>(PhysicalType::kByteArray, "ids", HighCardinalityIds);

  RegisterShape<ByteArray>(PhysicalType::kFixedLenByteArray, "uuids", Uuids);
  RegisterShape<ByteArray>(PhysicalType::kFixedLenByteArray, "decimals", Decimals);
  return 0;
}

const int kRegistered = RegisterAll();

}  // namespace
}  // namespace pqpage::bench
