// PLAIN encoders: little-endian copies for numbers, LSB-first bits for booleans, length-prefixed
// bytes for BYTE_ARRAY.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/byte_buffer.h"
#include "common/byte_io.h"
#include "common/small_copy.h"
#include "encodings/fixed_length_values.h"
#include "pqpage/plain.h"

namespace pqpage {
namespace {

// Packs 8 bools (bytes holding 0 or 1) into one byte, value i in bit i. The multiplier moves byte
// i's low bit to bit 56 + i; the shifted copies never collide in the top byte.
inline uint8_t PackEightBools(const bool* values) {
  uint64_t bytes;
  std::memcpy(&bytes, values, 8);
  return static_cast<uint8_t>(((bytes & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
}

}  // namespace

// ---------------------------------------------------------------- fixed width
template <typename T>
absl::Status PlainEncoder<T>::Put(absl::Span<const T> values) {
  if (values.empty()) return absl::OkStatus();
  // insert copies without first zero-filling the new bytes, as resize would.
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(values.data());
  buffer_.insert(buffer_.end(), bytes, bytes + values.size() * sizeof(T));
  return absl::OkStatus();
}

template <typename T>
void PlainEncoder<T>::FinishInto(std::vector<uint8_t>* out) {
  internal::AppendAndClear(&buffer_, out);
}

template class PlainEncoder<int32_t>;
template class PlainEncoder<int64_t>;
template class PlainEncoder<Int96>;
template class PlainEncoder<float>;
template class PlainEncoder<double>;

// ---------------------------------------------------------------- BOOLEAN
void PlainEncoder<bool>::PutBit(bool value) {
  if (num_bits_ % 8 == 0) bytes_.push_back(0);
  bytes_.back() |= static_cast<uint8_t>(static_cast<unsigned>(value) << (num_bits_ % 8));
  ++num_bits_;
}

absl::Status PlainEncoder<bool>::Put(absl::Span<const bool> values) {
  size_t i = 0;
  while (i < values.size() && num_bits_ % 8 != 0) PutBit(values[i++]);
  const size_t whole_bytes = (values.size() - i) / 8;
  if (whole_bytes > 0) {
    const size_t old_size = bytes_.size();
    bytes_.resize(old_size + whole_bytes);
    uint8_t* out = bytes_.data() + old_size;
    for (size_t b = 0; b < whole_bytes; ++b, i += 8) out[b] = PackEightBools(values.data() + i);
    num_bits_ += whole_bytes * 8;
  }
  while (i < values.size()) PutBit(values[i++]);
  return absl::OkStatus();
}

void PlainEncoder<bool>::PutBitmap(const uint8_t* bitmap, int64_t bit_offset, int64_t count) {
  if (count <= 0) return;
  if (bit_offset % 8 == 0 && num_bits_ % 8 == 0) {
    const uint64_t whole_bytes = static_cast<uint64_t>(count) / 8;
    bytes_.insert(bytes_.end(), bitmap + bit_offset / 8, bitmap + bit_offset / 8 + whole_bytes);
    num_bits_ += whole_bytes * 8;
    bit_offset += static_cast<int64_t>(whole_bytes * 8);
    count -= static_cast<int64_t>(whole_bytes * 8);
  }
  for (int64_t k = 0; k < count; ++k) {
    const int64_t bit = bit_offset + k;
    PutBit((bitmap[bit / 8] >> (bit % 8)) & 1);
  }
}

void PlainEncoder<bool>::FinishInto(std::vector<uint8_t>* out) {
  internal::AppendAndClear(&bytes_, out);
  num_bits_ = 0;
}

// ---------------------------------------------------------------- BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
namespace {

using internal::ViewData;
using internal::ViewSize;

template <typename View>
absl::Status PutByteArrays(absl::Span<const View> values, std::vector<uint8_t>* buffer) {
  size_t total = 0;
  size_t shortest = std::numeric_limits<size_t>::max();
  size_t longest = 0;
  for (const View& value : values) {
    const size_t size = ViewSize(value);
    if (size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      return absl::InvalidArgumentError(absl::StrCat("PLAIN: BYTE_ARRAY value of ", size,
                                                     " bytes exceeds the 2^31 - 1 byte limit"));
    }
    total += 4 + size;
    shortest = std::min(shortest, size);
    longest = std::max(longest, size);
  }
  const size_t old_size = buffer->size();
  buffer->resize(old_size + total);
  uint8_t* out = buffer->data() + old_size;
  internal::WithCopyForLengths(shortest, longest, [&](auto copy) {
    for (const View& value : values) {
      const uint32_t length = static_cast<uint32_t>(ViewSize(value));
      internal::StoreLittleEndian<uint32_t>(out, length);
      copy(out + 4, ViewData(value), length);
      out += 4 + length;
    }
  });
  return absl::OkStatus();
}

}  // namespace

absl::Status PlainEncoder<ByteArray>::Put(absl::Span<const ByteArray> values) {
  if (type_length_ != kVariableLength) {
    return internal::AppendFixedLength("PLAIN", values, type_length_, &buffer_);
  }
  return PutByteArrays(values, &buffer_);
}

absl::Status PlainEncoder<ByteArray>::Put(absl::Span<const std::string_view> values) {
  if (type_length_ != kVariableLength) {
    return internal::AppendFixedLength("PLAIN", values, type_length_, &buffer_);
  }
  return PutByteArrays(values, &buffer_);
}

absl::Status PlainEncoder<ByteArray>::PutBytes(absl::Span<const uint8_t> bytes) {
  return internal::AppendFixedLengthBytes("PLAIN", bytes, type_length_, &buffer_);
}

void PlainEncoder<ByteArray>::FinishInto(std::vector<uint8_t>* out) {
  internal::AppendAndClear(&buffer_, out);
}

}  // namespace pqpage
