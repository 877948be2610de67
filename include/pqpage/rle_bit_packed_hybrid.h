// The RLE/bit-packed hybrid encoding (Parquet encoding RLE = 3): the container for definition and
// repetition levels, dictionary indices and RLE booleans. A stream is a sequence of runs, each
// either one value repeated (an RLE run) or groups of 8 values bit-packed least significant bit
// first.
//
// Whether a stream carries a 4-byte little-endian length prefix depends on where it is used (the
// seed's table): data page v1 levels and booleans yes, v2 levels no, dictionary indices never,
// booleans in v2 yes. The encoder and decoder work on the bare stream; AppendLengthPrefixed and
// SplitLengthPrefixed add and remove the prefix. RleBooleanEncoder / RleBooleanDecoder are the
// value encoding RLE for BOOLEAN columns, prefix included, as pqpage/codec.h's Encoder<bool> and
// Decoder<bool>.
#ifndef PQPAGE_RLE_BIT_PACKED_HYBRID_H_
#define PQPAGE_RLE_BIT_PACKED_HYBRID_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"

namespace pqpage {

namespace internal {
class HybridRunReader;
}  // namespace internal

// Writes a hybrid stream, choosing per stretch of input between RLE runs and bit-packed groups by
// which is smaller in bytes (counting run headers), never emitting a run longer than 2^31 - 1.
// Values are buffered only while their run is undecided (at most one bit-packed run of 8191
// groups), so memory does not grow with the page.
class RleBitPackedHybridEncoder {
 public:
  // `bit_width` must be 0..32 (checked: values of an out-of-range width are rejected by Put).
  explicit RleBitPackedHybridEncoder(int bit_width);
  ~RleBitPackedHybridEncoder();
  RleBitPackedHybridEncoder(RleBitPackedHybridEncoder&&) noexcept;
  RleBitPackedHybridEncoder& operator=(RleBitPackedHybridEncoder&&) noexcept;

  int bit_width() const { return bit_width_; }

  // Appends values. InvalidArgument if the encoder's bit width is outside 0..32, or if a value
  // needs more than bit_width bits (nothing of that call is appended then); for int16_t levels, a
  // negative value is rejected the same way.
  absl::Status Put(absl::Span<const uint32_t> values);
  absl::Status Put(absl::Span<const int16_t> values);
  absl::Status Put(absl::Span<const bool> values);

  // Bytes the stream would have if finished now (within a few header bytes).
  size_t EstimatedSize() const;

  // Appends the finished stream (no length prefix) to `out` and resets the encoder for a new
  // stream.
  void FinishInto(std::vector<uint8_t>* out);
  std::vector<uint8_t> Finish();

  // An upper bound on the encoded size of `count` values of `bit_width` bits.
  static size_t MaxEncodedSize(int bit_width, size_t count);

 private:
  template <typename T>
  absl::Status PutValues(absl::Span<const T> values);
  void PutChecked(const uint32_t* values, size_t count);
  void AppendLiterals(const uint32_t* values, size_t count);
  void CommitRun();
  void FlushPacked();
  void EmitRle(uint32_t value, uint64_t count);
  void WriteRle();

  int bit_width_;
  std::vector<uint8_t> out_;
  std::vector<uint32_t> pending_;  // values of the bit-packed run being built
  uint32_t run_value_ = 0;
  uint64_t run_length_ = 0;  // the trailing run of equal values, not yet assigned to a run kind
  uint64_t min_rle_values_;  // shortest repeat that is smaller as an RLE run than bit-packed
  uint32_t rle_value_ = 0;
  uint64_t rle_count_ = 0;  // the last RLE run, held back so a following one of equal value merges
};

// Reads a hybrid stream. The decoder keeps a view of the input, which must outlive its use.
//
// Errors (all decoding methods): InvalidArgument when asked for more values than are left or for a
// bit width outside 0..32; DataLoss when the stream ends before the values asked for, holds a run
// of length 0, or an RLE value does not fit the bit width. A bit-packed run may announce more
// values than the stream holds: only the values asked for must be present.
class RleBitPackedHybridDecoder {
 public:
  RleBitPackedHybridDecoder();
  ~RleBitPackedHybridDecoder();
  RleBitPackedHybridDecoder(RleBitPackedHybridDecoder&&) noexcept;
  RleBitPackedHybridDecoder& operator=(RleBitPackedHybridDecoder&&) noexcept;

  // Starts reading `num_values` values of `bit_width` (0..32) bits from `data`.
  absl::Status Reset(absl::Span<const uint8_t> data, int bit_width, int64_t num_values);

  int64_t values_left() const { return values_left_; }

  // Decodes exactly out.size() values.
  absl::Status Decode(absl::Span<uint32_t> out);

  // Decodes exactly out.size() levels; DataLoss if one exceeds `max_level`.
  absl::Status DecodeLevels(absl::Span<int16_t> out, int16_t max_level);

  // DecodeLevels that also returns how many of the levels equal `counted_level` (the maximum, for
  // the present values among definition levels; 0, for the rows among repetition levels), counted
  // run by run as they are decoded. DataLoss as DecodeLevels.
  absl::StatusOr<int64_t> DecodeLevelsCounting(absl::Span<int16_t> out, int16_t max_level,
                                               int16_t counted_level);

  // Reads every value left, as levels, and returns how many equal `max_level` (for definition
  // levels: the present values), storing none: an RLE run is counted whole, and a bit-packed run
  // of width 1 by popcount. DataLoss as DecodeLevels. The decoder is exhausted afterwards, also
  // after an error.
  absl::StatusOr<int64_t> CountMaxLevels(int16_t max_level);

  // Decodes booleans: only the lowest bit of an RLE run's value counts (bit width must be 1).
  absl::Status DecodeBooleans(absl::Span<bool> out);

  // For bit width 1 (booleans, levels of a column with max level 1): writes `count` values as bits
  // of `bitmap` starting at bit `bit_offset` (LSB first, Arrow's validity layout), leaving the
  // other bits of the bitmap unchanged, and returns how many were 1. InvalidArgument for other
  // widths.
  absl::StatusOr<int64_t> DecodeToBitmap(uint8_t* bitmap, int64_t bit_offset, int64_t count);

  // Moves past `count` values.
  absl::Status Skip(int64_t count);

 private:
  std::unique_ptr<internal::HybridRunReader> reader_;
  int64_t values_left_ = 0;
};

// RLE (encoding 3) for BOOLEAN values: a hybrid stream of bit width 1 behind its 4-byte
// little-endian byte length, in data pages v1 and v2 alike.
class RleBooleanEncoder final : public Encoder<bool> {
 public:
  RleBooleanEncoder() : hybrid_(1) {}

  // Appends values. Never fails.
  absl::Status Put(absl::Span<const bool> values) override { return hybrid_.Put(values); }

  // Bytes the page would take if finished now (within a few run header bytes).
  size_t EstimatedSize() const override { return 4 + hybrid_.EstimatedSize(); }

  // Appends the length prefix and the stream to `out` and resets the encoder.
  void FinishInto(std::vector<uint8_t>* out) override;

 private:
  RleBitPackedHybridEncoder hybrid_;
};

// Reads RLE booleans: Reset takes the length prefix off the values section. Errors as for
// RleBitPackedHybridDecoder; DataLoss also if the prefix is missing or says more bytes than follow.
class RleBooleanDecoder final : public Decoder<bool> {
 public:
  RleBooleanDecoder() = default;

  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return hybrid_.values_left(); }

  absl::Status Decode(absl::Span<bool> out) override { return hybrid_.DecodeBooleans(out); }

  // Writes `count` values as bits of `bitmap` from bit `bit_offset` on (LSB first), leaving the
  // other bits unchanged, and returns how many were true.
  absl::StatusOr<int64_t> DecodeToBitmap(uint8_t* bitmap, int64_t bit_offset, int64_t count) {
    return hybrid_.DecodeToBitmap(bitmap, bit_offset, count);
  }

  absl::Status Skip(int64_t count) override { return hybrid_.Skip(count); }

 private:
  RleBitPackedHybridDecoder hybrid_;
};

// Appends `stream` to `out` behind its 4-byte little-endian byte length.
void AppendLengthPrefixed(absl::Span<const uint8_t> stream, std::vector<uint8_t>* out);

// Splits a length-prefixed stream off the front of `data`: returns the stream and sets
// `*consumed` to 4 + its length. DataLoss if the prefix is missing or longer than `data`.
absl::StatusOr<absl::Span<const uint8_t>> SplitLengthPrefixed(absl::Span<const uint8_t> data,
                                                              size_t* consumed);

}  // namespace pqpage

#endif  // PQPAGE_RLE_BIT_PACKED_HYBRID_H_
