// The byte buffers page readers keep between column chunks: decompressed pages, dictionary pages
// and read windows. A reader takes its buffers from the pool when it starts and gives them back
// when it is destroyed, so scanning many chunks (of one file or of many, on any thread) allocates
// and page-faults its buffers once instead of once per chunk, and their bytes are not zero-filled
// again: a recycled buffer keeps its size, and is only regrown (common/large_buffer.h) for a page
// larger than any before.
#ifndef PQPAGE_PAGE_READ_BUFFER_POOL_H_
#define PQPAGE_PAGE_READ_BUFFER_POOL_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "common/large_buffer.h"

namespace pqpage::internal {

class BufferPool {
 public:
  // Buffers larger than this are freed rather than kept: one page of a GiB should not stay
  // allocated for the life of the process.
  static constexpr size_t kMaxKeptBufferBytes = size_t{64} << 20;
  // At most this many bytes of capacity, and this many buffers, are kept in all.
  static constexpr size_t kMaxKeptBytes = size_t{256} << 20;
  static constexpr size_t kMaxKeptBuffers = 64;

  // The kept buffer that fits `size_hint` best (the smallest holding that many bytes, else the
  // largest), or an empty one. Its contents are whatever its last user left: the caller tracks
  // which bytes it has written.
  std::vector<uint8_t> Take(size_t size_hint);
  // Keeps `buffer` for a later Take, unless it is empty, too large, or the pool is full.
  void Give(std::vector<uint8_t> buffer);
  // Frees every kept buffer.
  void Release();
  // Capacity kept, in bytes (for tests).
  size_t kept_bytes() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::vector<uint8_t>> kept_;
  size_t kept_bytes_ = 0;
};

// The process's pool, shared by every reader.
BufferPool& ReaderBufferPool();

// A buffer from the reader pool, taken when first needed (a reader that never decompresses takes
// none) and given back when this is destroyed; movable.
class PooledBuffer {
 public:
  PooledBuffer() = default;
  ~PooledBuffer() { GiveBack(); }
  PooledBuffer(PooledBuffer&& other) noexcept
      : bytes_(std::move(other.bytes_)), taken_(std::exchange(other.taken_, false)) {}
  PooledBuffer& operator=(PooledBuffer&& other) noexcept {
    if (this != &other) {
      GiveBack();
      bytes_ = std::move(other.bytes_);
      taken_ = std::exchange(other.taken_, false);
    }
    return *this;
  }
  PooledBuffer(const PooledBuffer&) = delete;
  PooledBuffer& operator=(const PooledBuffer&) = delete;

  // The buffer, taken from the pool the first time to fit `size_hint` bytes. Not resized: callers
  // resize it (which fills only what grows past its current size) once they checked the size.
  std::vector<uint8_t>& Get(size_t size_hint) {
    if (!taken_) {
      bytes_ = ReaderBufferPool().Take(size_hint);
      taken_ = true;
    }
    return bytes_;
  }
  // The buffer's first `size` bytes, for a size already checked: it is taken as Get does and
  // grown as GrowDiscarding grows it (never shrunk; what it held before may be gone).
  absl::Span<uint8_t> Grow(size_t size) { return GrowDiscarding(&Get(size), size); }
  // The buffer as it is (empty before the first Get).
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  void GiveBack() {
    if (taken_) ReaderBufferPool().Give(std::move(bytes_));
    taken_ = false;
  }
  std::vector<uint8_t> bytes_;
  bool taken_ = false;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_READ_BUFFER_POOL_H_
