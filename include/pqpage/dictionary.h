// Dictionary encoding (PLAIN_DICTIONARY = 2, RLE_DICTIONARY = 8): a column chunk's distinct values
// go once into a dictionary page (PLAIN-encoded entries), and each data page holds, per value, an
// index into it: one byte giving the index bit width, then the indices as an RLE/bit-packed hybrid
// stream without a length prefix. Both enum values describe the same data page layout; readers
// accept either. BOOLEAN columns have no dictionary encoding.
//
// Instantiated for T = int32_t, int64_t, Int96, float, double and ByteArray (BYTE_ARRAY, or
// FIXED_LEN_BYTE_ARRAY when given a type_length, pqpage/codec.h). The encoder and decoder implement
// pqpage/codec.h's Encoder<T> and Decoder<T> for the data pages; MakeEncoder and MakeDecoder
// (pqpage/codec_factory.h) make them for PLAIN_DICTIONARY and RLE_DICTIONARY.
#ifndef PQPAGE_DICTIONARY_H_
#define PQPAGE_DICTIONARY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/codec.h"
#include "pqpage/types.h"

namespace pqpage {

namespace internal {
class HybridRunReader;
template <typename T>
class DictionaryIndex;
}  // namespace internal

struct DictionaryOptions {
  // Limits after which the encoder stops taking new values so that the caller falls back to
  // another encoding. 1 MiB of PLAIN dictionary is what Arrow C++ and parquet-java default to.
  int64_t max_entries = int64_t{1} << 24;
  int64_t max_dictionary_bytes = int64_t{1} << 20;
};

// Builds a column chunk's dictionary and the indices of its data pages. Entries are keyed on their
// bytes (so NaN payloads, -0.0 and +0.0 are distinct entries, and PLAIN round-trips them exactly).
// Memory: the dictionary plus the indices of the current data page (4 bytes per value).
//
// As an Encoder<T> it writes data pages: Put, EstimatedSize, FinishInto (the bit width byte and
// the hybrid indices), with the dictionary carrying on from page to page; DictionaryPage() is the
// chunk's dictionary page. A writer that falls back to another encoding when the dictionary fills
// uses PutUntilFull instead of Put.
template <typename T>
class DictionaryEncoder final : public Encoder<T> {
 public:
  explicit DictionaryEncoder(DictionaryOptions options = {}) requires(!std::is_same_v<T, ByteArray>)
      : DictionaryEncoder(kVariableLength, options, 0) {}
  // kVariableLength for BYTE_ARRAY, the column's type length for FIXED_LEN_BYTE_ARRAY.
  explicit DictionaryEncoder(int type_length = kVariableLength,
                             DictionaryOptions options = {}) requires(std::is_same_v<T, ByteArray>)
      : DictionaryEncoder(type_length, options, 0) {}
  ~DictionaryEncoder() override;
  DictionaryEncoder(DictionaryEncoder&&) noexcept;
  DictionaryEncoder& operator=(DictionaryEncoder&&) noexcept;

  // Takes values into the current data page. Returns how many were taken: fewer than values.size()
  // means a new entry would pass a limit; is_full() is then true, the values taken are in the page,
  // and the caller should finish the page and encode the rest another way. InvalidArgument for a
  // FIXED_LEN_BYTE_ARRAY value of the wrong length or a byte array over 2^31 - 1 bytes (nothing of
  // that call is taken then).
  absl::StatusOr<size_t> PutUntilFull(absl::Span<const T> values);

  // PutUntilFull for the Encoder<T> interface: ResourceExhausted when not every value was taken
  // (those before the first that did not fit are in the page), InvalidArgument as PutUntilFull.
  absl::Status Put(absl::Span<const T> values) override;

  // For writers whose input is already dictionary-encoded (another dictionary's entries plus
  // indices): each entry is looked up once with EntryIndex, and the values go into the page by
  // index with PutIndices, so that no value is hashed twice. Entries are added in the order of
  // the EntryIndex calls, so looking each entry up at its first value gives the dictionary Put of
  // the values would have built.
  //
  // Returns the index of `value`'s entry, adding the entry when it is new, without putting
  // anything into the page; -1 when a new entry would pass a limit (is_full() is then true, as it
  // is after PutUntilFull took fewer values than given: every later call returns -1).
  // InvalidArgument as PutUntilFull.
  absl::StatusOr<int64_t> EntryIndex(const T& value);
  // Puts values, given by the indices of their entries (from EntryIndex), into the current data
  // page. InvalidArgument, with nothing taken, for an index at or past num_entries().
  absl::Status PutIndices(absl::Span<const uint32_t> indices);

  bool is_full() const { return full_; }
  int64_t num_entries() const;
  // Bytes of the dictionary page body (PLAIN entries).
  int64_t dictionary_bytes() const { return dictionary_bytes_; }
  // Values in the current data page.
  int64_t buffered_values() const { return static_cast<int64_t>(indices_.size()); }
  // The current data page's values so far, as indices into entries().
  absl::Span<const uint32_t> page_indices() const { return indices_; }
  // The index bit width a data page finished now would use: bits for num_entries() - 1.
  int index_bit_width() const;
  // Bytes the current data page would have if finished now (an upper bound).
  size_t EstimatedSize() const override;

  // Appends the current data page's values section (bit width byte + hybrid indices) to `out` and
  // starts a new page. The dictionary carries on.
  void FinishInto(std::vector<uint8_t>* out) override;
  // Finish(), named for what it returns, beside DictionaryPage().
  std::vector<uint8_t> FinishDataPage() { return this->Finish(); }

  // The dictionary page body: every entry, PLAIN-encoded, in index order.
  std::vector<uint8_t> DictionaryPage() const;

  // The entries in index order (views for byte arrays, valid while the encoder lives).
  absl::Span<const T> entries() const;

 private:
  // The constructors above, after their constraint picked the public signature.
  DictionaryEncoder(int type_length, DictionaryOptions options, int /*tag*/);
  // InvalidArgument for byte arrays of a length the column cannot hold.
  absl::Status CheckLengths(absl::Span<const T> values) const;
  // The entry of `value`, added when new and within the limits; -1 (and full_) when it does not
  // fit.
  int64_t FindOrAdd(const T& value);

  int type_length_;
  DictionaryOptions options_;
  std::unique_ptr<internal::DictionaryIndex<T>> index_;
  std::vector<uint32_t> indices_;
  int64_t dictionary_bytes_ = 0;
  bool full_ = false;
};

// Reads dictionary-encoded data pages of one column chunk: SetDictionary once per chunk, then
// Reset, Decode and Skip per page as any Decoder<T>.
template <typename T>
class DictionaryDecoder final : public Decoder<T> {
 public:
  DictionaryDecoder() requires(!std::is_same_v<T, ByteArray>)
      : DictionaryDecoder(kVariableLength, 0) {}
  // kVariableLength for BYTE_ARRAY, the column's type length for FIXED_LEN_BYTE_ARRAY.
  explicit DictionaryDecoder(int type_length = kVariableLength) requires(
      std::is_same_v<T, ByteArray>)
      : DictionaryDecoder(type_length, 0) {}
  ~DictionaryDecoder() override;
  DictionaryDecoder(DictionaryDecoder&&) noexcept;
  DictionaryDecoder& operator=(DictionaryDecoder&&) noexcept;

  // Reads a dictionary page body of `num_entries` PLAIN entries. Byte-array entries are views into
  // `page`, which must outlive the decoder's use. DataLoss if num_entries is negative or more than
  // the page can hold (checked before anything is allocated) or an entry is truncated.
  absl::Status SetDictionary(absl::Span<const uint8_t> page, int64_t num_entries);
  // Uses already-decoded entries (copied; byte-array entries must outlive the decoder's use).
  void SetDictionary(absl::Span<const T> entries);

  absl::Span<const T> dictionary() const { return dictionary_; }

  // Starts a data page's values section holding `num_values` indices. DataLoss if the section is
  // empty while values are expected or its bit width byte is above 32; InvalidArgument if
  // num_values is negative.
  absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) override;

  int64_t values_left() const override { return values_left_; }

  // Decodes exactly out.size() values, resolving each index. DataLoss for an index outside the
  // dictionary (any index, before SetDictionary) or a stream that ends early; InvalidArgument for
  // more than values_left().
  absl::Status Decode(absl::Span<T> out) override;

  // Decodes exactly out.size() indices (bounds-checked like Decode), for engines that keep data
  // dictionary-encoded.
  absl::Status DecodeIndices(absl::Span<uint32_t> out);

  absl::Status Skip(int64_t count) override;

 private:
  DictionaryDecoder(int type_length, int /*tag*/);

  int type_length_;
  std::vector<T> dictionary_;
  std::unique_ptr<internal::HybridRunReader> reader_;
  int64_t values_left_ = 0;
};

extern template class DictionaryEncoder<int32_t>;
extern template class DictionaryEncoder<int64_t>;
extern template class DictionaryEncoder<Int96>;
extern template class DictionaryEncoder<float>;
extern template class DictionaryEncoder<double>;
extern template class DictionaryEncoder<ByteArray>;
extern template class DictionaryDecoder<int32_t>;
extern template class DictionaryDecoder<int64_t>;
extern template class DictionaryDecoder<Int96>;
extern template class DictionaryDecoder<float>;
extern template class DictionaryDecoder<double>;
extern template class DictionaryDecoder<ByteArray>;

}  // namespace pqpage

#endif  // PQPAGE_DICTIONARY_H_
