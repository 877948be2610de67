// The BYTE_STREAM_SPLIT encoding (Parquet encoding BYTE_STREAM_SPLIT = 9) for FLOAT, DOUBLE, INT32,
// INT64 and FIXED_LEN_BYTE_ARRAY of any type length K. N values of K bytes become K streams of N
// bytes: stream k holds byte k of every value, and the streams are concatenated in order. There is
// no header and no padding: the page's value bytes are exactly K * N, so N = bytes / K.
//
// The encoding does not shrink data; it groups bytes of equal significance so a compressor that
// follows does better. Values are copied bit for bit (NaN payloads and -0.0 survive).
//
// With nulls only the values present are stored, so N can be smaller than the page's num_values
// (which counts nulls): decoders are given the number of values the caller will read, and N must
// be at least that.
//
// ByteStreamSplitEncoder<T> / ByteStreamSplitDecoder<T> are instantiated for T = float, double,
// int32_t and int64_t. Widths 4 and 8 use AVX2 transposes when the CPU has them (chosen at run
// time); other widths use a portable loop.
#ifndef PQPAGE_BYTE_STREAM_SPLIT_H_
#define PQPAGE_BYTE_STREAM_SPLIT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/types.h"

namespace pqpage {

// Buffers the values of a page and writes the K streams at Finish: stream k of N values cannot be
// written before N is known.
template <typename T>
class ByteStreamSplitEncoder {
 public:
  ByteStreamSplitEncoder() = default;

  // Appends values.
  void Put(absl::Span<const T> values);

  // Bytes the page holds now (exact: K * N).
  size_t EstimatedSize() const { return values_.size(); }

  // Appends the K streams to `out` and resets the encoder for the next page.
  void FinishInto(std::vector<uint8_t>* out);
  std::vector<uint8_t> Finish();

  // Exact encoded size of `count` values.
  static size_t MaxEncodedSize(size_t count) { return count * sizeof(T); }

 private:
  std::vector<uint8_t> values_;  // the values' bytes in PLAIN order, transposed at Finish
};

// BYTE_STREAM_SPLIT for FIXED_LEN_BYTE_ARRAY: K is the column's type length (any positive width).
class ByteStreamSplitFixedLenByteArrayEncoder {
 public:
  explicit ByteStreamSplitFixedLenByteArrayEncoder(int type_length) : type_length_(type_length) {}

  int type_length() const { return type_length_; }

  // Appends values. InvalidArgument if type_length is not positive or a value's size differs from
  // it; nothing of that call is appended then.
  absl::Status Put(absl::Span<const ByteArray> values);

  // Appends values given as contiguous bytes (type_length bytes each). InvalidArgument if
  // type_length is not positive or bytes.size() is not a multiple of it.
  absl::Status PutBytes(absl::Span<const uint8_t> bytes);

  size_t EstimatedSize() const { return values_.size(); }

  void FinishInto(std::vector<uint8_t>* out);
  std::vector<uint8_t> Finish();

  static size_t MaxEncodedSize(int type_length, size_t count) {
    return type_length > 0 ? count * static_cast<size_t>(type_length) : 0;
  }

 private:
  int type_length_;
  std::vector<uint8_t> values_;
};

// Reads a BYTE_STREAM_SPLIT page, from its start or continuing where the last call stopped. Keeps
// a view of the input, which must outlive the decoder's use.
template <typename T>
class ByteStreamSplitDecoder {
 public:
  ByteStreamSplitDecoder() = default;

  // Starts a page whose value bytes are `data` (N = data.size() / K values). InvalidArgument if
  // num_values is negative; DataLoss if data.size() is not a multiple of K or N < num_values.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values);

  int64_t values_left() const { return values_left_; }

  // N, the number of values the page's streams hold.
  int64_t stream_length() const { return stream_length_; }

  // Decodes exactly out.size() values. InvalidArgument if more than values_left().
  absl::Status Decode(absl::Span<T> out);

  // Moves past `count` values. InvalidArgument if count is negative or more than values_left().
  absl::Status Skip(int64_t count);

 private:
  const uint8_t* data_ = nullptr;
  int64_t stream_length_ = 0;
  int64_t position_ = 0;
  int64_t values_left_ = 0;
};

// Reads BYTE_STREAM_SPLIT FIXED_LEN_BYTE_ARRAY values. A value's bytes are scattered over K
// streams, so values are gathered into caller memory (no views into the input).
class ByteStreamSplitFixedLenByteArrayDecoder {
 public:
  explicit ByteStreamSplitFixedLenByteArrayDecoder(int type_length) : type_length_(type_length) {}

  int type_length() const { return type_length_; }

  // InvalidArgument if type_length is not positive or num_values is negative; DataLoss if
  // data.size() is not a multiple of type_length or holds fewer than num_values values.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values);

  int64_t values_left() const { return values_left_; }
  int64_t stream_length() const { return stream_length_; }

  // Writes out.size() / type_length values to `out`, contiguous, type_length bytes each.
  // InvalidArgument if out.size() is not a multiple of type_length or holds more than values_left()
  // values.
  absl::Status DecodeBytes(absl::Span<uint8_t> out);

  absl::Status Skip(int64_t count);

 private:
  int type_length_;
  const uint8_t* data_ = nullptr;
  int64_t stream_length_ = 0;
  int64_t position_ = 0;
  int64_t values_left_ = 0;
};

extern template class ByteStreamSplitEncoder<float>;
extern template class ByteStreamSplitEncoder<double>;
extern template class ByteStreamSplitEncoder<int32_t>;
extern template class ByteStreamSplitEncoder<int64_t>;
extern template class ByteStreamSplitDecoder<float>;
extern template class ByteStreamSplitDecoder<double>;
extern template class ByteStreamSplitDecoder<int32_t>;
extern template class ByteStreamSplitDecoder<int64_t>;

}  // namespace pqpage

#endif  // PQPAGE_BYTE_STREAM_SPLIT_H_
