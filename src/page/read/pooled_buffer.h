// A buffer a column chunk reader takes from the reader pool (common/buffer_pool.h) when it first
// needs one and gives back when it is destroyed, so scanning many chunks allocates and page-faults
// its page buffers once instead of once per chunk.
#ifndef PQPAGE_PAGE_READ_POOLED_BUFFER_H_
#define PQPAGE_PAGE_READ_POOLED_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "common/buffer_pool.h"
#include "common/large_buffer.h"

namespace pqpage::internal {

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

#endif  // PQPAGE_PAGE_READ_POOLED_BUFFER_H_
