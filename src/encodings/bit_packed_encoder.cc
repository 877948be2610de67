#include "absl/strings/str_cat.h"
#include "bitpack/bit_packing.h"
#include "common/checked_math.h"
#include "pqpage/bit_packed.h"

namespace pqpage {

// Levels are int16 in every engine; a wider level width cannot occur.
constexpr int kMaxLevelBitWidth = 16;

size_t BitPackedEncodedSize(int bit_width, size_t count) {
  return static_cast<size_t>(internal::BitPackedBytes(count, bit_width));
}

BitPackedLevelEncoder::BitPackedLevelEncoder(int bit_width, BitPackedOrder order)
    : bit_width_(bit_width), order_(order) {}

namespace {

internal::Pack32Fn PackKernel(int bit_width, BitPackedOrder order) {
  return order == BitPackedOrder::kMostSignificantFirst
             ? internal::BitPacking().pack32_msb[bit_width]
             : internal::BitPacking().pack32[bit_width];
}

}  // namespace

absl::Status BitPackedLevelEncoder::Put(absl::Span<const int16_t> levels) {
  if (bit_width_ < 0 || bit_width_ > kMaxLevelBitWidth) {
    return absl::InvalidArgumentError(
        absl::StrCat("BIT_PACKED: level bit width ", bit_width_, " is outside 0..16"));
  }
  for (const int16_t level : levels) {
    if (level < 0 || (level >> bit_width_) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("BIT_PACKED: level ", level, " does not fit in ", bit_width_, " bits"));
    }
  }
  const internal::Pack32Fn pack = PackKernel(bit_width_, order_);
  for (const int16_t level : levels) {
    group_.push_back(static_cast<uint32_t>(level));
    if (group_.size() == internal::kValuesPerGroup) {
      const size_t start = out_.size();
      out_.resize(start + bit_width_);
      pack(group_.data(), out_.data() + start, internal::kValuesPerGroup);
      group_.clear();
    }
  }
  count_ += levels.size();
  return absl::OkStatus();
}

std::vector<uint8_t> BitPackedLevelEncoder::Finish() {
  if (!group_.empty() && bit_width_ > 0 && bit_width_ <= kMaxLevelBitWidth) {
    // Pad the last group with zeros, pack it whole, then keep only the bytes the spec allows.
    group_.resize(internal::kValuesPerGroup, 0);
    const size_t start = out_.size();
    out_.resize(start + bit_width_);
    PackKernel(bit_width_, order_)(group_.data(), out_.data() + start, internal::kValuesPerGroup);
  }
  out_.resize(BitPackedEncodedSize(bit_width_ < 0 ? 0 : bit_width_, count_));
  std::vector<uint8_t> result = std::move(out_);
  out_.clear();
  group_.clear();
  count_ = 0;
  return result;
}

}  // namespace pqpage
