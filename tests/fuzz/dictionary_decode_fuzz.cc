// Fuzz target: DictionaryDecoder<T> on arbitrary bytes. Header: byte 0 picks the value type (INT32,
// INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) and the FLBA type length, byte 1
// the dictionary entry count, byte 2 the dictionary page's length in 4-byte units (the rest is the
// data page), bytes 3-4 the value count, byte 5 the batch pattern. SetDictionary, Reset, Decode,
// DecodeIndices and Skip in assorted batch sizes must either succeed or return an error, never
// read outside the input (also with a dictionary that failed to load).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/dictionary.h"
#include "pqpage/types.h"

namespace {

using pqpage::fuzz::HighByte;
using pqpage::fuzz::LowByte;

constexpr int kHeaderBytes = 6;

template <typename T>
void Run(const uint8_t* data, size_t size, int type_length) {
  const int64_t num_entries = data[1];
  const size_t dictionary_length = std::min<size_t>(data[2] * 4u, size - kHeaderBytes);
  const int64_t count = pqpage::fuzz::BoundedCount(data[3] | (data[4] << 8), size);
  const uint8_t pattern = data[5];
  const absl::Span<const uint8_t> dictionary_page(data + kHeaderBytes, dictionary_length);
  const absl::Span<const uint8_t> data_page(data + kHeaderBytes + dictionary_length,
                                            size - kHeaderBytes - dictionary_length);

  auto decoder = pqpage::fuzz::WithTypeLength<pqpage::DictionaryDecoder<T>>(type_length);
  (void)decoder.SetDictionary(dictionary_page, num_entries);
  (void)decoder.SetDictionary(dictionary_page, -num_entries - 1);
  // The dictionary may be empty or partial after a failed SetDictionary; decoding must still be
  // bounds-checked against whatever is loaded.
  if (pattern & 0x80) (void)decoder.SetDictionary(dictionary_page, num_entries);

  std::vector<T> values(static_cast<size_t>(count));
  std::vector<uint32_t> indices(static_cast<size_t>(count));
  if (decoder.Reset(data_page, count).ok()) (void)decoder.Decode(absl::MakeSpan(values));
  if (decoder.Reset(data_page, count).ok()) {
    if (decoder.DecodeIndices(absl::MakeSpan(indices)).ok()) {
      for (uint32_t index : indices) {
        if (index >= decoder.dictionary().size()) {
          pqpage::fuzz::AbortWithMessage("DecodeIndices returned index %u past %zu entries", index,
                                         decoder.dictionary().size());
        }
      }
    }
  }
  if (decoder.Reset(data_page, count).ok()) {
    pqpage::fuzz::DecodeInThreeWayBatches(decoder, absl::MakeSpan(values), pattern, [&](int64_t n) {
      return decoder.DecodeIndices(absl::MakeSpan(indices).first(static_cast<size_t>(n)));
    });
    pqpage::fuzz::ProbePastEnd(decoder, absl::MakeSpan(values));
  }
  (void)decoder.Reset(data_page, -count - 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const int type = data[0] % 7;
  // The last, FIXED_LEN_BYTE_ARRAY, is a ByteArray with a type length.
  const int type_length = type == 6 ? 1 + (data[0] / 7) % 20 : pqpage::kVariableLength;
  pqpage::fuzz::WithTypeAt<int32_t, int64_t, pqpage::Int96, float, double, pqpage::ByteArray,
                           pqpage::ByteArray>(
      type, [&]<typename T>() { Run<T>(data, size, type_length); });
  return 0;
}

namespace {

// A seed: header, the dictionary page padded to a multiple of 4 bytes, the data page.
template <typename T>
std::vector<uint8_t> MakeSeed(uint8_t type_byte, const std::vector<T>& values,
                              int type_length = pqpage::kVariableLength) {
  auto encoder = pqpage::fuzz::WithTypeLength<pqpage::DictionaryEncoder<T>>(type_length);
  (void)encoder.Put(values);
  std::vector<uint8_t> dictionary_page = encoder.DictionaryPage();
  dictionary_page.resize((dictionary_page.size() + 3) / 4 * 4);
  const std::vector<uint8_t> data_page = encoder.FinishDataPage();
  const size_t n = values.size();
  std::vector<uint8_t> seed(kHeaderBytes + dictionary_page.size() + data_page.size());
  seed[0] = type_byte;
  seed[1] = static_cast<uint8_t>(encoder.num_entries());
  seed[2] = static_cast<uint8_t>(dictionary_page.size() / 4);
  seed[3] = LowByte(n);
  seed[4] = HighByte(n);
  seed[5] = 3;
  std::copy(dictionary_page.begin(), dictionary_page.end(), seed.begin() + kHeaderBytes);
  std::copy(data_page.begin(), data_page.end(),
            seed.begin() + kHeaderBytes + static_cast<std::ptrdiff_t>(dictionary_page.size()));
  return seed;
}

}  // namespace

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  std::vector<int32_t> ints;
  std::vector<int64_t> longs;
  std::vector<double> doubles;
  std::vector<pqpage::Int96> int96s;
  for (int i = 0; i < 150; ++i) {
    ints.push_back((i * 7919) % 23 - 11);
    longs.push_back(int64_t{1} << ((i * 13) % 63));
    doubles.push_back(i % 5 == 0 ? -0.0 : (i % 17) * 0.5);
    int96s.push_back(pqpage::Int96{{uint32_t(i % 3), 7, uint32_t(i % 9)}});
  }
  seeds.push_back(MakeSeed<int32_t>(0, ints));
  seeds.push_back(MakeSeed<int64_t>(1, longs));
  seeds.push_back(MakeSeed<pqpage::Int96>(2, int96s));
  seeds.push_back(MakeSeed<double>(4, doubles));
  static const char* const kWords[] = {"", "a", "parquet", "dictionary", "page", "zz"};
  std::vector<pqpage::ByteArray> strings;
  for (int i = 0; i < 90; ++i) strings.emplace_back(std::string_view(kWords[(i * 5) % 6]));
  seeds.push_back(MakeSeed<pqpage::ByteArray>(5, strings));
  static const char kFixed[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::vector<pqpage::ByteArray> fixed;
  for (int i = 0; i < 70; ++i) {
    fixed.emplace_back(reinterpret_cast<const uint8_t*>(kFixed) + (i * 3) % 10, 4);
  }
  seeds.push_back(MakeSeed<pqpage::ByteArray>(6 + 7 * 3, fixed, 4));
  return seeds;
}
