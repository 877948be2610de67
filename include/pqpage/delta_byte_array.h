// DELTA_BYTE_ARRAY (encoding 7, "incremental encoding") for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY:
// each value is stored as the length of the prefix it shares with the previous value plus the rest
// (the suffix). Layout: prefix lengths as DELTA_BINARY_PACKED (INT32), then the suffixes as
// DELTA_LENGTH_BYTE_ARRAY. For FIXED_LEN_BYTE_ARRAY every length is still written. Both codecs
// take BYTE_ARRAY, or FIXED_LEN_BYTE_ARRAY when given a type_length >= 0 (pqpage/codec.h), and
// implement pqpage/codec.h's Encoder<ByteArray> and Decoder<ByteArray>.
#ifndef PQPAGE_DELTA_BYTE_ARRAY_H_
#define PQPAGE_DELTA_BYTE_ARRAY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/types.h"

namespace pqpage {

// The decoder's safety limit and legacy-writer switch (the encoder has no options).
struct DeltaByteArrayOptions {
  // The most bytes one page may decode to. Shared prefixes let a small page expand
  // quadratically (n values each repeating a long prefix), so Reset() refuses pages beyond this
  // with ResourceExhausted.
  int64_t max_decoded_bytes = int64_t{1} << 30;
  // Let a page's first prefix refer to the previous page's last value. parquet-mr
  // before 1.8.0 wrote pages that way (PARQUET-246); the format says state resets on every page,
  // so this is for files whose created_by names such a writer, never the default.
  bool carry_prefix_across_pages = false;
};

class DeltaByteArrayEncoder final : public Encoder<ByteArray> {
 public:
  // kVariableLength for BYTE_ARRAY, the column's type length for FIXED_LEN_BYTE_ARRAY.
  explicit DeltaByteArrayEncoder(int type_length = kVariableLength) : type_length_(type_length) {}

  int type_length() const { return type_length_; }

  // Appends values (their bytes are copied). InvalidArgument, with nothing of this call appended,
  // if a FIXED_LEN_BYTE_ARRAY value's length differs from type_length (or that is negative and not
  // kVariableLength), or a value is longer than 2^31 - 1 bytes.
  absl::Status Put(absl::Span<const ByteArray> values) override;

  int64_t num_values() const { return prefix_lengths_.num_values(); }
  size_t EstimatedSize() const override;

  // Appends the page to `out` and resets the encoder (the first value of a page has prefix 0).
  void FinishInto(std::vector<uint8_t>* out) override;

 private:
  int type_length_;
  DeltaBinaryPackedEncoder<int32_t> prefix_lengths_;
  DeltaBinaryPackedEncoder<int32_t> suffix_lengths_;
  std::vector<uint8_t> suffix_bytes_;
  std::vector<uint8_t> previous_;  // the last value put, to share its prefix across Put() calls
};

// Stateful per-page decoder. Reset() decodes and validates all lengths of the page (first prefix 0,
// each prefix <= the previous value's length, prefix and suffix counts equal, suffix bytes within
// the data, FIXED_LEN_BYTE_ARRAY lengths equal to type_length) and sizes one decoder-owned buffer
// for the whole page; values are built into it as they are decoded. The ByteArray views handed out
// point into that buffer and stay valid until the next Reset() (or the decoder's destruction).
// State never carries across pages.
class DeltaByteArrayDecoder final : public Decoder<ByteArray> {
 public:
  // kVariableLength for BYTE_ARRAY, the column's type length for FIXED_LEN_BYTE_ARRAY.
  explicit DeltaByteArrayDecoder(int type_length = kVariableLength,
                                 DeltaByteArrayOptions options = {})
      : type_length_(type_length), options_(options) {}

  int type_length() const { return type_length_; }

  // DataLoss: corrupt or truncated streams, header counts < num_values or disagreeing, a negative
  // or too-long prefix, suffix lengths past the data, a FIXED_LEN_BYTE_ARRAY length mismatch.
  // ResourceExhausted: the page would decode to more than options.max_decoded_bytes.
  // InvalidArgument: num_values < 0, or a negative type_length other than kVariableLength. `data`
  // must outlive the decoding of the page.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return static_cast<int64_t>(count_ - next_); }

  // Decodes exactly out.size() values; InvalidArgument if more than values_left().
  absl::Status Decode(absl::Span<ByteArray> out) override;
  // Moves past `count` values (they are still built, as later values share their bytes).
  absl::Status Skip(int64_t count) override;

 private:
  template <bool kEmit>
  void Build(ByteArray* out, size_t count);

  int type_length_;
  DeltaByteArrayOptions options_;
  DeltaBinaryPackedDecoder<int32_t> length_decoder_;  // reads both length streams of every page
  std::vector<int32_t> prefix_lengths_;
  std::vector<int32_t> suffix_lengths_;  // both hold the page's lengths in [0, count_)
  size_t count_ = 0;
  size_t next_ = 0;
  const uint8_t* suffixes_ = nullptr;      // the next suffix's first byte
  const uint8_t* suffixes_end_ = nullptr;  // end of the page's data
  const uint8_t* data_begin_ = nullptr;
  std::vector<uint8_t> carried_;       // carry_prefix_across_pages: the previous page's last value
  std::unique_ptr<uint8_t[]> buffer_;  // the page's values, back to back
  size_t buffer_capacity_ = 0;
  size_t built_ = 0;  // bytes of buffer_ in use
  uint32_t previous_length_ = 0;
};

}  // namespace pqpage

#endif  // PQPAGE_DELTA_BYTE_ARRAY_H_
