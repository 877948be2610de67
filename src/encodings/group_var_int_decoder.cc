// GroupVarInt decoder (not a Parquet encoding; see the public header).
#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/byte_io.h"
#include "encodings/group_var_int_internal.h"
#include "pqpage/group_var_int.h"

namespace pqpage {
namespace {

template <typename T>
inline uint32_t ReadHeader(const uint8_t* in) {
  if constexpr (internal::GroupLayout<T>::kHeaderBytes == 1) {
    return in[0];
  } else {
    return internal::LoadLittleEndian<uint16_t>(in);
  }
}

template <typename T>
inline int FieldLength(uint32_t header, int j) {
  using Layout = internal::GroupLayout<T>;
  return static_cast<int>((header >> Layout::FieldShift(j)) & ((1u << Layout::kFieldBits) - 1)) + 1;
}

template <typename T>
inline size_t GroupLengthFromHeader(uint32_t header) {
  using Layout = internal::GroupLayout<T>;
  size_t length = Layout::kHeaderBytes;
  for (int j = 0; j < Layout::kGroupSize; ++j) length += FieldLength<T>(header, j);
  return length;
}

// Decodes the group at `in`, which must have kMaxGroupBytes readable bytes; returns its length.
template <typename T>
inline size_t ReadGroup(const uint8_t* in, uint32_t header, T* out) {
  using Layout = internal::GroupLayout<T>;
  using U = typename Layout::Unsigned;
  const uint8_t* cursor = in + Layout::kHeaderBytes;
  for (int j = 0; j < Layout::kGroupSize; ++j) {
    const int length = FieldLength<T>(header, j);
    // Shift the unwanted high bytes out in two steps so a full-width value needs no special case.
    const int drop_bits = 8 * (static_cast<int>(sizeof(U)) - length);
    const U word = internal::LoadLittleEndian<U>(cursor);
    out[j] = static_cast<T>(static_cast<U>(word << drop_bits) >> drop_bits);
    cursor += length;
  }
  return static_cast<size_t>(cursor - in);
}

absl::Status CheckAsk(int64_t count, int64_t left) {
  if (count < 0) {
    return absl::InvalidArgumentError(absl::StrCat("GroupVarInt: negative count ", count));
  }
  if (count > left) {
    return absl::InvalidArgumentError(
        absl::StrCat("GroupVarInt: asked for ", count, " values, only ", left, " left"));
  }
  return absl::OkStatus();
}

}  // namespace

template <typename T>
absl::Status GroupVarIntDecoder<T>::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  using Layout = internal::GroupLayout<T>;
  position_ = data.data();
  end_ = data.data() + data.size();
  values_left_ = 0;
  group_next_ = kGroupSize;
  if (num_values < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("GroupVarInt: negative value count ", num_values));
  }
  const uint64_t groups = (static_cast<uint64_t>(num_values) + kGroupSize - 1) / kGroupSize;
  constexpr uint64_t kMinGroupBytes = Layout::kHeaderBytes + Layout::kGroupSize;
  if (groups > data.size() / kMinGroupBytes) {
    return absl::DataLossError(absl::StrCat("GroupVarInt: ", data.size(), " bytes cannot hold ",
                                            num_values, " values (", groups, " groups)"));
  }
  values_left_ = num_values;
  return absl::OkStatus();
}

template <typename T>
absl::Status GroupVarIntDecoder<T>::DecodeGroup(T* out) {
  using Layout = internal::GroupLayout<T>;
  const size_t remaining = static_cast<size_t>(end_ - position_);
  if (remaining < static_cast<size_t>(Layout::kHeaderBytes)) {
    return absl::DataLossError("GroupVarInt: stream ends before a group header");
  }
  const uint32_t header = ReadHeader<T>(position_);
  if (header & Layout::kUnusedBits) {
    return absl::DataLossError(
        absl::StrCat("GroupVarInt: group header 0x", absl::Hex(header), " has its unused bit set"));
  }
  if (remaining >= static_cast<size_t>(Layout::kMaxGroupBytes)) {
    position_ += ReadGroup<T>(position_, header, out);
    return absl::OkStatus();
  }
  const size_t length = GroupLengthFromHeader<T>(header);
  if (length > remaining) {
    return absl::DataLossError(
        absl::StrCat("GroupVarInt: group of ", length, " bytes, only ", remaining, " left"));
  }
  uint8_t padded[Layout::kMaxGroupBytes] = {};
  std::memcpy(padded, position_, length);
  ReadGroup<T>(padded, header, out);
  position_ += length;
  return absl::OkStatus();
}

template <typename T>
absl::Status GroupVarIntDecoder<T>::SkipGroup() {
  using Layout = internal::GroupLayout<T>;
  const size_t remaining = static_cast<size_t>(end_ - position_);
  if (remaining < static_cast<size_t>(Layout::kHeaderBytes)) {
    return absl::DataLossError("GroupVarInt: stream ends before a group header");
  }
  const uint32_t header = ReadHeader<T>(position_);
  if (header & Layout::kUnusedBits) {
    return absl::DataLossError(
        absl::StrCat("GroupVarInt: group header 0x", absl::Hex(header), " has its unused bit set"));
  }
  const size_t length = GroupLengthFromHeader<T>(header);
  if (length > remaining) {
    return absl::DataLossError(
        absl::StrCat("GroupVarInt: group of ", length, " bytes, only ", remaining, " left"));
  }
  position_ += length;
  return absl::OkStatus();
}

template <typename T>
absl::Status GroupVarIntDecoder<T>::Decode(absl::Span<T> out) {
  const int64_t count = static_cast<int64_t>(out.size());
  if (absl::Status status = CheckAsk(count, values_left_); !status.ok()) return status;
  size_t i = 0;
  const size_t n = out.size();
  while (i < n && group_next_ < kGroupSize) out[i++] = group_[group_next_++];
  // Values are counted as decoded only once the call succeeds as a whole.
  for (; i + kGroupSize <= n; i += kGroupSize) {
    if (absl::Status status = DecodeGroup(out.data() + i); !status.ok()) return status;
  }
  if (i < n) {
    if (absl::Status status = DecodeGroup(group_); !status.ok()) return status;
    group_next_ = 0;
    while (i < n) out[i++] = group_[group_next_++];
  }
  values_left_ -= count;
  return absl::OkStatus();
}

template <typename T>
absl::Status GroupVarIntDecoder<T>::Skip(int64_t count) {
  if (absl::Status status = CheckAsk(count, values_left_); !status.ok()) return status;
  int64_t left = count;
  while (left > 0 && group_next_ < kGroupSize) {
    ++group_next_;
    --left;
  }
  for (; left >= kGroupSize; left -= kGroupSize) {
    if (absl::Status status = SkipGroup(); !status.ok()) return status;
  }
  if (left > 0) {
    if (absl::Status status = DecodeGroup(group_); !status.ok()) return status;
    group_next_ = static_cast<int>(left);
  }
  values_left_ -= count;
  return absl::OkStatus();
}

template class GroupVarIntDecoder<int32_t>;
template class GroupVarIntDecoder<int64_t>;

}  // namespace pqpage
