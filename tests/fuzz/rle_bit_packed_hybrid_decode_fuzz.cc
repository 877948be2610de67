// Fuzz target: the RLE/bit-packed hybrid decoder on arbitrary bytes. The first byte picks the bit
// width (0..32) and the second the value count; the rest is the stream. Every decode form must
// either succeed or return an error, never read outside the input.
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_seeds.h"
#include "pqpage/rle_bit_packed_hybrid.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const int width = data[0] % 33;
  const int64_t count = data[1] * 8 + data[0] / 33;
  const absl::Span<const uint8_t> stream(data + 2, size - 2);
  pqpage::RleBitPackedHybridDecoder decoder;
  std::vector<uint32_t> values(static_cast<size_t>(count));
  if (decoder.Reset(stream, width, count).ok()) (void)decoder.Decode(absl::MakeSpan(values));
  std::vector<int16_t> levels(static_cast<size_t>(count));
  if (decoder.Reset(stream, width, count).ok()) {
    (void)decoder.DecodeLevels(absl::MakeSpan(levels), static_cast<int16_t>(data[1] % 8));
  }
  std::vector<uint8_t> bitmap(static_cast<size_t>(count) / 8 + 2);
  if (decoder.Reset(stream, 1, count).ok()) {
    (void)decoder.DecodeToBitmap(bitmap.data(), data[0] % 8, count);
  }
  if (decoder.Reset(stream, width, count).ok() && decoder.Skip(count / 2).ok()) {
    (void)decoder.Decode(absl::MakeSpan(values).first(static_cast<size_t>(count - count / 2)));
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // Seed 001's example (width 1, 24 values), and an encoder-made stream of each kind of run.
  seeds.push_back({1, 3, 0b00000101, 0b11101011, 0b00000010, 0b00010000, 0b00000001});
  for (int width : {1, 3, 12, 32}) {
    pqpage::RleBitPackedHybridEncoder encoder(width);
    std::vector<uint32_t> values;
    for (uint32_t i = 0; i < 300; ++i) {
      values.push_back(((i / 40) % 2 ? i * 2654435761u : 5u) &
                       (width == 32 ? ~0u : (1u << width) - 1));
    }
    (void)encoder.Put(values);
    std::vector<uint8_t> seed = {static_cast<uint8_t>(width + 33 * (300 % 8)),
                                 static_cast<uint8_t>(300 / 8)};
    encoder.FinishInto(&seed);
    seeds.push_back(seed);
  }
  return seeds;
}
