// Little-endian loads and stores through memcpy: the only way the codecs touch multi-byte values in
// a byte buffer, so that unaligned access is defined behaviour and compiles to a single move.
#ifndef PQPAGE_COMMON_BYTE_IO_H_
#define PQPAGE_COMMON_BYTE_IO_H_

#include <bit>
#include <cstdint>
#include <cstring>

namespace pqpage::internal {

static_assert(std::endian::native == std::endian::little,
              "pqpage assumes a little-endian host, as Parquet's PLAIN layout is little-endian");

template <typename T>
inline T LoadLittleEndian(const void* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

template <typename T>
inline void StoreLittleEndian(void* bytes, T value) {
  std::memcpy(bytes, &value, sizeof(T));
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_BYTE_IO_H_
