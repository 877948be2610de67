// Fuzz target: RLE/bit-packed hybrid encode then decode. Byte 0 picks the bit width (0..32) and the
// value form (uint32 values, int16 levels, booleans), byte 1 where the values are split between two
// Put calls and the batch pattern; the rest is a list of (repeat, 4 value bytes) records, so both
// long runs and literal stretches occur. The stream must fit MaxEncodedSize and decode (all at
// once, and in assorted batches with Skip: CheckDecodesTo), as uint32 values and in the form put,
// to exactly the values put, else abort().
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/rle_bit_packed_hybrid.h"

namespace {

constexpr int kHeaderBytes = 2;

[[noreturn]] void Fail(const char* what, int width, size_t n, size_t at) {
  pqpage::fuzz::AbortWithMessage("RLE hybrid round trip: %s (width %d, %zu values, at %zu)", what,
                                 width, n, at);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const int form = data[0] % 3;  // 0: uint32, 1: int16 levels, 2: booleans
  const int width = form == 2 ? 1 : form == 1 ? (data[0] / 3) % 16 : (data[0] / 3) % 33;
  const uint32_t mask = width == 32 ? ~0u : (1u << width) - 1;
  const uint8_t pattern = data[1];

  std::vector<uint32_t> values;
  // Bounded, so that a short input cannot ask for an unbounded page.
  for (size_t at = kHeaderBytes; at < size && values.size() < (size_t{1} << 16); at += 5) {
    uint8_t record[5] = {};
    std::memcpy(record, data + at, std::min<size_t>(5, size - at));
    uint32_t value;
    std::memcpy(&value, record + 1, 4);
    const size_t repeat = record[0] < 128 ? 1 : (record[0] - 127) * 8;
    values.insert(values.end(), repeat, value & mask);
  }
  const size_t n = values.size();
  const size_t split = n == 0 ? 0 : (pattern * 131u) % (n + 1);

  pqpage::RleBitPackedHybridEncoder encoder(width);
  std::vector<int16_t> levels(values.begin(), values.end());
  std::unique_ptr<bool[]> bools(new bool[n + 1]);
  for (size_t i = 0; i < n; ++i) bools[i] = values[i] != 0;
  for (auto [begin, end] : {std::pair<size_t, size_t>{0, split}, {split, n}}) {
    absl::Status status;
    if (form == 0) {
      status = encoder.Put(absl::MakeConstSpan(values).subspan(begin, end - begin));
    } else if (form == 1) {
      status = encoder.Put(absl::MakeConstSpan(levels).subspan(begin, end - begin));
    } else {
      status = encoder.Put(absl::MakeConstSpan(bools.get() + begin, end - begin));
    }
    if (!status.ok()) Fail("Put refused values within the bit width", width, n, begin);
  }
  const std::vector<uint8_t> stream = encoder.Finish();
  if (stream.size() > pqpage::RleBitPackedHybridEncoder::MaxEncodedSize(width, n)) {
    Fail("stream larger than MaxEncodedSize", width, n, stream.size());
  }

  using Decoder = pqpage::RleBitPackedHybridDecoder;
  Decoder decoder;
  const auto fail = [&](const char* what, size_t at) { Fail(what, width, n, at); };
  const auto reset = [&](Decoder& d, absl::Span<const uint8_t> page, int64_t count) {
    return d.Reset(page, width, count);
  };
  // As uint32 values whatever the form put, then in that form: all at once and in batches.
  pqpage::fuzz::BoundDecoder as_values(
      decoder, reset, [](Decoder& d, absl::Span<uint32_t> out) { return d.Decode(out); });
  pqpage::fuzz::CheckDecodesTo<uint32_t>(as_values, stream, values, pattern, fail);
  if (form == 1) {
    pqpage::fuzz::BoundDecoder as_levels(decoder, reset, [&](Decoder& d, absl::Span<int16_t> out) {
      return d.DecodeLevels(out, static_cast<int16_t>(mask));
    });
    pqpage::fuzz::CheckDecodesTo<int16_t>(as_levels, stream, levels, pattern, fail);
  } else if (form == 2) {
    pqpage::fuzz::BoundDecoder as_booleans(
        decoder, reset, [](Decoder& d, absl::Span<bool> out) { return d.DecodeBooleans(out); });
    pqpage::fuzz::CheckDecodesTo<bool>(as_booleans, stream, absl::MakeConstSpan(bools.get(), n),
                                       pattern, fail);
    std::vector<uint8_t> bitmap(n / 8 + 2, 0xA5);
    const int64_t offset = pattern % 8;
    if (!decoder.Reset(stream, width, static_cast<int64_t>(n)).ok()) Fail("Reset", width, n, 0);
    absl::StatusOr<int64_t> ones = decoder.DecodeToBitmap(bitmap.data(), offset, n);
    if (!ones.ok()) Fail("DecodeToBitmap", width, n, 0);
    int64_t expected_ones = 0;
    for (size_t i = 0; i < n; ++i) {
      const size_t bit = i + static_cast<size_t>(offset);
      if (((bitmap[bit / 8] >> (bit % 8)) & 1) != bools[i]) Fail("bitmap differs", width, n, i);
      expected_ones += bools[i];
    }
    if (*ones != expected_ones) Fail("DecodeToBitmap count of ones", width, n, 0);
    // Bits outside the written range keep their value.
    for (size_t bit = 0; bit < static_cast<size_t>(offset); ++bit) {
      if (((bitmap[0] >> bit) & 1) != ((0xA5 >> bit) & 1)) Fail("bitmap prefix", width, n, bit);
    }
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  for (uint8_t head : {0 + 3 * 1, 0 + 3 * 7, 0 + 3 * 32, 1 + 3 * 3, 2, 0}) {
    std::vector<uint8_t> seed = {head, static_cast<uint8_t>(head * 7 + 1)};
    for (int i = 0; i < 40; ++i) {
      seed.push_back(i % 6 == 0 ? static_cast<uint8_t>(128 + i) : 0);
      for (int b = 0; b < 4; ++b) seed.push_back(static_cast<uint8_t>(i * 37 + b * 101));
    }
    seeds.push_back(seed);
  }
  return seeds;
}
