// Fuzz target: GroupVarInt encode then decode, INT32 and INT64. Byte 0 picks the type and the batch
// pattern, byte 1 the split between two Put calls; the rest are records: a byte giving how many
// bytes the value has (so every length code, and negative values, occur), then those bytes. Checks:
// EstimatedSize is exact, the stream fits MaxEncodedSize, and it decodes (all at once, and in
// batches with Skip) to exactly the values put. Any difference aborts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/group_var_int.h"

namespace {

constexpr int kHeaderBytes = 2;

[[noreturn]] void Fail(const char* what, size_t n, size_t at) {
  pqpage::fuzz::AbortWithMessage("GroupVarInt round trip: %s (%zu values, at %zu)", what, n, at);
}

template <typename T>
void Run(const uint8_t* data, size_t size) {
  using U = std::make_unsigned_t<T>;
  const uint8_t pattern = data[0] >> 1;
  std::vector<T> values;
  for (size_t at = kHeaderBytes; at < size;) {
    const size_t wanted = data[at++] % (sizeof(T) + 1);
    const size_t length = std::min(wanted, size - at);
    U value = 0;
    for (size_t k = 0; k < length; ++k) value |= static_cast<U>(U{data[at + k]} << (8 * k));
    at += length;
    values.push_back(static_cast<T>(value));
  }
  const size_t n = values.size();
  const size_t split = (data[1] * 131u) % (n + 1);
  pqpage::GroupVarIntEncoder<T> encoder;
  if (!encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("Put", n, 0);
  if (!encoder.Put(absl::MakeConstSpan(values).subspan(split)).ok()) Fail("Put", n, 0);
  const size_t estimate = encoder.EstimatedSize();
  const std::vector<uint8_t> stream = encoder.Finish();
  if (stream.size() != estimate) Fail("EstimatedSize", n, stream.size());
  if (stream.size() > pqpage::GroupVarIntEncoder<T>::MaxEncodedSize(n)) {
    Fail("MaxEncodedSize", n, stream.size());
  }
  if (encoder.EstimatedSize() != 0 || !encoder.Finish().empty()) Fail("not reset by Finish", n, 0);

  pqpage::GroupVarIntDecoder<T> decoder;
  pqpage::fuzz::CheckDecodesTo(decoder, stream, absl::MakeConstSpan(values), pattern,
                               [&](const char* what, size_t at) { Fail(what, n, at); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  pqpage::fuzz::WithTypeAt<int32_t, int64_t>(data[0] & 1,
                                             [&]<typename T>() { Run<T>(data, size); });
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // The draft's example group: values of 1, 3, 4 and 2 bytes.
  seeds.push_back({0, 0, 1, 0xFF, 3, 0xFF, 0xFF, 0xFF, 4, 0xFF, 0xFF, 0xFF, 0xFF, 2, 0xFF, 0xFF});
  // The draft's (1, 2, 3, 4, 5), padded to two groups.
  seeds.push_back({0, 3, 1, 1, 1, 2, 1, 3, 1, 4, 1, 5});
  seeds.push_back({1, 3, 1, 1, 1, 2, 1, 3, 1, 4, 1, 5});
  for (uint8_t head : {0x04, 0x07, 0x0A, 0x0D}) {
    std::vector<uint8_t> seed = {head, static_cast<uint8_t>(head * 3)};
    for (int i = 0; i < 70; ++i) {
      const uint8_t length = static_cast<uint8_t>((i * 7) % 9);
      seed.push_back(length);
      for (int b = 0; b < length; ++b) seed.push_back(static_cast<uint8_t>(i * 41 + b * 13 + 128));
    }
    seeds.push_back(seed);
  }
  return seeds;
}
