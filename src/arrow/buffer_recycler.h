// Memory blocks of released Arrow arrays kept for the next batches of the same stream. A reader
// hands out a batch, the consumer releases it, the reader builds the next: without reuse every
// batch's buffers are fresh pages the kernel must fault in and clear, which costs about as much
// as decoding an uncompressed file. Blocks return here when an array is released (on any thread,
// after the stream too: each buffer holds the recycler it came from) and are taken again by the
// buffers of the next batch, up to a bound on the bytes kept.
#ifndef PQPAGE_SRC_ARROW_BUFFER_RECYCLER_H_
#define PQPAGE_SRC_ARROW_BUFFER_RECYCLER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace pqpage::arrow_internal {

class BufferRecycler {
 public:
  static constexpr size_t kAlignment = 64;

  explicit BufferRecycler(size_t max_kept_bytes) : max_kept_bytes_(max_kept_bytes) {}
  ~BufferRecycler();
  BufferRecycler(const BufferRecycler&) = delete;
  BufferRecycler& operator=(const BufferRecycler&) = delete;

  // A kept block of at least `bytes` and at most twice that (so a small buffer does not hold a
  // large block), its capacity in `*capacity`; nullptr when none fits.
  uint8_t* Take(size_t bytes, size_t* capacity);
  // Keeps `block` (of `capacity` bytes, from Allocate) for reuse, or frees it when the bound is
  // reached.
  void Give(uint8_t* block, size_t capacity);

  // 64-byte aligned blocks, as every buffer's.
  static uint8_t* Allocate(size_t capacity);
  static void Free(uint8_t* block);

  // The recycler the buffers created on this thread take their blocks from (none by default);
  // a reader sets it around the work of a batch (Scope).
  static const std::shared_ptr<BufferRecycler>& Current();
  class Scope {
   public:
    explicit Scope(std::shared_ptr<BufferRecycler> recycler);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::shared_ptr<BufferRecycler> previous_;
  };

 private:
  std::mutex mutex_;
  std::multimap<size_t, uint8_t*> kept_;  // by capacity
  size_t kept_bytes_ = 0;
  size_t max_kept_bytes_;
};

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_BUFFER_RECYCLER_H_
