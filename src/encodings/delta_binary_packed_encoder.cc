// DELTA_BINARY_PACKED encoder. Values become deltas as they arrive; each full block is reduced to
// its minimum delta and bit-packed miniblock by miniblock through the shared kernel table, so the
// encoder never holds more than one block of unpacked values.
#include <algorithm>
#include <cstring>

#include "bitpack/bit_packing.h"
#include "common/byte_buffer.h"
#include "common/byte_reader.h"
#include "common/checked_math.h"
#include "encodings/delta_internal.h"
#include "pqpage/delta_binary_packed.h"

namespace pqpage {

using internal::AppendUleb128;
using internal::BitPacking;
using internal::BitWidthOf;
using internal::ZigZagEncode;

template <typename T>
DeltaBinaryPackedEncoder<T>::DeltaBinaryPackedEncoder()
    : DeltaBinaryPackedEncoder(kDefaultBlockSize, kDefaultMiniblocksPerBlock) {}

template <typename T>
DeltaBinaryPackedEncoder<T>::DeltaBinaryPackedEncoder(int64_t block_size,
                                                      int64_t miniblocks_per_block)
    : block_size_(block_size),
      miniblocks_per_block_(miniblocks_per_block),
      values_per_miniblock_(block_size / miniblocks_per_block),
      pending_deltas_(static_cast<size_t>(block_size)) {}

template <typename T>
absl::StatusOr<DeltaBinaryPackedEncoder<T>> DeltaBinaryPackedEncoder<T>::Make(
    int64_t block_size, int64_t miniblocks_per_block) {
  if (block_size <= 0 || block_size % internal::kDeltaBlockSizeMultiple != 0 ||
      block_size > internal::kDeltaMaxEncoderBlockSize) {
    return absl::InvalidArgumentError(
        "DELTA_BINARY_PACKED: block size must be a positive multiple of 128 up to 2^20, got " +
        std::to_string(block_size));
  }
  if (miniblocks_per_block <= 0 || block_size % miniblocks_per_block != 0 ||
      (block_size / miniblocks_per_block) % internal::kDeltaMiniblockMultiple != 0) {
    return absl::InvalidArgumentError(
        "DELTA_BINARY_PACKED: " + std::to_string(miniblocks_per_block) +
        " miniblocks do not split a block of " + std::to_string(block_size) +
        " into multiples of 32 values");
  }
  return DeltaBinaryPackedEncoder(block_size, miniblocks_per_block);
}

template <typename T>
absl::Status DeltaBinaryPackedEncoder<T>::Put(absl::Span<const T> values) {
  size_t i = 0;
  const size_t n = values.size();
  if (n == 0) return absl::OkStatus();
  if (num_values_ == 0) {
    first_value_ = last_value_ = static_cast<Unsigned>(values[0]);
    num_values_ = 1;
    i = 1;
  }
  while (i < n) {
    const size_t take = std::min<size_t>(n - i, static_cast<size_t>(block_size_ - pending_count_));
    Unsigned* deltas = pending_deltas_.data() + pending_count_;
    const T* in = values.data() + i;
    deltas[0] = static_cast<Unsigned>(in[0]) - last_value_;
    // Written against the input (not a running "previous") so the loop vectorizes.
    for (size_t j = 1; j < take; ++j) {
      deltas[j] = static_cast<Unsigned>(in[j]) - static_cast<Unsigned>(in[j - 1]);
    }
    last_value_ = static_cast<Unsigned>(in[take - 1]);
    pending_count_ += static_cast<int64_t>(take);
    num_values_ += static_cast<int64_t>(take);
    i += take;
    if (pending_count_ == block_size_) FlushBlock();
  }
  return absl::OkStatus();
}

template <typename T>
void DeltaBinaryPackedEncoder<T>::FlushBlock() {
  const int64_t count = pending_count_;
  if (count == 0) return;
  Unsigned* deltas = pending_deltas_.data();
  // The frame of reference is the signed minimum; subtracting it in unsigned arithmetic leaves
  // every delta as a non-negative offset that fits the physical width.
  // Four running minima: baseline x86-64 has no vector signed min for these widths, and one
  // accumulator would serialise on its compare-and-move chain.
  T mins[4] = {static_cast<T>(deltas[0]), static_cast<T>(deltas[0]), static_cast<T>(deltas[0]),
               static_cast<T>(deltas[0])};
  int64_t j = 0;
  for (; j + 4 <= count; j += 4) {
    for (int k = 0; k < 4; ++k) mins[k] = std::min(mins[k], static_cast<T>(deltas[j + k]));
  }
  for (; j < count; ++j) mins[0] = std::min(mins[0], static_cast<T>(deltas[j]));
  const T min_delta = std::min(std::min(mins[0], mins[1]), std::min(mins[2], mins[3]));
  const Unsigned min_unsigned = static_cast<Unsigned>(min_delta);
  for (int64_t i = 0; i < count; ++i) deltas[i] -= min_unsigned;

  const int64_t used_miniblocks = (count + values_per_miniblock_ - 1) / values_per_miniblock_;
  // Padding of the last used miniblock packs as zero bits.
  std::fill(deltas + count, deltas + used_miniblocks * values_per_miniblock_, Unsigned{0});

  AppendUleb128(body_, ZigZagEncode(static_cast<int64_t>(min_delta)));
  const size_t widths_at = body_.size();
  body_.resize(widths_at + static_cast<size_t>(miniblocks_per_block_), 0);  // unused widths: 0
  size_t packed_bytes = 0;
  for (int64_t m = 0; m < used_miniblocks; ++m) {
    const Unsigned* mini = deltas + m * values_per_miniblock_;
    Unsigned all_bits = 0;
    for (int64_t j = 0; j < values_per_miniblock_; ++j) all_bits |= mini[j];
    const int width = BitWidthOf(all_bits);
    body_[widths_at + static_cast<size_t>(m)] = static_cast<uint8_t>(width);
    packed_bytes += static_cast<size_t>(values_per_miniblock_) * width / 8;
  }
  size_t out_at = body_.size();
  body_.resize(out_at + packed_bytes);
  const auto& kernels = BitPacking();
  for (int64_t m = 0; m < used_miniblocks; ++m) {
    const int width = body_[widths_at + static_cast<size_t>(m)];
    const Unsigned* mini = deltas + m * values_per_miniblock_;
    if constexpr (sizeof(T) == 4) {
      kernels.pack32[width](mini, body_.data() + out_at,
                            static_cast<size_t>(values_per_miniblock_));
    } else {
      kernels.pack64[width](mini, body_.data() + out_at,
                            static_cast<size_t>(values_per_miniblock_));
    }
    out_at += static_cast<size_t>(values_per_miniblock_) * width / 8;
  }
  pending_count_ = 0;
}

template <typename T>
size_t DeltaBinaryPackedEncoder<T>::EstimatedSize() const {
  size_t pending = 0;
  if (pending_count_ > 0) {
    const int64_t used = (pending_count_ + values_per_miniblock_ - 1) / values_per_miniblock_;
    pending = 10 + static_cast<size_t>(miniblocks_per_block_) +
              static_cast<size_t>(used * values_per_miniblock_) * sizeof(T);
  }
  return internal::kDeltaMaxHeaderBytes + body_.size() + pending;
}

template <typename T>
void DeltaBinaryPackedEncoder<T>::FinishInto(std::vector<uint8_t>* out) {
  // Finish() into an empty buffer: one allocation for the header and the blocks.
  if (out->empty()) out->reserve(EstimatedSize());
  FlushBlock();
  AppendUleb128(*out, static_cast<uint64_t>(block_size_));
  AppendUleb128(*out, static_cast<uint64_t>(miniblocks_per_block_));
  AppendUleb128(*out, static_cast<uint64_t>(num_values_));
  AppendUleb128(*out, ZigZagEncode(static_cast<int64_t>(static_cast<T>(first_value_))));
  internal::AppendAndClear(&body_, out);
  num_values_ = 0;
  first_value_ = last_value_ = 0;
}

template <typename T>
size_t DeltaBinaryPackedEncoder<T>::MaxEncodedSize(int64_t num_values) {
  const size_t deltas = num_values > 1 ? static_cast<size_t>(num_values - 1) : 0;
  const size_t blocks = (deltas + kDefaultBlockSize - 1) / kDefaultBlockSize;
  const size_t per_block =
      10 + kDefaultMiniblocksPerBlock + static_cast<size_t>(kDefaultBlockSize) * sizeof(T);
  return internal::kDeltaMaxHeaderBytes + blocks * per_block;
}

template class DeltaBinaryPackedEncoder<int32_t>;
template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace pqpage
