// Pieces every fuzz harness in tests/fuzz uses the same way: the table of batch sizes a byte of
// the input picks from, the Decode/Skip loop over those batches (for decode harnesses, which only
// need "no crash", and for round-trip harnesses, which compare every batch), the cap on value
// counts taken from the input, the seed layout "header bytes, then the page", and the abort with
// a message that turns a broken contract into a failing fuzz run. Header-only so each harness
// stays a single translation unit (libFuzzer and the replay driver link one .cc per target).
#ifndef PQPAGE_TESTS_FUZZ_FUZZ_HARNESS_H_
#define PQPAGE_TESTS_FUZZ_FUZZ_HARNESS_H_

#include <algorithm>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace pqpage::fuzz {

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

template <typename Decoder, typename T>
void DecodeInMixedBatches(Decoder& decoder, absl::Span<T> out, uint8_t pattern) {
  DecodeInMixedBatches(decoder, out, pattern, [](absl::Span<const T>) {});
}

// The calls a drained (or failed) decoder must refuse cleanly: one more value, one more skip, a
// negative skip.
template <typename Decoder, typename T>
void ProbePastEnd(Decoder& decoder, absl::Span<T> out) {
  (void)decoder.Decode(out.first(std::min<size_t>(1, out.size())));
  (void)decoder.Skip(1);
  (void)decoder.Skip(-1);
}

// Round trips: Skip every third batch, hand the others to `check_batch(position, count)` (which
// decodes and compares), and report a failed Skip or a wrong total through `fail(what, at)`.
// Returns the number of values walked over (== expected_count, else `fail` was called).
template <typename Decoder, typename CheckBatch, typename FailFn>
size_t CheckInMixedBatches(Decoder& decoder, size_t expected_count, uint8_t pattern,
                           CheckBatch check_batch, FailFn fail) {
  size_t position = 0;
  for (int i = 0; decoder.values_left() > 0; ++i) {
    const size_t count = static_cast<size_t>(BatchSize(pattern, i, decoder.values_left()));
    if (i % 3 == 2) {
      if (!decoder.Skip(static_cast<int64_t>(count)).ok()) fail("Skip", position);
    } else {
      check_batch(position, count);
    }
    position += count;
  }
  if (position != expected_count) fail("values_left", position);
  return position;
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

}  // namespace pqpage::fuzz

#endif  // PQPAGE_TESTS_FUZZ_FUZZ_HARNESS_H_
