// Fuzz target: the BYTE_STREAM_SPLIT decoders on arbitrary bytes. Header: byte 0 picks the type
// (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY) and the FLBA type length (0 is invalid),
// byte 1 the batch pattern, bytes 2-3 the value count; the rest is the page. Decode / DecodeBytes
// and Skip in assorted batch sizes must either succeed or return an error, never read outside the
// input.
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/byte_stream_split.h"

namespace {

template <typename T>
void RunNumeric(absl::Span<const uint8_t> page, int64_t count, uint8_t pattern) {
  pqpage::ByteStreamSplitDecoder<T> decoder;
  pqpage::fuzz::FuzzDecoder<T>(decoder, page, count, pattern);
}

void RunFixedLen(absl::Span<const uint8_t> page, int64_t count, int type_length, uint8_t pattern) {
  pqpage::ByteStreamSplitDecoder<pqpage::ByteArray> decoder(type_length);
  pqpage::fuzz::FuzzFixedLenDecoder(decoder, page, count, type_length, pattern);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pqpage::fuzz::TypedPage in;
  if (!pqpage::fuzz::ReadTypedPage(data, size, &in)) return 0;
  const int type = in.type_byte % 5;
  if (type == 4) {
    RunFixedLen(in.page, in.count, (in.type_byte / 5) % 40, in.pattern);
  } else {
    pqpage::fuzz::WithTypeAt<float, double, int32_t, int64_t>(
        type, [&]<typename T>() { RunNumeric<T>(in.page, in.count, in.pattern); });
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  using pqpage::fuzz::TypedPageSeed;
  std::vector<std::vector<uint8_t>> seeds;
  // The spec's example: three FLOATs, streams AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6.
  seeds.push_back(TypedPageSeed(
      0, 0, 3, {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6}));
  {
    pqpage::ByteStreamSplitEncoder<double> encoder;
    std::vector<double> values;
    for (int i = 0; i < 45; ++i) values.push_back(i * 1.25 - 7);
    (void)encoder.Put(values);  // never fails
    seeds.push_back(TypedPageSeed(1, 3, values.size(), encoder.Finish()));
  }
  {
    pqpage::ByteStreamSplitEncoder<int64_t> encoder;
    std::vector<int64_t> values;
    for (int i = 0; i < 37; ++i) values.push_back(int64_t{i} << (i % 60));
    (void)encoder.Put(values);  // never fails
    seeds.push_back(TypedPageSeed(3, 5, values.size(), encoder.Finish()));
  }
  for (int type_length : {1, 5, 16, 33}) {
    pqpage::ByteStreamSplitEncoder<pqpage::ByteArray> encoder(type_length);
    std::vector<uint8_t> bytes;
    for (int i = 0; i < 19 * type_length; ++i) bytes.push_back(static_cast<uint8_t>(i * 29));
    (void)encoder.PutBytes(bytes);
    seeds.push_back(
        TypedPageSeed(static_cast<uint8_t>(4 + 5 * type_length), 2, 19, encoder.Finish()));
  }
  return seeds;
}
