// GroupVarInt for INT32 and INT64, from an old draft of the Parquet encodings (seed 003).
//
// NOT PART OF THE PARQUET STANDARD. The format has no Encoding enum value for it and pqpage never
// writes it into a Parquet file; it is offered as a standalone integer codec only.
//
// Layout, 32-bit: groups of 4 values. Each group is one header byte holding 2 bits per value,
// (byte length - 1), the FIRST value in the MOST significant bits, followed by the 4 values in
// little-endian order, each in its byte length (1..4). The seed's example: header 0b00101101 means
// lengths 1, 3, 4, 2, so the group takes 1 + 1 + 3 + 4 + 2 = 11 bytes.
//
// Layout, 64-bit: groups of 5 values. The header is 2 bytes, read as a 16-bit little-endian word
// holding 5 fields of 3 bits, (byte length - 1), lengths 1..8. The seed fixes neither the field
// order nor the unused bit; by analogy with the 32-bit header pqpage puts the FIRST value in the
// MOST significant used bits: value j's field is bits [12 - 3j, 15 - 3j) (value 0 in bits 12..14,
// value 4 in bits 0..2) and bit 15, the unused msb, is 0 (the decoder rejects a header with it
// set). Example: lengths 1, 2, 3, 4, 8 give the word 0b0'000'001'010'011'111 = 0x029F, bytes 9F 02.
//
// Every value takes at least one byte (0 is written as one 0x00 byte); values are treated as
// unsigned, so a negative value takes all 4 / 8 bytes. A last, incomplete group is padded with
// zero values (the seed: 1,2,3,4,5 is written as 1,2,3,4,5,0,0,0); the stream does not record
// the value count, so the decoder is told it.
//
// The codecs implement pqpage/codec.h's Encoder<T> and Decoder<T>, but MakeEncoder / MakeDecoder
// never make them: there is no Encoding for them to be asked by.
#ifndef PQPAGE_GROUP_VAR_INT_H_
#define PQPAGE_GROUP_VAR_INT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"

namespace pqpage {

// Instantiated for T = int32_t (groups of 4) and int64_t (groups of 5).
template <typename T>
class GroupVarIntEncoder final : public Encoder<T> {
 public:
  static constexpr int kGroupSize = sizeof(T) == 4 ? 4 : 5;
  static constexpr int kHeaderBytes = sizeof(T) == 4 ? 1 : 2;

  GroupVarIntEncoder() = default;

  // Appends values; whole groups are written at once, the rest wait for more values or Finish.
  // Never fails.
  absl::Status Put(absl::Span<const T> values) override;

  // Bytes the stream would have if finished now (exact, counting the padded last group).
  size_t EstimatedSize() const override;

  // Appends the stream (the last group padded with zeros) to `out` and resets the encoder.
  void FinishInto(std::vector<uint8_t>* out) override;

  // Worst-case size of `count` values: every group at full width.
  static size_t MaxEncodedSize(size_t count) {
    return (count + kGroupSize - 1) / kGroupSize * (kHeaderBytes + kGroupSize * sizeof(T));
  }

 private:
  std::vector<uint8_t> buffer_;
  T pending_[kGroupSize] = {};
  int pending_count_ = 0;
};

// Reads a GroupVarInt stream. Keeps a view of the input, which must outlive the decoder's use. It
// never reads outside the input: whole-word loads are used only while a maximal group's bytes
// remain, and the last groups are decoded from a zero-padded copy.
template <typename T>
class GroupVarIntDecoder final : public Decoder<T> {
 public:
  static constexpr int kGroupSize = GroupVarIntEncoder<T>::kGroupSize;

  GroupVarIntDecoder() = default;

  // Starts a stream of which the caller will read `num_values` values. InvalidArgument if
  // num_values is negative; DataLoss if `data` is shorter than the smallest possible encoding of
  // ceil(num_values / group size) groups. Bytes after the last needed group are ignored.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  // Decodes exactly out.size() values. InvalidArgument if more than values_left(); DataLoss if a
  // group runs past the end of the data or (64-bit) its header's unused bit is set; after an error
  // the decoder's position is unspecified and it must be Reset before further use.
  absl::Status Decode(absl::Span<T> out) override;

  // Moves past `count` values, reading only group headers where it can. Errors as for Decode.
  absl::Status Skip(int64_t count) override;

 private:
  // The next group's header, checked to be present and to leave its unused bits clear.
  absl::StatusOr<uint32_t> ReadCheckedHeader() const;
  absl::Status DecodeGroup(T* out);
  absl::Status SkipGroup();

  const uint8_t* position_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t values_left_ = 0;
  T group_[kGroupSize] = {};     // the current partly consumed group
  int group_next_ = kGroupSize;  // index of its next value; kGroupSize when none is buffered
};

extern template class GroupVarIntEncoder<int32_t>;
extern template class GroupVarIntEncoder<int64_t>;
extern template class GroupVarIntDecoder<int32_t>;
extern template class GroupVarIntDecoder<int64_t>;

}  // namespace pqpage

#endif  // PQPAGE_GROUP_VAR_INT_H_
