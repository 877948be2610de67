// Fuzz target: the deprecated BIT_PACKED level decoder on arbitrary bytes. The first byte picks the
// bit width (0..17, so 17 is an invalid width), the bit order (MSB-first below 144) and, with the
// second, the level count; the third picks max_level and the batch pattern; the rest is the
// section. Decode all at once and in assorted batch sizes interleaved with Skip (FuzzDecoder) must
// either succeed or return an error, never read outside the input.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/bit_packed.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const int width = data[0] % 18;
  const int64_t count = pqpage::fuzz::BoundedCount(data[1] * 8 + (data[0] / 18) % 8, size);
  const uint8_t pattern = data[2];
  const int16_t max_level =
      (pattern & 1) ? static_cast<int16_t>((1 << std::min(width, 15)) - 1) : pattern >> 4;
  const absl::Span<const uint8_t> section(data + 3, size - 3);
  const pqpage::BitPackedOrder order = data[0] < 144
                                           ? pqpage::BitPackedOrder::kMostSignificantFirst
                                           : pqpage::BitPackedOrder::kLeastSignificantFirst;

  pqpage::BitPackedLevelDecoder levels;
  pqpage::fuzz::BoundDecoder decoder(
      levels,
      [&](pqpage::BitPackedLevelDecoder& d, absl::Span<const uint8_t> page, int64_t n) {
        return d.Reset(page, width, n, order);
      },
      [&](pqpage::BitPackedLevelDecoder& d, absl::Span<int16_t> out) {
        return d.Decode(out, max_level);
      });
  pqpage::fuzz::FuzzDecoder<int16_t>(decoder, section, count, static_cast<uint8_t>(pattern / 2));
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // The spec's example: 0..7 at width 3 (1 x 8 levels).
  seeds.push_back({3, 1, 0x01, 0b00000101, 0b00111001, 0b01110111});
  for (int width : {1, 2, 5, 16, 1 + 144, 3 + 144}) {
    const bool lsb_first = width >= 144;
    if (lsb_first) width -= 144;
    pqpage::BitPackedLevelEncoder encoder(
        width, lsb_first ? pqpage::BitPackedOrder::kLeastSignificantFirst
                         : pqpage::BitPackedOrder::kMostSignificantFirst);
    std::vector<int16_t> levels;
    for (int i = 0; i < 203; ++i) {
      levels.push_back(static_cast<int16_t>((i * 37 + i / 9) & ((1 << width) - 1)));
    }
    (void)encoder.Put(levels);
    std::vector<uint8_t> seed = {
        static_cast<uint8_t>(width + 18 * (203 % 8) + (lsb_first ? 144 : 0)),
        static_cast<uint8_t>(203 / 8), static_cast<uint8_t>(width)};
    seed[2] |= 1;
    const std::vector<uint8_t> section = encoder.Finish();
    seed.insert(seed.end(), section.begin(), section.end());
    seeds.push_back(seed);
  }
  return seeds;
}
