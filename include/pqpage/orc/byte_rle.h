// ORC's byte run-length encoding (TinyInt columns, and under the boolean RLE of every PRESENT
// stream). A stream is a sequence of groups, each opened by a control byte: 0..127 is a run of
// (control + 3) copies of the one byte that follows; -1..-128 is that many literal bytes. A
// hundred zeros are [0x61, 0x00]; 0x44, 0x45 is [0xfe, 0x44, 0x45].
//
// The codecs implement pqpage/codec.h's Encoder<int8_t> and Decoder<int8_t>, so they are driven
// like every Parquet codec (PutSpaced and DecodeSpaced take a PRESENT stream's validity); the
// *Bytes members take the same bytes unsigned, for the boolean RLE built on them.
#ifndef PQPAGE_ORC_BYTE_RLE_H_
#define PQPAGE_ORC_BYTE_RLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"

namespace pqpage::orc {

// Writes runs of 3 to 130 equal bytes as runs and everything else as literal groups of up to 128
// bytes, as ORC's own writers do: a run costs 2 bytes, so any 3 equal bytes are worth one.
class ByteRleEncoder final : public Encoder<int8_t> {
 public:
  ByteRleEncoder() = default;

  // Appends values. Never fails.
  absl::Status Put(absl::Span<const int8_t> values) override;
  void PutBytes(absl::Span<const uint8_t> bytes);

  // Bytes the stream would take if finished now (exact).
  size_t EstimatedSize() const override;

  // Appends the stream to `out` and resets the encoder.
  void FinishInto(std::vector<uint8_t>* out) override;

 private:
  void PutByte(uint8_t byte);
  void FlushGroup();

  std::vector<uint8_t> out_;
  uint8_t group_[128] = {};  // the open group: literals, or the repeated byte at [0]
  int group_size_ = 0;       // values in the open group
  bool group_is_run_ = false;
  int tail_repeats_ = 0;  // how many of the group's last literals are equal
};

// Reads a byte RLE stream of a known number of values. Errors: DataLoss for a truncated group, or
// a run or literal group longer than the values left (a stream never encodes more values than it
// holds, so such a group is corruption); InvalidArgument as pqpage/codec.h says.
class ByteRleDecoder final : public Decoder<int8_t> {
 public:
  ByteRleDecoder() = default;

  // Starts a stream of which the caller will read `num_values` values; keeps a view of `data`,
  // which must outlive the decoding. Bytes after the last group needed are ignored.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  absl::Status Decode(absl::Span<int8_t> out) override;
  absl::Status DecodeBytes(absl::Span<uint8_t> out);

  absl::Status Skip(int64_t count) override;

 private:
  // Reads the next group's control byte (and a run's value) when the current one is used up.
  absl::Status NextGroup();
  // Copies (or, with out == nullptr, skips) `count` values, count <= values_left().
  absl::Status Take(uint8_t* out, int64_t count);

  const uint8_t* position_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t values_left_ = 0;
  int64_t group_left_ = 0;             // values of the current group not yet taken
  bool group_is_run_ = false;          // the current group repeats run_value_
  uint8_t run_value_ = 0;              // for a run
  const uint8_t* literals_ = nullptr;  // for a literal group: its next byte
};

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_BYTE_RLE_H_
