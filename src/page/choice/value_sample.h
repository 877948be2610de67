// The values kAuto holds back at the start of a column chunk to measure every candidate encoding
// on them (EncodingPolicy::kAuto). They are copies: the caller's batches, and the bytes their
// ByteArray values point to, only live for the call that gives them.
#ifndef PQPAGE_PAGE_CHOICE_VALUE_SAMPLE_H_
#define PQPAGE_PAGE_CHOICE_VALUE_SAMPLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "pqpage/types.h"

namespace pqpage::internal {

template <typename T>
class ValueSample {
 public:
  // Copies `values` (and, for ByteArray, their bytes) to the end of the sample.
  void Append(absl::Span<const T> values) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (const ByteArray& value : values) {
        ends_.push_back(bytes_.size() + value.size);
        if (value.size > 0) bytes_.insert(bytes_.end(), value.data, value.data + value.size);
      }
      plain_bytes_ += static_cast<int64_t>(values.size()) * 4;
    } else {
      values_.insert(values_.end(), values.begin(), values.end());
    }
    plain_bytes_ += static_cast<int64_t>(values.size() * PlainWidth());
  }

  // The values held, in order. ByteArray views point into the sample, valid until the next
  // Append or Clear.
  absl::Span<const T> values() {
    if constexpr (std::is_same_v<T, ByteArray>) {
      views_.resize(ends_.size());
      size_t begin = 0;
      for (size_t i = 0; i < ends_.size(); ++i) {
        views_[i] = ByteArray{bytes_.data() + begin, static_cast<uint32_t>(ends_[i] - begin)};
        begin = ends_[i];
      }
      return views_;
    } else if constexpr (std::is_same_v<T, bool>) {
      // std::vector<bool> has no contiguous bools to view.
      bools_ = std::make_unique<bool[]>(values_.size());
      for (size_t i = 0; i < values_.size(); ++i) bools_[i] = values_[i] != 0;
      return absl::MakeConstSpan(bools_.get(), values_.size());
    } else {
      return values_;
    }
  }

  // Bytes the values would take PLAIN-encoded (booleans counted as a byte each).
  int64_t plain_bytes() const {
    if constexpr (std::is_same_v<T, ByteArray>) {
      return plain_bytes_ + static_cast<int64_t>(bytes_.size());
    } else {
      return plain_bytes_;
    }
  }

  void Clear() {
    values_.clear();
    bytes_.clear();
    ends_.clear();
    views_.clear();
    plain_bytes_ = 0;
  }

 private:
  static constexpr size_t PlainWidth() {
    if constexpr (std::is_same_v<T, ByteArray>) {
      return 0;  // length prefixes and bytes are counted apart
    } else {
      return sizeof(T);
    }
  }

  // All but ByteArray; bytes for bool.
  std::vector<std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>> values_;
  std::unique_ptr<bool[]> bools_;
  std::vector<uint8_t> bytes_;  // ByteArray: the values' bytes, back to back
  std::vector<size_t> ends_;    // ByteArray: where each value ends in bytes_
  std::vector<ByteArray> views_;
  int64_t plain_bytes_ = 0;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_CHOICE_VALUE_SAMPLE_H_
