#include "pqpage/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace pqpage {
namespace {

absl::Status CheckRange(int64_t offset, size_t length, int64_t size) {
  if (offset < 0 || offset > size || static_cast<uint64_t>(size - offset) < length) {
    return absl::DataLossError(absl::StrCat("read of ", length, " bytes at offset ", offset,
                                            " runs past the end (", size, " bytes)"));
  }
  return absl::OkStatus();
}

class MemoryByteSource final : public ByteSource {
 public:
  explicit MemoryByteSource(absl::Span<const uint8_t> bytes) : bytes_(bytes) {}

  int64_t size() const override { return static_cast<int64_t>(bytes_.size()); }

  absl::Status ReadAt(int64_t offset, absl::Span<uint8_t> out) const override {
    absl::Status status = CheckRange(offset, out.size(), size());
    if (!status.ok()) return status;
    if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return absl::OkStatus();
  }

 private:
  absl::Span<const uint8_t> bytes_;
};

class FileByteSource final : public ByteSource {
 public:
  FileByteSource(int fd, int64_t size, std::string path)
      : fd_(fd), size_(size), path_(std::move(path)) {}
  ~FileByteSource() override { ::close(fd_); }

  int64_t size() const override { return size_; }

  absl::Status ReadAt(int64_t offset, absl::Span<uint8_t> out) const override {
    absl::Status status = CheckRange(offset, out.size(), size_);
    if (!status.ok()) return status;
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t got = ::pread(fd_, out.data() + done, out.size() - done,
                                  static_cast<off_t>(offset + static_cast<int64_t>(done)));
      if (got < 0) {
        if (errno == EINTR) continue;
        return absl::UnavailableError(absl::StrCat(path_, ": read failed: ", std::strerror(errno)));
      }
      if (got == 0) {
        return absl::DataLossError(absl::StrCat(path_, ": file shrank while being read"));
      }
      done += static_cast<size_t>(got);
    }
    return absl::OkStatus();
  }

 private:
  int fd_;
  int64_t size_;
  std::string path_;
};

}  // namespace

std::unique_ptr<ByteSource> MakeMemoryByteSource(absl::Span<const uint8_t> bytes) {
  return std::make_unique<MemoryByteSource>(bytes);
}

absl::StatusOr<std::unique_ptr<ByteSource>> OpenFileByteSource(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const std::string message = absl::StrCat(path, ": ", std::strerror(errno));
    if (errno == ENOENT) return absl::NotFoundError(message);
    if (errno == EACCES) return absl::PermissionDeniedError(message);
    return absl::UnavailableError(message);
  }
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
  }
  return std::make_unique<FileByteSource>(fd, static_cast<int64_t>(info.st_size), path);
}

}  // namespace pqpage
