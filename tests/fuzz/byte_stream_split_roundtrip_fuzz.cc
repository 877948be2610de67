// Fuzz target: BYTE_STREAM_SPLIT encode then decode for FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY (type lengths 1..40). Byte 0 picks the type (and the FLBA length), byte 1
// the split between two Put calls (Put and PutBytes for FLBA) and the batch pattern; the rest are
// the values' bytes. Checks: the page is exactly K * N bytes, byte k of value i sits at k * N + i,
// and it decodes (all at once, and in batches with Skip) to exactly the values put, bit for bit.
// Any difference aborts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/byte_stream_split.h"

namespace {

constexpr int kHeaderBytes = 2;

[[noreturn]] void Fail(const char* what, size_t width, size_t n, size_t at) {
  pqpage::fuzz::AbortWithMessage("BYTE_STREAM_SPLIT round trip: %s (width %zu, %zu values, at %zu)",
                                 what, width, n, at);
}

void CheckLayout(const std::vector<uint8_t>& page, const uint8_t* plain, size_t width, size_t n) {
  if (page.size() != width * n) Fail("page size", width, n, page.size());
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < width; ++k) {
      if (page[k * n + i] != plain[i * width + k]) Fail("layout", width, n, i);
    }
  }
}

// Decodes in batches (every third skipped); `decode(out, count)` decodes count values as bytes.
template <typename Decoder, typename DecodeFn>
void CheckBatches(Decoder& decoder, const uint8_t* plain, size_t width, size_t n, uint8_t pattern,
                  DecodeFn decode) {
  std::vector<uint8_t> out(n * width + 1);
  pqpage::fuzz::CheckInMixedBatches(
      decoder, n, pattern,
      [&](int, size_t position, size_t count) {
        if (!decode(out.data(), count).ok()) Fail("Decode", width, n, position);
        if (count > 0 && std::memcmp(out.data(), plain + position * width, count * width) != 0) {
          Fail("Decode differs", width, n, position);
        }
      },
      [&](const char* what, size_t at) { Fail(what, width, n, at); });
  if (n > 0 && decoder.Skip(1).ok()) Fail("Skip past the end accepted", width, n, n);
}

template <typename T>
void RunNumeric(absl::Span<const uint8_t> bytes, uint8_t pattern) {
  const size_t n = bytes.size() / sizeof(T);
  std::vector<T> values(n);
  if (n > 0) std::memcpy(values.data(), bytes.data(), n * sizeof(T));
  const size_t split = (pattern * 31u) % (n + 1);
  pqpage::ByteStreamSplitEncoder<T> encoder;
  if (!encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("Put", sizeof(T), n, 0);
  if (!encoder.Put(absl::MakeConstSpan(values).subspan(split)).ok()) Fail("Put", sizeof(T), n, 0);
  if (encoder.EstimatedSize() != n * sizeof(T)) Fail("EstimatedSize", sizeof(T), n, 0);
  const std::vector<uint8_t> page = encoder.Finish();
  if (page.size() != encoder.MaxEncodedSize(n)) {
    Fail("MaxEncodedSize", sizeof(T), n, page.size());
  }
  CheckLayout(page, bytes.data(), sizeof(T), n);
  pqpage::ByteStreamSplitDecoder<T> decoder;
  if (!decoder.Reset(page, static_cast<int64_t>(n)).ok()) Fail("Reset", sizeof(T), n, 0);
  if (decoder.stream_length() != static_cast<int64_t>(n)) Fail("stream_length", sizeof(T), n, 0);
  pqpage::fuzz::CheckDecodesTo(decoder, page, absl::MakeConstSpan(values), pattern,
                               [&](const char* what, size_t at) { Fail(what, sizeof(T), n, at); });
}

void RunFixedLen(absl::Span<const uint8_t> bytes, int type_length, uint8_t pattern) {
  const size_t width = static_cast<size_t>(type_length);
  const size_t n = bytes.size() / width;
  std::vector<pqpage::ByteArray> values;
  for (size_t i = 0; i < n; ++i) {
    values.emplace_back(bytes.data() + i * width, static_cast<uint32_t>(width));
  }
  const size_t split = (pattern * 31u) % (n + 1);
  pqpage::ByteStreamSplitEncoder<pqpage::ByteArray> encoder(type_length);
  if (!encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("Put", width, n, 0);
  if (!encoder.PutBytes(bytes.subspan(split * width, (n - split) * width)).ok()) {
    Fail("PutBytes", width, n, split);
  }
  if (type_length > 1 && encoder.PutBytes(bytes.first(std::min<size_t>(1, bytes.size()))).ok() &&
      !bytes.empty()) {
    Fail("PutBytes accepted a partial value", width, n, 0);
  }
  const std::vector<uint8_t> page = encoder.Finish();
  CheckLayout(page, bytes.data(), width, n);
  pqpage::ByteStreamSplitDecoder<pqpage::ByteArray> decoder(type_length);
  if (!decoder.Reset(page, static_cast<int64_t>(n)).ok()) Fail("Reset", width, n, 0);
  std::vector<pqpage::ByteArray> views;
  CheckBatches(decoder, bytes.data(), width, n, pattern, [&](uint8_t* out, size_t count) {
    if (count % 2 == 0) return decoder.DecodeBytes(absl::MakeSpan(out, count * width));
    // Odd batches as views into the decoder's gathered values, copied out here.
    views.assign(count, pqpage::ByteArray());
    absl::Status status = decoder.Decode(absl::MakeSpan(views));
    if (!status.ok()) return status;
    for (size_t i = 0; i < count; ++i) {
      if (views[i].size != width) Fail("view size", width, n, views[i].size);
      std::memcpy(out + i * width, views[i].data, width);
    }
    return status;
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const uint8_t pattern = data[1];
  const absl::Span<const uint8_t> bytes(data + kHeaderBytes, size - kHeaderBytes);
  const int type = data[0] % 5;
  if (type == 4) {
    RunFixedLen(bytes, 1 + (data[0] / 5) % 40, pattern);
  } else {
    pqpage::fuzz::WithTypeAt<float, double, int32_t, int64_t>(
        type, [&]<typename T>() { RunNumeric<T>(bytes, pattern); });
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // The spec's example: three FLOATs AA BB CC DD, 00 11 22 33, A3 B4 C5 D6.
  seeds.push_back({0, 1, 0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6});
  for (uint8_t head : {0, 1, 2, 3, 4, 4 + 5 * 2, 4 + 5 * 7, 4 + 5 * 15, 4 + 5 * 32}) {
    std::vector<uint8_t> seed = {head, static_cast<uint8_t>(head * 13 + 2)};
    for (int i = 0; i < 200; ++i) seed.push_back(static_cast<uint8_t>(i * 97 + (i >> 4)));
    seeds.push_back(seed);
  }
  return seeds;
}
