// Handing a finished page from an encoder's buffer to the caller's output. When the output is
// empty (the common Finish() case) the storage is swapped rather than copied, so a page is never
// copied just to return it; otherwise the bytes are appended. The buffer is left empty.
#ifndef PQPAGE_COMMON_BYTE_BUFFER_H_
#define PQPAGE_COMMON_BYTE_BUFFER_H_

#include <cstdint>
#include <vector>

namespace pqpage::internal {

inline void AppendAndClear(std::vector<uint8_t>* buffer, std::vector<uint8_t>* out) {
  if (out->empty()) {
    out->swap(*buffer);
  } else {
    out->insert(out->end(), buffer->begin(), buffer->end());
  }
  buffer->clear();
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_BYTE_BUFFER_H_
