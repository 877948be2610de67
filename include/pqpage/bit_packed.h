// The deprecated BIT_PACKED encoding (Parquet encoding 4), found in the level sections of data
// pages written by old writers: values packed back to back with only the last byte padded. There
// is no length prefix; a section of n levels of width w is exactly ceil(n * w / 8) bytes. pqpage
// reads it for compatibility; writers should use the RLE/bit-packed hybrid instead (the encoder
// exists for tests and for tools that must reproduce legacy files).
//
// The format packs these values most significant bit first, and parquet-mr reads and writes them
// so. Impala, parquet-cpp (Arrow C++) and parquet-rs (arrow-rs) pack and read them least
// significant bit first, the order of the hybrid's bit-packed runs, so the files they wrote hold
// that order: both are supported, and the file layer picks one from the writer's created_by.
#ifndef PQPAGE_BIT_PACKED_H_
#define PQPAGE_BIT_PACKED_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pqpage {

namespace internal {
class HybridRunReader;
}  // namespace internal

// The order of the bits of a BIT_PACKED section: the format's (value 0 in the high bits of byte 0)
// or the one Impala, parquet-cpp and parquet-rs use (value 0 in the low bits, as in the hybrid).
enum class BitPackedOrder : int8_t { kMostSignificantFirst, kLeastSignificantFirst };

// The byte length of a BIT_PACKED section holding `count` values of `bit_width` bits.
size_t BitPackedEncodedSize(int bit_width, size_t count);

class BitPackedLevelEncoder {
 public:
  // `bit_width` must be 0..16 (levels are int16); Put rejects values otherwise.
  explicit BitPackedLevelEncoder(int bit_width,
                                 BitPackedOrder order = BitPackedOrder::kMostSignificantFirst);

  // Appends levels. InvalidArgument if a level is negative or needs more than bit_width bits, or if
  // the bit width is outside 0..16 (nothing of that call is appended then).
  absl::Status Put(absl::Span<const int16_t> levels);

  // Returns the section (exactly BitPackedEncodedSize bytes) and resets the encoder.
  std::vector<uint8_t> Finish();

 private:
  int bit_width_;
  BitPackedOrder order_;
  size_t count_ = 0;
  std::vector<uint8_t> out_;
  std::vector<uint32_t> group_;  // the open group of fewer than 8 levels
};

// Errors: InvalidArgument for a bit width outside 0..16, a negative count, or a request beyond the
// values left; DataLoss when `data` is shorter than the section or a level exceeds `max_level`.
class BitPackedLevelDecoder {
 public:
  BitPackedLevelDecoder();
  ~BitPackedLevelDecoder();
  BitPackedLevelDecoder(BitPackedLevelDecoder&&) noexcept;
  BitPackedLevelDecoder& operator=(BitPackedLevelDecoder&&) noexcept;

  // Starts reading `num_values` levels packed in `order`; `data` may extend past the section (the
  // page's values follow it) and must outlive the decoder's use.
  absl::Status Reset(absl::Span<const uint8_t> data, int bit_width, int64_t num_values,
                     BitPackedOrder order = BitPackedOrder::kMostSignificantFirst);

  int64_t values_left() const { return values_left_; }

  // Decodes exactly out.size() levels, each checked against `max_level`.
  absl::Status Decode(absl::Span<int16_t> out, int16_t max_level);
  // Decode that also returns how many of the levels equal `counted_level`.
  absl::StatusOr<int64_t> DecodeCounting(absl::Span<int16_t> out, int16_t max_level,
                                         int16_t counted_level);
  absl::Status Skip(int64_t count);

 private:
  std::unique_ptr<internal::HybridRunReader> reader_;
  int64_t values_left_ = 0;
  // The width whose LSB-first fast paths (the width-1 bitmap expansion) apply; 0 for MSB-first.
  int fast_path_width_ = 0;
};

}  // namespace pqpage

#endif  // PQPAGE_BIT_PACKED_H_
