#include "pqpage/orc/byte_rle.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "codec/value_request.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {
namespace {

constexpr char kByteRle[] = "ORC byte RLE";
constexpr int kMinRun = 3;
constexpr int kMaxRun = 127 + kMinRun;
constexpr int kMaxLiterals = 128;

}  // namespace

absl::Status ByteRleEncoder::Put(absl::Span<const int8_t> values) {
  for (int8_t value : values) PutByte(static_cast<uint8_t>(value));
  return absl::OkStatus();
}

void ByteRleEncoder::PutBytes(absl::Span<const uint8_t> bytes) {
  for (uint8_t byte : bytes) PutByte(byte);
}

void ByteRleEncoder::PutByte(uint8_t byte) {
  if (group_size_ > 0 && group_is_run_) {
    if (byte == group_[0]) {
      if (++group_size_ == kMaxRun) FlushGroup();
      return;
    }
    FlushGroup();
  }
  if (group_size_ == 0) {
    group_[0] = byte;
    group_size_ = 1;
    tail_repeats_ = 1;
    return;
  }
  tail_repeats_ = byte == group_[group_size_ - 1] ? tail_repeats_ + 1 : 1;
  if (tail_repeats_ == kMinRun) {
    // The group's last two literals and this byte become a run; the literals before them, if
    // any, go out first.
    group_size_ -= kMinRun - 1;
    if (group_size_ > 0) FlushGroup();
    group_[0] = byte;
    group_size_ = kMinRun;
    group_is_run_ = true;
    return;
  }
  group_[group_size_++] = byte;
  if (group_size_ == kMaxLiterals) FlushGroup();
}

void ByteRleEncoder::FlushGroup() {
  if (group_size_ == 0) return;
  if (group_is_run_) {
    out_.push_back(static_cast<uint8_t>(group_size_ - kMinRun));
    out_.push_back(group_[0]);
  } else {
    out_.push_back(static_cast<uint8_t>(-group_size_));
    out_.insert(out_.end(), group_, group_ + group_size_);
  }
  group_size_ = 0;
  group_is_run_ = false;
  tail_repeats_ = 0;
}

size_t ByteRleEncoder::EstimatedSize() const {
  if (group_size_ == 0) return out_.size();
  return out_.size() + (group_is_run_ ? 2 : 1 + static_cast<size_t>(group_size_));
}

void ByteRleEncoder::FinishInto(std::vector<uint8_t>* out) {
  FlushGroup();
  out->insert(out->end(), out_.begin(), out_.end());
  out_.clear();
}

absl::Status ByteRleDecoder::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  values_left_ = 0;
  group_left_ = 0;
  if (num_values < 0) {
    return absl::InvalidArgumentError(absl::StrCat("ORC byte RLE: ", num_values, " values"));
  }
  position_ = data.data();
  end_ = data.data() + data.size();
  values_left_ = num_values;
  return absl::OkStatus();
}

absl::Status ByteRleDecoder::NextGroup() {
  if (position_ == end_) {
    return absl::DataLossError(
        absl::StrCat("ORC byte RLE: the stream ends with ", values_left_, " values still to read"));
  }
  const auto control = static_cast<int8_t>(*position_);
  const bool is_run = control >= 0;
  const int64_t values = is_run ? control + kMinRun : -static_cast<int64_t>(control);
  if (values > values_left_) {
    return absl::DataLossError(absl::StrCat("ORC byte RLE: a group of ", values, " values where ",
                                            values_left_, " are left"));
  }
  const int64_t bytes = is_run ? 1 : values;
  if (end_ - position_ - 1 < bytes) {
    return absl::DataLossError(absl::StrCat("ORC byte RLE: a group needs ", bytes, " bytes, ",
                                            end_ - position_ - 1, " are left"));
  }
  // The group is taken only once it is known to be whole, so a decoder that failed here holds no
  // group that points past its data.
  ++position_;
  group_is_run_ = is_run;
  group_left_ = values;
  if (is_run) {
    run_value_ = *position_;
  } else {
    literals_ = position_;
  }
  position_ += bytes;
  return absl::OkStatus();
}

absl::Status ByteRleDecoder::Take(uint8_t* out, int64_t count) {
  while (count > 0) {
    if (group_left_ == 0) PQPAGE_RETURN_IF_ERROR(NextGroup());
    const int64_t take = std::min(count, group_left_);
    if (out != nullptr) {
      if (group_is_run_) {
        std::memset(out, run_value_, static_cast<size_t>(take));
      } else {
        std::memcpy(out, literals_, static_cast<size_t>(take));
      }
      out += take;
    }
    if (!group_is_run_) literals_ += take;
    group_left_ -= take;
    values_left_ -= take;
    count -= take;
  }
  return absl::OkStatus();
}

absl::Status ByteRleDecoder::DecodeBytes(absl::Span<uint8_t> out) {
  PQPAGE_RETURN_IF_ERROR(pqpage::internal::CheckValueRequest(kByteRle, out.size(), values_left_));
  return Take(out.data(), static_cast<int64_t>(out.size()));
}

absl::Status ByteRleDecoder::Decode(absl::Span<int8_t> out) {
  return DecodeBytes(absl::Span<uint8_t>(reinterpret_cast<uint8_t*>(out.data()), out.size()));
}

absl::Status ByteRleDecoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(pqpage::internal::CheckValueRequest(kByteRle, count, values_left_));
  return Take(nullptr, count);
}

}  // namespace pqpage::orc
