// Fuzz target: the RLE/bit-packed hybrid decoder on arbitrary bytes. The first byte picks the bit
// width (0..32) and the second the value count (both bytes the batch pattern); the rest is the
// stream. Every decode form must either succeed or return an error, never read outside the input:
// values and levels through FuzzDecoder (all at once, then in batches with Skip), the bitmap and
// the count of maximum levels once.
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/rle_bit_packed_hybrid.h"

namespace {

// Width-1 levels, bitmaps and counts take the width-1 run walker between runs; integers never do.
// The walker must change no outcome: the same success or failure, and the same values.
void CheckWidth1Walkers(absl::Span<const uint8_t> stream, int64_t count) {
  using pqpage::fuzz::AbortWithMessage;
  pqpage::RleBitPackedHybridDecoder decoder;
  const auto n = static_cast<size_t>(count);
  std::vector<uint32_t> values(n);
  const bool values_ok =
      decoder.Reset(stream, 1, count).ok() && decoder.Decode(absl::MakeSpan(values)).ok();
  std::vector<int16_t> levels(n);
  absl::StatusOr<int64_t> ones = absl::UnknownError("not run");
  if (decoder.Reset(stream, 1, count).ok()) {
    ones = decoder.DecodeLevelsCounting(absl::MakeSpan(levels), 1, 1);
  }
  if (ones.ok() != values_ok) AbortWithMessage("width-1 levels and integers disagree on success");
  std::vector<uint8_t> bitmap(n / 8 + 1);
  absl::StatusOr<int64_t> set = absl::UnknownError("not run");
  if (decoder.Reset(stream, 1, count).ok()) set = decoder.DecodeToBitmap(bitmap.data(), 0, count);
  if (set.ok() != values_ok) AbortWithMessage("width-1 bitmap and integers disagree on success");
  absl::StatusOr<int64_t> counted = absl::UnknownError("not run");
  if (decoder.Reset(stream, 1, count).ok()) counted = decoder.CountMaxLevels(1);
  if (counted.ok() != values_ok) AbortWithMessage("width-1 count and integers disagree on success");
  if (!values_ok) return;
  int64_t want_ones = 0;
  for (size_t i = 0; i < n; ++i) {
    want_ones += values[i];
    if (levels[i] != static_cast<int16_t>(values[i])) AbortWithMessage("level %zu differs", i);
    if (((bitmap[i / 8] >> (i % 8)) & 1) != values[i]) AbortWithMessage("bit %zu differs", i);
  }
  if (*ones != want_ones || *set != want_ones || *counted != want_ones) {
    AbortWithMessage("width-1 counts differ from the values' 1s");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const int width = data[0] % 33;
  const int64_t count = data[1] * 8 + data[0] / 33;
  const uint8_t pattern = static_cast<uint8_t>(data[0] ^ data[1]);
  const int16_t max_level = static_cast<int16_t>(data[1] % 8);
  const absl::Span<const uint8_t> stream(data + 2, size - 2);
  pqpage::RleBitPackedHybridDecoder decoder;
  const auto reset = [&](pqpage::RleBitPackedHybridDecoder& d, absl::Span<const uint8_t> page,
                         int64_t n) { return d.Reset(page, width, n); };
  pqpage::fuzz::BoundDecoder values(
      decoder, reset,
      [](pqpage::RleBitPackedHybridDecoder& d, absl::Span<uint32_t> out) { return d.Decode(out); });
  pqpage::fuzz::FuzzDecoder<uint32_t>(values, stream, count, pattern);
  pqpage::fuzz::BoundDecoder levels(
      decoder, reset, [&](pqpage::RleBitPackedHybridDecoder& d, absl::Span<int16_t> out) {
        return d.DecodeLevels(out, max_level);
      });
  pqpage::fuzz::FuzzDecoder<int16_t>(levels, stream, count, pattern);
  std::vector<uint8_t> bitmap(static_cast<size_t>(count) / 8 + 2);
  if (decoder.Reset(stream, 1, count).ok()) {
    (void)decoder.DecodeToBitmap(bitmap.data(), data[0] % 8, count);
  }
  if (decoder.Reset(stream, width, count).ok()) (void)decoder.CountMaxLevels(max_level);
  if (width == 1) CheckWidth1Walkers(stream, count);
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
