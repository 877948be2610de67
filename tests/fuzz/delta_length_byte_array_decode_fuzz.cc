// Fuzz target: DeltaLengthByteArrayDecoder on arbitrary bytes. Header: byte 0 is the batch pattern,
// bytes 1-2 the value count; the rest is the page (length stream, then the bytes). Decode and Skip
// in assorted batch sizes must either succeed or return an error, never read outside the input;
// every value handed out must be a view inside the page.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/delta_length_byte_array.h"

namespace {

using pqpage::fuzz::HighByte;
using pqpage::fuzz::LowByte;

constexpr int kHeaderBytes = 3;

void CheckInside(absl::Span<const pqpage::ByteArray> values, absl::Span<const uint8_t> page) {
  for (const pqpage::ByteArray& value : values) {
    if (value.size == 0) continue;
    if (value.data < page.data() || value.data + value.size > page.data() + page.size()) {
      pqpage::fuzz::AbortWithMessage("DELTA_LENGTH_BYTE_ARRAY value of %u bytes outside the page",
                                     value.size);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const uint8_t pattern = data[0];
  const int64_t count = pqpage::fuzz::BoundedCount(data[1] | (data[2] << 8), size);
  const absl::Span<const uint8_t> page(data + kHeaderBytes, size - kHeaderBytes);
  pqpage::DeltaLengthByteArrayDecoder decoder;
  pqpage::fuzz::FuzzDecoder<pqpage::ByteArray>(
      decoder, page, count, pattern,
      [&](absl::Span<const pqpage::ByteArray> values) { CheckInside(values, page); });
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  auto seed = [&](uint8_t pattern, const std::vector<std::string_view>& strings) {
    std::vector<pqpage::ByteArray> values;
    for (std::string_view s : strings) values.emplace_back(s);
    pqpage::DeltaLengthByteArrayEncoder encoder;
    (void)encoder.Put(values);
    std::vector<uint8_t> bytes = {pattern, LowByte(values.size()), HighByte(values.size())};
    encoder.FinishInto(&bytes);
    seeds.push_back(bytes);
  };
  // The spec's example.
  seed(0, {"Hello", "World", "Foobar", "ABCDEF"});
  std::vector<std::string> owned;
  for (int i = 0; i < 140; ++i)
    owned.push_back(std::string(static_cast<size_t>(i % 37), 'a' + i % 26));
  std::vector<std::string_view> views(owned.begin(), owned.end());
  seed(3, views);
  seed(5, {});
  seed(1, {"", "", "", "x"});
  return seeds;
}
