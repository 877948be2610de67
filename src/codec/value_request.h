// The precondition every decoder checks before Decode and Skip: a request for `count` values when
// `left` remain must be neither negative nor more than is left. One inline test on the hot path;
// the error message is built out of line.
#ifndef PQPAGE_CODEC_VALUE_REQUEST_H_
#define PQPAGE_CODEC_VALUE_REQUEST_H_

#include <cstdint>

#include "absl/status/status.h"

namespace pqpage::internal {

// InvalidArgument naming `encoding`, the request and what is left.
absl::Status ValueRequestError(const char* encoding, int64_t count, int64_t left);

inline absl::Status CheckValueRequest(const char* encoding, int64_t count, int64_t left) {
  if (count < 0 || count > left) [[unlikely]] {
    return ValueRequestError(encoding, count, left);
  }
  return absl::OkStatus();
}

// For output spans: their size cannot be negative and never exceeds INT64_MAX.
inline absl::Status CheckValueRequest(const char* encoding, size_t count, int64_t left) {
  return CheckValueRequest(encoding, static_cast<int64_t>(count), left);
}

}  // namespace pqpage::internal

#endif  // PQPAGE_CODEC_VALUE_REQUEST_H_
