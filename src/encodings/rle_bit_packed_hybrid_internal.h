// The run walker behind every reader of RLE/bit-packed hybrid streams: levels, dictionary indices,
// RLE booleans. It parses run headers and hands each run, once, to a "sink" that knows what the
// values become (integers, int16 levels, a validity bitmap, dictionary-gathered values). Sinks see
// whole runs, so an RLE run costs one fill and a bit-packed run one kernel call per L1-sized block:
// the bit width is dispatched once per run, never per value.
//
// Sink interface (duck-typed, all inlined):
//   absl::Status Fill(uint64_t value, size_t count);               // an RLE run's piece
//   absl::Status Unpacked(const uint32_t* values, size_t count);   // a bit-packed piece, unpacked
//   bool UnpackDirect(const uint8_t* packed, size_t count, Unpack32Fn kernel)  // optional fast
//   path:
//       returns true when the sink unpacked `count` (a multiple of 8) values itself.
#ifndef PQPAGE_ENCODINGS_RLE_BIT_PACKED_HYBRID_INTERNAL_H_
#define PQPAGE_ENCODINGS_RLE_BIT_PACKED_HYBRID_INTERNAL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "bitpack/bit_packing.h"
#include "common/byte_reader.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {

// The format caps every run at 2^31 - 1 values.
inline constexpr uint64_t kMaxHybridRunLength = (uint64_t{1} << 31) - 1;
// Values unpacked per kernel call when a sink needs a scratch buffer: 4 KiB of uint32, L1-resident.
inline constexpr size_t kHybridScratchValues = 1024;

class HybridRunReader {
 public:
  // `bit_width` must already be validated to lie in 0..32.
  void Reset(absl::Span<const uint8_t> data, int bit_width) {
    reader_ = ByteReader(data);
    bit_width_ = bit_width;
    kernel_ = BitPacking().unpack32[bit_width];
    run_left_ = 0;
    packed_ = nullptr;
    packed_bytes_ = 0;
    whole_groups_present_ = 0;
    position_in_run_ = 0;
    is_rle_ = false;
  }

  // Reads `data` as one bit-packed run of `num_values` values unpacked by `kernel`, with no run
  // headers: the layout of the deprecated BIT_PACKED encoding (with the MSB-order kernel).
  void ResetSingleRun(absl::Span<const uint8_t> data, int bit_width, Unpack32Fn kernel,
                      uint64_t num_values) {
    Reset(absl::Span<const uint8_t>(), bit_width);
    kernel_ = kernel;
    packed_ = data.data();
    packed_bytes_ = data.size();
    whole_groups_present_ = bit_width == 0 ? num_values / kValuesPerGroup + 1
                                           : data.size() / static_cast<size_t>(bit_width);
    run_left_ = num_values;
  }

  int bit_width() const { return bit_width_; }

  // Values left of the run in progress; 0 between runs.
  uint64_t run_left() const { return run_left_; }
  // Between runs: the rest of the stream, for a kernel that walks whole runs itself (the width-1
  // walkers of width1_run_walk.h), and the step past the `bytes` of it that kernel took.
  absl::Span<const uint8_t> rest_of_stream() const { return reader_.rest(); }
  void SkipWholeRuns(size_t bytes) { reader_.Advance(bytes); }

  // Hands the next `count` values to `sink`; DataLoss if the stream ends first.
  template <typename Sink>
  absl::Status Read(size_t count, Sink& sink) {
    while (count > 0) {
      if (run_left_ == 0) PQPAGE_RETURN_IF_ERROR(NextRun());
      const size_t take = static_cast<size_t>(std::min<uint64_t>(count, run_left_));
      if (is_rle_) {
        PQPAGE_RETURN_IF_ERROR(sink.Fill(rle_value_, take));
      } else {
        PQPAGE_RETURN_IF_ERROR(ReadPacked(take, sink));
      }
      run_left_ -= take;
      count -= take;
    }
    return absl::OkStatus();
  }

  // Moves past `count` values without producing them.
  absl::Status Skip(size_t count) {
    while (count > 0) {
      if (run_left_ == 0) PQPAGE_RETURN_IF_ERROR(NextRun());
      const size_t take = static_cast<size_t>(std::min<uint64_t>(count, run_left_));
      if (!is_rle_) position_in_run_ += take;
      run_left_ -= take;
      count -= take;
    }
    return absl::OkStatus();
  }

 private:
  absl::Status NextRun() {
    uint32_t header;
    // Nearly every run header is one byte; only longer ones take the general varint reader.
    if (reader_.remaining() > 0 && *reader_.position() < 0x80) {
      header = *reader_.position();
      reader_.Advance(1);
    } else {
      PQPAGE_ASSIGN_OR_RETURN(header, reader_.ReadUleb32("hybrid run header"));
    }
    const uint64_t length = header >> 1;
    if (length == 0) {
      // A zero-length run would make no progress; the format requires 1 .. 2^31-1.
      return absl::DataLossError("RLE/bit-packed hybrid: run of length 0");
    }
    if ((header & 1) == 0) {
      const size_t value_bytes = static_cast<size_t>(bit_width_ + 7) / 8;
      if (value_bytes > reader_.remaining()) {
        return absl::DataLossError("RLE/bit-packed hybrid: truncated RLE run value");
      }
      uint32_t value = 0;
      for (size_t b = 0; b < value_bytes; ++b) value |= uint32_t{reader_.position()[b]} << (8 * b);
      reader_.Advance(value_bytes);
      is_rle_ = true;
      rle_value_ = value;
      run_left_ = length;
      return absl::OkStatus();
    }
    // A bit-packed run of `length` groups of 8. Its last group may be cut short by the end of the
    // stream (some writers stop at the last byte holding a value); only whole values that are
    // present can be read, and asking for more is an error later.
    const uint64_t values = length * 8;
    const uint64_t bytes = length * static_cast<uint64_t>(bit_width_);
    packed_ = reader_.position();
    is_rle_ = false;
    position_in_run_ = 0;
    if (bytes <= reader_.remaining()) {
      packed_bytes_ = bytes;
      whole_groups_present_ = length;
      run_left_ = values;
    } else {
      const size_t available = reader_.remaining();
      packed_bytes_ = available;
      whole_groups_present_ = available / bit_width_;  // bit_width_ > 0: width 0 needs no bytes
      run_left_ = std::min<uint64_t>(values, available * 8 / bit_width_);
      if (run_left_ == 0) {
        return absl::DataLossError(absl::StrCat("RLE/bit-packed hybrid: bit-packed run of ", values,
                                                " values has no bytes left"));
      }
    }
    reader_.Advance(packed_bytes_);
    return absl::OkStatus();
  }

  // Unpacks one group of 8 (possibly cut short at the end of the stream) into `out`.
  void UnpackGroup(size_t group, uint32_t* out) const {
    uint8_t bytes[kMaxBitWidth32] = {};
    const size_t start = group * bit_width_;
    const size_t present = std::min<size_t>(bit_width_, packed_bytes_ - start);
    // Width 0 has no bytes, and its span may have no storage at all.
    if (present > 0) std::memcpy(bytes, packed_ + start, present);
    kernel_(bytes, out, kValuesPerGroup);
  }

  template <typename Sink>
  absl::Status ReadPacked(size_t take, Sink& sink) {
    size_t position = position_in_run_;
    const size_t end = position + take;
    uint32_t group[kValuesPerGroup];
    // Head: the rest of a group a previous call started.
    if (position % kValuesPerGroup != 0) {
      const size_t offset = position % kValuesPerGroup;
      const size_t n = std::min<size_t>(end - position, kValuesPerGroup - offset);
      UnpackGroup(position / kValuesPerGroup, group);
      PQPAGE_RETURN_IF_ERROR(sink.Unpacked(group + offset, n));
      position += n;
    }
    // Body: whole groups that are fully present, straight from the packed bytes.
    const size_t whole_present = whole_groups_present_ * kValuesPerGroup;
    size_t body_end = std::min(end - end % kValuesPerGroup, whole_present);
    body_end = std::max(body_end, position);
    if (body_end > position) {
      const uint8_t* packed = packed_ + position / kValuesPerGroup * bit_width_;
      if (!sink.UnpackDirect(packed, body_end - position, kernel_)) {
        uint32_t scratch[kHybridScratchValues];
        for (size_t done = position; done < body_end;) {
          const size_t n = std::min(body_end - done, kHybridScratchValues);
          kernel_(packed_ + done / kValuesPerGroup * bit_width_, scratch, n);
          PQPAGE_RETURN_IF_ERROR(sink.Unpacked(scratch, n));
          done += n;
        }
      }
      position = body_end;
    }
    // Tail: a final partial group, or a group cut short by the end of the stream.
    while (position < end) {
      const size_t n = std::min<size_t>(end - position, kValuesPerGroup);
      UnpackGroup(position / kValuesPerGroup, group);
      PQPAGE_RETURN_IF_ERROR(sink.Unpacked(group, n));
      position += n;
    }
    position_in_run_ = position;
    return absl::OkStatus();
  }

  ByteReader reader_;
  int bit_width_ = 0;
  Unpack32Fn kernel_ = nullptr;
  bool is_rle_ = false;
  uint64_t rle_value_ = 0;
  uint64_t run_left_ = 0;
  const uint8_t* packed_ = nullptr;
  size_t packed_bytes_ = 0;
  size_t whole_groups_present_ = 0;  // groups of the run whose bytes are all in the stream
  size_t position_in_run_ = 0;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_RLE_BIT_PACKED_HYBRID_INTERNAL_H_
