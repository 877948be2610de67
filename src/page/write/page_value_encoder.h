// One data page's values section in one non-dictionary encoding, behind one interface, so the page
// builder can switch encodings per chunk (explicit policies, dictionary fallback, the v2 trial of
// every candidate). The codecs come from the codec factory (pqpage/codec.h); what is added here is
// the page builder's own concern: the encoding a page's header names, and the trial. Dictionary
// encoding is not here: its dictionary outlives pages and falls back when full, so the page
// builder drives DictionaryEncoder directly.
#ifndef PQPAGE_PAGE_WRITE_PAGE_VALUE_ENCODER_H_
#define PQPAGE_PAGE_WRITE_PAGE_VALUE_ENCODER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "page/choice/encoding_measure.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/compression.h"
#include "pqpage/types.h"

namespace pqpage::internal {

// An upper bound (for page sizing) on what one value adds to any encoding of its page.
template <typename T>
int64_t ValueBound(const T& value) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return 5 + int64_t{value.size};
  } else if constexpr (std::is_same_v<T, bool>) {
    return 1;
  } else {
    return static_cast<int64_t>(sizeof(T)) + 1;
  }
}

// T is bool, int32_t, int64_t, Int96, float, double or ByteArray (BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY).
template <typename T>
class PageValueEncoder {
 public:
  virtual ~PageValueEncoder() = default;

  // The encoding the finished page's header must name. For the trial encoder, the candidate it
  // chose; meaningful once a page was finished.
  virtual Encoding encoding() const = 0;

  // Appends values. InvalidArgument for a byte array the encoding cannot store (the page builder
  // checks values first, so this is not expected).
  virtual absl::Status Put(absl::Span<const T> values) = 0;

  // Bytes the values section would take if finished now (an estimate; for page sizing).
  virtual size_t EstimatedSize() const = 0;

  // Appends the values section to `out` and starts a new page.
  virtual absl::Status FinishInto(std::vector<uint8_t>* out) = 0;
};

// A fresh encoder for `encoding`, which must be allowed for the column's type (EncodingAllowed).
// Unimplemented for dictionary encodings and combinations that are not allowed.
template <typename T>
absl::StatusOr<std::unique_ptr<PageValueEncoder<T>>> MakePageValueEncoder(
    Encoding encoding, const ColumnDescriptor& column);

// Encodes the first page it is given with every candidate at once and keeps, from then on, the
// one ChooseEncoding picks from their values sections as the page would store them (`setup`):
// the smallest, or the fastest to decode within `tie_margin` of it; on a tie the earlier
// candidate. For page sizing it reports the smallest estimate among the candidates. (After a
// dictionary fallback the first page always holds the value the dictionary could not take, so
// the trial never judges a page of nulls.)
template <typename T>
absl::StatusOr<std::unique_ptr<PageValueEncoder<T>>> MakeTrialPageValueEncoder(
    const std::vector<Encoding>& candidates, const ColumnDescriptor& column, const PageSetup& setup,
    double tie_margin);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_PAGE_VALUE_ENCODER_H_
