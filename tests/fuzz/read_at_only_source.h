// A ByteSource over bytes in memory that does not say so (InMemory() is empty): readers then copy
// pages out with ReadAt through their read-ahead window, the path of files read with pread, which
// the fuzz targets would otherwise never reach since their input is in memory.
#ifndef PQPAGE_TESTS_FUZZ_READ_AT_ONLY_SOURCE_H_
#define PQPAGE_TESTS_FUZZ_READ_AT_ONLY_SOURCE_H_

#include <cstdint>
#include <memory>

#include "pqpage/byte_source.h"

namespace pqpage::fuzz {

class ReadAtOnlySource final : public ByteSource {
 public:
  explicit ReadAtOnlySource(absl::Span<const uint8_t> bytes)
      : memory_(MakeMemoryByteSource(bytes)) {}
  int64_t size() const override { return memory_->size(); }
  absl::Status ReadAt(int64_t offset, absl::Span<uint8_t> out) const override {
    return memory_->ReadAt(offset, out);
  }

 private:
  std::unique_ptr<ByteSource> memory_;
};

}  // namespace pqpage::fuzz

#endif  // PQPAGE_TESTS_FUZZ_READ_AT_ONLY_SOURCE_H_
