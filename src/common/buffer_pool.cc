#include "common/buffer_pool.h"

#include <utility>

namespace pqpage::internal {

std::vector<uint8_t> BufferPool::Take(size_t size_hint) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (kept_.empty()) return {};
  // A few dozen buffers at most: a scan finds the best fit quickly.
  size_t best = 0;
  for (size_t i = 1; i < kept_.size(); ++i) {
    const size_t capacity = kept_[i].capacity();
    const size_t best_capacity = kept_[best].capacity();
    const bool fits = capacity >= size_hint;
    const bool best_fits = best_capacity >= size_hint;
    if (fits ? (!best_fits || capacity < best_capacity)
             : (!best_fits && capacity > best_capacity)) {
      best = i;
    }
  }
  std::vector<uint8_t> buffer = std::move(kept_[best]);
  kept_[best] = std::move(kept_.back());
  kept_.pop_back();
  kept_bytes_ -= buffer.capacity();
  return buffer;
}

void BufferPool::Give(std::vector<uint8_t> buffer) {
  const size_t capacity = buffer.capacity();
  if (capacity == 0 || capacity > kMaxKeptBufferBytes) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (kept_bytes_ + capacity > kMaxKeptBytes || kept_.size() >= kMaxKeptBuffers) {
    return;  // freed when `buffer` goes
  }
  kept_bytes_ += capacity;
  kept_.push_back(std::move(buffer));
}

void BufferPool::Release() {
  std::vector<std::vector<uint8_t>> freed;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    freed.swap(kept_);
    kept_bytes_ = 0;
  }
}

size_t BufferPool::kept_bytes() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return kept_bytes_;
}

// Never destroyed: readers and writers in static objects may give buffers back during exit.
BufferPool& ReaderBufferPool() {
  static BufferPool* const pool = new BufferPool();
  return *pool;
}

BufferPool& WriterBufferPool() {
  static BufferPool* const pool = new BufferPool();
  return *pool;
}

}  // namespace pqpage::internal
