// GroupVarInt decoder (not a Parquet encoding; see the public header).
#include <algorithm>
#include <array>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "codec/value_request.h"
#include "common/byte_io.h"
#include "encodings/group_var_int_internal.h"
#include "pqpage/group_var_int.h"
#include "pqpage/status_macros.h"

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

// For each 32-bit header byte: where each value starts (from the header) and the group's length.
struct Group32Layout {
  uint8_t offset[4];
  uint8_t length;
};

constexpr std::array<Group32Layout, 256> MakeGroup32Layouts() {
  std::array<Group32Layout, 256> table{};
  for (int header = 0; header < 256; ++header) {
    int offset = 1;
    for (int j = 0; j < 4; ++j) {
      table[header].offset[j] = static_cast<uint8_t>(offset);
      offset += ((header >> (6 - 2 * j)) & 3) + 1;
    }
    table[header].length = static_cast<uint8_t>(offset);
  }
  return table;
}
constexpr std::array<Group32Layout, 256> kGroup32Layouts = MakeGroup32Layouts();

// Decodes the group at `in`, which must have kMaxGroupBytes readable bytes; returns its length.
// Each value is a whole-word load with the bytes above its length shifted out (in two steps, so a
// full-width value needs no special case).
template <typename T>
inline size_t ReadGroup(const uint8_t* in, uint32_t header, T* out) {
  using Layout = internal::GroupLayout<T>;
  using U = typename Layout::Unsigned;
  if constexpr (sizeof(T) == 4) {
    // The table makes the four loads independent of each other.
    const Group32Layout& layout = kGroup32Layouts[header];
    for (int j = 0; j < 4; ++j) {
      const int drop_bits = 8 * (3 - static_cast<int>((header >> (6 - 2 * j)) & 3));
      const U word = internal::LoadLittleEndian<U>(in + layout.offset[j]);
      out[j] = static_cast<T>(static_cast<U>(word << drop_bits) >> drop_bits);
    }
    return layout.length;
  } else {
    const uint8_t* cursor = in + Layout::kHeaderBytes;
    for (int j = 0; j < Layout::kGroupSize; ++j) {
      const int length = FieldLength<T>(header, j);
      const int drop_bits = 8 * (static_cast<int>(sizeof(U)) - length);
      const U word = internal::LoadLittleEndian<U>(cursor);
      out[j] = static_cast<T>(static_cast<U>(word << drop_bits) >> drop_bits);
      cursor += length;
    }
    return static_cast<size_t>(cursor - in);
  }
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
absl::StatusOr<uint32_t> GroupVarIntDecoder<T>::ReadCheckedHeader() const {
  using Layout = internal::GroupLayout<T>;
  if (static_cast<size_t>(end_ - position_) < static_cast<size_t>(Layout::kHeaderBytes)) {
    return absl::DataLossError("GroupVarInt: stream ends before a group header");
  }
  const uint32_t header = ReadHeader<T>(position_);
  if (header & Layout::kUnusedBits) {
    return absl::DataLossError(
        absl::StrCat("GroupVarInt: group header 0x", absl::Hex(header), " has its unused bit set"));
  }
  return header;
}

template <typename T>
absl::Status GroupVarIntDecoder<T>::DecodeGroup(T* out) {
  using Layout = internal::GroupLayout<T>;
  absl::StatusOr<uint32_t> header = ReadCheckedHeader();
  if (!header.ok()) return header.status();
  const size_t remaining = static_cast<size_t>(end_ - position_);
  if (remaining >= static_cast<size_t>(Layout::kMaxGroupBytes)) {
    position_ += ReadGroup<T>(position_, *header, out);
    return absl::OkStatus();
  }
  const size_t length = GroupLengthFromHeader<T>(*header);
  if (length > remaining) {
    return absl::DataLossError(
        absl::StrCat("GroupVarInt: group of ", length, " bytes, only ", remaining, " left"));
  }
  uint8_t padded[Layout::kMaxGroupBytes] = {};
  std::memcpy(padded, position_, length);
  ReadGroup<T>(padded, *header, out);
  position_ += length;
  return absl::OkStatus();
}

template <typename T>
absl::Status GroupVarIntDecoder<T>::SkipGroup() {
  absl::StatusOr<uint32_t> header = ReadCheckedHeader();
  if (!header.ok()) return header.status();
  const size_t remaining = static_cast<size_t>(end_ - position_);
  const size_t length = GroupLengthFromHeader<T>(*header);
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
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("GroupVarInt", count, values_left_));
  size_t i = 0;
  const size_t n = out.size();
  while (i < n && group_next_ < kGroupSize) out[i++] = group_[group_next_++];
  // Values are counted as decoded only once the call succeeds as a whole.
  // Fast loop: whole groups while a maximal group's bytes remain, so no load can leave the input.
  {
    using Layout = internal::GroupLayout<T>;
    const uint8_t* position = position_;
    while (i + kGroupSize <= n && end_ - position >= Layout::kMaxGroupBytes) {
      const uint32_t header = ReadHeader<T>(position);
      if (header & Layout::kUnusedBits) break;  // DecodeGroup below reports it
      position += ReadGroup<T>(position, header, out.data() + i);
      i += kGroupSize;
    }
    position_ = position;
  }
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
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("GroupVarInt", count, values_left_));
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
