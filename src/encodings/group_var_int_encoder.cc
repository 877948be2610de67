// GroupVarInt encoder (not a Parquet encoding; see the public header).
#include <cstring>

#include "common/byte_buffer.h"
#include "common/byte_io.h"
#include "encodings/group_var_int_internal.h"
#include "pqpage/group_var_int.h"

namespace pqpage {
namespace {

// Writes one group at `out` and returns its length. Each value is stored as a whole word and the
// cursor advanced by its byte length only: the last word ends at most at the group's maximal size,
// so the caller needs room for kMaxGroupBytes.
template <typename T>
inline size_t WriteGroup(const T* values, uint8_t* out) {
  using Layout = internal::GroupLayout<T>;
  using U = typename Layout::Unsigned;
  uint32_t header = 0;
  uint8_t* cursor = out + Layout::kHeaderBytes;
  for (int j = 0; j < Layout::kGroupSize; ++j) {
    const U value = static_cast<U>(values[j]);
    const int length = Layout::ByteLength(value);
    header |= static_cast<uint32_t>(length - 1) << Layout::FieldShift(j);
    internal::StoreLittleEndian<U>(cursor, value);
    cursor += length;
  }
  if constexpr (Layout::kHeaderBytes == 1) {
    out[0] = static_cast<uint8_t>(header);
  } else {
    internal::StoreLittleEndian<uint16_t>(out, static_cast<uint16_t>(header));
  }
  return static_cast<size_t>(cursor - out);
}

template <typename T>
size_t GroupLength(const T* values) {
  using Layout = internal::GroupLayout<T>;
  size_t length = Layout::kHeaderBytes;
  for (int j = 0; j < Layout::kGroupSize; ++j) {
    length += Layout::ByteLength(static_cast<typename Layout::Unsigned>(values[j]));
  }
  return length;
}

}  // namespace

template <typename T>
absl::Status GroupVarIntEncoder<T>::Put(absl::Span<const T> values) {
  using Layout = internal::GroupLayout<T>;
  size_t i = 0;
  while (i < values.size() && pending_count_ > 0 && pending_count_ < kGroupSize) {
    pending_[pending_count_++] = values[i++];
  }
  const size_t groups = (values.size() - i) / kGroupSize + (pending_count_ == kGroupSize ? 1 : 0);
  if (groups == 0) {
    while (i < values.size()) pending_[pending_count_++] = values[i++];
    return absl::OkStatus();
  }
  size_t size = buffer_.size();
  buffer_.resize(size + groups * Layout::kMaxGroupBytes);
  if (pending_count_ == kGroupSize) {
    size += WriteGroup(pending_, buffer_.data() + size);
    pending_count_ = 0;
  }
  for (; i + kGroupSize <= values.size(); i += kGroupSize) {
    size += WriteGroup(values.data() + i, buffer_.data() + size);
  }
  buffer_.resize(size);
  while (i < values.size()) pending_[pending_count_++] = values[i++];
  return absl::OkStatus();
}

template <typename T>
size_t GroupVarIntEncoder<T>::EstimatedSize() const {
  if (pending_count_ == 0) return buffer_.size();
  T padded[kGroupSize] = {};
  for (int j = 0; j < pending_count_; ++j) padded[j] = pending_[j];
  return buffer_.size() + GroupLength(padded);
}

template <typename T>
void GroupVarIntEncoder<T>::FinishInto(std::vector<uint8_t>* out) {
  using Layout = internal::GroupLayout<T>;
  if (pending_count_ > 0) {
    for (int j = pending_count_; j < kGroupSize; ++j) pending_[j] = 0;
    const size_t size = buffer_.size();
    buffer_.resize(size + Layout::kMaxGroupBytes);
    buffer_.resize(size + WriteGroup(pending_, buffer_.data() + size));
    pending_count_ = 0;
  }
  internal::AppendAndClear(&buffer_, out);
}

template class GroupVarIntEncoder<int32_t>;
template class GroupVarIntEncoder<int64_t>;

}  // namespace pqpage
