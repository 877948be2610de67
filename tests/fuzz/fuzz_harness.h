// Pieces every fuzz harness in tests/fuzz uses the same way: the table of batch sizes a byte of
// the input picks from, the Decode/Skip loop over those batches (for decode harnesses, which only
// need "no crash", and for round-trip harnesses, which compare every batch), the whole decode
// harness (FuzzDecoder) and round trip's decode half (CheckDecodesTo) of the per-encoding targets,
// the cap on value counts taken from the input, the seed layout "header bytes, then the page", and
// the abort with a message that turns a broken contract into a failing fuzz run. Header-only so
// each harness stays a single translation unit (libFuzzer and the replay driver link one .cc per
// target).
#ifndef PQPAGE_TESTS_FUZZ_FUZZ_HARNESS_H_
#define PQPAGE_TESTS_FUZZ_FUZZ_HARNESS_H_

#include <algorithm>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/types.h"

namespace pqpage::fuzz {

// Calls `run.template operator()<T>()` with T the `index`th of Ts, and nothing when there is none:
// how a header byte picks the value type a target fuzzes.
template <typename... Ts, typename Run>
void WithTypeAt(int index, Run run) {
  int i = 0;
  (void)((i++ == index && (run.template operator()<Ts>(), true)) || ...);
}

// Sizes around the decoders' internal boundaries (8-value groups, miniblocks, blocks).
inline constexpr int64_t kBatchSizes[] = {1, 7, 8, 33, 100, 513, 4096};
inline constexpr int kNumBatchSizes = sizeof(kBatchSizes) / sizeof(kBatchSizes[0]);

// The size of batch `i` for `pattern`, never more than `values_left`.
inline int64_t BatchSize(uint8_t pattern, int i, int64_t values_left) {
  return std::min(kBatchSizes[(pattern + i) % kNumBatchSizes], values_left);
}

// The most values a harness asks for from `input_size` bytes: enough for any valid page (a
// BOOLEAN or 1-bit page holds 8 values a byte), small enough that the output buffers stay bounded.
inline int64_t CountCap(size_t input_size) { return 8 * static_cast<int64_t>(input_size) + 64; }

// A value count read from the input, bounded by CountCap.
inline int64_t BoundedCount(int64_t raw_count, size_t input_size) {
  return std::min(raw_count, CountCap(input_size));
}

// Runs `step(i, n)` over batches until the decoder is drained or a step returns an error.
template <typename Decoder, typename Step>
void InBatches(Decoder& decoder, uint8_t pattern, Step step) {
  for (int i = 0; decoder.values_left() > 0; ++i) {
    const int64_t n = BatchSize(pattern, i, decoder.values_left());
    if (!step(i, n).ok()) break;
  }
}

// Decode two batches, Skip the third, over `out`; stops at the first error (the input is
// arbitrary, so errors are expected; only crashes, out-of-bounds reads and what `check` rejects are
// bugs). `check(decoded)` sees every batch that decoded successfully.
template <typename Decoder, typename T, typename Check>
void DecodeInMixedBatches(Decoder& decoder, absl::Span<T> out, uint8_t pattern, Check check) {
  InBatches(decoder, pattern, [&](int i, int64_t n) -> absl::Status {
    if (i % 3 == 2) return decoder.Skip(n);
    const absl::Span<T> batch = out.first(static_cast<size_t>(n));
    absl::Status status = decoder.Decode(batch);
    if (status.ok()) check(absl::Span<const T>(batch));
    return status;
  });
}

// Decode, `decode_other(n)` (the codec's second decode form), Skip, in turn, over batches of `out`
// until the decoder is drained or a step fails.
template <typename Decoder, typename T, typename DecodeOther>
void DecodeInThreeWayBatches(Decoder& decoder, absl::Span<T> out, uint8_t pattern,
                             DecodeOther decode_other) {
  InBatches(decoder, pattern, [&](int i, int64_t n) -> absl::Status {
    if (i % 3 == 0) return decoder.Decode(out.first(static_cast<size_t>(n)));
    if (i % 3 == 1) return decode_other(n);
    return decoder.Skip(n);
  });
}

// The calls a drained (or failed) decoder must refuse cleanly: one more value, one more skip, a
// negative skip.
template <typename Decoder, typename T>
void ProbePastEnd(Decoder& decoder, absl::Span<T> out) {
  (void)decoder.Decode(out.first(std::min<size_t>(1, out.size())));
  (void)decoder.Skip(1);
  (void)decoder.Skip(-1);
}

// Round trips: Skip every third batch, hand the others to `check_batch(i, position, count)` (which
// decodes and compares; `i` tells the first batch of three from the second), and report a failed
// Skip or a wrong total through `fail(what, at)`. Returns the number of values walked over
// (== expected_count, else `fail` was called).
template <typename Decoder, typename CheckBatch, typename FailFn>
size_t CheckInMixedBatches(Decoder& decoder, size_t expected_count, uint8_t pattern,
                           CheckBatch check_batch, FailFn fail) {
  size_t position = 0;
  for (int i = 0; decoder.values_left() > 0; ++i) {
    const size_t count = static_cast<size_t>(BatchSize(pattern, i, decoder.values_left()));
    if (i % 3 == 2) {
      if (!decoder.Skip(static_cast<int64_t>(count)).ok()) fail("Skip", position);
    } else {
      check_batch(i, position, count);
    }
    position += count;
  }
  if (position != expected_count) fail("values_left", position);
  return position;
}

// `count` value-initialised values: not std::vector, whose bool specialisation has no data().
template <typename T>
std::unique_ptr<T[]> NewValues(size_t count) {
  return std::unique_ptr<T[]>(new T[count]());
}

// The default check of the harnesses below: every decoded value is acceptable.
struct AnyValues {
  template <typename T>
  void operator()(absl::Span<const T> /*decoded*/, size_t /*position*/ = 0) const {}
};

// The decode harness of a decoder whose Reset takes (page, count), on arbitrary bytes: all `count`
// values at once, then DecodeInMixedBatches and ProbePastEnd, then a negative count Reset must
// refuse. `check(decoded)` sees every span that decoded successfully.
template <typename T, typename Decoder, typename Check = AnyValues>
void FuzzDecoder(Decoder& decoder, absl::Span<const uint8_t> page, int64_t count, uint8_t pattern,
                 Check check = {}) {
  const std::unique_ptr<T[]> storage = NewValues<T>(static_cast<size_t>(count));
  const absl::Span<T> values(storage.get(), static_cast<size_t>(count));
  if (decoder.Reset(page, count).ok() && decoder.Decode(values).ok()) {
    check(absl::Span<const T>(values));
  }
  if (decoder.Reset(page, count).ok()) {
    DecodeInMixedBatches(decoder, values, pattern, check);
    ProbePastEnd(decoder, values);
  }
  (void)decoder.Reset(page, -count - 1);
}

// The decode harness of a FIXED_LEN_BYTE_ARRAY decoder that also has DecodeBytes (PLAIN,
// BYTE_STREAM_SPLIT), on arbitrary bytes: all `count` values at once, as views and as bytes; then
// Decode, DecodeBytes and Skip in turn (DecodeInThreeWayBatches); then what it must refuse: a byte
// count that is not a whole number of values, one more value, a negative skip, a negative count.
template <typename Decoder>
void FuzzFixedLenDecoder(Decoder& decoder, absl::Span<const uint8_t> page, int64_t count,
                         int type_length, uint8_t pattern) {
  const size_t width = static_cast<size_t>(std::max(type_length, 1));
  const size_t n = static_cast<size_t>(count);
  std::vector<ByteArray> views(n + 1);
  std::vector<uint8_t> bytes((n + 1) * width);
  if (decoder.Reset(page, count).ok()) (void)decoder.Decode(absl::MakeSpan(views).first(n));
  if (decoder.Reset(page, count).ok()) {
    (void)decoder.DecodeBytes(absl::MakeSpan(bytes).first(n * width));
  }
  if (decoder.Reset(page, count).ok()) {
    DecodeInThreeWayBatches(decoder, absl::MakeSpan(views), pattern, [&](int64_t batch) {
      return decoder.DecodeBytes(absl::MakeSpan(bytes).first(static_cast<size_t>(batch) * width));
    });
    if (type_length > 1) (void)decoder.DecodeBytes(absl::MakeSpan(bytes).first(1));
    (void)decoder.DecodeBytes(absl::MakeSpan(bytes).first(width));
    (void)decoder.Skip(1);
    (void)decoder.Skip(-1);
  }
  (void)decoder.Reset(page, -count - 1);
}

// A decoder whose Reset or Decode want more than (page, count) and (out), such as a bit width or a
// maximum level, with those bound, so that FuzzDecoder and CheckDecodesTo can drive it:
// `reset(decoder, page, count)` and `decode(decoder, out)` make the calls, Skip and values_left
// pass through.
template <typename Decoder, typename ResetFn, typename DecodeFn>
class BoundDecoder {
 public:
  BoundDecoder(Decoder& decoder, ResetFn reset, DecodeFn decode)
      : decoder_(decoder), reset_(reset), decode_(decode) {}
  absl::Status Reset(absl::Span<const uint8_t> page, int64_t count) {
    return reset_(decoder_, page, count);
  }
  template <typename T>
  absl::Status Decode(absl::Span<T> out) {
    return decode_(decoder_, out);
  }
  absl::Status Skip(int64_t count) { return decoder_.Skip(count); }
  int64_t values_left() const { return decoder_.values_left(); }

 private:
  Decoder& decoder_;
  ResetFn reset_;
  DecodeFn decode_;
};

// Whether a decoded value is exactly the one put: bit for bit (NaN payloads, -0.0), and for byte
// arrays byte for byte.
template <typename T>
bool SameValue(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
  } else {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
}

// The decode half of a round trip, for a decoder whose Reset takes (stream, count): `stream` must
// decode to exactly `values`, all at once and in mixed batches, and refuse a Skip past the end.
// `fail(what, at)` reports a difference (and must not return); `check(decoded, position)` sees
// every decoded span besides.
template <typename T, typename Decoder, typename FailFn, typename Check = AnyValues>
void CheckDecodesTo(Decoder& decoder, absl::Span<const uint8_t> stream, absl::Span<const T> values,
                    uint8_t pattern, FailFn fail, Check check = {}) {
  const size_t n = values.size();
  const std::unique_ptr<T[]> storage = NewValues<T>(n);
  const absl::Span<T> out(storage.get(), n);
  auto compare = [&](size_t position, size_t count, const char* what) {
    for (size_t k = 0; k < count; ++k) {
      if (!SameValue(out[k], values[position + k])) fail(what, position + k);
    }
    check(absl::Span<const T>(out.first(count)), position);
  };
  if (!decoder.Reset(stream, static_cast<int64_t>(n)).ok()) fail("Reset", 0);
  if (!decoder.Decode(out).ok()) fail("Decode", 0);
  compare(0, n, "Decode differs");
  if (!decoder.Reset(stream, static_cast<int64_t>(n)).ok()) fail("Reset", 0);
  CheckInMixedBatches(
      decoder, n, pattern,
      [&](int, size_t position, size_t count) {
        if (!decoder.Decode(out.first(count)).ok()) fail("batch Decode", position);
        compare(position, count, "batch Decode differs");
      },
      fail);
  if (decoder.Skip(1).ok()) fail("Skip past the end accepted", n);
}

// Prints the printf-style message and aborts: how a harness reports a broken contract.
[[noreturn]] inline void AbortWithMessage(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::abort();
}

// A codec constructed as the codec factory does: the byte-array codecs take the type length as
// their first constructor argument, the others only `rest`.
template <typename Codec, typename... Rest>
Codec WithTypeLength(int type_length, const Rest&... rest) {
  if constexpr (std::is_constructible_v<Codec, int, const Rest&...>)
    return Codec(type_length, rest...);
  else
    return Codec(rest...);
}

// The low and high byte of a 16-bit value count in a seed header.
inline uint8_t LowByte(size_t value) { return static_cast<uint8_t>(value & 0xFF); }
inline uint8_t HighByte(size_t value) { return static_cast<uint8_t>((value >> 8) & 0xFF); }

// A seed: the harness's header bytes, then the page.
inline std::vector<uint8_t> SeedWithHeader(std::initializer_list<uint8_t> header,
                                           absl::Span<const uint8_t> page) {
  std::vector<uint8_t> seed(header.size() + page.size());
  std::copy(header.begin(), header.end(), seed.begin());
  std::copy(page.begin(), page.end(), seed.begin() + static_cast<std::ptrdiff_t>(header.size()));
  return seed;
}

// The input of the decode targets that fuzz several types: byte 0 picks the type (and whatever
// else the target reads from it), byte 1 is the batch pattern, bytes 2-3 the value count (low byte
// first, bounded by CountCap); the rest is the page.
struct TypedPage {
  uint8_t type_byte = 0;
  uint8_t pattern = 0;
  int64_t count = 0;
  absl::Span<const uint8_t> page;
};
inline constexpr size_t kTypedPageHeaderBytes = 4;

// `data` read as a TypedPage; false (and `*out` untouched) when it is shorter than the header.
inline bool ReadTypedPage(const uint8_t* data, size_t size, TypedPage* out) {
  if (size < kTypedPageHeaderBytes) return false;
  out->type_byte = data[0];
  out->pattern = data[1];
  out->count = BoundedCount(data[2] | (data[3] << 8), size);
  out->page = absl::MakeConstSpan(data + kTypedPageHeaderBytes, size - kTypedPageHeaderBytes);
  return true;
}

// A seed laid out as ReadTypedPage reads it.
inline std::vector<uint8_t> TypedPageSeed(uint8_t type_byte, uint8_t pattern, size_t count,
                                          absl::Span<const uint8_t> page) {
  return SeedWithHeader({type_byte, pattern, LowByte(count), HighByte(count)}, page);
}

}  // namespace pqpage::fuzz

#endif  // PQPAGE_TESTS_FUZZ_FUZZ_HARNESS_H_
