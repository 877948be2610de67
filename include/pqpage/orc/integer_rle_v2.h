// ORC's integer run-length encoding, version 2 (the DIRECT_V2 and DICTIONARY_V2 column encodings,
// Hive 0.12 on). A stream is a sequence of runs of 1 to 512 values, each in one of four forms,
// named by the top two bits of its first byte:
//   - SHORT_REPEAT (0): 3 to 10 copies of one value, stored in 1 to 8 big-endian bytes;
//   - DIRECT (1): the values bit-packed most significant bit first at one width;
//   - PATCHED_BASE (2): the values less their minimum (the base) packed at a width that most of
//     them fit, plus a list of patches that supply the high bits of the few that do not;
//   - DELTA (3): a first value and a first delta as varints, then the other deltas' magnitudes
//     bit-packed (width 0: every delta equals the first).
// Signed streams zigzag their values in SHORT_REPEAT and DIRECT runs and their first value in
// DELTA runs; PATCHED_BASE stores its base as sign and magnitude. Widths use the 5-bit code table
// of the spec. Values are int64_t (an unsigned stream's are the same 64 bits), and arithmetic
// wraps modulo 2^64 as in ORC's own readers.
#ifndef PQPAGE_ORC_INTEGER_RLE_V2_H_
#define PQPAGE_ORC_INTEGER_RLE_V2_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"
#include "pqpage/orc/integer_rle_v1.h"

namespace pqpage::orc {

// The encoder measures instead of following ORC's writer's percentile rules. It takes the values
// in windows of up to 512, never ending a window inside a run of equal values, and writes each
// window in whichever of three ways takes fewest bytes:
//   - as one run, in whichever of DIRECT, DELTA and PATCHED_BASE (at every data width a patch
//     list of at most 31 entries allows) is smallest; a tie goes to DIRECT, the fastest to read,
//     then DELTA;
//   - cut at its repeats: every 3 or more equal values become SHORT_REPEAT (up to 10 copies) or a
//     DELTA run of width 0 (2 header bytes and two varints, whatever its length), and the values
//     between are runs chosen as above;
//   - when it opens with equal values: those but the last as a run of their own, the rest as one
//     run, which then starts with two different values, as a DELTA run must (the spec forbids a
//     first delta of 0). Rising values with repeats, such as clock times, so take one DELTA run
//     a window instead of a repeat run every few values.
// It keeps at most 1,536 values in hand between Put calls.
class IntegerRleV2Encoder final : public Encoder<int64_t> {
 public:
  explicit IntegerRleV2Encoder(Signedness signedness)
      : signed_(signedness == Signedness::kSigned) {}

  // Appends values. Never fails.
  absl::Status Put(absl::Span<const int64_t> values) override;

  // An upper bound on the bytes the stream would take if finished now.
  size_t EstimatedSize() const override;

  // Appends the stream to `out` and resets the encoder.
  void FinishInto(std::vector<uint8_t>* out) override;

 private:
  // Writes the runs of pending_ that later values cannot change (all of them when `final`).
  void EncodePending(bool final);
  void WriteRepeat(int64_t value, size_t count);
  size_t RepeatBytes(int64_t value, size_t count) const;
  // Writes `count` values (at most 512) as one run in the smallest
  // form when `write`; @return that run's bytes.
  size_t Literals(const int64_t* values, size_t count, bool write);
  size_t PlanLiterals(const int64_t* values, size_t count) {
    return Literals(values, count, false);
  }
  void WriteLiterals(const int64_t* values, size_t count) { Literals(values, count, true); }

  bool signed_;
  std::vector<uint8_t> out_;
  std::vector<int64_t> pending_;
  std::vector<uint64_t> scratch_;  // per-run work space of the run writers
  // The values of a run wider than the narrowest width a PATCHED_BASE run of it could have: at
  // any width, the run's patches are among them.
  struct Outlier {
    uint16_t index;
    uint8_t bits;
  };
  std::vector<Outlier> outliers_;
};

// Reads a version 2 stream of a known number of values. Errors: DataLoss for a truncated run or
// varint, a run longer than the values left, a DELTA run of width > 0 shorter than 2 values, a
// patch list that points past its run or whose gap and patch widths exceed 64 bits;
// InvalidArgument as pqpage/codec.h says. Skip moves past whole runs by their headers alone.
class IntegerRleV2Decoder final : public Decoder<int64_t> {
 public:
  explicit IntegerRleV2Decoder(Signedness signedness)
      : signed_(signedness == Signedness::kSigned) {}

  // Starts a stream of `num_values` values; keeps a view of `data`, which must outlive the
  // decoding. Bytes after the last run needed are ignored.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  absl::Status Decode(absl::Span<int64_t> out) override;

  absl::Status Skip(int64_t count) override;

 private:
  struct Run;
  // Reads the header of the run at position_ and checks that the run's bytes are there.
  absl::Status ReadRunHeader(Run* run) const;
  // Decodes the run described by `run` (its bytes at position_) into `out`.
  absl::Status DecodeRun(const Run& run, int64_t* out) const;
  // Decodes `count` values into `out` (kStore) or passes over them (out unused), count <=
  // values_left(): one body for Decode and Skip.
  template <bool kStore>
  absl::Status Take(int64_t* out, int64_t count);

  bool signed_;
  absl::Span<const uint8_t> data_;
  size_t position_ = 0;
  int64_t values_left_ = 0;
  // A run decoded in part: its values, and the next one to hand out.
  int64_t buffered_[512] = {};
  int buffered_size_ = 0;
  int buffered_next_ = 0;
};

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_INTEGER_RLE_V2_H_
