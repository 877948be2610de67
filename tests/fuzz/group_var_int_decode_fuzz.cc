// Fuzz target: GroupVarIntDecoder<int32_t / int64_t> on arbitrary bytes. Header: byte 0 picks the
// type and the batch pattern, bytes 1-2 the value count; the rest is the stream. Decode and Skip in
// assorted batch sizes must either succeed or return an error, never read outside the input.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/group_var_int.h"

namespace {

using pqpage::fuzz::HighByte;
using pqpage::fuzz::LowByte;

constexpr int kHeaderBytes = 3;

template <typename T>
void Run(absl::Span<const uint8_t> stream, int64_t count, uint8_t pattern) {
  pqpage::GroupVarIntDecoder<T> decoder;
  pqpage::fuzz::FuzzDecoder<T>(decoder, stream, count, pattern);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const uint8_t pattern = data[0] >> 1;
  const int64_t count = pqpage::fuzz::BoundedCount(data[1] | (data[2] << 8), size);
  const absl::Span<const uint8_t> stream(data + kHeaderBytes, size - kHeaderBytes);
  pqpage::fuzz::WithTypeAt<int32_t, int64_t>(data[0] & 1,
                                             [&]<typename T>() { Run<T>(stream, count, pattern); });
  return 0;
}

namespace {

template <typename T>
std::vector<uint8_t> Seed(uint8_t pattern, const std::vector<T>& values) {
  const size_t n = values.size();
  std::vector<uint8_t> seed = {static_cast<uint8_t>((pattern << 1) | (sizeof(T) == 8)), LowByte(n),
                               HighByte(n)};
  pqpage::GroupVarIntEncoder<T> encoder;
  (void)encoder.Put(values);  // never fails
  encoder.FinishInto(&seed);
  return seed;
}

}  // namespace

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // The draft's example header 0b00101101: lengths 2, 4, 3, 1 bytes for values 4..1 in bit order
  // (low bits first), 11 bytes in all.
  seeds.push_back(
      {0, 4, 0, 0b00101101, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA});
  std::vector<int32_t> ints;
  std::vector<int64_t> longs;
  for (int i = 0; i < 61; ++i) {
    ints.push_back(i % 9 == 0 ? -1 : (1 << (i % 31)) + i);
    longs.push_back(i % 11 == 0 ? INT64_MIN : int64_t{i} << (i % 62));
  }
  seeds.push_back(Seed<int32_t>(3, ints));
  seeds.push_back(Seed<int64_t>(5, longs));
  seeds.push_back(Seed<int64_t>(1, {1, 2, 3}));
  return seeds;
}
