// Fuzz target: DELTA_BINARY_PACKED encode then decode, INT32 and INT64. Byte 0 picks the type, the
// block shape (default, or another legal one via Make) and the batch pattern; byte 1 the split
// between two Put calls; the rest is a list of records, each a fresh value, a small step from the
// previous value, an extreme (MIN, MAX, 0, -1) or a repeat, so deltas of every width (including
// overflowing ones) occur. Checks: the stream fits EstimatedSize (and MaxEncodedSize for the
// default shape); it decodes all at once and in batches with Skip to exactly the values put;
// header_value_count is the count; bytes_consumed and SkipToStreamEnd find the stream's end even
// with bytes after it; a Reset for fewer values reads a correct prefix. Any difference aborts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/delta_binary_packed.h"

namespace {

constexpr int kHeaderBytes = 2;
constexpr int64_t kShapes[][2] = {{128, 4}, {128, 1}, {256, 8}, {128, 2}, {512, 4}, {1024, 32}};

[[noreturn]] void Fail(const char* what, size_t n, size_t at) {
  pqpage::fuzz::AbortWithMessage("DELTA_BINARY_PACKED round trip: %s (%zu values, at %zu)", what, n,
                                 at);
}

template <typename T>
std::vector<T> ValuesFrom(const uint8_t* data, size_t size) {
  using U = std::make_unsigned_t<T>;
  std::vector<T> values;
  U previous = 0;
  // Bounded, so that a short input cannot ask for an unbounded page.
  for (size_t at = 0; at < size && values.size() < (size_t{1} << 16);) {
    const uint8_t op = data[at++];
    switch (op % 4) {
      case 0: {  // fresh value
        U value = 0;
        const size_t take = std::min(sizeof(T), size - at);
        std::memcpy(&value, data + at, take);
        at += take;
        previous = value;
        values.push_back(static_cast<T>(previous));
        break;
      }
      case 1: {  // small signed steps, (op >> 2) of them
        const int8_t step = static_cast<int8_t>(at < size ? data[at++] : 1);
        for (int k = 0; k <= op >> 2; ++k) {
          previous = static_cast<U>(previous + static_cast<U>(static_cast<T>(step)));
          values.push_back(static_cast<T>(previous));
        }
        break;
      }
      case 2: {  // an extreme
        static constexpr T kExtremes[] = {std::numeric_limits<T>::min(),
                                          std::numeric_limits<T>::max(), 0, -1};
        previous = static_cast<U>(kExtremes[(op >> 2) % 4]);
        values.push_back(static_cast<T>(previous));
        break;
      }
      default:  // the previous value repeated 8 * (op >> 2) times
        values.insert(values.end(), 8 * static_cast<size_t>(op >> 2), static_cast<T>(previous));
        break;
    }
  }
  return values;
}

template <typename T>
void Run(const uint8_t* data, size_t size) {
  const uint8_t pattern = data[0] >> 1;
  const std::vector<T> values = ValuesFrom<T>(data + kHeaderBytes, size - kHeaderBytes);
  const size_t n = values.size();
  const size_t split = (data[1] * 131u) % (n + 1);
  const int shape = (pattern >> 4) % 6;
  pqpage::DeltaBinaryPackedEncoder<T> encoder;
  if (shape != 0) {
    auto made = pqpage::DeltaBinaryPackedEncoder<T>::Make(kShapes[shape][0], kShapes[shape][1]);
    if (!made.ok()) Fail("Make refused a legal shape", n, static_cast<size_t>(shape));
    encoder = std::move(*made);
  }
  if (!encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("Put", n, 0);
  if (!encoder.Put(absl::MakeConstSpan(values).subspan(split)).ok()) Fail("Put", n, 0);
  if (encoder.num_values() != static_cast<int64_t>(n)) Fail("num_values", n, 0);
  const size_t estimate = encoder.EstimatedSize();
  std::vector<uint8_t> stream = encoder.Finish();
  const size_t stream_size = stream.size();
  if (stream_size > estimate) Fail("stream larger than EstimatedSize", n, stream_size);
  if (shape == 0 &&
      stream_size > pqpage::DeltaBinaryPackedEncoder<T>::MaxEncodedSize(static_cast<int64_t>(n))) {
    Fail("stream larger than MaxEncodedSize", n, stream_size);
  }
  // Data that follows the stream in a page must not disturb it.
  stream.insert(stream.end(), {0xFF, 0x00, 0x7F, 0x80});

  pqpage::DeltaBinaryPackedDecoder<T> decoder;
  pqpage::fuzz::CheckDecodesTo(
      decoder, stream, absl::MakeConstSpan(values), pattern,
      [&](const char* what, size_t at) { Fail(what, n, at); },
      [&](absl::Span<const T> decoded, size_t position) {
        if (decoder.header_value_count() != static_cast<int64_t>(n)) {
          Fail("header_value_count", n, position);
        }
        // Every value decoded, none skipped: the decoder stands just after the stream.
        if (position == 0 && decoded.size() == n && decoder.bytes_consumed() != stream_size) {
          Fail("bytes_consumed", n, decoder.bytes_consumed());
        }
      });
  std::vector<T> out(n);

  // A caller reading a prefix, then jumping to the end of the stream.
  const size_t prefix = (data[1] * 7u) % (n + 1);
  if (!decoder.Reset(stream, static_cast<int64_t>(prefix)).ok()) Fail("Reset prefix", n, prefix);
  if (!decoder.Decode(absl::MakeSpan(out).first(prefix)).ok()) Fail("prefix Decode", n, prefix);
  if (!std::equal(out.begin(), out.begin() + prefix, values.begin())) {
    Fail("prefix Decode differs", n, prefix);
  }
  absl::StatusOr<size_t> end = decoder.SkipToStreamEnd();
  if (!end.ok() || *end != stream_size || decoder.values_left() != 0) {
    Fail("SkipToStreamEnd", n, end.ok() ? *end : 0);
  }
  if (!decoder.ResetWholeStream(stream).ok() || decoder.values_left() != static_cast<int64_t>(n)) {
    Fail("ResetWholeStream", n, 0);
  }
  end = decoder.SkipToStreamEnd();
  if (!end.ok() || *end != stream_size) Fail("SkipToStreamEnd from the start", n, 0);
  // More values than the header holds must be refused.
  if (decoder.Reset(stream, static_cast<int64_t>(n) + 1).ok()) Fail("Reset past the count", n, 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  pqpage::fuzz::WithTypeAt<int32_t, int64_t>(data[0] & 1,
                                             [&]<typename T>() { Run<T>(data, size); });
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  for (uint8_t head : {0x00, 0x21, 0x40, 0x81, 0xB3}) {
    std::vector<uint8_t> seed = {head, static_cast<uint8_t>(head + 5)};
    for (int i = 0; i < 60; ++i) {
      const uint8_t op = static_cast<uint8_t>(i * 5 % 4 + (i % 7) * 4);
      seed.push_back(op);
      if (op % 4 == 0) {
        for (int b = 0; b < 8; ++b) seed.push_back(static_cast<uint8_t>(i * 31 + b * 17));
      } else if (op % 4 == 1) {
        seed.push_back(static_cast<uint8_t>(i * 11));
      }
    }
    seeds.push_back(seed);
  }
  // The spec's example values 7, 5, 3, 1, 2, 3, 4, 5 as fresh INT32 values.
  std::vector<uint8_t> example = {0, 0};
  for (uint8_t v : {7, 5, 3, 1, 2, 3, 4, 5}) example.insert(example.end(), {0, v, 0, 0, 0});
  seeds.push_back(example);
  return seeds;
}
