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
// ByteStreamSplitEncoder<T> / ByteStreamSplitDecoder<T> are one implementation parameterised by
// the value width K, instantiated for T = float, double, int32_t, int64_t (K = sizeof(T)) and
// ByteArray for FIXED_LEN_BYTE_ARRAY (K = the type_length given to the constructor). They
// implement pqpage/codec.h's Encoder<T> and Decoder<T>. Widths 4 and 8 use AVX2 transposes when
// the CPU has them (chosen at run time); other widths use a portable loop.
#ifndef PQPAGE_BYTE_STREAM_SPLIT_H_
#define PQPAGE_BYTE_STREAM_SPLIT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"
#include "pqpage/types.h"

namespace pqpage {

// Scatters each value's bytes to its K streams as it is put, into K regions of a buffer kept from
// page to page; Finish appends the regions' filled parts, one after another, to the page.
template <typename T>
class ByteStreamSplitEncoder final : public Encoder<T> {
 public:
  ByteStreamSplitEncoder() requires(!std::is_same_v<T, ByteArray>) : width_(sizeof(T)) {}
  // FIXED_LEN_BYTE_ARRAY: K is the column's type length (any positive width; Put and PutBytes
  // fail otherwise).
  explicit ByteStreamSplitEncoder(int type_length) requires(std::is_same_v<T, ByteArray>)
      : width_(type_length) {}

  // K, the bytes per value.
  int type_length() const { return width_; }

  // Appends values. Numbers never fail; for FIXED_LEN_BYTE_ARRAY, InvalidArgument if type_length
  // is not positive or a value's size differs from it (nothing of that call is appended then).
  absl::Status Put(absl::Span<const T> values) override;

  // Appends values given as contiguous bytes, K bytes each in PLAIN order (little-endian numbers).
  // InvalidArgument if K is not positive or bytes.size() is not a multiple of it.
  absl::Status PutBytes(absl::Span<const uint8_t> bytes);

  // Bytes the page holds now (exact: K * N).
  size_t EstimatedSize() const override {
    return width_ > 0 ? count_ * static_cast<size_t>(width_) : 0;
  }

  // Appends the K streams to `out` and resets the encoder for the next page.
  void FinishInto(std::vector<uint8_t>* out) override;

  // Exact encoded size of `count` values.
  size_t MaxEncodedSize(size_t count) const {
    return width_ > 0 ? count * static_cast<size_t>(width_) : 0;
  }

 private:
  // Scatters `count` values of K bytes, in PLAIN order, behind the ones put before.
  void Scatter(const uint8_t* values, size_t count);

  int width_;
  // Stream k of the values put so far is streams_[k * room_, k * room_ + count_).
  std::vector<uint8_t> streams_;
  size_t room_ = 0;               // values each region holds
  size_t count_ = 0;              // values put since the last Finish
  std::vector<uint8_t> checked_;  // FIXED_LEN_BYTE_ARRAY values gathered by Put
};

// Reads a BYTE_STREAM_SPLIT page, from its start or continuing where the last call stopped. Keeps
// a view of the input, which must outlive the decoder's use. A FIXED_LEN_BYTE_ARRAY value's bytes
// are scattered over K streams, so Decode gathers them into a decoder-owned buffer (sized for the
// page's num_values at the first Decode, so bounded by the page's bytes) and hands out views into
// it, valid until the next Reset.
template <typename T>
class ByteStreamSplitDecoder final : public Decoder<T> {
 public:
  ByteStreamSplitDecoder() requires(!std::is_same_v<T, ByteArray>) : width_(sizeof(T)) {}
  // FIXED_LEN_BYTE_ARRAY: K is the column's type length (Reset fails unless it is positive).
  explicit ByteStreamSplitDecoder(int type_length) requires(std::is_same_v<T, ByteArray>)
      : width_(type_length) {}

  int type_length() const { return width_; }

  // Starts a page whose value bytes are `data` (N = data.size() / K values). InvalidArgument if
  // num_values is negative or K is not positive; DataLoss if data.size() is not a multiple of K or
  // N < num_values.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  // N, the number of values the page's streams hold.
  int64_t stream_length() const { return stream_length_; }

  // Decodes exactly out.size() values. InvalidArgument if more than values_left().
  absl::Status Decode(absl::Span<T> out) override;

  // Writes out.size() / K values to `out`, contiguous, K bytes each in PLAIN order.
  // InvalidArgument if out.size() is not a multiple of K or holds more than values_left() values.
  absl::Status DecodeBytes(absl::Span<uint8_t> out);

  // Moves past `count` values. InvalidArgument if count is negative or more than values_left().
  absl::Status Skip(int64_t count) override;

 private:
  int width_;
  const uint8_t* data_ = nullptr;
  int64_t stream_length_ = 0;
  int64_t position_ = 0;
  int64_t values_left_ = 0;
  // FIXED_LEN_BYTE_ARRAY: the page's values gathered so far, value i at i * K.
  std::unique_ptr<uint8_t[]> gathered_;
  size_t gathered_capacity_ = 0;
  int64_t page_values_ = 0;  // num_values of the page: what gathered_ is sized for
};

extern template class ByteStreamSplitEncoder<float>;
extern template class ByteStreamSplitEncoder<double>;
extern template class ByteStreamSplitEncoder<int32_t>;
extern template class ByteStreamSplitEncoder<int64_t>;
extern template class ByteStreamSplitEncoder<ByteArray>;
extern template class ByteStreamSplitDecoder<float>;
extern template class ByteStreamSplitDecoder<double>;
extern template class ByteStreamSplitDecoder<int32_t>;
extern template class ByteStreamSplitDecoder<int64_t>;
extern template class ByteStreamSplitDecoder<ByteArray>;

}  // namespace pqpage

#endif  // PQPAGE_BYTE_STREAM_SPLIT_H_
