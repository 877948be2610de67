// The sinks that turn hybrid (and BIT_PACKED) runs into caller buffers; see the sink interface in
// rle_bit_packed_hybrid_internal.h. Each is a small inlined class so that HybridRunReader::Read
// compiles into one loop per destination type.
#ifndef PQPAGE_ENCODINGS_RLE_BIT_PACKED_HYBRID_SINKS_H_
#define PQPAGE_ENCODINGS_RLE_BIT_PACKED_HYBRID_SINKS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "bitpack/bit_packing.h"
#include "codec/bitmap_writer.h"
#include "codec/range_check.h"
#include "codec/value_request.h"
#include "encodings/rle_bit_packed_hybrid_internal.h"
#include "encodings/width1_levels.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {

// Integers of the stream's own range: RLE values are checked against the bit width; bit-packed
// values cannot exceed it. uint32_t output takes the kernels' output directly.
class Uint32Sink {
 public:
  Uint32Sink(uint32_t* out, uint64_t max_value) : out_(out), max_value_(max_value) {}
  absl::Status Fill(uint64_t value, size_t count) {
    if (value > max_value_) {
      return absl::DataLossError(
          absl::StrCat("RLE/bit-packed hybrid: RLE value ", value, " exceeds the bit width"));
    }
    std::fill_n(out_, count, static_cast<uint32_t>(value));
    out_ += count;
    return absl::OkStatus();
  }
  absl::Status Unpacked(const uint32_t* values, size_t count) {
    std::memcpy(out_, values, count * sizeof(uint32_t));
    out_ += count;
    return absl::OkStatus();
  }
  bool UnpackDirect(const uint8_t* packed, size_t count, Unpack32Fn kernel) {
    kernel(packed, out_, count);
    out_ += count;
    return true;
  }

 private:
  uint32_t* out_;
  uint64_t max_value_;
};

// Levels checked against the column's maximum level and counted on the way: those equal to
// `counted_level` (the present values for definition levels, the row starts for repetition
// levels), so that no second pass over the levels is needed for that count. With kStore they are
// also narrowed to int16_t into `out`; without, they are only counted (the present values of a
// page, before its levels are decoded batch by batch): an RLE run counts as a whole, and a width-1
// bit-packed run, which is a bitmap of the levels equal to 1, by popcount.
template <bool kStore>
class BasicLevelSink {
 public:
  BasicLevelSink(int16_t* out, int16_t max_level, int bit_width, int16_t counted_level)
      : out_(out), max_level_(max_level), bit_width_(bit_width), counted_level_(counted_level) {}
  absl::Status Fill(uint64_t value, size_t count) {
    if (value > static_cast<uint64_t>(max_level_)) return TooLarge(value);
    if constexpr (kStore) {
      std::fill_n(out_, count, static_cast<int16_t>(value));
      out_ += count;
    }
    if (value == static_cast<uint64_t>(counted_level_)) counted_ += static_cast<int64_t>(count);
    return absl::OkStatus();
  }
  absl::Status Unpacked(const uint32_t* values, size_t count) {
    const uint64_t limit = static_cast<uint64_t>(max_level_) + 1;
    if (AnyAtLeast(values, count, limit)) return TooLarge(FirstAtLeast(values, count, limit));
    const auto counted = static_cast<uint32_t>(counted_level_);
    int64_t matches = 0;
    for (size_t i = 0; i < count; ++i) {
      if constexpr (kStore) out_[i] = static_cast<int16_t>(values[i]);
      matches += values[i] == counted ? 1 : 0;
    }
    counted_ += matches;
    if constexpr (kStore) out_ += count;
    return absl::OkStatus();
  }
  bool UnpackDirect(const uint8_t* packed, size_t count, Unpack32Fn) {
    // Width-1 levels never exceed a maximum of at least 1, so they need no check.
    if (bit_width_ != 1 || max_level_ < 1) return false;
    // The packed bytes are a bitmap of the levels equal to 1 (count is whole groups, one byte
    // each); no width-1 level equals a counted level above 1.
    int64_t ones;
    if constexpr (kStore) {
      ones = ExpandWidth1Levels(packed, count / 8, out_);
      out_ += count;
    } else {
      ones = CountOnes(packed, count / 8);
    }
    if (counted_level_ == 0 || counted_level_ == 1) {
      counted_ += counted_level_ == 1 ? ones : static_cast<int64_t>(count) - ones;
    }
    return true;
  }
  // Takes note of `count` levels a width-1 run walker wrote, `ones` of them 1.
  void Walked(size_t count, int64_t ones) {
    if constexpr (kStore) out_ += count;
    if (counted_level_ == 0 || counted_level_ == 1) {
      counted_ += counted_level_ == 1 ? ones : static_cast<int64_t>(count) - ones;
    }
  }
  // Where the next level goes.
  int16_t* position() const { return out_; }
  // Levels equal to `counted_level` so far.
  int64_t counted() const { return counted_; }

 private:
  absl::Status TooLarge(uint64_t value) const {
    return absl::DataLossError(
        absl::StrCat("level ", value, " exceeds the column's maximum level ", max_level_));
  }
  int16_t* out_;
  int16_t max_level_;
  int bit_width_;
  int16_t counted_level_;
  int64_t counted_ = 0;
};
using LevelSink = BasicLevelSink<true>;
using LevelCountSink = BasicLevelSink<false>;

// Hands the next `count` values of a width-1 stream to `sink`: the rest of the run in progress and
// any run a walker leaves through the general walker, the whole runs between them through
// `walk_runs(stream, stream_bytes, capacity)`, a width-1 run walker (width1_levels.h) that writes
// where the sink stands.
template <typename Sink, typename WalkRuns>
absl::Status ReadWidth1(HybridRunReader& reader, size_t count, Sink& sink, WalkRuns walk_runs) {
  const auto head = static_cast<size_t>(std::min<uint64_t>(count, reader.run_left()));
  if (head > 0) PQPAGE_RETURN_IF_ERROR(reader.Read(head, sink));
  size_t done = head;
  if (done < count) {
    const absl::Span<const uint8_t> rest = reader.rest_of_stream();
    const Width1Runs runs = walk_runs(rest.data(), rest.size(), count - done);
    reader.SkipWholeRuns(runs.stream_bytes);
    sink.Walked(runs.values, runs.ones);
    done += runs.values;
  }
  return reader.Read(count - done, sink);
}

// One batch of a level decoder (the hybrid's and BIT_PACKED's, both walking runs with `reader`):
// out.size() of the `*values_left` levels into `out`, checked against `max_level`, counting those
// equal to `counted_level`. `fast_path_width` is the width LevelSink's width-1 byte table may take
// (0 for none). Inline, so that the sink stays inlined in the run walker's loops.
// @return the count; InvalidArgument (naming `encoding`) for more than is left; the walker's
// DataLoss.
inline absl::StatusOr<int64_t> DecodeLevelBatch(const char* encoding, HybridRunReader& reader,
                                                int64_t* values_left, absl::Span<int16_t> out,
                                                int16_t max_level, int fast_path_width,
                                                int16_t counted_level) {
  PQPAGE_RETURN_IF_ERROR(CheckValueRequest(encoding, out.size(), *values_left));
  LevelSink sink(out.data(), max_level, fast_path_width, counted_level);
  if (fast_path_width == 1 && max_level >= 1) {
    PQPAGE_RETURN_IF_ERROR(
        ReadWidth1(reader, out.size(), sink,
                   [&sink](const uint8_t* stream, size_t stream_bytes, size_t capacity) {
                     return DecodeWidth1LevelRuns(stream, stream_bytes, sink.position(), capacity);
                   }));
  } else {
    PQPAGE_RETURN_IF_ERROR(reader.Read(out.size(), sink));
  }
  *values_left -= static_cast<int64_t>(out.size());
  return sink.counted();
}

// Booleans: only the lowest bit of an RLE value counts, as writers have set the others.
class BooleanSink {
 public:
  explicit BooleanSink(bool* out) : out_(out) {}
  absl::Status Fill(uint64_t value, size_t count) {
    std::fill_n(out_, count, (value & 1) != 0);
    out_ += count;
    return absl::OkStatus();
  }
  absl::Status Unpacked(const uint32_t* values, size_t count) {
    for (size_t i = 0; i < count; ++i) out_[i] = values[i] != 0;
    out_ += count;
    return absl::OkStatus();
  }
  bool UnpackDirect(const uint8_t*, size_t, Unpack32Fn) { return false; }

 private:
  bool* out_;
};

// Width-1 streams into an LSB-first bitmap: a bit-packed run already is that bitmap, so it is
// copied (shifted to the destination's bit offset) rather than unpacked.
class BitmapSink {
 public:
  BitmapSink(uint8_t* bitmap, int64_t bit_offset) : bitmap_(bitmap), bit_(bit_offset) {}
  absl::Status Fill(uint64_t value, size_t count) {
    if (value > 1) {
      return absl::DataLossError(
          absl::StrCat("RLE/bit-packed hybrid: RLE value ", value, " exceeds bit width 1"));
    }
    FillBits(bitmap_, bit_, count, value != 0);
    bit_ += count;
    if (value != 0) ones_ += count;
    return absl::OkStatus();
  }
  absl::Status Unpacked(const uint32_t* values, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      FillBits(bitmap_, bit_ + i, 1, values[i] != 0);
      ones_ += values[i];
    }
    bit_ += count;
    return absl::OkStatus();
  }
  bool UnpackDirect(const uint8_t* packed, size_t count, Unpack32Fn) {
    CopyBits(packed, bitmap_, bit_, count);
    ones_ += CountOnes(packed, count / 8);
    bit_ += count;
    return true;
  }
  // Takes note of `count` bits a width-1 run walker wrote, `ones` of them set.
  void Walked(size_t count, int64_t ones) {
    bit_ += static_cast<int64_t>(count);
    ones_ += ones;
  }
  int64_t bit() const { return bit_; }
  int64_t ones() const { return ones_; }

 private:
  uint8_t* bitmap_;
  int64_t bit_;
  int64_t ones_ = 0;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_RLE_BIT_PACKED_HYBRID_SINKS_H_
