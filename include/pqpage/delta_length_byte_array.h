// DELTA_LENGTH_BYTE_ARRAY (encoding 6) for BYTE_ARRAY: every value's length, stored as one
// DELTA_BINARY_PACKED (INT32) stream, followed by all the values' bytes concatenated. The codecs
// implement pqpage/codec.h's Encoder<ByteArray> and Decoder<ByteArray>.
#ifndef PQPAGE_DELTA_LENGTH_BYTE_ARRAY_H_
#define PQPAGE_DELTA_LENGTH_BYTE_ARRAY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/types.h"

namespace pqpage {

// Streaming encoder: lengths go to a DELTA_BINARY_PACKED encoder as they arrive, bytes are appended
// to the page body.
class DeltaLengthByteArrayEncoder final : public Encoder<ByteArray> {
 public:
  DeltaLengthByteArrayEncoder() = default;

  // Appends values (the bytes are copied). InvalidArgument if a value is longer than 2^31 - 1
  // bytes (lengths are INT32); then nothing of this call is appended.
  absl::Status Put(absl::Span<const ByteArray> values) override;

  int64_t num_values() const { return lengths_.num_values(); }
  size_t EstimatedSize() const override { return lengths_.EstimatedSize() + bytes_.size(); }

  // Appends the page (length stream, then bytes) to `out` and resets the encoder.
  void FinishInto(std::vector<uint8_t>* out) override;

 private:
  DeltaBinaryPackedEncoder<int32_t> lengths_;
  std::vector<uint8_t> bytes_;
};

// Stateful per-page decoder. Values are ByteArray views into the `data` given to Reset(), valid as
// long as that buffer is. Reset() decodes and checks every length up front (each >= 0, their sum
// within the bytes after the length stream), keeping 4 bytes per value; a page with
// num_values == 0 may be empty.
class DeltaLengthByteArrayDecoder final : public Decoder<ByteArray> {
 public:
  DeltaLengthByteArrayDecoder() = default;

  // DataLoss: corrupt or truncated length stream, header count < num_values, a negative length,
  // lengths summing past the data. InvalidArgument: num_values < 0.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return static_cast<int64_t>(count_ - next_); }

  // Decodes exactly out.size() values; InvalidArgument if more than values_left().
  absl::Status Decode(absl::Span<ByteArray> out) override;
  // InvalidArgument if count < 0 or more than values_left().
  absl::Status Skip(int64_t count) override;

 private:
  DeltaBinaryPackedDecoder<int32_t> length_decoder_;  // reads the length stream of every page
  std::vector<int32_t> lengths_;  // the page's lengths in [0, count_); capacity kept across pages
  size_t count_ = 0;
  size_t next_ = 0;
  const uint8_t* bytes_ = nullptr;  // the next value's first byte
};

}  // namespace pqpage

#endif  // PQPAGE_DELTA_LENGTH_BYTE_ARRAY_H_
