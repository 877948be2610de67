// Fuzz target: dictionary encode then decode, for INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY
// and FIXED_LEN_BYTE_ARRAY. Byte 0 picks the type (and the FLBA length), byte 1 the encoder's
// limits (small entry / byte limits so that is_full() happens), byte 2 the chunking of Put calls,
// the data page breaks and the decode batches; the rest are values (fresh bytes, or repeats of
// earlier values so entries are shared). Checks: the limits hold; the dictionary page reads back to
// entries(); every data page decodes (Decode, DecodeIndices, Skip, in batches) to exactly the
// values taken, bit for bit (NaN payloads, -0.0). Any difference aborts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/dictionary.h"
#include "pqpage/types.h"

namespace {

constexpr int kHeaderBytes = 3;

[[noreturn]] void Fail(const char* what, size_t at) {
  pqpage::fuzz::AbortWithMessage("dictionary round trip: %s (at %zu)", what, at);
}

using pqpage::fuzz::SameValue;

// Values from the input: a byte below 0x50 repeats an earlier value, anything else starts a fresh
// one made of the following bytes (`width` of them; for BYTE_ARRAY the byte gives the length).
template <typename T>
std::vector<T> ValuesFrom(const uint8_t* data, size_t size, int width, std::string* arena) {
  std::vector<T> values;
  size_t at = 0;
  std::vector<std::pair<size_t, size_t>> spans;  // ByteArray: offset and length in the arena
  while (at < size) {
    const uint8_t op = data[at++];
    if (op < 0x50 && !values.empty()) {
      values.push_back(values[op % values.size()]);
      if constexpr (std::is_same_v<T, pqpage::ByteArray>) spans.push_back(spans[op % spans.size()]);
      continue;
    }
    if constexpr (std::is_same_v<T, pqpage::ByteArray>) {
      const size_t length = width > 0 ? static_cast<size_t>(width) : op % 24;
      const size_t take = std::min(length, size - at);
      spans.emplace_back(arena->size(), length);
      arena->append(reinterpret_cast<const char*>(data + at), take);
      arena->append(length - take, 'z');
      at += take;
      values.emplace_back();
    } else {
      T value;
      std::memset(&value, op, sizeof(T));
      std::memcpy(&value, data + at, std::min(sizeof(T), size - at));
      at += std::min(sizeof(T), size - at);
      values.push_back(value);
    }
  }
  if constexpr (std::is_same_v<T, pqpage::ByteArray>) {
    // The arena no longer grows: point the views into it.
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] =
          pqpage::ByteArray(reinterpret_cast<const uint8_t*>(arena->data()) + spans[i].first,
                            static_cast<uint32_t>(spans[i].second));
    }
  }
  return values;
}

template <typename T>
void Run(const uint8_t* data, size_t size, int type_length) {
  const uint8_t limits = data[1];
  const uint8_t pattern = data[2];
  pqpage::DictionaryOptions options;
  if (limits & 0x80) options.max_entries = (limits & 0x3F) + 1;
  if (limits & 0x40) options.max_dictionary_bytes = (limits & 0x3F) * 8;
  std::string arena;
  const std::vector<T> values =
      ValuesFrom<T>(data + kHeaderBytes, size - kHeaderBytes, type_length, &arena);

  auto encoder = pqpage::fuzz::WithTypeLength<pqpage::DictionaryEncoder<T>>(type_length, options);
  struct Page {
    std::vector<uint8_t> bytes;
    size_t begin, end;
  };
  std::vector<Page> pages;
  size_t taken = 0, page_begin = 0;
  for (int i = 0; taken < values.size(); ++i) {
    const size_t chunk = static_cast<size_t>(
        pqpage::fuzz::BatchSize(pattern, i, static_cast<int64_t>(values.size() - taken)));
    absl::StatusOr<size_t> put =
        encoder.PutUntilFull(absl::MakeConstSpan(values).subspan(taken, chunk));
    if (!put.ok()) Fail("Put refused valid values", taken);
    if (*put > chunk) Fail("Put took more than given", taken);
    taken += *put;
    if (static_cast<int64_t>(page_begin + encoder.buffered_values()) !=
        static_cast<int64_t>(taken)) {
      Fail("buffered_values", taken);
    }
    if (*put < chunk && !encoder.is_full()) Fail("Put stopped short without is_full", taken);
    const bool full = encoder.is_full();
    if (full || ((pattern >> (i % 8)) & 1)) {
      pages.push_back({encoder.FinishDataPage(), page_begin, taken});
      page_begin = taken;
    }
    if (full) break;
  }
  pages.push_back({encoder.FinishDataPage(), page_begin, taken});
  if (encoder.num_entries() > options.max_entries) Fail("max_entries exceeded", 0);
  if (encoder.dictionary_bytes() > options.max_dictionary_bytes && encoder.num_entries() > 1) {
    Fail("max_dictionary_bytes exceeded", 0);
  }
  const std::vector<uint8_t> dictionary_page = encoder.DictionaryPage();
  if (static_cast<int64_t>(dictionary_page.size()) != encoder.dictionary_bytes()) {
    Fail("dictionary_bytes differs from the page", dictionary_page.size());
  }
  const absl::Span<const T> entries = encoder.entries();
  if (static_cast<int64_t>(entries.size()) != encoder.num_entries()) Fail("num_entries", 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    for (size_t j = 0; j < i && entries.size() < 200; ++j) {
      if (SameValue(entries[i], entries[j])) Fail("duplicate entry", i);
    }
  }

  auto decoder = pqpage::fuzz::WithTypeLength<pqpage::DictionaryDecoder<T>>(type_length);
  if (!decoder.SetDictionary(dictionary_page, encoder.num_entries()).ok()) {
    Fail("SetDictionary", 0);
  }
  if (decoder.dictionary().size() != entries.size()) Fail("dictionary size", 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!SameValue(decoder.dictionary()[i], entries[i])) Fail("dictionary entry differs", i);
  }
  std::vector<T> out(values.size());
  std::vector<uint32_t> indices(values.size());
  for (const Page& page : pages) {
    const int64_t count = static_cast<int64_t>(page.end - page.begin);
    if (!decoder.Reset(page.bytes, count).ok()) Fail("Reset", page.begin);
    if (!decoder.Decode(absl::MakeSpan(out).first(page.end - page.begin)).ok()) {
      Fail("Decode", page.begin);
    }
    for (size_t i = page.begin; i < page.end; ++i) {
      if (!SameValue(out[i - page.begin], values[i])) Fail("Decode differs", i);
    }
    if (!decoder.Reset(page.bytes, count).ok()) Fail("Reset", page.begin);
    const absl::Span<const T> page_values =
        absl::MakeConstSpan(values).subspan(page.begin, page.end - page.begin);
    auto fail = [&](const char* what, size_t at) { Fail(what, page.begin + at); };
    pqpage::fuzz::CheckInMixedBatches(
        decoder, page_values.size(), pattern,
        [&](int i, size_t position, size_t n) {
          if (i % 3 == 0) {
            if (!decoder.Decode(absl::MakeSpan(out).first(n)).ok()) fail("batch Decode", position);
            for (size_t k = 0; k < n; ++k) {
              if (!SameValue(out[k], page_values[position + k])) {
                fail("batch Decode differs", position + k);
              }
            }
            return;
          }
          if (!decoder.DecodeIndices(absl::MakeSpan(indices).first(n)).ok()) {
            fail("DecodeIndices", position);
          }
          for (size_t k = 0; k < n; ++k) {
            if (indices[k] >= entries.size() ||
                !SameValue(entries[indices[k]], page_values[position + k])) {
              fail("DecodeIndices differs", position + k);
            }
          }
        },
        fail);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const int type = data[0] % 7;
  // The last, FIXED_LEN_BYTE_ARRAY, is a ByteArray with a type length.
  const int type_length = type == 6 ? 1 + (data[0] / 7) % 16 : pqpage::kVariableLength;
  pqpage::fuzz::WithTypeAt<int32_t, int64_t, pqpage::Int96, float, double, pqpage::ByteArray,
                           pqpage::ByteArray>(
      type, [&]<typename T>() { Run<T>(data, size, type_length); });
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // Each type once, the limits (none, few entries, few bytes) rotating over them.
  const uint8_t kLimits[] = {0x00, 0x85, 0x43};
  for (uint8_t head : {0, 1, 2, 3, 4, 5, 6 + 7 * 4}) {
    const uint8_t limits = kLimits[head % 3];
    std::vector<uint8_t> seed = {head, limits, static_cast<uint8_t>(head * 29 + limits)};
    for (int i = 0; i < 120; ++i) {
      // A fresh value now and then, repeats of earlier ones in between.
      seed.push_back(i % 4 == 0 ? static_cast<uint8_t>(0x60 + i % 20)
                                : static_cast<uint8_t>(i * 13 % 0x50));
      if (i % 4 == 0) {
        for (int b = 0; b < 8; ++b) seed.push_back(static_cast<uint8_t>(i * 7 + b));
      }
    }
    seeds.push_back(seed);
  }
  // NaN payloads and both zeros must be distinct entries.
  std::vector<uint8_t> floats = {3, 0, 1};
  for (uint32_t bits : {0x7FC00001u, 0x7FC00002u, 0x80000000u, 0x00000000u, 0x7F800000u}) {
    floats.push_back(0xFF);
    for (int b = 0; b < 4; ++b) floats.push_back(static_cast<uint8_t>(bits >> (8 * b)));
  }
  seeds.push_back(floats);
  return seeds;
}
