// Decodes the values section of one data page, whatever encoding that page says it uses, and
// holds the column chunk's dictionary. Pages of one chunk may use different encodings (a
// dictionary fallback switches mid-chunk), so the encoding is dispatched per page, never per
// chunk.
#ifndef PQPAGE_PAGE_READ_PAGE_VALUE_DECODER_H_
#define PQPAGE_PAGE_READ_PAGE_VALUE_DECODER_H_

#include <cstdint>
#include <memory>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/types.h"

namespace pqpage::internal {

// The untyped face the page decoder keeps; the typed subclass is chosen by the column's physical
// type when the reader is made.
class PageValueDecoderBase {
 public:
  virtual ~PageValueDecoderBase() = default;

  // Reads a dictionary page body of `num_entries` PLAIN entries; `page` must stay alive as long as
  // the decoder (the reader keeps its own copy). Unimplemented for BOOLEAN.
  virtual absl::Status SetDictionary(absl::Span<const uint8_t> page, int64_t num_entries) = 0;
  virtual bool has_dictionary() const = 0;

  // Starts a page's values section holding `num_values` present values. Unimplemented for an
  // encoding the physical type cannot have; DataLoss for dictionary indices without a dictionary
  // and the codecs' own errors.
  virtual absl::Status StartPage(Encoding encoding, absl::Span<const uint8_t> data,
                                 int64_t num_values) = 0;
  bool dictionary_encoded() const { return dictionary_encoded_; }

  // Dictionary indices of a dictionary-encoded page, bounds-checked.
  virtual absl::Status DecodeIndices(uint32_t* out, int64_t count) = 0;
  // Passes over the next `count` values of the current page (rows an engine did not ask for).
  virtual absl::Status Skip(int64_t count) = 0;

 protected:
  bool dictionary_encoded_ = false;
};

template <typename T>
class PageValueDecoder : public PageValueDecoderBase {
 public:
  // Decodes exactly `count` values of the current page.
  virtual absl::Status Decode(T* out, int64_t count) = 0;
  virtual absl::Span<const T> dictionary() const = 0;
  // T = ByteArray only (InvalidArgument otherwise): decodes exactly `count` values of the current
  // page by copying them, as PlainDecoder<ByteArray>::DecodeCopies does, whatever the page's
  // encoding.
  virtual absl::Status DecodeCopies(int64_t count, int32_t* lengths,
                                    absl::FunctionRef<uint8_t*(size_t)> reserve) = 0;
};

// The decoder for `column`'s physical type: PageValueDecoder<T> with T = bool, int32_t, int64_t,
// Int96, float, double, or ByteArray (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY).
// `carry_delta_prefix` lets DELTA_BYTE_ARRAY pages continue the previous page's last value (a
// legacy writer's bug; see file/writer_quirks.h).
std::unique_ptr<PageValueDecoderBase> MakePageValueDecoder(const ColumnDescriptor& column,
                                                           bool carry_delta_prefix = false);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_READ_PAGE_VALUE_DECODER_H_
