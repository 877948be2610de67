#include "pqpage/orc/integer_rle_v1.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "codec/value_request.h"
#include "common/byte_reader.h"
#include "pqpage/orc/varint.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {
namespace {

constexpr char kIntegerRleV1[] = "ORC integer RLE v1";
constexpr int kMinRun = 3;
constexpr int kMaxRun = 127 + kMinRun;
constexpr int kMaxLiterals = 128;

// Differences and run values wrap modulo 2^64, as ORC's readers compute them.
inline int64_t WrappingAdd(int64_t a, uint64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + b);
}
inline int64_t WrappingSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

}  // namespace

size_t IntegerRleV1Encoder::VarintBytes(int64_t value) const {
  return VarintSize(signed_ ? internal::ZigZagEncode(value) : static_cast<uint64_t>(value));
}

absl::Status IntegerRleV1Encoder::Put(absl::Span<const int64_t> values) {
  for (int64_t value : values) PutValue(value);
  return absl::OkStatus();
}

void IntegerRleV1Encoder::PutValue(int64_t value) {
  if (group_size_ > 0 && group_is_run_) {
    const auto steps = static_cast<uint64_t>(group_size_);
    if (value == WrappingAdd(group_[0], steps * static_cast<uint64_t>(delta_))) {
      if (++group_size_ == kMaxRun) FlushGroup();
      return;
    }
    FlushGroup();
  }
  if (group_size_ == 0) {
    group_[0] = value;
    group_size_ = 1;
    tail_run_ = 1;
    literal_bytes_ = VarintBytes(value);
    return;
  }
  const int64_t delta = WrappingSub(value, group_[group_size_ - 1]);
  if (tail_run_ >= 2 && delta == delta_) {
    ++tail_run_;
  } else if (delta >= -128 && delta <= 127) {
    delta_ = delta;
    tail_run_ = 2;
  } else {
    tail_run_ = 1;
  }
  if (tail_run_ == kMinRun) {
    // The last two literals and this value become a run; the literals before them go out first.
    group_size_ -= kMinRun - 1;
    const int64_t first = group_[group_size_];
    literal_bytes_ -= VarintBytes(first) + VarintBytes(group_[group_size_ + 1]);
    if (group_size_ > 0) FlushGroup();
    group_[0] = first;
    group_size_ = kMinRun;
    group_is_run_ = true;
    return;
  }
  group_[group_size_++] = value;
  literal_bytes_ += VarintBytes(value);
  if (group_size_ == kMaxLiterals) FlushGroup();
}

void IntegerRleV1Encoder::FlushGroup() {
  if (group_size_ == 0) return;
  auto append = [&](int64_t value) {
    if (signed_) {
      AppendSignedVarint(value, &out_);
    } else {
      AppendVarint(static_cast<uint64_t>(value), &out_);
    }
  };
  if (group_is_run_) {
    out_.push_back(static_cast<uint8_t>(group_size_ - kMinRun));
    out_.push_back(static_cast<uint8_t>(static_cast<int8_t>(delta_)));
    append(group_[0]);
  } else {
    out_.push_back(static_cast<uint8_t>(-group_size_));
    for (int i = 0; i < group_size_; ++i) append(group_[i]);
  }
  group_size_ = 0;
  group_is_run_ = false;
  tail_run_ = 0;
  literal_bytes_ = 0;
}

size_t IntegerRleV1Encoder::EstimatedSize() const {
  if (group_size_ == 0) return out_.size();
  if (group_is_run_) return out_.size() + 2 + VarintBytes(group_[0]);
  return out_.size() + 1 + literal_bytes_;
}

void IntegerRleV1Encoder::FinishInto(std::vector<uint8_t>* out) {
  FlushGroup();
  out->insert(out->end(), out_.begin(), out_.end());
  out_.clear();
}

absl::Status IntegerRleV1Decoder::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  values_left_ = 0;
  group_left_ = 0;
  if (num_values < 0) {
    return absl::InvalidArgumentError(absl::StrCat("ORC integer RLE v1: ", num_values, " values"));
  }
  data_ = data;
  position_ = 0;
  values_left_ = num_values;
  return absl::OkStatus();
}

absl::Status IntegerRleV1Decoder::NextGroup() {
  if (position_ >= data_.size()) {
    return absl::DataLossError(absl::StrCat("ORC integer RLE v1: the stream ends with ",
                                            values_left_, " values still to read"));
  }
  const auto control = static_cast<int8_t>(data_[position_]);
  const bool is_run = control >= 0;
  const int64_t values = is_run ? control + kMinRun : -static_cast<int64_t>(control);
  if (values > values_left_) {
    return absl::DataLossError(absl::StrCat("ORC integer RLE v1: a group of ", values,
                                            " values where ", values_left_, " are left"));
  }
  size_t at = position_ + 1;
  if (is_run) {
    if (at >= data_.size()) {
      return absl::DataLossError("ORC integer RLE v1: a run ends before its delta");
    }
    const auto delta = static_cast<int8_t>(data_[at++]);
    uint64_t first = 0;
    if (signed_) {
      PQPAGE_ASSIGN_OR_RETURN(const int64_t value, ReadSignedVarint(data_, &at));
      first = static_cast<uint64_t>(value);
    } else {
      PQPAGE_ASSIGN_OR_RETURN(first, ReadVarint(data_, &at));
    }
    run_delta_ = static_cast<uint64_t>(static_cast<int64_t>(delta));
    run_next_ = first;
  }
  // Taken only once whole: a decoder that failed here holds no half-read group.
  position_ = at;
  group_is_run_ = is_run;
  group_left_ = values;
  return absl::OkStatus();
}

template <bool kStore>
absl::Status IntegerRleV1Decoder::Take(int64_t* out, int64_t count) {
  while (count > 0) {
    if (group_left_ == 0) PQPAGE_RETURN_IF_ERROR(NextGroup());
    const int64_t take = std::min(count, group_left_);
    if (group_is_run_) {
      if constexpr (kStore) {
        for (int64_t i = 0; i < take; ++i) {
          out[i] = static_cast<int64_t>(run_next_);
          run_next_ += run_delta_;
        }
        out += take;
      } else {
        run_next_ += static_cast<uint64_t>(take) * run_delta_;
      }
    } else {
      // Literals are varints: skipping still reads each one to find the next.
      for (int64_t i = 0; i < take; ++i) {
        PQPAGE_ASSIGN_OR_RETURN(const uint64_t bits, ReadVarint(data_, &position_));
        if constexpr (kStore) {
          out[i] = signed_ ? internal::ZigZagDecode(bits) : static_cast<int64_t>(bits);
        }
      }
      if constexpr (kStore) out += take;
    }
    group_left_ -= take;
    values_left_ -= take;
    count -= take;
  }
  return absl::OkStatus();
}

absl::Status IntegerRleV1Decoder::Decode(absl::Span<int64_t> out) {
  PQPAGE_RETURN_IF_ERROR(
      pqpage::internal::CheckValueRequest(kIntegerRleV1, out.size(), values_left_));
  return Take</*kStore=*/true>(out.data(), static_cast<int64_t>(out.size()));
}

absl::Status IntegerRleV1Decoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(pqpage::internal::CheckValueRequest(kIntegerRleV1, count, values_left_));
  return Take</*kStore=*/false>(nullptr, count);
}

}  // namespace pqpage::orc
