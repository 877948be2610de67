#include "pqpage/orc/boolean_rle.h"

#include <algorithm>
#include <array>

#include "absl/strings/str_cat.h"
#include "codec/value_request.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {
namespace {

// A byte's bits in the opposite order: ORC puts the first value in the high bit, Arrow's bitmaps
// in the low bit.
constexpr std::array<uint8_t, 256> kReversed = [] {
  std::array<uint8_t, 256> table{};
  for (int byte = 0; byte < 256; ++byte) {
    int reversed = 0;
    for (int bit = 0; bit < 8; ++bit) reversed |= ((byte >> bit) & 1) << (7 - bit);
    table[byte] = static_cast<uint8_t>(reversed);
  }
  return table;
}();

constexpr std::array<uint8_t, 256> kOnes = [] {
  std::array<uint8_t, 256> table{};
  for (int byte = 0; byte < 256; ++byte) {
    for (int bit = 0; bit < 8; ++bit) table[byte] += (byte >> bit) & 1;
  }
  return table;
}();

// Whole bytes are decoded through a buffer of this many.
constexpr int64_t kByteBatch = 256;
constexpr char kBooleanRle[] = "ORC boolean RLE";

// Writes the low `count` bits of `bits` at bit `at` of an LSB-first bitmap, keeping its other bits.
void WriteBits(uint8_t* bitmap, int64_t at, uint32_t bits, int count) {
  while (count > 0) {
    const int shift = static_cast<int>(at & 7);
    const int take = std::min(count, 8 - shift);
    const auto mask = static_cast<uint8_t>(((1u << take) - 1) << shift);
    uint8_t& byte = bitmap[at >> 3];
    byte = static_cast<uint8_t>((byte & ~mask) | ((bits << shift) & mask));
    bits >>= take;
    at += take;
    count -= take;
  }
}

}  // namespace

absl::Status BooleanRleEncoder::Put(absl::Span<const bool> values) {
  for (bool value : values) {
    partial_ = static_cast<uint8_t>(partial_ | (value ? 0x80u >> partial_bits_ : 0u));
    if (++partial_bits_ == 8) {
      bytes_.PutBytes(absl::MakeConstSpan(&partial_, 1));
      partial_ = 0;
      partial_bits_ = 0;
    }
  }
  return absl::OkStatus();
}

size_t BooleanRleEncoder::EstimatedSize() const {
  // An open byte adds at most one literal group of one byte.
  return bytes_.EstimatedSize() + (partial_bits_ > 0 ? 2 : 0);
}

void BooleanRleEncoder::FinishInto(std::vector<uint8_t>* out) {
  if (partial_bits_ > 0) bytes_.PutBytes(absl::MakeConstSpan(&partial_, 1));
  partial_ = 0;
  partial_bits_ = 0;
  bytes_.FinishInto(out);
}

absl::Status BooleanRleDecoder::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  values_left_ = 0;
  partial_bits_ = 0;
  if (num_values < 0) {
    return absl::InvalidArgumentError(absl::StrCat("ORC boolean RLE: ", num_values, " values"));
  }
  PQPAGE_RETURN_IF_ERROR(bytes_.Reset(data, num_values / 8 + (num_values % 8 != 0 ? 1 : 0)));
  values_left_ = num_values;
  return absl::OkStatus();
}

void BooleanRleDecoder::TakeFromPartial(bool* out, int count) {
  for (int i = 0; i < count; ++i) {
    if (out != nullptr) out[i] = (partial_ & 0x80) != 0;
    partial_ = static_cast<uint8_t>(partial_ << 1);
  }
  partial_bits_ -= count;
}

absl::Status BooleanRleDecoder::Decode(absl::Span<bool> out) {
  PQPAGE_RETURN_IF_ERROR(
      pqpage::internal::CheckValueRequest(kBooleanRle, out.size(), values_left_));
  bool* next = out.data();
  int64_t left = static_cast<int64_t>(out.size());
  const int from_partial = static_cast<int>(std::min<int64_t>(left, partial_bits_));
  TakeFromPartial(next, from_partial);
  next += from_partial;
  left -= from_partial;
  uint8_t batch[kByteBatch];
  while (left >= 8) {
    const int64_t bytes = std::min(left / 8, kByteBatch);
    PQPAGE_RETURN_IF_ERROR(bytes_.DecodeBytes(absl::MakeSpan(batch, bytes)));
    for (int64_t i = 0; i < bytes; ++i) {
      for (int bit = 0; bit < 8; ++bit) next[bit] = ((batch[i] << bit) & 0x80) != 0;
      next += 8;
    }
    left -= bytes * 8;
  }
  if (left > 0) {
    PQPAGE_RETURN_IF_ERROR(bytes_.DecodeBytes(absl::MakeSpan(&partial_, 1)));
    partial_bits_ = 8;
    TakeFromPartial(next, static_cast<int>(left));
  }
  values_left_ -= static_cast<int64_t>(out.size());
  return absl::OkStatus();
}

absl::StatusOr<int64_t> BooleanRleDecoder::DecodeToBitmap(uint8_t* bitmap, int64_t bit_offset,
                                                          int64_t count) {
  PQPAGE_RETURN_IF_ERROR(pqpage::internal::CheckValueRequest(kBooleanRle, count, values_left_));
  int64_t at = bit_offset;
  int64_t left = count;
  int64_t ones = 0;
  // The open byte's values, then whole bytes, then the start of one more byte.
  auto take_partial = [&](int bits) {
    const uint8_t high = partial_ >> (8 - bits);  // the next `bits` values, first one highest
    const uint8_t lsb_first = kReversed[high] >> (8 - bits);
    WriteBits(bitmap, at, lsb_first, bits);
    ones += kOnes[high];
    partial_ = static_cast<uint8_t>(partial_ << bits);
    partial_bits_ -= bits;
    at += bits;
    left -= bits;
  };
  if (partial_bits_ > 0 && left > 0)
    take_partial(static_cast<int>(std::min<int64_t>(left, partial_bits_)));
  uint8_t batch[kByteBatch];
  while (left >= 8) {
    const int64_t bytes = std::min(left / 8, kByteBatch);
    PQPAGE_RETURN_IF_ERROR(bytes_.DecodeBytes(absl::MakeSpan(batch, bytes)));
    for (int64_t i = 0; i < bytes; ++i) {
      ones += kOnes[batch[i]];
      if ((at & 7) == 0) {
        bitmap[at >> 3] = kReversed[batch[i]];
      } else {
        WriteBits(bitmap, at, kReversed[batch[i]], 8);
      }
      at += 8;
    }
    left -= bytes * 8;
  }
  if (left > 0) {
    PQPAGE_RETURN_IF_ERROR(bytes_.DecodeBytes(absl::MakeSpan(&partial_, 1)));
    partial_bits_ = 8;
    take_partial(static_cast<int>(left));
  }
  values_left_ -= count;
  return ones;
}

absl::Status BooleanRleDecoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(pqpage::internal::CheckValueRequest(kBooleanRle, count, values_left_));
  int64_t left = count;
  const int from_partial = static_cast<int>(std::min<int64_t>(left, partial_bits_));
  TakeFromPartial(nullptr, from_partial);
  left -= from_partial;
  PQPAGE_RETURN_IF_ERROR(bytes_.Skip(left / 8));
  if (left % 8 > 0) {
    PQPAGE_RETURN_IF_ERROR(bytes_.DecodeBytes(absl::MakeSpan(&partial_, 1)));
    partial_bits_ = 8;
    TakeFromPartial(nullptr, static_cast<int>(left % 8));
  }
  values_left_ -= count;
  return absl::OkStatus();
}

}  // namespace pqpage::orc
