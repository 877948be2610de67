// DELTA_BINARY_PACKED decoder. Work happens miniblock by miniblock: the width is validated and
// dispatched once per miniblock, the packed deltas are unpacked straight into the caller's buffer
// (or an L1-resident scratch when the caller asked for fewer values than a kernel call yields), and
// one fused pass adds the min delta and runs the prefix sum.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "bitpack/bit_packing.h"
#include "codec/value_request.h"
#include "common/byte_reader.h"
#include "common/cpu_features.h"
#include "encodings/delta_internal.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/status_macros.h"

namespace pqpage {

namespace internal {

// Kept as plain loops: the fused add + running sum is the whole cost after unpacking.
uint32_t DeltaPrefixSum32Scalar(uint32_t* values, size_t count, uint32_t min_delta, uint32_t last) {
  for (size_t i = 0; i < count; ++i) {
    last += values[i] + min_delta;
    values[i] = last;
  }
  return last;
}

uint64_t DeltaPrefixSum64Scalar(uint64_t* values, size_t count, uint64_t min_delta, uint64_t last) {
  for (size_t i = 0; i < count; ++i) {
    last += values[i] + min_delta;
    values[i] = last;
  }
  return last;
}

DeltaPrefixSum32Fn DeltaPrefixSum32() {
  static const DeltaPrefixSum32Fn chosen =
      UseAvx2Twins() ? DeltaPrefixSum32Avx2 : DeltaPrefixSum32Scalar;
  return chosen;
}

DeltaPrefixSum64Fn DeltaPrefixSum64() {
  static const DeltaPrefixSum64Fn chosen =
      UseAvx2Twins() ? DeltaPrefixSum64Avx2 : DeltaPrefixSum64Scalar;
  return chosen;
}

}  // namespace internal

namespace {

constexpr const char* TypeName(size_t size) { return size == 4 ? "INT32" : "INT64"; }

absl::Status HeaderError(const std::string& what) {
  return absl::DataLossError("DELTA_BINARY_PACKED: " + what);
}

}  // namespace

namespace internal {

// The whole decoder: DeltaBinaryPackedDecoder<T> forwards each call to it.
template <typename T>
class DeltaBinaryPackedState {
 public:
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values);
  absl::Status ResetWholeStream(absl::Span<const uint8_t> data);
  absl::Status Decode(absl::Span<T> out);
  absl::Status Skip(int64_t count);
  absl::StatusOr<size_t> SkipToStreamEnd();

  int64_t values_left() const { return values_left_; }
  int64_t header_value_count() const { return header_count_; }
  size_t bytes_consumed() const { return static_cast<size_t>(position_ - begin_); }

 private:
  using Unsigned = std::make_unsigned_t<T>;
  static constexpr int64_t kScratchValues = 512;

  // Enters the next miniblock holding values (reading a block header first when one ends), joined
  // with the block's following miniblocks of the same width.
  absl::Status StartMiniblock();
  // Reads the next block's min delta and widths when that needs no error handling; false when
  // the checked path must do it.
  bool ReadBlockHeaderFast();
  // Unpacks the next `count` (multiple of 8) values of the current miniblock run into `out` as
  // final values (min delta added, prefix-summed).
  void DecodePiece(Unsigned* out, int64_t count);

  const uint8_t* begin_ = nullptr;
  const uint8_t* position_ = nullptr;
  const uint8_t* end_ = nullptr;

  int64_t values_per_miniblock_ = 0;
  int64_t miniblocks_per_block_ = 0;
  int64_t header_count_ = 0;
  int64_t values_left_ = 0;  // values the caller may still read
  int64_t deltas_left_ = 0;  // deltas in the stream's miniblocks not yet started
  bool first_value_pending_ = false;
  Unsigned last_value_ = 0;

  // Current block.
  Unsigned min_delta_ = 0;
  const uint8_t* block_widths_ = nullptr;
  int64_t next_miniblock_ = 0;  // index in the block of the next miniblock to start
  // Current run of equal-width miniblocks of one block (they form one bit stream): packed bytes
  // not yet unpacked, their width, and packed values left (padding included).
  const uint8_t* miniblock_data_ = nullptr;
  int miniblock_width_ = 0;
  // The kernels for this width and CPU, looked up once per miniblock run and page.
  void (*unpack_)(const uint8_t* in, Unsigned* out, size_t count) = nullptr;
  Unsigned (*prefix_sum_)(Unsigned* values, size_t count, Unsigned min_delta,
                          Unsigned last) = nullptr;
  int64_t miniblock_left_ = 0;

  // Values unpacked but not yet handed out (when the caller asked for fewer than a piece).
  Unsigned scratch_[kScratchValues];
  int64_t scratch_begin_ = 0;
  int64_t scratch_end_ = 0;
};

template <typename T>
absl::Status DeltaBinaryPackedState<T>::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  begin_ = position_ = data.data();
  end_ = data.data() + data.size();
  values_left_ = deltas_left_ = header_count_ = 0;
  first_value_pending_ = false;
  block_widths_ = nullptr;
  next_miniblock_ = miniblocks_per_block_ = 0;
  miniblock_left_ = 0;
  scratch_begin_ = scratch_end_ = 0;
  if (num_values < 0) {
    return absl::InvalidArgumentError("DELTA_BINARY_PACKED: negative value count " +
                                      std::to_string(num_values));
  }
  internal::ByteReader reader(data);
  PQPAGE_ASSIGN_OR_RETURN(const uint32_t block_size,
                          reader.ReadUleb32("DELTA_BINARY_PACKED block size"));
  if (block_size == 0 || block_size % internal::kDeltaBlockSizeMultiple != 0) {
    return HeaderError("block size " + std::to_string(block_size) +
                       " is not a positive multiple of 128");
  }
  PQPAGE_ASSIGN_OR_RETURN(const uint32_t miniblocks,
                          reader.ReadUleb32("DELTA_BINARY_PACKED miniblock count"));
  if (miniblocks == 0 || block_size % miniblocks != 0 ||
      (block_size / miniblocks) % internal::kDeltaMiniblockMultiple != 0) {
    return HeaderError(std::to_string(miniblocks) + " miniblocks do not split a block of " +
                       std::to_string(block_size) + " values into multiples of 32");
  }
  PQPAGE_ASSIGN_OR_RETURN(const uint64_t total,
                          reader.ReadUleb64("DELTA_BINARY_PACKED total value count"));
  if (total > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return HeaderError("total value count " + std::to_string(total) + " is out of range");
  }
  if (total < static_cast<uint64_t>(num_values)) {
    return HeaderError("header holds " + std::to_string(total) + " values, " +
                       std::to_string(num_values) + " expected");
  }
  PQPAGE_ASSIGN_OR_RETURN(const int64_t first,
                          reader.ReadZigZag64("DELTA_BINARY_PACKED first value"));
  position_ = reader.position();
  values_per_miniblock_ = block_size / miniblocks;
  miniblocks_per_block_ = miniblocks;
  next_miniblock_ = miniblocks_per_block_;  // the first miniblock needs a block header first
  header_count_ = static_cast<int64_t>(total);
  values_left_ = num_values;
  deltas_left_ = header_count_ > 0 ? header_count_ - 1 : 0;
  first_value_pending_ = header_count_ > 0;
  last_value_ = static_cast<Unsigned>(first);
  if constexpr (sizeof(T) == 4) {
    prefix_sum_ = internal::DeltaPrefixSum32();
  } else {
    prefix_sum_ = internal::DeltaPrefixSum64();
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status DeltaBinaryPackedState<T>::ResetWholeStream(absl::Span<const uint8_t> data) {
  PQPAGE_RETURN_IF_ERROR(Reset(data, 0));
  values_left_ = header_count_;
  return absl::OkStatus();
}

template <typename T>
bool DeltaBinaryPackedState<T>::ReadBlockHeaderFast() {
  // The common case, with no status plumbing: the min delta fits 9 varint bytes and the bytes
  // for it and the widths are all there. Anything else takes the checked path.
  const uint8_t* p = position_;
  if (end_ - p < 9 + miniblocks_per_block_) return false;
  uint64_t zigzag = 0;
  for (int shift = 0; shift < 63; shift += 7) {
    const uint8_t byte = *p++;
    zigzag |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      min_delta_ = static_cast<Unsigned>(internal::ZigZagDecode(zigzag));
      block_widths_ = p;
      position_ = p + miniblocks_per_block_;
      next_miniblock_ = 0;
      return true;
    }
  }
  return false;
}

template <typename T>
absl::Status DeltaBinaryPackedState<T>::StartMiniblock() {
  if (deltas_left_ == 0) {
    return HeaderError("read past the last value of the stream");
  }
  if (next_miniblock_ == miniblocks_per_block_ && !ReadBlockHeaderFast()) {
    internal::ByteReader reader(position_, end_);
    PQPAGE_ASSIGN_OR_RETURN(const int64_t min_delta,
                            reader.ReadZigZag64("DELTA_BINARY_PACKED min delta"));
    PQPAGE_ASSIGN_OR_RETURN(block_widths_,
                            reader.ReadBytes(static_cast<uint64_t>(miniblocks_per_block_),
                                             "DELTA_BINARY_PACKED miniblock bit widths"));
    position_ = reader.position();
    min_delta_ = static_cast<Unsigned>(min_delta);
    next_miniblock_ = 0;
  }
  const int width = block_widths_[next_miniblock_];
  // Checked before the width indexes the kernel table. One bit more than the type is legal
  // (PARQUET-2435: DuckDB's V2 writer computes INT32 deltas in 64 bits); it unpacks through a
  // wider lane and wraps, as all delta arithmetic does.
  constexpr int kTypeBits = static_cast<int>(sizeof(T) * 8);
  if (width > kTypeBits + 1) {
    return HeaderError("miniblock bit width " + std::to_string(width) + " exceeds " +
                       std::to_string(kTypeBits + 1) + " for " + TypeName(sizeof(T)));
  }
  const uint64_t body_bytes = static_cast<uint64_t>(values_per_miniblock_) * width / 8;
  if (body_bytes > static_cast<uint64_t>(end_ - position_)) {
    return HeaderError("truncated miniblock: needs " + std::to_string(body_bytes) + " bytes, " +
                       std::to_string(end_ - position_) + " left");
  }
  ++next_miniblock_;
  miniblock_data_ = position_;
  miniblock_width_ = width;
  if (width > kTypeBits) [[unlikely]] {
    if constexpr (sizeof(T) == 4) {
      unpack_ = internal::UnpackWidth33Low32;
    } else {
      unpack_ = internal::UnpackWidth65Low64;
    }
  } else if constexpr (sizeof(T) == 4) {
    unpack_ = internal::BitPacking().unpack32[width];
  } else {
    unpack_ = internal::BitPacking().unpack64[width];
  }
  miniblock_left_ = values_per_miniblock_;
  position_ += body_bytes;
  deltas_left_ -= std::min(deltas_left_, values_per_miniblock_);
  // Following miniblocks of the block with the same width continue the same bit stream (each body
  // is a whole number of bytes) under the same min delta, so they join this one: longer kernel
  // calls, fewer dispatches. Only miniblocks holding values are joined, as only they have bodies.
  while (deltas_left_ > 0 && next_miniblock_ < miniblocks_per_block_ &&
         block_widths_[next_miniblock_] == width &&
         body_bytes <= static_cast<uint64_t>(end_ - position_)) {
    ++next_miniblock_;
    miniblock_left_ += values_per_miniblock_;
    position_ += body_bytes;
    deltas_left_ -= std::min(deltas_left_, values_per_miniblock_);
  }
  return absl::OkStatus();
}

template <typename T>
void DeltaBinaryPackedState<T>::DecodePiece(Unsigned* out, int64_t count) {
  const size_t n = static_cast<size_t>(count);
  if (miniblock_width_ == 0) {
    // Constant deltas: value i is last + (i + 1) * min, which vectorizes.
    const Unsigned last = last_value_;
    const Unsigned min_delta = min_delta_;
    for (size_t i = 0; i < n; ++i) out[i] = last + static_cast<Unsigned>(i + 1) * min_delta;
    last_value_ = out[n - 1];
  } else {
    unpack_(miniblock_data_, out, n);
    last_value_ = prefix_sum_(out, n, min_delta_, last_value_);
  }
  miniblock_data_ += n * static_cast<size_t>(miniblock_width_) / 8;
  miniblock_left_ -= count;
}

template <typename T>
absl::Status DeltaBinaryPackedState<T>::Decode(absl::Span<T> out) {
  const int64_t n = static_cast<int64_t>(out.size());
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("DELTA_BINARY_PACKED", n, values_left_));
  // Signed and unsigned variants of one type may alias.
  Unsigned* dest = reinterpret_cast<Unsigned*>(out.data());
  int64_t done = 0;
  if (n > 0 && first_value_pending_) {
    dest[0] = last_value_;
    first_value_pending_ = false;
    done = 1;
  }
  while (done < n) {
    if (scratch_begin_ < scratch_end_) {
      const int64_t take = std::min(n - done, scratch_end_ - scratch_begin_);
      std::memcpy(dest + done, scratch_ + scratch_begin_, static_cast<size_t>(take) * sizeof(T));
      scratch_begin_ += take;
      done += take;
      continue;
    }
    if (miniblock_left_ == 0) PQPAGE_RETURN_IF_ERROR(StartMiniblock());
    const int64_t wanted = n - done;
    if (wanted >= internal::kValuesPerGroup) {
      // Every value unpacked here is a real one: wanted <= values_left_ <= deltas in the stream.
      const int64_t count =
          std::min(wanted & ~int64_t{internal::kValuesPerGroup - 1}, miniblock_left_);
      DecodePiece(dest + done, count);
      done += count;
    } else {
      const int64_t count = std::min(kScratchValues, miniblock_left_);
      DecodePiece(scratch_, count);
      scratch_begin_ = 0;
      scratch_end_ = count;
    }
  }
  values_left_ -= n;
  return absl::OkStatus();
}

template <typename T>
absl::Status DeltaBinaryPackedState<T>::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("DELTA_BINARY_PACKED", count, values_left_));
  T buffer[kScratchValues];
  while (count > 0) {
    const int64_t take = std::min(count, kScratchValues);
    PQPAGE_RETURN_IF_ERROR(Decode(absl::Span<T>(buffer, static_cast<size_t>(take))));
    count -= take;
  }
  return absl::OkStatus();
}

template <typename T>
absl::StatusOr<size_t> DeltaBinaryPackedState<T>::SkipToStreamEnd() {
  // The current miniblock's body is already behind position_; only unstarted ones remain.
  while (deltas_left_ > 0) PQPAGE_RETURN_IF_ERROR(StartMiniblock());
  miniblock_left_ = 0;
  scratch_begin_ = scratch_end_ = 0;
  first_value_pending_ = false;
  values_left_ = 0;
  return bytes_consumed();
}

}  // namespace internal

template <typename T>
DeltaBinaryPackedDecoder<T>::DeltaBinaryPackedDecoder()
    : state_(std::make_unique<internal::DeltaBinaryPackedState<T>>()) {}
template <typename T>
DeltaBinaryPackedDecoder<T>::~DeltaBinaryPackedDecoder() = default;
template <typename T>
DeltaBinaryPackedDecoder<T>::DeltaBinaryPackedDecoder(DeltaBinaryPackedDecoder&&) noexcept =
    default;
template <typename T>
DeltaBinaryPackedDecoder<T>& DeltaBinaryPackedDecoder<T>::operator=(
    DeltaBinaryPackedDecoder&&) noexcept = default;

template <typename T>
absl::Status DeltaBinaryPackedDecoder<T>::Reset(absl::Span<const uint8_t> data,
                                                int64_t num_values) {
  return state_->Reset(data, num_values);
}

template <typename T>
absl::Status DeltaBinaryPackedDecoder<T>::ResetWholeStream(absl::Span<const uint8_t> data) {
  return state_->ResetWholeStream(data);
}

template <typename T>
int64_t DeltaBinaryPackedDecoder<T>::values_left() const {
  return state_->values_left();
}

template <typename T>
int64_t DeltaBinaryPackedDecoder<T>::header_value_count() const {
  return state_->header_value_count();
}

template <typename T>
absl::Status DeltaBinaryPackedDecoder<T>::Decode(absl::Span<T> out) {
  return state_->Decode(out);
}

template <typename T>
absl::Status DeltaBinaryPackedDecoder<T>::Skip(int64_t count) {
  return state_->Skip(count);
}

template <typename T>
absl::StatusOr<size_t> DeltaBinaryPackedDecoder<T>::SkipToStreamEnd() {
  return state_->SkipToStreamEnd();
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::bytes_consumed() const {
  return state_->bytes_consumed();
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

}  // namespace pqpage
