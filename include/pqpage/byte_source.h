// Where the page decoder reads a column chunk's bytes from: a buffer already in memory, a file
// read piece by piece with pread (so that scanning a file never needs more than one page of it in
// memory at a time), or a file mapped into memory (so that pages are decoded where they lie,
// without a copy).
//
// Errors: DataLoss when a read asks for bytes past the end of the source (the file or buffer is
// shorter than the metadata says); Unavailable when the operating system reports a read error;
// NotFound / PermissionDenied when a file cannot be opened.
#ifndef PQPAGE_BYTE_SOURCE_H_
#define PQPAGE_BYTE_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pqpage {

class ByteSource {
 public:
  virtual ~ByteSource() = default;

  // Total bytes in the source.
  virtual int64_t size() const = 0;

  // Fills `out` with the bytes at [offset, offset + out.size()). DataLoss if that range is not
  // inside [0, size()). Must be safe to call from several threads at once, as the sources below
  // are (pread has no shared file position): readers of different chunks share one source.
  virtual absl::Status ReadAt(int64_t offset, absl::Span<uint8_t> out) const = 0;

  // All size() bytes, when the source holds them in memory (a memory source, a mapped file), so
  // that readers use them in place instead of copying them out with ReadAt; empty for a source
  // read piece by piece (and for an empty one). The bytes live as long as the source.
  virtual absl::Span<const uint8_t> InMemory() const { return {}; }
};

// A view of bytes owned by the caller, which must outlive the source.
std::unique_ptr<ByteSource> MakeMemoryByteSource(absl::Span<const uint8_t> bytes);

// A file opened for reading; it is closed when the source is destroyed.
absl::StatusOr<std::unique_ptr<ByteSource>> OpenFileByteSource(const std::string& path);

// A file mapped read-only into memory (mmap); it is unmapped when the source is destroyed. Pages
// are read from the page cache without a copy, which saves the time of the read system calls on
// uncompressed files. The file must not shrink while it is mapped: touching a page past its new
// end raises SIGBUS, which no error status can report. Errors as for OpenFileByteSource, and
// Unavailable when the mapping fails.
absl::StatusOr<std::unique_ptr<ByteSource>> OpenMappedFileByteSource(const std::string& path);

// Whether the paths `a` and `b` name one existing file (the same device and inode, so that a hard
// link or a symbolic link to the file counts as the file). Writers of a new file check it before
// creating their output, which would otherwise truncate the input before it is read.
// @return true when both exist and are the same file; false when they are different files or
// either cannot be looked up (an output that does not exist yet is not the input; one that
// cannot be looked up for another reason fails when it is created, with its own error).
bool IsSameFile(const std::string& a, const std::string& b);

}  // namespace pqpage

#endif  // PQPAGE_BYTE_SOURCE_H_
