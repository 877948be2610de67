// ORC's integer run-length encoding, version 1 (the DIRECT and DICTIONARY column encodings, Hive
// 0.11). A stream is a sequence of groups, each opened by a control byte:
//   - 0..127: a run of (control + 3) values, then the run's delta as one signed byte (-128..127),
//     then its first value as a varint: value i of the run is first + i * delta;
//   - -1..-128: that many literal values, each a varint.
// Varints are zigzag-signed or unsigned as the stream is (pqpage/orc/varint.h). 100 sevens are
// [0x61, 0x00, 0x07]; 100 down to 1 is [0x61, 0xff, 0x64]; 2, 3, 6, 7, 11 are
// [0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b].
//
// Values are int64_t; an unsigned stream's values are the same 64 bits. Arithmetic on runs wraps
// modulo 2^64, as in ORC's own readers.
#ifndef PQPAGE_ORC_INTEGER_RLE_V1_H_
#define PQPAGE_ORC_INTEGER_RLE_V1_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"

namespace pqpage::orc {

// Whether a stream's integers are zigzag-encoded (the DATA of integer, date and timestamp columns,
// the SECONDARY of decimals) or not (lengths, dictionary references, nanoseconds).
enum class Signedness : uint8_t { kUnsigned, kSigned };

// Writes every stretch of at least 3 values with one delta in -128..127 (up to 130 values) as a
// run, and the rest as literal groups of up to 128 varints, as ORC's own writer does.
class IntegerRleV1Encoder final : public Encoder<int64_t> {
 public:
  explicit IntegerRleV1Encoder(Signedness signedness)
      : signed_(signedness == Signedness::kSigned) {}

  // Appends values. Never fails.
  absl::Status Put(absl::Span<const int64_t> values) override;

  // Bytes the stream would take if finished now (exact).
  size_t EstimatedSize() const override;

  // Appends the stream to `out` and resets the encoder.
  void FinishInto(std::vector<uint8_t>* out) override;

 private:
  void PutValue(int64_t value);
  void FlushGroup();
  size_t VarintBytes(int64_t value) const;

  bool signed_;
  std::vector<uint8_t> out_;
  int64_t group_[128] = {};  // the open group's literals, or a run's first value at [0]
  int group_size_ = 0;
  bool group_is_run_ = false;
  int64_t delta_ = 0;         // a run's delta, or the delta of the literals' tail
  int tail_run_ = 0;          // how many of the literals' last values share delta_ (1: none yet)
  size_t literal_bytes_ = 0;  // the varint bytes of the open literals
};

// Reads a version 1 stream of a known number of values. Errors: DataLoss for a truncated group or
// varint, a varint of more than 64 bits, or a group longer than the values left; InvalidArgument
// as pqpage/codec.h says.
class IntegerRleV1Decoder final : public Decoder<int64_t> {
 public:
  explicit IntegerRleV1Decoder(Signedness signedness)
      : signed_(signedness == Signedness::kSigned) {}

  // Starts a stream of `num_values` values; keeps a view of `data`, which must outlive the
  // decoding. Bytes after the last group needed are ignored.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  absl::Status Decode(absl::Span<int64_t> out) override;

  absl::Status Skip(int64_t count) override;

 private:
  absl::Status NextGroup();
  // Decodes `count` values into `out` (kStore) or passes over them (out unused), count <=
  // values_left(): one body for Decode and Skip.
  template <bool kStore>
  absl::Status Take(int64_t* out, int64_t count);

  bool signed_;
  absl::Span<const uint8_t> data_;
  size_t position_ = 0;
  int64_t values_left_ = 0;
  int64_t group_left_ = 0;
  bool group_is_run_ = false;
  uint64_t run_next_ = 0;  // a run's next value
  uint64_t run_delta_ = 0;
};

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_INTEGER_RLE_V1_H_
