// DELTA_BINARY_PACKED (encoding 5) for INT32 and INT64: a header, then blocks of deltas stored as a
// frame of reference (the block's minimum delta) plus one bit-packed miniblock per slice of the
// block. The DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY codecs store their lengths with it.
//
// Stream layout (all varints ULEB128, signed ones zigzag):
//   <block size> <miniblocks per block> <total value count> <first value (zigzag)>
//   then per block: <min delta (zigzag)> <one width byte per miniblock> <miniblock bodies>
// A block size is a positive multiple of 128 and values per miniblock a multiple of 32. All delta
// arithmetic wraps in the unsigned type of the physical width, so any sequence round-trips.
//
// The codecs implement pqpage/codec.h's Encoder<T> and Decoder<T>.
#ifndef PQPAGE_DELTA_BINARY_PACKED_H_
#define PQPAGE_DELTA_BINARY_PACKED_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"

namespace pqpage {

namespace internal {
template <typename T>
class DeltaBinaryPackedState;
}  // namespace internal

// Streaming encoder. Put() keeps at most one block of pending deltas; every block that fills is
// packed into the page body at once, so memory is the packed page plus one block.
// Supported T: int32_t, int64_t.
template <typename T>
class DeltaBinaryPackedEncoder final : public Encoder<T> {
 public:
  static constexpr int64_t kDefaultBlockSize = 128;
  static constexpr int64_t kDefaultMiniblocksPerBlock = 4;

  // Blocks of 128 values in 4 miniblocks of 32 (the shape every reader expects).
  DeltaBinaryPackedEncoder();

  // Another legal shape: InvalidArgument unless block_size is a positive multiple of 128 and
  // block_size / miniblocks_per_block is a whole multiple of 32 (and block_size <= 2^20, to bound
  // the pending block).
  static absl::StatusOr<DeltaBinaryPackedEncoder> Make(int64_t block_size,
                                                       int64_t miniblocks_per_block);

  // Appends values. Never fails: every value of T is encodable.
  absl::Status Put(absl::Span<const T> values) override;

  int64_t num_values() const { return num_values_; }

  // Bytes the page would take if finished now (exact for the finished blocks, an upper bound for
  // the pending one).
  size_t EstimatedSize() const override;

  // Appends the complete stream (header even for 0 values) to `out` and resets the encoder for
  // the next page.
  void FinishInto(std::vector<uint8_t>* out) override;

  // Worst-case size of `num_values` values in the default shape.
  static size_t MaxEncodedSize(int64_t num_values);

 private:
  using Unsigned = std::make_unsigned_t<T>;

  DeltaBinaryPackedEncoder(int64_t block_size, int64_t miniblocks_per_block);
  void FlushBlock();

  int64_t block_size_;
  int64_t miniblocks_per_block_;
  int64_t values_per_miniblock_;
  int64_t num_values_ = 0;
  Unsigned first_value_ = 0;
  Unsigned last_value_ = 0;
  std::vector<Unsigned> pending_deltas_;  // block_size_ slots, pending_count_ in use
  int64_t pending_count_ = 0;
  std::vector<uint8_t> body_;  // finished blocks
};

// Stateful per-page decoder. It reads any legal header (block sizes that are multiples of 128,
// miniblocks of any multiple of 32 values) and rejects illegal ones with DataLoss. Widths of
// miniblocks past the last value and padding bits are ignored, whatever they hold. The first value
// and min deltas wider than T wrap to T's width (arithmetic is modulo 2^bits anyway), and so do
// miniblocks one bit wider than T (width 33 for INT32, 65 for INT64), which writers that compute
// deltas in wider integers produce and PARQUET-2435 tells readers to accept.
// Supported T: int32_t, int64_t.
template <typename T>
class DeltaBinaryPackedDecoder final : public Decoder<T> {
 public:
  DeltaBinaryPackedDecoder();
  ~DeltaBinaryPackedDecoder() override;
  // A moved-from decoder may only be assigned to or destroyed.
  DeltaBinaryPackedDecoder(DeltaBinaryPackedDecoder&&) noexcept;
  DeltaBinaryPackedDecoder& operator=(DeltaBinaryPackedDecoder&&) noexcept;

  // Parses the header of the stream at the start of `data`. `num_values` is the number of values
  // the caller will read; the header's count must be >= num_values (extra values are ignored).
  // DataLoss: truncated or illegal header, header count < num_values. InvalidArgument:
  // num_values < 0. `data` must outlive the decoding.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  // Reset() for a caller that will read every value the header announces (num_values = header
  // count). The byte-array codecs use it to find where the stream ends.
  absl::Status ResetWholeStream(absl::Span<const uint8_t> data);

  int64_t values_left() const override;
  // The total value count written in the header.
  int64_t header_value_count() const;

  // Decodes exactly out.size() values. InvalidArgument if more than values_left(); DataLoss if the
  // bytes run out or a miniblock width exceeds 33 (INT32) / 65 (INT64). After a DataLoss the
  // decoder's position is unspecified: Reset() it before further use.
  absl::Status Decode(absl::Span<T> out) override;

  // Moves past `count` values (decoding them, since later values depend on them). Errors as Decode.
  absl::Status Skip(int64_t count) override;

  // Moves past every remaining value of the stream, including those past num_values, without
  // unpacking them, and returns the byte offset just after the stream (where data that follows it
  // starts). Afterwards values_left() is 0. DataLoss if the stream is truncated.
  absl::StatusOr<size_t> SkipToStreamEnd();

  // Bytes of `data` consumed so far. Once every value of the header has been decoded this is the
  // offset just after the stream: the last miniblock holding values is counted in full, unused
  // miniblocks of the last block have no body.
  size_t bytes_consumed() const;

 private:
  // Where the stream stands, the kernels chosen for the current miniblock and the scratch of
  // values unpacked ahead of the caller: behind a pointer, so that none of it is part of the
  // public layout. Each call goes through it once; the per-value loops run inside it.
  std::unique_ptr<internal::DeltaBinaryPackedState<T>> state_;
};

extern template class DeltaBinaryPackedEncoder<int32_t>;
extern template class DeltaBinaryPackedEncoder<int64_t>;
extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;

}  // namespace pqpage

#endif  // PQPAGE_DELTA_BINARY_PACKED_H_
