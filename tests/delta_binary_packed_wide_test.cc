// DELTA_BINARY_PACKED miniblocks one bit wider than the physical type (PARQUET-2435): width 33 for
// INT32, as DuckDB's PARQUET_VERSION V2 writer produces by computing INT32 deltas in 64 bits, and
// width 65 for INT64. Readers accept them and wrap to the type's width; wider is corruption.
//
// Expectations come from hand-derived bytes and from a writer built here that behaves like those
// writers (deltas and their minimum in 128-bit integers, each miniblock as wide as its largest
// relative delta needs), independent of the library's encoder, which never exceeds 32 / 64 bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "delta_stream_checks.h"
#include "pqpage/delta_binary_packed.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using Wide = __int128;
using WideUnsigned = unsigned __int128;

void AppendUleb(Bytes* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<uint8_t>(v));
}

void AppendZigZag(Bytes* out, int64_t v) {
  AppendUleb(out, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}

int BitLength(WideUnsigned v) {
  int bits = 0;
  while (v != 0) ++bits, v >>= 1;
  return bits;
}

// A stream as a writer computing deltas in wider integers makes it. `widths_seen` collects the
// widths of the miniblocks that hold values.
template <typename T>
Bytes EncodeWithWideDeltas(const std::vector<T>& values, int64_t block, int64_t minis,
                           std::vector<int>* widths_seen) {
  Bytes out;
  AppendUleb(&out, static_cast<uint64_t>(block));
  AppendUleb(&out, static_cast<uint64_t>(minis));
  AppendUleb(&out, values.size());
  AppendZigZag(&out, values.empty() ? 0 : static_cast<int64_t>(values[0]));
  const size_t per_mini = static_cast<size_t>(block / minis);
  for (size_t first = 1; first < values.size(); first += static_cast<size_t>(block)) {
    const size_t count = std::min(values.size() - first, static_cast<size_t>(block));
    std::vector<Wide> deltas(count);
    for (size_t i = 0; i < count; ++i) {
      deltas[i] = static_cast<Wide>(values[first + i]) - static_cast<Wide>(values[first + i - 1]);
    }
    const Wide min_delta = *std::min_element(deltas.begin(), deltas.end());
    // The min delta is an int64 varint; for INT64 it may not fit and wraps, which the relative
    // deltas' extra bit makes up for modulo 2^64.
    AppendZigZag(&out, static_cast<int64_t>(static_cast<uint64_t>(min_delta)));
    const size_t widths_at = out.size();
    out.resize(out.size() + static_cast<size_t>(minis), 0);
    for (size_t m = 0; m * per_mini < count; ++m) {
      const size_t begin = m * per_mini, end = std::min(count, begin + per_mini);
      WideUnsigned largest = 0;
      for (size_t i = begin; i < end; ++i) {
        largest = std::max(largest, static_cast<WideUnsigned>(deltas[i] - min_delta));
      }
      const int width = BitLength(largest);
      out[widths_at + m] = static_cast<uint8_t>(width);
      widths_seen->push_back(width);
      const size_t body_at = out.size();
      out.resize(body_at + per_mini * static_cast<size_t>(width) / 8, 0);
      for (size_t i = begin; i < end; ++i) {
        const WideUnsigned relative = static_cast<WideUnsigned>(deltas[i] - min_delta);
        for (int k = 0; k < width; ++k) {
          const size_t bit = (i - begin) * static_cast<size_t>(width) + static_cast<size_t>(k);
          out[body_at + bit / 8] |= static_cast<uint8_t>(((relative >> k) & 1) << (bit % 8));
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- exact bytes
// The stream `header` + a body of `body_bytes` starting with `body_start` (zeros after it) must be
// exactly what the reference writer makes of MIN, MAX, MIN of T, and must decode to them by every
// path. Returns the stream.
template <typename T>
Bytes CheckExtremesStream(Bytes header, const Bytes& body_start, size_t body_bytes) {
  Bytes bytes = std::move(header);
  const size_t body_at = bytes.size();
  bytes.resize(body_at + body_bytes, 0);
  std::copy(body_start.begin(), body_start.end(), bytes.begin() + static_cast<ptrdiff_t>(body_at));
  const std::vector<T> expected = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                                   std::numeric_limits<T>::min()};
  std::vector<int> widths;
  EXPECT_EQ(EncodeWithWideDeltas(expected, 128, 4, &widths), bytes);
  CheckDecodePaths(bytes, expected);
  return bytes;
}

TEST(DeltaBinaryPackedWide, Width33ForInt32ExactBytes) {
  // INT32_MIN, INT32_MAX, INT32_MIN with deltas taken in 64 bits: +(2^32 - 1), -(2^32 - 1).
  // Header: block 128, 4 miniblocks, 3 values, first zigzag(-2^31) = 2^32 - 1.
  // Block: min delta -(2^32 - 1), zigzag 2^33 - 3; widths 33 0 0 0; relative deltas 2^33 - 2 and
  // 0 packed LSB first into 32 * 33 / 8 = 132 bytes: FE FF FF FF 01, then zeros.
  const Bytes bytes =
      CheckExtremesStream<int32_t>({0x80, 0x01, 0x04, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0xFD,
                                    0xFF, 0xFF, 0xFF, 0x1F, 33, 0, 0, 0},
                                   {0xFE, 0xFF, 0xFF, 0xFF, 0x01}, 132);
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();

  DeltaBinaryPackedDecoder<int32_t> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(bytes, 3));
  PQPAGE_ASSERT_OK(decoder.Skip(2));
  int32_t last = 0;
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(&last, 1)));
  EXPECT_EQ(last, kMin);
  EXPECT_EQ(decoder.bytes_consumed(), bytes.size());
}

TEST(DeltaBinaryPackedWide, Width65ForInt64ExactBytes) {
  // INT64_MIN, INT64_MAX, INT64_MIN: deltas +(2^64 - 1), -(2^64 - 1). The min delta wraps to 1
  // as an int64 (zigzag 2); the relative deltas are 2^65 - 2 and 0, 65 bits wide:
  // FE FF FF FF FF FF FF FF 01, then zeros to 32 * 65 / 8 = 260 bytes.
  CheckExtremesStream<int64_t>({0x80, 0x01, 0x04, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                0xFF, 0xFF, 0x01, 0x02, 65, 0, 0, 0},
                               {0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, 260);
}

// ---------------------------------------------------------------- every shape and length
template <typename T>
void CheckWideStreams() {
  constexpr int kWideWidth = static_cast<int>(sizeof(T) * 8) + 1;
  const int64_t shapes[][2] = {{128, 4}, {128, 1}, {256, 8}, {512, 2}};
  bool wide_seen = false;
  uint64_t seed = 7;
  for (size_t n : {1, 2, 3, 33, 129, 1000, 4097}) {
    for (const auto& values : Patterns<T>(n, seed++)) {
      for (const auto& shape : shapes) {
        SCOPED_TRACE(::testing::Message()
                     << "n=" << n << " block=" << shape[0] << " minis=" << shape[1]);
        std::vector<int> widths;
        const Bytes bytes = EncodeWithWideDeltas(values, shape[0], shape[1], &widths);
        for (int w : widths) ASSERT_LE(w, kWideWidth);
        wide_seen |= std::count(widths.begin(), widths.end(), kWideWidth) > 0;
        CheckDecodePaths(bytes, values);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  // The random and extreme patterns must really produce the extra bit, or this tests nothing.
  EXPECT_TRUE(wide_seen);
}

TEST(DeltaBinaryPackedWide, Int32EveryShapeAndPattern) { CheckWideStreams<int32_t>(); }
TEST(DeltaBinaryPackedWide, Int64EveryShapeAndPattern) { CheckWideStreams<int64_t>(); }

// pqpage's own encoder never writes the extra bit: DeltaBinaryPackedRoundTrip.ExtremesUseFullWidth
// and every round trip check widths <= 32 / 64 in delta_binary_packed_test.cc.

// ---------------------------------------------------------------- hostile variants
TEST(DeltaBinaryPackedWide, EveryTruncationOfAWideStreamFails) {
  std::vector<int> widths;
  const std::vector<int32_t> v32 = Patterns<int32_t>(300, 3)[4];  // the extremes
  const std::vector<int64_t> v64 = Patterns<int64_t>(300, 3)[4];
  const Bytes b32 = EncodeWithWideDeltas(v32, 128, 4, &widths);
  const Bytes b64 = EncodeWithWideDeltas(v64, 256, 1, &widths);
  ASSERT_NE(std::find(widths.begin(), widths.end(), 33), widths.end());
  ASSERT_NE(std::find(widths.begin(), widths.end(), 65), widths.end());
  CheckEveryTruncationFails<int32_t>(b32, 300);
  CheckEveryTruncationFails<int64_t>(b64, 300);
}

TEST(DeltaBinaryPackedWide, TwoBitsWiderIsCorruption) {
  // The exact-bytes stream with its width byte raised to 34 (INT32) and 66 (INT64), bodies long
  // enough for the wider width so only the width itself is wrong.
  for (const auto& [width, int64_type] : {std::pair{34, false}, std::pair{66, true}}) {
    Bytes bytes = {0x80, 0x01, 0x01, 0x03, 0x00, 0x00, static_cast<uint8_t>(width)};
    bytes.resize(bytes.size() + 128 * static_cast<size_t>(width) / 8, 0xA5);
    absl::Status s;
    if (int64_type) {
      s = DecodeAll<int64_t>(bytes, 3).status();
    } else {
      s = DecodeAll<int32_t>(bytes, 3).status();
    }
    PQPAGE_EXPECT_ERROR(s, absl::StatusCode::kDataLoss);
    EXPECT_NE(s.message().find("bit width " + std::to_string(width) + " exceeds"),
              std::string::npos)
        << s;
    // Skipping reads the same widths and must refuse them the same way.
    DeltaBinaryPackedDecoder<int32_t> walker;
    if (!int64_type) {
      PQPAGE_ASSERT_OK(walker.ResetWholeStream(bytes));
      PQPAGE_EXPECT_ERROR(walker.SkipToStreamEnd(), absl::StatusCode::kDataLoss);
    }
  }
}

TEST(DeltaBinaryPackedWide, TruncatedWidth33MiniblockNamesItsNeed) {
  // A width-33 miniblock of 32 values needs 132 bytes; 131 are there.
  Bytes bytes = {0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 33, 0, 0, 0};
  bytes.resize(bytes.size() + 131, 0);
  const absl::Status s = DecodeAll<int32_t>(bytes, 3).status();
  PQPAGE_EXPECT_ERROR(s, absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("needs 132 bytes, 131 left"), std::string::npos) << s;
}

}  // namespace
}  // namespace pqpage
