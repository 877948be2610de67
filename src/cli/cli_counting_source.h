// A ByteSource that counts the bytes read through it, so that `pqpage scan` can say how much of a
// file a scan touched (with --rows and a page index, a small part of it).
#ifndef PQPAGE_CLI_CLI_COUNTING_SOURCE_H_
#define PQPAGE_CLI_CLI_COUNTING_SOURCE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

#include "pqpage/byte_source.h"

namespace pqpage::cli {

class CountingByteSource final : public ByteSource {
 public:
  explicit CountingByteSource(std::unique_ptr<ByteSource> source) : source_(std::move(source)) {}

  int64_t size() const override { return source_->size(); }
  absl::Status ReadAt(int64_t offset, absl::Span<uint8_t> out) const override {
    bytes_read_ += static_cast<int64_t>(out.size());
    return source_->ReadAt(offset, out);
  }
  // A source in memory is used in place, without reads: nothing is counted for it.
  absl::Span<const uint8_t> InMemory() const override { return source_->InMemory(); }

  // Bytes asked for through ReadAt so far, by every thread.
  int64_t bytes_read() const { return bytes_read_.load(); }

 private:
  std::unique_ptr<ByteSource> source_;
  mutable std::atomic<int64_t> bytes_read_{0};
};

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_COUNTING_SOURCE_H_
