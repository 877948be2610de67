// Fuzz target: DeltaByteArrayDecoder (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY) on arbitrary bytes.
// Header: byte 0 picks the type and the FLBA type length, byte 1 the batch pattern and the
// decoded-bytes limit (1 KiB .. 1 MiB, so the harness's memory stays bounded), bytes 2-3 the value
// count; the rest is the page. Decode and Skip in assorted batch sizes must either succeed or
// return an error, never read outside the input; FLBA values must have the type length.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/delta_byte_array.h"

namespace {

// The type length the header's first byte picks: BYTE_ARRAY for even bytes.
int TypeLengthOf(uint8_t type_byte) {
  return (type_byte & 1) ? (type_byte >> 1) % 40 : pqpage::kVariableLength;
}

void CheckValues(absl::Span<const pqpage::ByteArray> values, int type_length) {
  uint64_t sum = 0;
  for (const pqpage::ByteArray& value : values) {
    if (type_length != pqpage::kVariableLength &&
        value.size != static_cast<uint32_t>(type_length)) {
      pqpage::fuzz::AbortWithMessage("DELTA_BYTE_ARRAY: FLBA value of %u bytes, type length %d",
                                     value.size, type_length);
    }
    // Touch every byte so the sanitizers check the views.
    for (uint32_t i = 0; i < value.size; ++i) sum += value.data[i];
  }
  volatile uint64_t sink = sum;
  (void)sink;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pqpage::fuzz::TypedPage in;
  if (!pqpage::fuzz::ReadTypedPage(data, size, &in)) return 0;
  const int type_length = TypeLengthOf(in.type_byte);
  pqpage::DeltaByteArrayOptions options;
  options.max_decoded_bytes = int64_t{1} << (10 + (in.pattern >> 4) % 11);

  pqpage::DeltaByteArrayDecoder decoder(type_length, options);
  pqpage::fuzz::FuzzDecoder<pqpage::ByteArray>(
      decoder, in.page, in.count, in.pattern,
      [&](absl::Span<const pqpage::ByteArray> values) { CheckValues(values, type_length); });
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  auto seed = [&](uint8_t type_byte, uint8_t pattern, const std::vector<std::string>& strings) {
    std::vector<pqpage::ByteArray> values;
    for (const std::string& s : strings) values.emplace_back(std::string_view(s));
    pqpage::DeltaByteArrayEncoder encoder(TypeLengthOf(type_byte));
    (void)encoder.Put(values);
    seeds.push_back(
        pqpage::fuzz::TypedPageSeed(type_byte, pattern, values.size(), encoder.Finish()));
  };
  // The spec's example.
  seed(0, 0xA0, {"axis", "axle", "babble", "babyhood"});
  std::vector<std::string> words;
  for (int i = 0; i < 130; ++i) {
    words.push_back("prefix/" + std::to_string(i / 10) +
                    std::string(static_cast<size_t>(i % 13), 'q'));
  }
  seed(0, 0x53, words);
  std::vector<std::string> fixed;
  for (int i = 0; i < 90; ++i) {
    std::string value = "k" + std::to_string(100000 + i * 37);
    value.resize(9, '-');
    fixed.push_back(value);
  }
  seed(1 + 2 * 9, 0x35, fixed);
  seed(0, 0x01, {});
  return seeds;
}
