#include "codec/value_request.h"

#include "absl/strings/str_cat.h"

namespace pqpage::internal {

absl::Status ValueRequestError(const char* encoding, int64_t count, int64_t left) {
  if (count < 0) {
    return absl::InvalidArgumentError(absl::StrCat(encoding, ": negative count ", count));
  }
  return absl::InvalidArgumentError(
      absl::StrCat(encoding, ": asked for ", count, " values, only ", left, " left"));
}

}  // namespace pqpage::internal
