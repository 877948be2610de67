// ORC's boolean run-length encoding (boolean columns and every PRESENT stream): the values are
// packed eight to a byte, the first value in the most significant bit, and the bytes are written
// with byte RLE (pqpage/orc/byte_rle.h). [0xff, 0x80] is one true followed by seven false. The last
// byte of a stream whose count is not a multiple of eight is padded with false bits, which readers
// ignore.
#ifndef PQPAGE_ORC_BOOLEAN_RLE_H_
#define PQPAGE_ORC_BOOLEAN_RLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"
#include "pqpage/orc/byte_rle.h"

namespace pqpage::orc {

class BooleanRleEncoder final : public Encoder<bool> {
 public:
  BooleanRleEncoder() = default;

  // Appends values. Never fails.
  absl::Status Put(absl::Span<const bool> values) override;

  // Bytes the stream would take if finished now (exact).
  size_t EstimatedSize() const override;

  // Appends the stream (the last byte padded with false) to `out` and resets the encoder.
  void FinishInto(std::vector<uint8_t>* out) override;

 private:
  ByteRleEncoder bytes_;
  uint8_t partial_ = 0;  // the open byte's bits, in its high bits first
  int partial_bits_ = 0;
};

// Reads a boolean RLE stream of a known number of values. Errors as for ByteRleDecoder (the byte
// stream holds ceil(num_values / 8) bytes).
class BooleanRleDecoder final : public Decoder<bool> {
 public:
  BooleanRleDecoder() = default;

  // Starts a stream of `num_values` values; keeps a view of `data`, which must outlive the
  // decoding.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  absl::Status Decode(absl::Span<bool> out) override;

  // Decodes `count` values into bits [bit_offset, bit_offset + count) of `bitmap`, least
  // significant bit first (Arrow's validity layout, pqpage/codec.h's DecodeSpaced takes it), so
  // a PRESENT stream becomes a validity bitmap without a bool per value. Bits of `bitmap` outside
  // that range are kept. `bitmap` must hold bit_offset + count bits.
  // @return the number of true values decoded; InvalidArgument if count is negative or more than
  // values_left(); DataLoss as for Decode.
  absl::StatusOr<int64_t> DecodeToBitmap(uint8_t* bitmap, int64_t bit_offset, int64_t count);

  absl::Status Skip(int64_t count) override;

 private:
  // Moves `count` values out of the open byte into bools (out may be null to skip).
  void TakeFromPartial(bool* out, int count);

  ByteRleDecoder bytes_;
  int64_t values_left_ = 0;
  uint8_t partial_ = 0;  // the open byte, shifted so its next value is the high bit
  int partial_bits_ = 0;
};

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_BOOLEAN_RLE_H_
