// FIXED_LEN_BYTE_ARRAY values appended back to back, each checked to be type_length bytes: PLAIN's
// layout, and the order in which BYTE_STREAM_SPLIT buffers a page before transposing it. Both
// encoders take their values through these two functions.
#ifndef PQPAGE_ENCODINGS_FIXED_LENGTH_VALUES_H_
#define PQPAGE_ENCODINGS_FIXED_LENGTH_VALUES_H_

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "pqpage/types.h"

namespace pqpage::internal {

inline size_t ViewSize(const ByteArray& value) { return value.size; }
inline size_t ViewSize(std::string_view value) { return value.size(); }
inline const uint8_t* ViewData(const ByteArray& value) { return value.data; }
inline const uint8_t* ViewData(std::string_view value) {
  return reinterpret_cast<const uint8_t*>(value.data());
}

// InvalidArgument naming `encoding` unless type_length is positive.
inline absl::Status CheckTypeLength(const char* encoding, int type_length) {
  if (type_length > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(encoding, ": FIXED_LEN_BYTE_ARRAY type length ",
                                                 type_length, " is not positive"));
}

// Appends the values' bytes to `out`. InvalidArgument, with nothing appended, if type_length is not
// positive or a value's size differs from it. View is ByteArray or std::string_view.
template <typename View>
absl::Status AppendFixedLength(const char* encoding, absl::Span<const View> values, int type_length,
                               std::vector<uint8_t>* out) {
  if (absl::Status status = CheckTypeLength(encoding, type_length); !status.ok()) return status;
  const size_t width = static_cast<size_t>(type_length);
  for (const View& value : values) {
    if (ViewSize(value) != width) {
      return absl::InvalidArgumentError(absl::StrCat(encoding, ": FIXED_LEN_BYTE_ARRAY value of ",
                                                     ViewSize(value), " bytes, type length is ",
                                                     width));
    }
  }
  const size_t old_size = out->size();
  out->resize(old_size + values.size() * width);
  uint8_t* next = out->data() + old_size;
  for (const View& value : values) {
    std::memcpy(next, ViewData(value), width);
    next += width;
  }
  return absl::OkStatus();
}

// OK when `bytes` are whole values: InvalidArgument if type_length is not positive or bytes.size()
// is not a multiple of it.
inline absl::Status CheckFixedLengthBytes(const char* encoding, absl::Span<const uint8_t> bytes,
                                          int type_length) {
  if (absl::Status status = CheckTypeLength(encoding, type_length); !status.ok()) return status;
  if (bytes.size() % static_cast<size_t>(type_length) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(encoding, ": ", bytes.size(),
                                                   " bytes are not a whole number of ", type_length,
                                                   "-byte values"));
  }
  return absl::OkStatus();
}

// Appends values given as contiguous bytes. InvalidArgument, with nothing appended, if type_length
// is not positive or bytes.size() is not a multiple of it.
inline absl::Status AppendFixedLengthBytes(const char* encoding, absl::Span<const uint8_t> bytes,
                                           int type_length, std::vector<uint8_t>* out) {
  if (absl::Status status = CheckFixedLengthBytes(encoding, bytes, type_length); !status.ok()) {
    return status;
  }
  // insert copies without first zero-filling the new bytes, as resize would.
  out->insert(out->end(), bytes.begin(), bytes.end());
  return absl::OkStatus();
}

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_FIXED_LENGTH_VALUES_H_
