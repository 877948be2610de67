#include "common/large_buffer.h"

#include <sys/mman.h>

#include <algorithm>

namespace pqpage::internal {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

// An empty buffer of at least max(size, 1.5 x capacity) bytes' capacity, huge pages advised.
std::vector<uint8_t> Larger(size_t capacity, size_t size) {
  std::vector<uint8_t> larger;
  larger.reserve(std::max(size, capacity + capacity / 2));
  if (larger.capacity() >= 2 * kHugePage) AdviseHugePages(larger.data(), larger.capacity());
  return larger;
}

}  // namespace

void AdviseHugePages(uint8_t* data, size_t size) {
  const auto begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = (begin + size) & ~(kHugePage - 1);
  if (last <= first) return;
  (void)madvise(data + (first - begin), last - first, MADV_HUGEPAGE);
}

void ReserveDiscarding(std::vector<uint8_t>* buffer, size_t size) {
  if (buffer->capacity() >= size) return;
  *buffer = Larger(buffer->capacity(), size);
}

absl::Span<uint8_t> GrowDiscarding(std::vector<uint8_t>* buffer, size_t size) {
  ReserveDiscarding(buffer, size);
  if (buffer->size() < size) buffer->resize(size);
  return absl::MakeSpan(buffer->data(), size);
}

void ReserveKeeping(std::vector<uint8_t>* buffer, size_t size) {
  if (buffer->capacity() >= size) return;
  std::vector<uint8_t> larger = Larger(buffer->capacity(), size);
  larger.insert(larger.end(), buffer->begin(), buffer->end());
  buffer->swap(larger);
}

}  // namespace pqpage::internal
