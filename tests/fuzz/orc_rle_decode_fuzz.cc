// Fuzz target: ORC's stream decoders on arbitrary bytes: byte RLE, boolean RLE (as bools and as a
// validity bitmap), integer RLE v1 and v2 (signed and unsigned), and the 128-bit decimal varint.
// Header: byte 0 picks the codec (low 3 bits) and the batch pattern, bytes 1-2 the value count;
// the rest is the stream. Decode and Skip in assorted batch sizes must either succeed or return an
// error, never read outside the input.
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/orc/boolean_rle.h"
#include "pqpage/orc/byte_rle.h"
#include "pqpage/orc/integer_rle_v1.h"
#include "pqpage/orc/integer_rle_v2.h"
#include "pqpage/orc/varint.h"

namespace {

using pqpage::fuzz::FuzzDecoder;
using pqpage::fuzz::HighByte;
using pqpage::fuzz::LowByte;
using pqpage::orc::Signedness;

constexpr int kHeaderBytes = 3;

void RunBitmap(absl::Span<const uint8_t> stream, int64_t count, uint8_t pattern) {
  pqpage::orc::BooleanRleDecoder decoder;
  std::vector<uint8_t> bitmap(static_cast<size_t>(count) / 8 + 2);
  if (!decoder.Reset(stream, count).ok()) return;
  int64_t at = pattern % 8;
  pqpage::fuzz::InBatches(decoder, pattern, [&](int, int64_t n) -> absl::Status {
    if (at + n > static_cast<int64_t>(bitmap.size()) * 8) return absl::OutOfRangeError("full");
    absl::StatusOr<int64_t> ones = decoder.DecodeToBitmap(bitmap.data(), at, n);
    at += n;
    return ones.status();
  });
}

void RunDecimals(absl::Span<const uint8_t> stream) {
  size_t position = 0;
  while (position < stream.size()) {
    if (!pqpage::orc::ReadSignedVarint128(stream, &position).ok()) break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const uint8_t pattern = data[0] >> 3;
  const int64_t count = pqpage::fuzz::BoundedCount(data[1] | (data[2] << 8), size);
  const absl::Span<const uint8_t> stream(data + kHeaderBytes, size - kHeaderBytes);
  switch (data[0] & 7) {
    case 0: {
      pqpage::orc::ByteRleDecoder decoder;
      FuzzDecoder<int8_t>(decoder, stream, count, pattern);
      break;
    }
    case 1: {
      pqpage::orc::BooleanRleDecoder decoder;
      FuzzDecoder<bool>(decoder, stream, count, pattern);
      RunBitmap(stream, count, pattern);
      break;
    }
    case 2:
    case 3: {
      pqpage::orc::IntegerRleV1Decoder decoder((data[0] & 1) != 0 ? Signedness::kSigned
                                                                  : Signedness::kUnsigned);
      FuzzDecoder<int64_t>(decoder, stream, count, pattern);
      break;
    }
    case 4:
    case 5: {
      pqpage::orc::IntegerRleV2Decoder decoder((data[0] & 1) != 0 ? Signedness::kSigned
                                                                  : Signedness::kUnsigned);
      FuzzDecoder<int64_t>(decoder, stream, count, pattern);
      break;
    }
    default:
      RunDecimals(stream);
      break;
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  auto add = [&](uint8_t codec, size_t count, const std::vector<uint8_t>& stream) {
    seeds.push_back(pqpage::fuzz::SeedWithHeader(
        {static_cast<uint8_t>(codec | 0x28), LowByte(count), HighByte(count)}, stream));
  };
  // The spec's examples.
  add(0, 100, {0x61, 0x00});
  add(0, 2, {0xfe, 0x44, 0x45});
  add(1, 8, {0xff, 0x80});
  add(2, 100, {0x61, 0x00, 0x07});
  add(2, 100, {0x61, 0xff, 0x64});
  add(2, 5, {0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b});
  add(4, 5, {0x0a, 0x27, 0x10});
  add(4, 4, {0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef});
  add(4, 20, {0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46,
              0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8});
  add(4, 10, {0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46});
  // Streams of pqpage's own encoders: every run kind, signed.
  std::vector<int64_t> values;
  for (int i = 0; i < 1500; ++i) {
    values.push_back(i < 500 ? i * 3 : i < 520 ? 7 : i % 101 == 0 ? int64_t{1} << 50 : i % 17);
  }
  for (const bool v2 : {false, true}) {
    std::vector<uint8_t> stream;
    if (v2) {
      pqpage::orc::IntegerRleV2Encoder encoder(Signedness::kSigned);
      (void)encoder.Put(values);
      encoder.FinishInto(&stream);
    } else {
      pqpage::orc::IntegerRleV1Encoder encoder(Signedness::kSigned);
      (void)encoder.Put(values);
      encoder.FinishInto(&stream);
    }
    add(v2 ? 5 : 3, values.size(), stream);
  }
  std::vector<uint8_t> decimals;
  pqpage::orc::AppendSignedVarint128(-absl::int128(1) << 100, &decimals);
  pqpage::orc::AppendSignedVarint128(12345, &decimals);
  add(6, 0, decimals);
  return seeds;
}
