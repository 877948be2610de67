// The PLAIN encoding (Parquet encoding PLAIN = 0): values back to back, the fallback every physical
// type supports and the layout of dictionary pages.
//
// Layout per physical type:
//   BOOLEAN               bit-packed, least significant bit first, padded with 0 bits to a byte
//   INT32 / FLOAT         4 bytes little-endian (IEEE 754 for FLOAT)
//   INT64 / DOUBLE        8 bytes little-endian (IEEE 754 for DOUBLE)
//   INT96                 12 bytes little-endian (deprecated by the format, still read)
//   BYTE_ARRAY            4-byte little-endian length, then that many bytes
//   FIXED_LEN_BYTE_ARRAY  the type_length bytes of each value
//
// PlainEncoder<T> / PlainDecoder<T> are instantiated for T = bool, int32_t, int64_t, Int96, float,
// double and ByteArray; the ByteArray ones hold BYTE_ARRAY, or FIXED_LEN_BYTE_ARRAY when given a
// type_length (pqpage/codec.h). They implement pqpage/codec.h's Decoder<T> and Encoder<T>.
// Floating-point values are copied bit for bit (NaN payloads and -0.0 survive).
#ifndef PQPAGE_PLAIN_H_
#define PQPAGE_PLAIN_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"
#include "pqpage/types.h"

namespace pqpage {

// ---------------------------------------------------------------- fixed-width numbers
// PLAIN for INT32, INT64, INT96, FLOAT and DOUBLE (T = int32_t, int64_t, Int96, float, double).
template <typename T>
class PlainEncoder final : public Encoder<T> {
 public:
  PlainEncoder() = default;

  // Appends values. Never fails.
  absl::Status Put(absl::Span<const T> values) override;

  // Bytes the page holds now (exact).
  size_t EstimatedSize() const override { return buffer_.size(); }

  // Appends the encoded values to `out` and resets the encoder for the next page.
  void FinishInto(std::vector<uint8_t>* out) override;

  // Exact encoded size of `count` values.
  static size_t MaxEncodedSize(size_t count) { return count * sizeof(T); }

 private:
  std::vector<uint8_t> buffer_;
};

// Reads PLAIN fixed-width values. Keeps a view of the input, which must outlive the decoder's use.
template <typename T>
class PlainDecoder final : public Decoder<T> {
 public:
  PlainDecoder() = default;

  // Starts a page of which the caller will read `num_values` values. InvalidArgument if num_values
  // is negative; DataLoss if `data` is shorter than num_values values (extra bytes are ignored).
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  // Decodes exactly out.size() values (a bounds check and a memcpy). InvalidArgument if more than
  // values_left().
  absl::Status Decode(absl::Span<T> out) override;

  // Moves past `count` values. InvalidArgument if count is negative or more than values_left().
  absl::Status Skip(int64_t count) override;

 private:
  const uint8_t* position_ = nullptr;
  int64_t values_left_ = 0;
};

// ---------------------------------------------------------------- BOOLEAN
// PLAIN for BOOLEAN: one bit per value, least significant bit first.
template <>
class PlainEncoder<bool> final : public Encoder<bool> {
 public:
  PlainEncoder() = default;

  // Appends values. Never fails.
  absl::Status Put(absl::Span<const bool> values) override;

  // Appends `count` values held as bits of `bitmap` from bit `bit_offset` on (LSB first, Arrow's
  // layout).
  void PutBitmap(const uint8_t* bitmap, int64_t bit_offset, int64_t count);

  // Bytes the page holds now (the last byte counted even when partly filled).
  size_t EstimatedSize() const override { return bytes_.size(); }

  // Appends the encoded values (the last byte padded with 0 bits) to `out`; resets the encoder.
  void FinishInto(std::vector<uint8_t>* out) override;

  static size_t MaxEncodedSize(size_t count) { return (count + 7) / 8; }

 private:
  void PutBit(bool value);

  std::vector<uint8_t> bytes_;
  uint64_t num_bits_ = 0;
};

// Reads PLAIN booleans. Reset's num_values says how many bits are meaningful, so a page whose
// count is not a multiple of 8 decodes exactly; the padding bits of the last byte are never read as
// values. Keeps a view of the input, which must outlive the decoder's use.
template <>
class PlainDecoder<bool> final : public Decoder<bool> {
 public:
  PlainDecoder() = default;

  // InvalidArgument if num_values is negative; DataLoss if `data` has fewer than
  // ceil(num_values / 8) bytes.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  // Decodes exactly out.size() values. InvalidArgument if more than values_left().
  absl::Status Decode(absl::Span<bool> out) override;

  // Writes `count` values as bits of `bitmap` from bit `bit_offset` on (LSB first), leaving the
  // bitmap's other bits unchanged, and returns how many were true. InvalidArgument if count is
  // negative or more than values_left().
  absl::StatusOr<int64_t> DecodeToBitmap(uint8_t* bitmap, int64_t bit_offset, int64_t count);

  absl::Status Skip(int64_t count) override;

 private:
  const uint8_t* data_ = nullptr;
  uint64_t bit_position_ = 0;
  int64_t values_left_ = 0;
};

// ---------------------------------------------------------------- BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
// PLAIN for BYTE_ARRAY (each value behind its 4-byte little-endian length) or, given a type_length
// >= 1, FIXED_LEN_BYTE_ARRAY (the values' bytes back to back, type_length each).
template <>
class PlainEncoder<ByteArray> final : public Encoder<ByteArray> {
 public:
  // kVariableLength for BYTE_ARRAY, the column's type length for FIXED_LEN_BYTE_ARRAY (a value
  // below 1 other than kVariableLength makes every Put fail).
  explicit PlainEncoder(int type_length = kVariableLength) : type_length_(type_length) {}

  int type_length() const { return type_length_; }

  // Appends values. InvalidArgument, with nothing of that call appended, if a BYTE_ARRAY value is
  // longer than 2^31 - 1 bytes (readers treat the length as a signed int32), or for
  // FIXED_LEN_BYTE_ARRAY if the type length is not positive or a value's size differs from it.
  absl::Status Put(absl::Span<const ByteArray> values) override;
  absl::Status Put(absl::Span<const std::string_view> values);

  // FIXED_LEN_BYTE_ARRAY only: appends values given as contiguous bytes. InvalidArgument for
  // BYTE_ARRAY, a type length that is not positive, or bytes.size() not a multiple of it.
  absl::Status PutBytes(absl::Span<const uint8_t> bytes);

  size_t EstimatedSize() const override { return buffer_.size(); }

  void FinishInto(std::vector<uint8_t>* out) override;

  // Exact encoded size of `count` values holding `total_value_bytes` bytes together.
  size_t MaxEncodedSize(size_t count, size_t total_value_bytes) const {
    return type_length_ == kVariableLength ? count * 4 + total_value_bytes : total_value_bytes;
  }

 private:
  int type_length_;
  std::vector<uint8_t> buffer_;
};

// Reads PLAIN BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values. The ByteArray views it hands out point
// into the `data` given to Reset and stay valid as long as those bytes do. Each BYTE_ARRAY length
// is checked against the bytes that remain.
template <>
class PlainDecoder<ByteArray> final : public Decoder<ByteArray> {
 public:
  // kVariableLength for BYTE_ARRAY, the column's type length for FIXED_LEN_BYTE_ARRAY.
  explicit PlainDecoder(int type_length = kVariableLength) : type_length_(type_length) {}

  int type_length() const { return type_length_; }

  // InvalidArgument if num_values is negative, or for FIXED_LEN_BYTE_ARRAY if the type length is
  // not positive; DataLoss if `data` cannot even hold num_values length prefixes (BYTE_ARRAY) or is
  // shorter than num_values * type_length bytes (FIXED_LEN_BYTE_ARRAY).
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  // Decodes exactly out.size() values as views into the input. InvalidArgument if more than
  // values_left(); DataLoss if a BYTE_ARRAY length prefix or value runs past the end of the data
  // (the decoder is then left positioned at the bad value and `out` is partly written).
  absl::Status Decode(absl::Span<ByteArray> out) override;

  // FIXED_LEN_BYTE_ARRAY only: copies out.size() / type_length values to `out` as contiguous
  // bytes. InvalidArgument for BYTE_ARRAY, or if out.size() is not a multiple of type_length or
  // holds more than values_left() values.
  absl::Status DecodeBytes(absl::Span<uint8_t> out);

  // BYTE_ARRAY only, Arrow-style decode: appends up to `count` values' bytes to `data` and, for
  // each value, its end offset to `offsets` (if `offsets` is empty a leading 0 is pushed first;
  // otherwise its last entry must equal data->size(), else InvalidArgument). The int32 offsets
  // cannot describe more than `max_data_bytes` (at most 2^31 - 1) bytes, so decoding stops before
  // the first value that would take data->size() past it: the return value is how many values
  // were appended, smaller than `count` only in that case; the decoder stays positioned at that
  // value so the caller can start new buffers and continue. InvalidArgument for
  // FIXED_LEN_BYTE_ARRAY, if count is negative or more than values_left(), or max_data_bytes is
  // outside 0..2^31 - 1; DataLoss as for Decode.
  absl::StatusOr<int64_t> DecodeToOffsets(
      int64_t count, std::vector<int32_t>* offsets, std::vector<uint8_t>* data,
      int64_t max_data_bytes = std::numeric_limits<int32_t>::max());

  // Decodes exactly `count` values by copying them, for a reader that owns its values (an Arrow
  // array's data buffer): value i's length goes to lengths[i], and the values' bytes, one after
  // another, to the memory `reserve(total)` returns, `total` being the sum of the lengths.
  // `reserve` is called once, after every value was found within the data, and not when count is
  // 0 or on an error; it must return room for `total` bytes. FIXED_LEN_BYTE_ARRAY values, stored
  // back to back, are copied in one move.
  // @return OK; InvalidArgument if count is negative or more than values_left(); DataLoss if a
  // BYTE_ARRAY length prefix or value runs past the end of the data (nothing is consumed then).
  absl::Status DecodeCopies(int64_t count, int32_t* lengths,
                            absl::FunctionRef<uint8_t*(size_t)> reserve);

  // Moves past `count` values (checking BYTE_ARRAY lengths). Errors as for Decode.
  absl::Status Skip(int64_t count) override;

 private:
  int type_length_;
  const uint8_t* position_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t values_left_ = 0;
};

extern template class PlainEncoder<int32_t>;
extern template class PlainEncoder<int64_t>;
extern template class PlainEncoder<Int96>;
extern template class PlainEncoder<float>;
extern template class PlainEncoder<double>;
extern template class PlainDecoder<int32_t>;
extern template class PlainDecoder<int64_t>;
extern template class PlainDecoder<Int96>;
extern template class PlainDecoder<float>;
extern template class PlainDecoder<double>;

}  // namespace pqpage

#endif  // PQPAGE_PLAIN_H_
