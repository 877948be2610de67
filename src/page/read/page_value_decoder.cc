#include "page/read/page_value_decoder.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "common/small_copy.h"
#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/dictionary.h"
#include "pqpage/plain.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage::internal {
namespace {

// The most bytes of views or indices a thread keeps between DecodeCopies calls (4 MiB).
constexpr size_t kKeptCopyBytes = size_t{4} << 20;

// Room for `count` views (or dictionary indices) of the values a DecodeCopies call copies. A
// column chunk's decoder is made anew for every chunk (the Arrow reader opens each row group's),
// so a buffer of its own would be allocated and page-faulted in again every time; this one is
// kept by the thread and only grown. A call for more than kKeptCopyBytes gets a buffer of its
// own, in `own`.
template <typename Element>
absl::Span<Element> CopyScratch(size_t count, std::vector<Element>& own) {
  thread_local std::vector<Element> kept;
  std::vector<Element>& scratch = count <= kKeptCopyBytes / sizeof(Element) ? kept : own;
  if (scratch.size() < count) scratch.resize(count);
  return absl::MakeSpan(scratch.data(), count);
}

// Copies the values `value_of(i)` (i < count, each under 2 GiB) one after another into what
// reserve(total) returns, their lengths into `lengths`. With `source_end` (else nullptr), the end
// of the one buffer every value lies in, values up to 32 bytes are copied as a fixed 32 where
// both buffers have the room, as PLAIN's DecodeCopies does (see CopyAsBlocks). The two ways are
// two loops: with one loop holding both, GCC kept the total below on the stack, and each value
// waited for the store and load of the one before.
template <typename ValueOf>
void CopyValues(int64_t count, const ValueOf& value_of, int32_t* lengths,
                absl::FunctionRef<uint8_t*(size_t)> reserve, const uint8_t* source_end) {
  size_t total = 0;
  for (int64_t i = 0; i < count; ++i) total += value_of(i).size;
  uint8_t* out = reserve(total);
  if (source_end == nullptr) {
    for (int64_t i = 0; i < count; ++i) {
      const ByteArray& value = value_of(i);
      CopyExact(out, value.data, value.size);
      out += value.size;
      lengths[i] = static_cast<int32_t>(value.size);
    }
    return;
  }
  uint8_t* const out_end = out + total;
  for (int64_t i = 0; i < count; ++i) {
    const ByteArray& value = value_of(i);
    if (value.size <= 32 && out_end - out >= 32 && source_end - value.data >= 32) {
      CopyBlock32(out, value.data);  // the excess is overwritten by the next values
    } else {
      CopyExact(out, value.data, value.size);
    }
    out += value.size;
    lengths[i] = static_cast<int32_t>(value.size);
  }
}

// Decoders come from the codec factory, one per encoding the chunk's pages use, made when a page
// first needs it and reused by every later page of that encoding: a page's values cost one
// virtual call per batch. The dictionary decoder is also held as its concrete class, for the
// dictionary page and DecodeIndices.
template <typename T>
class TypedPageValueDecoder final : public PageValueDecoder<T> {
  // BOOLEAN has no dictionary encoding, so no DictionaryDecoder<bool> exists.
  static constexpr bool kHasDictionary = !std::is_same_v<T, bool>;
  struct NoDictionary {};
  using Dictionary = std::conditional_t<kHasDictionary, DictionaryDecoder<T>, NoDictionary>;

 public:
  TypedPageValueDecoder(const ColumnDescriptor& column, bool carry_delta_prefix)
      : column_(column), carry_delta_prefix_(carry_delta_prefix) {}

  absl::Status SetDictionary(absl::Span<const uint8_t> page, int64_t num_entries) override {
    if constexpr (kHasDictionary) {
      PQPAGE_ASSIGN_OR_RETURN(Decoder<T> * decoder, DecoderFor(Encoding::kRleDictionary));
      dictionary_ = dynamic_cast<Dictionary*>(decoder);
      if (dictionary_ == nullptr) {
        return absl::InternalError("the dictionary codec is not a DictionaryDecoder");
      }
      PQPAGE_RETURN_IF_ERROR(dictionary_->SetDictionary(page, num_entries));
      if constexpr (std::is_same_v<T, ByteArray>) {
        size_t shortest = std::numeric_limits<size_t>::max();
        size_t longest = 0;
        for (const ByteArray& entry : dictionary_->dictionary()) {
          shortest = std::min<size_t>(shortest, entry.size);
          longest = std::max<size_t>(longest, entry.size);
        }
        dictionary_blocks_ = CopyAsBlocks(shortest, longest);
        dictionary_end_ = page.data() + page.size();
        // Entries copied as 32-byte blocks (CopyValues) need 32 readable bytes past each: a small
        // page, where many entries lie within 32 bytes of its end, is read again from a copy with
        // that much padding, so that no entry takes the other path. Otherwise the branch between
        // the two goes one way or the other with the entry: 2-byte codes of a 15-entry dictionary
        // read 1.8x slower that way.
        if (dictionary_blocks_ && page.size() <= kPaddedDictionaryBytes) {
          padded_dictionary_.assign(page.begin(), page.end());
          padded_dictionary_.resize(page.size() + kDictionaryPadding);
          PQPAGE_RETURN_IF_ERROR(dictionary_->SetDictionary(
              absl::MakeConstSpan(padded_dictionary_).first(page.size()), num_entries));
          dictionary_end_ = padded_dictionary_.data() + padded_dictionary_.size();
        }
      }
      has_dictionary_ = true;
      return absl::OkStatus();
    } else {
      return absl::UnimplementedError("BOOLEAN columns have no dictionary encoding");
    }
  }

  bool has_dictionary() const override { return has_dictionary_; }

  absl::Span<const T> dictionary() const override {
    if constexpr (kHasDictionary) {
      if (dictionary_ != nullptr) return dictionary_->dictionary();
    }
    return {};
  }

  absl::Status StartPage(Encoding encoding, absl::Span<const uint8_t> data,
                         int64_t num_values) override {
    current_ = nullptr;
    this->dictionary_encoded_ = false;
    const bool dictionary_encoded =
        encoding == Encoding::kPlainDictionary || encoding == Encoding::kRleDictionary;
    if (dictionary_encoded && EncodingAllowed(encoding, column_.type) && !has_dictionary_) {
      return absl::DataLossError(
          absl::StrCat(EncodingName(encoding).data(), " page without a dictionary page before it"));
    }
    PQPAGE_ASSIGN_OR_RETURN(current_, DecoderFor(encoding));
    this->dictionary_encoded_ = dictionary_encoded;
    if constexpr (std::is_same_v<T, ByteArray>) {
      plain_ =
          encoding == Encoding::kPlain ? dynamic_cast<PlainDecoder<ByteArray>*>(current_) : nullptr;
    }
    return current_->Reset(data, num_values);
  }

  absl::Status Decode(T* out, int64_t count) override {
    if (count == 0) return absl::OkStatus();
    if (current_ == nullptr) return absl::InternalError("Decode without a started page");
    return current_->Decode(absl::Span<T>(out, static_cast<size_t>(count)));
  }

  absl::Status DecodeCopies(int64_t count, int32_t* lengths,
                            absl::FunctionRef<uint8_t*(size_t)> reserve) override {
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (count == 0) return absl::OkStatus();
      if (current_ == nullptr) return absl::InternalError("DecodeCopies without a started page");
      if (plain_ != nullptr) return plain_->DecodeCopies(count, lengths, reserve);
      if (this->dictionary_encoded_ && dictionary_ != nullptr) {
        // Indices, bounds-checked, then the entries (each within the dictionary page, so under
        // 2 GiB) copied straight from the dictionary: no view is made.
        std::vector<uint32_t> own;
        const absl::Span<uint32_t> indices = CopyScratch(static_cast<size_t>(count), own);
        PQPAGE_RETURN_IF_ERROR(dictionary_->DecodeIndices(indices));
        const ByteArray* entries = dictionary_->dictionary().data();
        CopyValues(
            count,
            [&](int64_t i) -> const ByteArray& { return entries[indices[static_cast<size_t>(i)]]; },
            lengths, reserve, dictionary_blocks_ ? dictionary_end_ : nullptr);
        return absl::OkStatus();
      }
      // Other encodings hand out views (into the page); they are copied here in one pass once
      // their total is known.
      std::vector<ByteArray> own;
      const absl::Span<ByteArray> views = CopyScratch(static_cast<size_t>(count), own);
      PQPAGE_RETURN_IF_ERROR(current_->Decode(views));
      for (const ByteArray& value : views) {
        // DELTA_BYTE_ARRAY builds values from prefixes, so a value is not bounded by its page.
        if (value.size > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
          return absl::ResourceExhaustedError(
              absl::StrCat("a BYTE_ARRAY value of ", value.size, " bytes passes 2 GiB"));
        }
      }
      CopyValues(
          count, [&](int64_t i) -> const ByteArray& { return views[static_cast<size_t>(i)]; },
          lengths, reserve, nullptr);
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("DecodeCopies is for BYTE_ARRAY values");
    }
  }

  absl::Status Skip(int64_t count) override {
    if (count == 0) return absl::OkStatus();
    if (current_ == nullptr) return absl::InternalError("Skip without a started page");
    return current_->Skip(count);
  }

  absl::Status DecodeIndices(uint32_t* out, int64_t count) override {
    if constexpr (kHasDictionary) {
      if (!this->dictionary_encoded_) {
        return absl::InvalidArgumentError("the current page is not dictionary-encoded");
      }
      if (count == 0) return absl::OkStatus();
      return dictionary_->DecodeIndices(absl::MakeSpan(out, static_cast<size_t>(count)));
    } else {
      return absl::InvalidArgumentError("BOOLEAN columns have no dictionary encoding");
    }
  }

 private:
  // The decoder of `encoding` for this chunk, made on first use. Both dictionary encodings share
  // one (they describe the same data page layout, and the dictionary belongs to the chunk).
  absl::StatusOr<Decoder<T>*> DecoderFor(Encoding encoding) {
    const auto slot = static_cast<size_t>(
        encoding == Encoding::kPlainDictionary ? Encoding::kRleDictionary : encoding);
    if (slot >= decoders_.size()) {
      return absl::UnimplementedError(
          absl::StrCat("unknown encoding ", static_cast<int>(encoding)));
    }
    if (decoders_[slot] == nullptr) {
      PQPAGE_ASSIGN_OR_RETURN(decoders_[slot], NewDecoder(encoding));
    }
    return decoders_[slot].get();
  }

  absl::StatusOr<std::unique_ptr<Decoder<T>>> NewDecoder(Encoding encoding) const {
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (encoding == Encoding::kDeltaByteArray && carry_delta_prefix_ &&
          EncodingAllowed(encoding, column_.type)) {
        // A legacy writer's pages (PARQUET-246, see file/writer_quirks.h) need an option the
        // factory does not take.
        DeltaByteArrayOptions options;
        options.carry_prefix_across_pages = true;
        return std::make_unique<DeltaByteArrayDecoder>(CodecTypeLength(column_), options);
      }
    }
    return MakeDecoder<T>(encoding, column_);
  }

  ColumnDescriptor column_;
  bool carry_delta_prefix_;
  // Indexed by the encoding's id (Encoding::kByteStreamSplit is the largest).
  std::array<std::unique_ptr<Decoder<T>>, static_cast<size_t>(Encoding::kByteStreamSplit) + 1>
      decoders_;
  Decoder<T>* current_ = nullptr;
  // For ByteArray: the current decoder when it is PLAIN (it copies without views).
  PlainDecoder<ByteArray>* plain_ = nullptr;
  Dictionary* dictionary_ = nullptr;
  // Dictionary pages up to this size are copied, padded, for CopyValues.
  static constexpr size_t kPaddedDictionaryBytes = size_t{64} << 10;
  static constexpr size_t kDictionaryPadding = 32;
  std::vector<uint8_t> padded_dictionary_;
  // The end of the bytes readable behind the byte array entries (the page, or its padded copy).
  const uint8_t* dictionary_end_ = nullptr;
  bool dictionary_blocks_ = false;  // whether CopyAsBlocks holds for the entries' lengths
  bool has_dictionary_ = false;
};

}  // namespace

std::unique_ptr<PageValueDecoderBase> MakePageValueDecoder(const ColumnDescriptor& column,
                                                           bool carry_delta_prefix) {
  return VisitValueType(column.type, [&](auto tag) -> std::unique_ptr<PageValueDecoderBase> {
    using T = typename decltype(tag)::Type;
    return std::make_unique<TypedPageValueDecoder<T>>(column, carry_delta_prefix);
  });
}

}  // namespace pqpage::internal
