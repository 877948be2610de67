#include "arrow/buffer_recycler.h"

#include <memory>
#include <mutex>
#include <new>
#include <utility>

#include "common/large_buffer.h"

namespace pqpage::arrow_internal {
namespace {

std::shared_ptr<BufferRecycler>& CurrentSlot() {
  thread_local std::shared_ptr<BufferRecycler> current;
  return current;
}

}  // namespace

BufferRecycler::~BufferRecycler() {
  for (const auto& [capacity, block] : kept_) Free(block);
}

uint8_t* BufferRecycler::Take(size_t bytes, size_t* capacity) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = kept_.lower_bound(bytes);
  if (found == kept_.end() || found->first / 2 > bytes) return nullptr;
  *capacity = found->first;
  uint8_t* block = found->second;
  kept_bytes_ -= found->first;
  kept_.erase(found);
  return block;
}

void BufferRecycler::Give(uint8_t* block, size_t capacity) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (kept_bytes_ + capacity <= max_kept_bytes_) {
      kept_.emplace(capacity, block);
      kept_bytes_ += capacity;
      return;
    }
  }
  Free(block);
}

uint8_t* BufferRecycler::Allocate(size_t capacity) {
  auto* block = static_cast<uint8_t*>(::operator new(capacity, std::align_val_t(kAlignment)));
  // A batch's large buffers are written whole right away: in huge pages that is one fault per
  // 2 MiB instead of one per 4 KiB.
  internal::AdviseHugePages(block, capacity);
  return block;
}

void BufferRecycler::Free(uint8_t* block) {
  ::operator delete(block, std::align_val_t(kAlignment));
}

const std::shared_ptr<BufferRecycler>& BufferRecycler::Current() { return CurrentSlot(); }

BufferRecycler::Scope::Scope(std::shared_ptr<BufferRecycler> recycler)
    : previous_(std::exchange(CurrentSlot(), std::move(recycler))) {}

BufferRecycler::Scope::~Scope() { CurrentSlot() = std::move(previous_); }

}  // namespace pqpage::arrow_internal
