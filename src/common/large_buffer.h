// Growing the large byte buffers that readers and writers reuse (decompressed pages, read windows,
// finished chunks): a buffer that must grow does so by half again at least, without copying bytes
// the caller is about to overwrite, and asks the kernel for transparent huge pages for it. A
// multi-megabyte page otherwise costs one page fault per 4 KiB the first time it is written,
// which is a few percent of a scan; with huge pages it is one per 2 MiB.
#ifndef PQPAGE_COMMON_LARGE_BUFFER_H_
#define PQPAGE_COMMON_LARGE_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace pqpage::internal {

// Asks for transparent huge pages for the whole 2 MiB pages inside [data, data + size), before
// anything is written there. Advice only: a kernel without transparent huge pages, or one set to
// never, ignores it, and nothing changes but the number of page faults.
void AdviseHugePages(uint8_t* data, size_t size);

// Makes `buffer` able to hold `size` bytes. When its capacity is short, its contents are dropped
// (size 0) and it is reallocated to max(size, 1.5 x capacity); the size is left to the caller
// (resize), which then zero-fills only what it grows into. `size` must already be checked against
// the caller's limits: this allocates it.
void ReserveDiscarding(std::vector<uint8_t>* buffer, size_t size);

// ReserveDiscarding, then the buffer's first `size` bytes: it is lengthened to `size` when
// shorter (zero-filling only what it grows into) and never shortened, so a buffer reused for
// pages of different sizes keeps its largest length. For buffers the caller overwrites whole.
absl::Span<uint8_t> GrowDiscarding(std::vector<uint8_t>* buffer, size_t size);

// Makes `buffer` able to hold `size` bytes, keeping its contents: when its capacity is short it is
// reallocated to max(size, 1.5 x capacity) and its bytes copied over. For buffers that are
// appended to, like a column chunk's pages.
void ReserveKeeping(std::vector<uint8_t>* buffer, size_t size);

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_LARGE_BUFFER_H_
