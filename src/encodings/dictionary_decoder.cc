#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "codec/range_check.h"
#include "codec/value_request.h"
#include "common/checked_math.h"
#include "encodings/rle_bit_packed_hybrid_internal.h"
#include "pqpage/dictionary.h"
#include "pqpage/plain.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

using internal::Unpack32Fn;

absl::Status IndexOutOfRange(uint64_t index, size_t size) {
  return absl::DataLossError(
      absl::StrCat("dictionary index ", index, " is outside a dictionary of ", size, " entries"));
}

// Resolves indices to values: an RLE run is one lookup and a fill; a bit-packed block (unpacked
// into the walker's L1 scratch) is checked, then gathered with scalar loads, which on current
// x86 cores beat vector gathers.
template <typename T>
class GatherSink {
 public:
  GatherSink(const T* dictionary, size_t size, T* out)
      : dictionary_(dictionary), size_(size), out_(out) {}
  absl::Status Fill(uint64_t index, size_t count) {
    if (index >= size_) return IndexOutOfRange(index, size_);
    std::fill_n(out_, count, dictionary_[index]);
    out_ += count;
    return absl::OkStatus();
  }
  absl::Status Unpacked(const uint32_t* indices, size_t count) {
    if (internal::AnyAtLeast(indices, count, size_)) {
      return IndexOutOfRange(internal::FirstAtLeast(indices, count, size_), size_);
    }
    // The output never overlaps the dictionary or the scratch indices; saying so lets the
    // compiler keep loads ahead of stores.
    const T* __restrict dictionary = dictionary_;
    const uint32_t* __restrict index = indices;
    T* __restrict out = out_;
    // Four at a time, every load before any store: the stores to `out` cannot then delay the
    // next indices' loads (the CPU cannot tell them apart when the addresses match modulo 4 KiB).
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
      const T a = dictionary[index[i]];
      const T b = dictionary[index[i + 1]];
      const T c = dictionary[index[i + 2]];
      const T d = dictionary[index[i + 3]];
      out[i] = a;
      out[i + 1] = b;
      out[i + 2] = c;
      out[i + 3] = d;
    }
    for (; i < count; ++i) out[i] = dictionary[index[i]];
    out_ += count;
    return absl::OkStatus();
  }
  bool UnpackDirect(const uint8_t*, size_t, Unpack32Fn) { return false; }

 private:
  const T* dictionary_;
  size_t size_;
  T* out_;
};

// Indices for callers that keep the data dictionary-encoded, bounds-checked the same way.
class IndexSink {
 public:
  IndexSink(size_t size, uint32_t* out) : size_(size), out_(out) {}
  absl::Status Fill(uint64_t index, size_t count) {
    if (index >= size_) return IndexOutOfRange(index, size_);
    std::fill_n(out_, count, static_cast<uint32_t>(index));
    out_ += count;
    return absl::OkStatus();
  }
  absl::Status Unpacked(const uint32_t* indices, size_t count) {
    if (internal::AnyAtLeast(indices, count, size_)) {
      return IndexOutOfRange(internal::FirstAtLeast(indices, count, size_), size_);
    }
    std::memcpy(out_, indices, count * sizeof(uint32_t));
    out_ += count;
    return absl::OkStatus();
  }
  bool UnpackDirect(const uint8_t*, size_t, Unpack32Fn) { return false; }

 private:
  size_t size_;
  uint32_t* out_;
};

}  // namespace

template <typename T>
DictionaryDecoder<T>::DictionaryDecoder(int type_length, int /*tag*/)
    : type_length_(type_length), reader_(std::make_unique<internal::HybridRunReader>()) {}
template <typename T>
DictionaryDecoder<T>::~DictionaryDecoder() = default;
template <typename T>
DictionaryDecoder<T>::DictionaryDecoder(DictionaryDecoder&&) noexcept = default;
template <typename T>
DictionaryDecoder<T>& DictionaryDecoder<T>::operator=(DictionaryDecoder&&) noexcept = default;

template <typename T>
absl::Status DictionaryDecoder<T>::SetDictionary(absl::Span<const uint8_t> page,
                                                 int64_t num_entries) {
  // The smallest possible entry bounds the count before the entries are allocated.
  int64_t min_entry_bytes = sizeof(T);
  if constexpr (std::is_same_v<T, ByteArray>) {
    if (type_length_ != kVariableLength && type_length_ <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dictionary: FIXED_LEN_BYTE_ARRAY type length ", type_length_, " is not positive"));
    }
    min_entry_bytes = type_length_ == kVariableLength ? 4 : type_length_;
  }
  const std::optional<int64_t> needed = internal::CheckedMultiply(num_entries, min_entry_bytes);
  if (num_entries < 0 || !needed || *needed > static_cast<int64_t>(page.size())) {
    return absl::DataLossError(absl::StrCat("dictionary page: ", num_entries,
                                            " entries cannot fit in ", page.size(), " bytes"));
  }
  dictionary_.assign(static_cast<size_t>(num_entries), T{});
  absl::Status status;
  if constexpr (std::is_same_v<T, ByteArray>) {
    PlainDecoder<ByteArray> plain(type_length_);
    status = plain.Reset(page, num_entries);
    if (status.ok()) status = plain.Decode(absl::MakeSpan(dictionary_));
  } else {
    PlainDecoder<T> plain;
    status = plain.Reset(page, num_entries);
    if (status.ok()) status = plain.Decode(absl::MakeSpan(dictionary_));
  }
  if (!status.ok()) {
    dictionary_.clear();
    return absl::DataLossError(absl::StrCat("dictionary page: ", status.message()));
  }
  return absl::OkStatus();
}

template <typename T>
void DictionaryDecoder<T>::SetDictionary(absl::Span<const T> entries) {
  dictionary_.assign(entries.begin(), entries.end());
}

template <typename T>
absl::Status DictionaryDecoder<T>::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  values_left_ = 0;
  if (num_values < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("dictionary indices: negative count ", num_values));
  }
  if (data.empty()) {
    if (num_values > 0) {
      return absl::DataLossError(
          absl::StrCat("dictionary-encoded page holds no bytes for ", num_values, " indices"));
    }
    reader_->Reset(data, 0);
    return absl::OkStatus();
  }
  const int width = data[0];
  if (width > internal::kMaxBitWidth32) {
    return absl::DataLossError(absl::StrCat("dictionary index bit width ", width, " exceeds 32"));
  }
  reader_->Reset(data.subspan(1), width);
  values_left_ = num_values;
  return absl::OkStatus();
}

template <typename T>
absl::Status DictionaryDecoder<T>::Decode(absl::Span<T> out) {
  PQPAGE_RETURN_IF_ERROR(
      internal::CheckValueRequest("dictionary indices", out.size(), values_left_));
  GatherSink<T> sink(dictionary_.data(), dictionary_.size(), out.data());
  PQPAGE_RETURN_IF_ERROR(reader_->Read(out.size(), sink));
  values_left_ -= static_cast<int64_t>(out.size());
  return absl::OkStatus();
}

template <typename T>
absl::Status DictionaryDecoder<T>::DecodeIndices(absl::Span<uint32_t> out) {
  PQPAGE_RETURN_IF_ERROR(
      internal::CheckValueRequest("dictionary indices", out.size(), values_left_));
  IndexSink sink(dictionary_.size(), out.data());
  PQPAGE_RETURN_IF_ERROR(reader_->Read(out.size(), sink));
  values_left_ -= static_cast<int64_t>(out.size());
  return absl::OkStatus();
}

template <typename T>
absl::Status DictionaryDecoder<T>::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("dictionary indices", count, values_left_));
  PQPAGE_RETURN_IF_ERROR(reader_->Skip(static_cast<size_t>(count)));
  values_left_ -= count;
  return absl::OkStatus();
}

template class DictionaryDecoder<int32_t>;
template class DictionaryDecoder<int64_t>;
template class DictionaryDecoder<Int96>;
template class DictionaryDecoder<float>;
template class DictionaryDecoder<double>;
template class DictionaryDecoder<ByteArray>;

}  // namespace pqpage
