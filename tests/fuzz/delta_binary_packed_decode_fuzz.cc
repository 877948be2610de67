// Fuzz target: DeltaBinaryPackedDecoder<int32_t / int64_t> on arbitrary bytes. Header: byte 0 picks
// the type and the batch pattern, bytes 1-2 the value count the caller asks for; the rest is the
// stream. Reset + Decode/Skip in assorted batch sizes, ResetWholeStream + a bounded number of
// values + SkipToStreamEnd must either succeed or return an error, never read outside the input;
// an offset SkipToStreamEnd reports must lie within the input, with no values left after it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/delta_binary_packed.h"

namespace {

using pqpage::fuzz::HighByte;
using pqpage::fuzz::LowByte;

constexpr int kHeaderBytes = 3;

template <typename T>
void Run(absl::Span<const uint8_t> stream, int64_t count, uint8_t pattern, int64_t cap) {
  pqpage::DeltaBinaryPackedDecoder<T> decoder;
  pqpage::fuzz::FuzzDecoder<T>(decoder, stream, count, pattern);
  // The whole stream: the header's count can be anything, so decode at most `cap` values (the
  // rest is skipped without unpacking).
  if (decoder.ResetWholeStream(stream).ok()) {
    std::vector<T> head(static_cast<size_t>(std::min(cap, decoder.values_left())));
    const int64_t first = (pattern & 0x80) ? 0 : static_cast<int64_t>(head.size());
    absl::Status status = decoder.Decode(absl::MakeSpan(head).first(static_cast<size_t>(first)));
    if (status.ok()) {
      absl::StatusOr<size_t> end = decoder.SkipToStreamEnd();
      if (end.ok()) {
        if (*end > stream.size() || decoder.values_left() != 0) {
          pqpage::fuzz::AbortWithMessage(
              "SkipToStreamEnd: offset %zu of %zu bytes, %lld values left", *end, stream.size(),
              static_cast<long long>(decoder.values_left()));
        }
        (void)decoder.Skip(1);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const uint8_t pattern = data[0] >> 1;
  const int64_t cap = pqpage::fuzz::CountCap(size);
  const int64_t count = std::min<int64_t>(data[1] | (data[2] << 8), cap);
  const absl::Span<const uint8_t> stream(data + kHeaderBytes, size - kHeaderBytes);
  pqpage::fuzz::WithTypeAt<int32_t, int64_t>(
      data[0] & 1, [&]<typename T>() { Run<T>(stream, count, pattern, cap); });
  return 0;
}

namespace {

template <typename T>
std::vector<uint8_t> Seed(uint8_t pattern, const std::vector<T>& values,
                          pqpage::DeltaBinaryPackedEncoder<T> encoder = {}) {
  const size_t n = values.size();
  std::vector<uint8_t> seed = {static_cast<uint8_t>((pattern << 1) | (sizeof(T) == 8)), LowByte(n),
                               HighByte(n)};
  (void)encoder.Put(values);  // never fails
  encoder.FinishInto(&seed);
  return seed;
}

}  // namespace

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // The spec's examples (with block size 8, which this decoder may reject: still worth mutating).
  // 1, 2, 3, 4, 5: header 8 1 5 zigzag(1); block: min delta zigzag(1), width 0.
  seeds.push_back({0, 5, 0, 0x08, 0x01, 0x05, 0x02, 0x02, 0x00});
  // 7, 5, 3, 1, 2, 3, 4, 5: header 8 1 8 zigzag(7); block: zigzag(-2), width 2, 0,0,0,3,3,3,3.
  seeds.push_back({0, 8, 0, 0x08, 0x01, 0x08, 0x0E, 0x03, 0x02, 0xC0, 0xFF, 0x00});
  std::vector<int32_t> ints;
  std::vector<int64_t> longs;
  for (int i = 0; i < 300; ++i) {
    ints.push_back(i % 50 == 0 ? INT32_MIN : i * i - 3 * i);
    longs.push_back(i % 70 == 0 ? INT64_MAX : int64_t{i} * 1000003 * (i % 3 - 1));
  }
  seeds.push_back(Seed<int32_t>(2, ints));
  seeds.push_back(Seed<int64_t>(0x83, longs));
  seeds.push_back(
      Seed<int32_t>(5, {1, 2, 3}, *pqpage::DeltaBinaryPackedEncoder<int32_t>::Make(256, 8)));
  seeds.push_back(Seed<int64_t>(1, {}));
  // Found by this target (fixed in e92272b): a varint running one byte past its 10 (64-bit) or 5
  // (32-bit) byte limit made ByteReader shift by a negative amount. First value 0x80 x 10, 0x00:
  seeds.push_back({1, 0, 0, 0x80, 0x01, 0x04, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                   0x80, 0x80, 0x00});
  // ... and a block size of 0x80 x 5, 0x00.
  seeds.push_back({0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x04, 0x00, 0x00});
  return seeds;
}
