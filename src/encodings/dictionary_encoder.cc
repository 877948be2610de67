#include <limits>

#include "absl/strings/str_cat.h"
#include "common/checked_math.h"
#include "encodings/dictionary_index.h"
#include "pqpage/dictionary.h"
#include "pqpage/plain.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/status_macros.h"

namespace pqpage {

template <typename T>
DictionaryEncoder<T>::DictionaryEncoder(int type_length, DictionaryOptions options, int /*tag*/)
    : type_length_(type_length),
      options_(options),
      index_(std::make_unique<internal::DictionaryIndex<T>>()) {}
template <typename T>
DictionaryEncoder<T>::~DictionaryEncoder() = default;
template <typename T>
DictionaryEncoder<T>::DictionaryEncoder(DictionaryEncoder&&) noexcept = default;
template <typename T>
DictionaryEncoder<T>& DictionaryEncoder<T>::operator=(DictionaryEncoder&&) noexcept = default;

template <typename T>
int64_t DictionaryEncoder<T>::num_entries() const {
  return static_cast<int64_t>(index_->entries().size());
}

template <typename T>
absl::Span<const T> DictionaryEncoder<T>::entries() const {
  return index_->entries();
}

template <typename T>
int DictionaryEncoder<T>::index_bit_width() const {
  const int64_t entries = num_entries();
  return entries <= 1 ? 0 : internal::BitWidthOf(static_cast<uint64_t>(entries - 1));
}

template <typename T>
absl::Status DictionaryEncoder<T>::CheckLengths(absl::Span<const T> values) const {
  if constexpr (std::is_same_v<T, ByteArray>) {
    const bool fixed = type_length_ != kVariableLength;
    if (fixed && type_length_ <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dictionary: FIXED_LEN_BYTE_ARRAY type length ", type_length_, " is not positive"));
    }
    for (const ByteArray& v : values) {
      if (fixed ? v.size != static_cast<uint32_t>(type_length_)
                : v.size > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "dictionary: value of ", v.size, " bytes",
            fixed ? absl::StrCat(" in a FIXED_LEN_BYTE_ARRAY(", type_length_, ") column")
                  : " is longer than 2^31 - 1"));
      }
    }
  }
  return absl::OkStatus();
}

template <typename T>
int64_t DictionaryEncoder<T>::FindOrAdd(const T& value) {
  int64_t entry_bytes;
  if constexpr (std::is_same_v<T, ByteArray>) {
    entry_bytes = type_length_ != kVariableLength ? type_length_ : 4 + int64_t{value.size};
  } else {
    entry_bytes = sizeof(T);
  }
  const int64_t entries_before = num_entries();
  const int64_t number = index_->FindOrInsert(value, [&] {
    return entries_before + 1 <= options_.max_entries &&
           dictionary_bytes_ + entry_bytes <= options_.max_dictionary_bytes;
  });
  if (number < 0) {
    full_ = true;
    return -1;
  }
  if (number == entries_before) dictionary_bytes_ += entry_bytes;
  return number;
}

template <typename T>
absl::StatusOr<size_t> DictionaryEncoder<T>::PutUntilFull(absl::Span<const T> values) {
  PQPAGE_RETURN_IF_ERROR(CheckLengths(values));
  if (full_) return 0;
  const size_t start = indices_.size();
  indices_.resize(start + values.size());
  uint32_t* out = indices_.data() + start;
  // Consecutive equal values (common in sorted or low-cardinality data) skip the hash lookup.
  bool have_last = false;
  typename internal::DictionaryIndex<T>::Key last_key{};
  uint32_t last_number = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const auto key = internal::DictionaryIndex<T>::KeyOf(values[i]);
    if (have_last && internal::DictionaryIndex<T>::SameKey(key, last_key)) {
      out[i] = last_number;
      continue;
    }
    int64_t number;
    if constexpr (std::is_same_v<T, ByteArray>) {
      number = FindOrAdd(values[i]);
    } else {
      // Most values are present already: look them up inline, and go out of line to add one.
      number = index_->Find(values[i]);
      if (number < 0) number = FindOrAdd(values[i]);
    }
    if (number < 0) {
      indices_.resize(start + i);
      return i;
    }
    last_key = key;  // views values[i] for byte arrays, which outlives this loop
    have_last = true;
    last_number = static_cast<uint32_t>(number);
    out[i] = last_number;
  }
  return values.size();
}

template <typename T>
absl::StatusOr<int64_t> DictionaryEncoder<T>::EntryIndex(const T& value) {
  PQPAGE_RETURN_IF_ERROR(CheckLengths(absl::MakeConstSpan(&value, 1)));
  if (full_) return -1;
  return FindOrAdd(value);
}

template <typename T>
absl::Status DictionaryEncoder<T>::PutIndices(absl::Span<const uint32_t> indices) {
  const auto entries = static_cast<uint32_t>(num_entries());
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= entries) {
      return absl::InvalidArgumentError(absl::StrCat("dictionary: index ", indices[i], " at ", i,
                                                     " is outside its ", entries, " entries"));
    }
  }
  indices_.insert(indices_.end(), indices.begin(), indices.end());
  return absl::OkStatus();
}

template <typename T>
absl::Status DictionaryEncoder<T>::Put(absl::Span<const T> values) {
  PQPAGE_ASSIGN_OR_RETURN(const size_t taken, PutUntilFull(values));
  if (taken < values.size()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "dictionary full (", num_entries(), " entries, ", dictionary_bytes_,
        " bytes): ", values.size() - taken, " of ", values.size(), " values not taken"));
  }
  return absl::OkStatus();
}

template <typename T>
size_t DictionaryEncoder<T>::EstimatedSize() const {
  return 1 + RleBitPackedHybridEncoder::MaxEncodedSize(index_bit_width(), indices_.size());
}

template <typename T>
void DictionaryEncoder<T>::FinishInto(std::vector<uint8_t>* out) {
  const int width = index_bit_width();
  out->push_back(static_cast<uint8_t>(width));
  RleBitPackedHybridEncoder encoder(width);
  // Every index is below num_entries(), so it fits the width and Put cannot fail.
  (void)encoder.Put(absl::MakeConstSpan(indices_));
  encoder.FinishInto(out);
  indices_.clear();
}

template <typename T>
std::vector<uint8_t> DictionaryEncoder<T>::DictionaryPage() const {
  if constexpr (std::is_same_v<T, ByteArray>) {
    PlainEncoder<ByteArray> plain(type_length_);
    (void)plain.Put(index_->entries());  // lengths were checked by PutUntilFull
    return plain.Finish();
  } else {
    PlainEncoder<T> plain;
    (void)plain.Put(index_->entries());  // never fails
    return plain.Finish();
  }
}

template class DictionaryEncoder<int32_t>;
template class DictionaryEncoder<int64_t>;
template class DictionaryEncoder<Int96>;
template class DictionaryEncoder<float>;
template class DictionaryEncoder<double>;
template class DictionaryEncoder<ByteArray>;

}  // namespace pqpage
