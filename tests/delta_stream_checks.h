// Decoding checks shared by the DELTA_BINARY_PACKED tests: given a stream and the values it must
// hold, every way of reading it (all at once, odd batches, skips between batches, a prefix then the
// stream's end) must agree; every truncation of a stream must fail cleanly; and value patterns
// that stress the widths.
#ifndef PQPAGE_TESTS_DELTA_STREAM_CHECKS_H_
#define PQPAGE_TESTS_DELTA_STREAM_CHECKS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "pqpage/delta_binary_packed.h"
#include "status_matchers.h"

namespace pqpage {

using Bytes = std::vector<uint8_t>;

template <typename T>
absl::StatusOr<std::vector<T>> DecodeAll(const Bytes& bytes, int64_t n) {
  DeltaBinaryPackedDecoder<T> decoder;
  absl::Status s = decoder.Reset(bytes, n);
  if (!s.ok()) return s;
  std::vector<T> out(static_cast<size_t>(n));
  s = decoder.Decode(absl::MakeSpan(out));
  if (!s.ok()) return s;
  return out;
}

template <typename T>
std::vector<std::vector<T>> Patterns(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<T>> out;
  using L = std::numeric_limits<T>;
  std::vector<T> random(n), equal(n, static_cast<T>(rng())), sorted(n), reversed(n), extremes(n),
      small(n), zeros(n, 0);
  for (auto& v : random) v = static_cast<T>(rng());
  T acc = L::min() / 2;
  for (size_t i = 0; i < n; ++i) {
    acc = static_cast<T>(acc + static_cast<T>(rng() % 1000));
    sorted[i] = acc;
    reversed[n - 1 - i] = acc;
    extremes[i] = (i % 2 == 0) ? L::min() : L::max();
    small[i] = static_cast<T>(rng() % 17) - 8;
  }
  // Runs of equal deltas then a jump, to mix 0-bit and wide miniblocks.
  std::vector<T> mixed(n);
  for (size_t i = 0; i < n; ++i) mixed[i] = (i / 100) % 2 ? static_cast<T>(rng()) : T(5);
  if (n >= 3) extremes[n / 2] = 0, extremes[n - 1] = L::max() - 1;
  return {random, equal, sorted, reversed, extremes, small, zeros, mixed};
}

template <typename T>
void CheckDecodePaths(const Bytes& bytes, const std::vector<T>& values) {
  // Library decode, all at once.
  DeltaBinaryPackedDecoder<T> decoder;
  const int64_t n = static_cast<int64_t>(values.size());
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, n));
  EXPECT_EQ(decoder.header_value_count(), n);
  std::vector<T> all(values.size());
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(all)));
  EXPECT_EQ(all, values);
  EXPECT_EQ(decoder.bytes_consumed(), bytes.size());
  // One value past the end is a caller error, not corruption.
  T past_end;
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(&past_end, 1)),
                      absl::StatusCode::kInvalidArgument);

  // Batches of odd sizes, with trailing garbage after the stream.
  Bytes padded = bytes;
  padded.insert(padded.end(), {0xFF, 0xFF, 0xFF});
  const size_t batch_sizes[] = {1, 7, 33, 3, 128, 2, 500, 31};
  PQPAGE_ASSERT_OK(decoder.Reset(padded, n));
  std::vector<T> batched;
  for (size_t k = 0; batched.size() < values.size(); ++k) {
    const size_t take = std::min(batch_sizes[k % 8], values.size() - batched.size());
    std::vector<T> part(take);
    PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(part)));
    batched.insert(batched.end(), part.begin(), part.end());
  }
  EXPECT_EQ(batched, values);
  EXPECT_EQ(decoder.bytes_consumed(), bytes.size());

  // Skip interleaved with decode.
  PQPAGE_ASSERT_OK(decoder.Reset(padded, n));
  size_t at = 0;
  for (size_t k = 0; at < values.size(); ++k) {
    const size_t skip = std::min<size_t>((k * 37) % 300, values.size() - at);
    PQPAGE_ASSERT_OK(decoder.Skip(static_cast<int64_t>(skip)));
    at += skip;
    const size_t take = std::min(batch_sizes[k % 8], values.size() - at);
    std::vector<T> part(take);
    PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(part)));
    for (size_t i = 0; i < take; ++i) ASSERT_EQ(part[i], values[at + i]) << at + i;
    at += take;
  }
  PQPAGE_EXPECT_ERROR(decoder.Skip(1), absl::StatusCode::kInvalidArgument);

  // Reading a prefix, then finding the stream's end without decoding the rest.
  if (n > 2) {
    PQPAGE_ASSERT_OK(decoder.Reset(padded, n / 2));
    std::vector<T> half(static_cast<size_t>(n / 3));
    PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(half)));
    PQPAGE_ASSERT_OK_AND_ASSIGN(size_t end, decoder.SkipToStreamEnd());
    EXPECT_EQ(end, bytes.size());
    EXPECT_EQ(decoder.values_left(), 0);
  }
}

template <typename T>
void CheckEveryTruncationFails(const Bytes& bytes, int64_t n) {
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    const Bytes part(bytes.begin(), bytes.begin() + cut);
    DeltaBinaryPackedDecoder<T> decoder;
    absl::Status s = decoder.Reset(part, n);
    if (s.ok()) {
      std::vector<T> out(static_cast<size_t>(n));
      s = decoder.Decode(absl::MakeSpan(out));
    }
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << "cut at " << cut << ": " << s;
    DeltaBinaryPackedDecoder<T> walker;
    if (walker.ResetWholeStream(part).ok()) {
      EXPECT_FALSE(walker.SkipToStreamEnd().ok()) << "cut at " << cut;
    }
  }
}

}  // namespace pqpage

#endif  // PQPAGE_TESTS_DELTA_STREAM_CHECKS_H_
