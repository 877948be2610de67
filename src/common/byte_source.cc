#include "pqpage/byte_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

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
    return CopyOut(bytes_, offset, out);
  }

  absl::Span<const uint8_t> InMemory() const override { return bytes_; }

  // ReadAt of a source whose bytes are all in memory.
  static absl::Status CopyOut(absl::Span<const uint8_t> bytes, int64_t offset,
                              absl::Span<uint8_t> out) {
    absl::Status status = CheckRange(offset, out.size(), static_cast<int64_t>(bytes.size()));
    if (!status.ok()) return status;
    if (!out.empty()) std::memcpy(out.data(), bytes.data() + offset, out.size());
    return absl::OkStatus();
  }

 private:
  absl::Span<const uint8_t> bytes_;
};

class MappedFileByteSource final : public ByteSource {
 public:
  // `address` is the mapping of all `size` bytes (nullptr for an empty file, which mmap refuses).
  MappedFileByteSource(void* address, int64_t size) : address_(address), size_(size) {}
  ~MappedFileByteSource() override {
    if (address_ != nullptr) ::munmap(address_, static_cast<size_t>(size_));
  }

  int64_t size() const override { return size_; }

  absl::Status ReadAt(int64_t offset, absl::Span<uint8_t> out) const override {
    return MemoryByteSource::CopyOut(InMemory(), offset, out);
  }

  absl::Span<const uint8_t> InMemory() const override {
    if (address_ == nullptr) return {};
    return absl::MakeConstSpan(static_cast<const uint8_t*>(address_), static_cast<size_t>(size_));
  }

 private:
  void* address_;
  int64_t size_;
};

// Opens `path` for reading and returns the descriptor and the file's size.
absl::StatusOr<std::pair<int, int64_t>> OpenRegularFile(const std::string& path) {
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
  return std::make_pair(fd, static_cast<int64_t>(info.st_size));
}

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
  absl::StatusOr<std::pair<int, int64_t>> file = OpenRegularFile(path);
  if (!file.ok()) return file.status();
  return std::make_unique<FileByteSource>(file->first, file->second, path);
}

absl::StatusOr<std::unique_ptr<ByteSource>> OpenMappedFileByteSource(const std::string& path) {
  absl::StatusOr<std::pair<int, int64_t>> file = OpenRegularFile(path);
  if (!file.ok()) return file.status();
  const auto [fd, size] = *file;
  void* address = nullptr;
  if (size > 0) {
    address = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) {
      const std::string message = absl::StrCat(path, ": cannot map: ", std::strerror(errno));
      ::close(fd);
      return absl::UnavailableError(message);
    }
  }
  ::close(fd);  // the mapping keeps the file
  return std::make_unique<MappedFileByteSource>(address, size);
}

bool IsSameFile(const std::string& a, const std::string& b) {
  struct stat sa;
  struct stat sb;
  if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace pqpage
