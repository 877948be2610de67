// A growable byte buffer whose storage is 64-byte aligned and padded to a multiple of 64 bytes, as
// the Arrow format recommends, so arrays handed out through the C Data Interface can be used with
// aligned SIMD loads by any consumer. Its blocks come from, and go back to, the recycler current
// on the thread that first gave it storage (buffer_recycler.h), when there is one.
#ifndef PQPAGE_SRC_ARROW_ARROW_BUFFER_H_
#define PQPAGE_SRC_ARROW_ARROW_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

#include "arrow/buffer_recycler.h"

namespace pqpage::arrow_internal {

class ArrowBuffer {
 public:
  static constexpr size_t kAlignment = 64;

  ArrowBuffer() = default;
  ~ArrowBuffer() { Free(); }
  ArrowBuffer(const ArrowBuffer&) = delete;
  ArrowBuffer& operator=(const ArrowBuffer&) = delete;
  ArrowBuffer(ArrowBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)),
        recycler_(std::move(other.recycler_)) {}
  ArrowBuffer& operator=(ArrowBuffer&& other) noexcept {
    if (this != &other) {
      Free();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
      recycler_ = std::move(other.recycler_);
    }
    return *this;
  }

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  template <typename T>
  T* As() {
    return reinterpret_cast<T*>(data_);
  }
  template <typename T>
  const T* As() const {
    return reinterpret_cast<const T*>(data_);
  }

  // Makes room for `capacity` bytes, keeping the contents. Throws std::bad_alloc like any
  // container; callers size buffers only from counts already bounded by the pages they read.
  void Reserve(size_t capacity) {
    if (capacity <= capacity_) return;
    size_t grown = capacity_ + capacity_ / 2;
    if (grown < capacity) grown = capacity;
    grown = (grown + kAlignment - 1) / kAlignment * kAlignment;
    if (data_ == nullptr) recycler_ = BufferRecycler::Current();
    uint8_t* bigger = recycler_ != nullptr ? recycler_->Take(grown, &grown) : nullptr;
    if (bigger == nullptr) bigger = BufferRecycler::Allocate(grown);
    if (size_ > 0) std::memcpy(bigger, data_, size_);
    Release();
    data_ = bigger;
    capacity_ = grown;
  }
  // Sets the size, growing the storage when needed; new bytes are zero.
  void Resize(size_t size) {
    Reserve(size);
    if (size > size_) std::memset(data_ + size_, 0, size - size_);
    size_ = size;
  }
  // Sets the size without zeroing new bytes: for a buffer about to be written over.
  void ResizeUninitialized(size_t size) {
    Reserve(size);
    size_ = size;
  }
  // Zeroes the bytes from the size to the next multiple of 64, so that no byte of the aligned
  // block handed out is uninitialised.
  void ZeroPadding() {
    const size_t padded = (size_ + kAlignment - 1) / kAlignment * kAlignment;
    if (padded > size_) std::memset(data_ + size_, 0, padded - size_);
  }
  void Append(const void* bytes, size_t count) {
    if (count == 0) return;
    Reserve(size_ + count);
    std::memcpy(data_ + size_, bytes, count);
    size_ += count;
  }
  void Clear() { size_ = 0; }

 private:
  // Gives the block back (to its recycler, or to the allocator) and keeps the size.
  void Release() {
    if (data_ == nullptr) return;
    if (recycler_ != nullptr) {
      recycler_->Give(data_, capacity_);
    } else {
      BufferRecycler::Free(data_);
    }
    data_ = nullptr;
    capacity_ = 0;
  }
  void Free() {
    Release();
    size_ = 0;
    recycler_ = nullptr;
  }

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::shared_ptr<BufferRecycler> recycler_;
};

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_ARROW_BUFFER_H_
