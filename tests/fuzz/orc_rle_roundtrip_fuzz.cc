// Fuzz target: ORC's stream encoders then decoders. Byte 0 picks the codec (byte RLE, boolean RLE,
// integer RLE v1 or v2, signed or unsigned) and the batch pattern, byte 1 the split between two Put
// calls; the rest are records: a byte saying how many bytes the value has (0..8, so runs of equal
// and of small values are common), then those bytes. Checks: EstimatedSize is exact (byte,
// boolean, v1) or an upper bound (v2), and the stream decodes, whole and in batches with Skip, to
// exactly the values put. Any difference aborts.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/orc/boolean_rle.h"
#include "pqpage/orc/byte_rle.h"
#include "pqpage/orc/integer_rle_v1.h"
#include "pqpage/orc/integer_rle_v2.h"

namespace {

using pqpage::orc::Signedness;

constexpr int kHeaderBytes = 2;

[[noreturn]] void Fail(const char* what, size_t n, size_t at) {
  pqpage::fuzz::AbortWithMessage("ORC RLE round trip: %s (%zu values, at %zu)", what, n, at);
}

template <typename T, typename Encoder, typename Decoder>
void RoundTrip(Encoder& encoder, Decoder& decoder, const std::vector<T>& values, uint8_t pattern,
               size_t split, bool exact_estimate) {
  const size_t n = values.size();
  const auto all = absl::MakeConstSpan(values.data(), n);
  if (!encoder.Put(all.first(split)).ok() || !encoder.Put(all.subspan(split)).ok()) {
    Fail("Put", n, 0);
  }
  const size_t estimate = encoder.EstimatedSize();
  const std::vector<uint8_t> stream = encoder.Finish();
  if (exact_estimate ? stream.size() != estimate : stream.size() > estimate) {
    Fail("EstimatedSize", n, stream.size());
  }
  pqpage::fuzz::CheckDecodesTo(decoder, stream, all, pattern,
                               [&](const char* what, size_t at) { Fail(what, n, at); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const uint8_t pattern = data[0] >> 3;
  std::vector<int64_t> values;
  for (size_t at = kHeaderBytes; at < size;) {
    const size_t wanted = data[at++] % 9;
    const size_t length = std::min(wanted, size - at);
    uint64_t value = 0;
    for (size_t k = 0; k < length; ++k) value |= uint64_t{data[at + k]} << (8 * k);
    at += length;
    // A top byte with its high bit set makes the value negative (sign-extended).
    if (length > 0 && length < 8 && (data[at - 1] & 0x80) != 0)
      value |= ~uint64_t{0} << (8 * length);
    values.push_back(static_cast<int64_t>(value));
  }
  const size_t split = (data[1] * 131u) % (values.size() + 1);
  const Signedness signedness = (data[0] & 1) != 0 ? Signedness::kSigned : Signedness::kUnsigned;
  switch ((data[0] >> 1) & 3) {
    case 0: {
      std::vector<int8_t> bytes(values.begin(), values.end());
      pqpage::orc::ByteRleEncoder encoder;
      pqpage::orc::ByteRleDecoder decoder;
      RoundTrip<int8_t>(encoder, decoder, bytes, pattern, split, true);
      std::unique_ptr<bool[]> bools(new bool[values.size() + 1]);
      for (size_t i = 0; i < values.size(); ++i) bools[i] = (values[i] & 1) != 0;
      pqpage::orc::BooleanRleEncoder bool_encoder;
      pqpage::orc::BooleanRleDecoder bool_decoder;
      std::vector<uint8_t> stream;
      if (!bool_encoder.Put(absl::MakeConstSpan(bools.get(), values.size())).ok())
        Fail("Put", 0, 0);
      bool_encoder.FinishInto(&stream);
      std::unique_ptr<bool[]> got(new bool[values.size() + 1]);
      if (!bool_decoder.Reset(stream, static_cast<int64_t>(values.size())).ok() ||
          !bool_decoder.Decode(absl::MakeSpan(got.get(), values.size())).ok() ||
          !std::equal(got.get(), got.get() + values.size(), bools.get())) {
        Fail("boolean round trip", values.size(), 0);
      }
      break;
    }
    case 1: {
      pqpage::orc::IntegerRleV1Encoder encoder(signedness);
      pqpage::orc::IntegerRleV1Decoder decoder(signedness);
      RoundTrip<int64_t>(encoder, decoder, values, pattern, split, true);
      break;
    }
    default: {
      pqpage::orc::IntegerRleV2Encoder encoder(signedness);
      pqpage::orc::IntegerRleV2Decoder decoder(signedness);
      RoundTrip<int64_t>(encoder, decoder, values, pattern, split, false);
      break;
    }
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  for (uint8_t codec = 0; codec < 8; ++codec) {
    std::vector<uint8_t> seed = {static_cast<uint8_t>(codec | 0x18),
                                 static_cast<uint8_t>(codec * 37)};
    for (int i = 0; i < 700; ++i) {
      // Runs of equal values, small values, sorted values and rare wide outliers.
      const int shape = (i / 100) % 4;
      if (shape == 0) {
        seed.insert(seed.end(), {1, 9});
      } else if (shape == 1) {
        seed.insert(seed.end(), {1, static_cast<uint8_t>(i * 7 % 13)});
      } else if (shape == 2) {
        seed.insert(seed.end(), {2, static_cast<uint8_t>(i), static_cast<uint8_t>(i >> 8)});
      } else {
        seed.push_back(i % 29 == 0 ? 7 : 1);
        for (int b = 0; b < (i % 29 == 0 ? 7 : 1); ++b)
          seed.push_back(static_cast<uint8_t>(i * 13 + b));
      }
    }
    seeds.push_back(seed);
  }
  return seeds;
}
