// How the encoder chooses runs. A stretch of equal values can be an RLE run (header + the value in
// ceil(w/8) bytes) or part of a bit-packed run (w bits per value, groups of 8, one header per run).
// Breaking a bit-packed run for an RLE run costs the RLE run plus a new bit-packed header after it,
// so a repeat becomes an RLE run only when it is long enough for that to be smaller: the threshold
// is computed per bit width (3 values at width 32, 32 at width 1) rather than fixed at 8. A
// bit-packed run must end on a group boundary, so a repeat first tops up the open group. When a
// short bit-packed stretch is flushed between RLE runs, it is re-costed as RLE runs and written
// that way if smaller, and adjacent RLE runs of one value are merged.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "bitpack/bit_packing.h"
#include "common/byte_buffer.h"
#include "common/byte_io.h"
#include "common/byte_reader.h"
#include "common/checked_math.h"
#include "encodings/rle_bit_packed_hybrid_internal.h"
#include "encodings/run_scan.h"
#include "pqpage/rle_bit_packed_hybrid.h"

namespace pqpage {
namespace {

using internal::kValuesPerGroup;

// 8191 groups keep a bit-packed header within 2 bytes (8191 << 1 | 1 < 2^14).
constexpr size_t kMaxPackedGroups = 8191;
constexpr size_t kMaxPackedValues = kMaxPackedGroups * kValuesPerGroup;
// Bit-packed stretches of at most this many groups are re-costed as RLE runs on flush.
constexpr size_t kRecostGroups = 4;

size_t VarintLength(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

size_t RleRunBytes(int bit_width, uint64_t count) {
  return VarintLength(count << 1) + static_cast<size_t>((bit_width + 7) / 8);
}

uint64_t MinRleValues(int bit_width) {
  if (bit_width == 0) return 1;
  for (uint64_t m = 1;; ++m) {
    // RLE run + the bit-packed header that must follow it, against m values bit-packed.
    const uint64_t rle_bits = 8 * (RleRunBytes(bit_width, m) + 1);
    if (m * static_cast<uint64_t>(bit_width) > rle_bits) return m;
  }
}

}  // namespace

RleBitPackedHybridEncoder::RleBitPackedHybridEncoder(int bit_width)
    : bit_width_(bit_width),
      min_rle_values_(bit_width >= 0 && bit_width <= 32 ? MinRleValues(bit_width) : 1) {}
RleBitPackedHybridEncoder::~RleBitPackedHybridEncoder() = default;
RleBitPackedHybridEncoder::RleBitPackedHybridEncoder(RleBitPackedHybridEncoder&&) noexcept =
    default;
RleBitPackedHybridEncoder& RleBitPackedHybridEncoder::operator=(
    RleBitPackedHybridEncoder&&) noexcept = default;

template <typename T>
absl::Status RleBitPackedHybridEncoder::PutValues(absl::Span<const T> values) {
  if (bit_width_ < 0 || bit_width_ > 32) {
    return absl::InvalidArgumentError(
        absl::StrCat("RLE/bit-packed hybrid: bit width ", bit_width_, " is outside 0..32"));
  }
  // One OR over the input checks every value against the width before anything is appended.
  uint32_t all_bits = 0;
  bool negative = false;
  for (const T v : values) {
    all_bits |= static_cast<uint32_t>(v);
    if constexpr (std::is_signed_v<T>) negative |= v < 0;
  }
  if (negative || (bit_width_ < 32 && (all_bits >> bit_width_) != 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("RLE/bit-packed hybrid: a value does not fit in bit width ", bit_width_));
  }
  if constexpr (std::is_same_v<T, uint32_t>) {
    PutChecked(values.data(), values.size());
  } else {
    // Levels and booleans are widened a block at a time so the run scan works on one type.
    uint32_t widened[1024];
    for (size_t done = 0; done < values.size(); done += 1024) {
      const size_t n = std::min<size_t>(1024, values.size() - done);
      for (size_t k = 0; k < n; ++k) widened[k] = static_cast<uint32_t>(values[done + k]);
      PutChecked(widened, n);
    }
  }
  return absl::OkStatus();
}

void RleBitPackedHybridEncoder::PutChecked(const uint32_t* values, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (run_length_ > 0) {
      const size_t j = internal::EndOfRun(values, i, n, run_value_);
      run_length_ += j - i;
      i = j;
      if (i == n) break;
      CommitRun();
    }
    // Everything before the next repeat long enough to be an RLE run can only be bit-packed, so
    // it moves to the pending run in bulk; the run found (or the last run of this call, which
    // the next call may extend) becomes the open run.
    const size_t next = internal::FindRunOfAtLeast(values, i, n, min_rle_values_);
    AppendLiterals(values + i, next - i);
    run_value_ = values[next];
    run_length_ = 1;
    i = next + 1;
  }
}

void RleBitPackedHybridEncoder::AppendLiterals(const uint32_t* values, size_t count) {
  while (count > 0) {
    const size_t take = std::min(kMaxPackedValues - pending_.size(), count);
    pending_.insert(pending_.end(), values, values + take);
    values += take;
    count -= take;
    if (pending_.size() == kMaxPackedValues) FlushPacked();
  }
}

absl::Status RleBitPackedHybridEncoder::Put(absl::Span<const uint32_t> values) {
  return PutValues(values);
}
absl::Status RleBitPackedHybridEncoder::Put(absl::Span<const int16_t> values) {
  return PutValues(values);
}
absl::Status RleBitPackedHybridEncoder::Put(absl::Span<const bool> values) {
  return PutValues(values);
}

void RleBitPackedHybridEncoder::CommitRun() {
  if (run_length_ == 0) return;
  const size_t open = pending_.size() % kValuesPerGroup;
  const size_t top_up = open == 0 ? 0 : kValuesPerGroup - open;
  if (run_length_ >= top_up + min_rle_values_) {
    pending_.insert(pending_.end(), top_up, run_value_);
    FlushPacked();
    EmitRle(run_value_, run_length_ - top_up);
  } else {
    // Short enough to be bounded by the threshold (at most 7 + 33 values).
    uint64_t left = run_length_;
    while (left > 0) {
      const size_t take = std::min<uint64_t>(left, kMaxPackedValues - pending_.size());
      pending_.insert(pending_.end(), take, run_value_);
      left -= take;
      if (pending_.size() == kMaxPackedValues) FlushPacked();
    }
  }
  run_length_ = 0;
}

void RleBitPackedHybridEncoder::EmitRle(uint32_t value, uint64_t count) {
  if (rle_count_ > 0 && rle_value_ != value) WriteRle();
  rle_value_ = value;
  rle_count_ += count;
}

void RleBitPackedHybridEncoder::WriteRle() {
  while (rle_count_ > 0) {
    const uint64_t n = std::min(rle_count_, internal::kMaxHybridRunLength);
    internal::AppendUleb128(out_, n << 1);
    for (int b = 0; b < (bit_width_ + 7) / 8; ++b) {
      out_.push_back(static_cast<uint8_t>(rle_value_ >> (8 * b)));
    }
    rle_count_ -= n;
  }
}

void RleBitPackedHybridEncoder::FlushPacked() {
  if (pending_.empty()) return;
  const size_t groups = (pending_.size() + kValuesPerGroup - 1) / kValuesPerGroup;
  if (groups <= kRecostGroups) {
    // Written as RLE runs instead, this stretch may be smaller (for instance one odd value between
    // two long repeats); the first run may also extend the RLE run before it.
    size_t as_runs = 0;
    for (size_t i = 0; i < pending_.size();) {
      size_t j = i + 1;
      while (j < pending_.size() && pending_[j] == pending_[i]) ++j;
      if (!(i == 0 && rle_count_ > 0 && pending_[0] == rle_value_)) {
        as_runs += RleRunBytes(bit_width_, j - i);
      }
      i = j;
    }
    const size_t as_packed = VarintLength(groups << 1 | 1) + groups * bit_width_;
    if (as_runs < as_packed) {
      for (size_t i = 0; i < pending_.size();) {
        size_t j = i + 1;
        while (j < pending_.size() && pending_[j] == pending_[i]) ++j;
        EmitRle(pending_[i], j - i);
        i = j;
      }
      pending_.clear();
      return;
    }
  }
  WriteRle();
  pending_.resize(groups * kValuesPerGroup, 0);  // the last group is padded with zeros
  internal::AppendUleb128(out_, uint64_t{groups} << 1 | 1);
  const size_t start = out_.size();
  out_.resize(start + groups * bit_width_);
  internal::BitPacking().pack32[bit_width_](pending_.data(), out_.data() + start, pending_.size());
  pending_.clear();
}

size_t RleBitPackedHybridEncoder::EstimatedSize() const {
  const size_t undecided = pending_.size() + run_length_;
  return out_.size() + (rle_count_ > 0 ? RleRunBytes(bit_width_, rle_count_) : 0) + 2 +
         internal::BitPackedBytes(std::min<uint64_t>(undecided, kMaxPackedValues), bit_width_);
}

void RleBitPackedHybridEncoder::FinishInto(std::vector<uint8_t>* out) {
  CommitRun();
  FlushPacked();
  WriteRle();
  internal::AppendAndClear(&out_, out);
  run_length_ = 0;
}

std::vector<uint8_t> RleBitPackedHybridEncoder::Finish() {
  std::vector<uint8_t> result;
  FinishInto(&result);
  return result;
}

void RleBooleanEncoder::FinishInto(std::vector<uint8_t>* out) {
  // The stream is written straight after a placeholder for its length.
  const size_t start = out->size();
  out->resize(start + 4);
  hybrid_.FinishInto(out);
  internal::StoreLittleEndian(out->data() + start, static_cast<uint32_t>(out->size() - start - 4));
}

size_t RleBitPackedHybridEncoder::MaxEncodedSize(int bit_width, size_t count) {
  // Worst case: everything bit-packed, one 2-byte header per full run, or an RLE run per value
  // when that is what the cost rule picked (it only does so when smaller than bit-packing).
  const size_t groups = (count + kValuesPerGroup - 1) / kValuesPerGroup;
  const size_t headers = (groups + kMaxPackedGroups - 1) / kMaxPackedGroups + 1;
  return groups * static_cast<size_t>(std::max(bit_width, 0)) + 2 * headers +
         2 * RleRunBytes(std::max(bit_width, 0), count) + 16;
}

}  // namespace pqpage
