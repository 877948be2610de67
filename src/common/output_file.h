// The output file of the Parquet and ORC file writers: created (or truncated) with the errors a
// caller can act on told apart, and written to the last byte, since write(2) may write less than
// asked, or be interrupted by a signal before writing anything.
#ifndef PQPAGE_COMMON_OUTPUT_FILE_H_
#define PQPAGE_COMMON_OUTPUT_FILE_H_

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"

namespace pqpage::internal {

// Creates or truncates the file at `path` for writing. @return its descriptor; NotFound when a
// folder on the path does not exist, PermissionDenied when it may not be written, Unavailable for
// any other failure.
inline absl::StatusOr<int> CreateOutputFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0) return fd;
  const int error = errno;
  const std::string message = absl::StrCat(path, ": cannot create: ", std::strerror(error));
  if (error == ENOENT) return absl::NotFoundError(message);
  if (error == EACCES || error == EPERM) return absl::PermissionDeniedError(message);
  return absl::UnavailableError(message);
}

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

#endif  // PQPAGE_COMMON_OUTPUT_FILE_H_
