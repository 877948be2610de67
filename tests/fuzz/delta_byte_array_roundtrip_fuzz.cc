// Fuzz target: DELTA_BYTE_ARRAY (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY) and DELTA_LENGTH_BYTE_ARRAY
// encode then decode. Byte 0 picks the type (and the FLBA length), byte 1 the split between two Put
// calls (prefixes are shared across calls) and the batch pattern; the rest are records: how much of
// the previous value to keep, how many bytes to add, then those bytes, so long shared prefixes,
// empty values and unrelated values all occur. Checks: each page decodes (all at once, and in
// batches with Skip) to exactly the values put; DELTA_LENGTH views point into the page; an FLBA
// value of the wrong length is refused. Any difference aborts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/delta_length_byte_array.h"

namespace {

constexpr int kHeaderBytes = 2;

[[noreturn]] void Fail(const char* what, size_t n, size_t at) {
  pqpage::fuzz::AbortWithMessage("DELTA_(LENGTH_)BYTE_ARRAY round trip: %s (%zu values, at %zu)",
                                 what, n, at);
}

bool Same(const pqpage::ByteArray& a, const std::string& b) {
  return a.size == b.size() && (a.size == 0 || std::memcmp(a.data, b.data(), a.size) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const bool fixed = data[0] & 1;
  const size_t type_length = (data[0] >> 1) % 48;
  const uint8_t pattern = data[1];

  std::vector<std::string> strings;
  std::string previous;
  for (size_t at = kHeaderBytes; at < size && strings.size() < 4096;) {
    const uint8_t keep_byte = data[at++];
    const uint8_t add_byte = at < size ? data[at++] : 0;
    std::string value = previous.substr(0, keep_byte % (previous.size() + 1));
    const size_t add = std::min<size_t>(add_byte % 64, size - at);
    value.append(reinterpret_cast<const char*>(data + at), add);
    at += add;
    if (fixed) value.resize(type_length, static_cast<char>(keep_byte));
    strings.push_back(value);
    previous = value;
  }
  const size_t n = strings.size();
  std::vector<pqpage::ByteArray> values;
  for (const std::string& s : strings) values.emplace_back(std::string_view(s));
  const size_t split = (pattern * 131u) % (n + 1);

  const int codec_type_length = fixed ? static_cast<int>(type_length) : pqpage::kVariableLength;
  pqpage::DeltaByteArrayEncoder encoder(codec_type_length);
  if (!encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("Put", n, 0);
  if (fixed) {
    const std::string wrong(type_length + 1, 'w');
    const pqpage::ByteArray bad[1] = {pqpage::ByteArray(std::string_view(wrong))};
    if (encoder.Put(bad).ok()) Fail("Put accepted an FLBA value of the wrong length", n, split);
  }
  if (!encoder.Put(absl::MakeConstSpan(values).subspan(split)).ok()) Fail("Put", n, split);
  if (encoder.num_values() != static_cast<int64_t>(n)) Fail("num_values", n, 0);
  const std::vector<uint8_t> page = encoder.Finish();

  pqpage::DeltaByteArrayDecoder decoder(codec_type_length);
  pqpage::fuzz::CheckDecodesTo(decoder, page, absl::MakeConstSpan(values), pattern,
                               [&](const char* what, size_t at) { Fail(what, n, at); });
  std::vector<pqpage::ByteArray> out(n);
  // A prefix of the page.
  const size_t prefix = (pattern * 7u) % (n + 1);
  if (!decoder.Reset(page, static_cast<int64_t>(prefix)).ok()) Fail("Reset prefix", n, prefix);
  if (!decoder.Decode(absl::MakeSpan(out).first(prefix)).ok()) Fail("prefix Decode", n, prefix);
  for (size_t i = 0; i < prefix; ++i) {
    if (!Same(out[i], strings[i])) Fail("prefix Decode differs", n, i);
  }
  if (decoder.Reset(page, static_cast<int64_t>(n) + 1).ok()) Fail("Reset past the count", n, 0);

  if (!fixed) {
    pqpage::DeltaLengthByteArrayEncoder length_encoder;
    if (!length_encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("DLBA Put", n, 0);
    if (!length_encoder.Put(absl::MakeConstSpan(values).subspan(split)).ok()) {
      Fail("DLBA Put", n, split);
    }
    if (length_encoder.num_values() != static_cast<int64_t>(n)) Fail("DLBA num_values", n, 0);
    const size_t estimate = length_encoder.EstimatedSize();
    const std::vector<uint8_t> length_page = length_encoder.Finish();
    if (length_page.size() > estimate) Fail("DLBA page larger than EstimatedSize", n, 0);
    pqpage::DeltaLengthByteArrayDecoder length_decoder;
    pqpage::fuzz::CheckDecodesTo(
        length_decoder, length_page, absl::MakeConstSpan(values), pattern,
        [&](const char* what, size_t at) {
          pqpage::fuzz::AbortWithMessage(
              "DELTA_LENGTH_BYTE_ARRAY round trip: %s (%zu values, at %zu)", what, n, at);
        },
        [&](absl::Span<const pqpage::ByteArray> decoded, size_t position) {
          for (size_t k = 0; k < decoded.size(); ++k) {
            if (decoded[k].size > 0 &&
                (decoded[k].data < length_page.data() ||
                 decoded[k].data + decoded[k].size > length_page.data() + length_page.size())) {
              Fail("DLBA view outside the page", n, position + k);
            }
          }
        });
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // The spec's examples: "axis", "axle", "babble", "babyhood" and "Hello", "World", "Foobar",
  // "ABCDEF" (as keep / add records).
  std::vector<uint8_t> axis = {0,   2,   0,   4,   'a', 'x', 'i', 's', 2,   2,   'l', 'e', 0,  6,
                               'b', 'a', 'b', 'b', 'l', 'e', 3,   5,   'y', 'h', 'o', 'o', 'd'};
  seeds.push_back(axis);
  seeds.push_back({0, 5, 0,   5,   'H', 'e', 'l', 'l', 'o', 0, 5,   'W', 'o', 'r', 'l', 'd',
                   0, 6, 'F', 'o', 'o', 'b', 'a', 'r', 0,   6, 'A', 'B', 'C', 'D', 'E', 'F'});
  for (uint8_t head : {0, 1 + 2 * 8, 1 + 2 * 0, 1 + 2 * 33, 2}) {
    std::vector<uint8_t> seed = {head, static_cast<uint8_t>(head * 11 + 1)};
    for (int i = 0; i < 90; ++i) {
      const uint8_t add = static_cast<uint8_t>((i * 5) % 11);
      seed.push_back(static_cast<uint8_t>(i % 8 == 0 ? 0 : 200 + i));
      seed.push_back(add);
      for (int b = 0; b < add; ++b) seed.push_back(static_cast<uint8_t>('a' + (i + b) % 26));
    }
    seeds.push_back(seed);
  }
  return seeds;
}
