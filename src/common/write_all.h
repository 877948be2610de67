// Writing a whole buffer to a file descriptor: write(2) may write less than asked, or be
// interrupted by a signal before writing anything, so the Parquet and ORC file writers both loop
// until every byte is out.
#ifndef PQPAGE_COMMON_WRITE_ALL_H_
#define PQPAGE_COMMON_WRITE_ALL_H_

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"

namespace pqpage::internal {

// Writes all of `bytes` to `fd`. Unavailable, naming `path` and the system's reason, when a
// write fails (some of the bytes may be written then).
inline absl::Status WriteAll(int fd, absl::Span<const uint8_t> bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(absl::StrCat(path, ": cannot write: ", std::strerror(errno)));
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_WRITE_ALL_H_
