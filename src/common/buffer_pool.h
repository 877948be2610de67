// The byte buffers readers and writers keep between column chunks, so that scanning or writing many
// chunks (of one file or of many, on any thread) allocates and page-faults its large buffers once
// instead of once per chunk, and does not zero-fill them again: a recycled buffer keeps its size,
// and is only regrown (common/large_buffer.h) for more than it held before. Readers keep their
// decompressed pages, dictionary pages and read windows in one pool (page/read/pooled_buffer.h);
// writers their finished pages and chunks in another.
#ifndef PQPAGE_COMMON_BUFFER_POOL_H_
#define PQPAGE_COMMON_BUFFER_POOL_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

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

// The process's pool of reader buffers, shared by every column chunk reader.
BufferPool& ReaderBufferPool();
// The process's pool of writer buffers: the blocks a column chunk writer keeps its finished data
// pages in, and the finished chunks' bytes once a file writer has written them.
BufferPool& WriterBufferPool();

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_BUFFER_POOL_H_
