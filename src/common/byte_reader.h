// A bounds-checked cursor over an encoded buffer, with the ULEB128 and zigzag varints the Parquet
// encodings use for their headers. Every read either succeeds inside the buffer or returns a
// DataLoss error naming what was being read; a varint longer than its type allows is an error, so
// a stream of 0x80 bytes can never loop or overflow.
#ifndef PQPAGE_COMMON_BYTE_READER_H_
#define PQPAGE_COMMON_BYTE_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "common/byte_io.h"

namespace pqpage::internal {

inline uint64_t ZigZagEncode(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}
inline int64_t ZigZagDecode(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

// Appends the ULEB128 form of `value` to `out` (at most 10 bytes).
template <typename ByteBuffer>
inline void AppendUleb128(ByteBuffer& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

// Writes the ULEB128 form of `value` at `out`, which must have room for 10 bytes; returns the
// length.
inline size_t WriteUleb128(uint8_t* out, uint64_t value) {
  size_t n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  out[n++] = static_cast<uint8_t>(value);
  return n;
}

class ByteReader {
 public:
  ByteReader() = default;
  explicit ByteReader(absl::Span<const uint8_t> bytes)
      : position_(bytes.data()), end_(bytes.data() + bytes.size()) {}
  ByteReader(const uint8_t* begin, const uint8_t* end) : position_(begin), end_(end) {}

  const uint8_t* position() const { return position_; }
  const uint8_t* end() const { return end_; }
  size_t remaining() const { return static_cast<size_t>(end_ - position_); }
  absl::Span<const uint8_t> rest() const {
    return absl::Span<const uint8_t>(position_, remaining());
  }

  // Reads an unsigned LEB128 varint of at most `max_bits` significant bits (32 or 64).
  absl::StatusOr<uint64_t> ReadUleb128(int max_bits, const char* what) {
    uint64_t result = 0;
    for (int shift = 0; shift < max_bits; shift += 7) {
      if (position_ == end_) {
        return absl::DataLossError(std::string("truncated varint reading ") + what);
      }
      const uint8_t byte = *position_++;
      const uint64_t bits = byte & 0x7F;
      // The last byte may only carry the bits that are left; anything above overflows the type.
      if (shift > 0 && shift + 7 > max_bits && (bits >> (max_bits - shift)) != 0) {
        return absl::DataLossError(std::string("varint overflows ") + std::to_string(max_bits) +
                                   " bits reading " + what);
      }
      result |= bits << shift;
      if ((byte & 0x80) == 0) return result;
    }
    return absl::DataLossError(std::string("varint does not terminate reading ") + what);
  }

  absl::StatusOr<uint32_t> ReadUleb32(const char* what) {
    absl::StatusOr<uint64_t> value = ReadUleb128(32, what);
    if (!value.ok()) return value.status();
    return static_cast<uint32_t>(*value);
  }
  absl::StatusOr<uint64_t> ReadUleb64(const char* what) { return ReadUleb128(64, what); }
  absl::StatusOr<int64_t> ReadZigZag64(const char* what) {
    absl::StatusOr<uint64_t> value = ReadUleb128(64, what);
    if (!value.ok()) return value.status();
    return ZigZagDecode(*value);
  }

  absl::StatusOr<uint8_t> ReadByte(const char* what) {
    if (position_ == end_) return absl::DataLossError(std::string("truncated reading ") + what);
    return *position_++;
  }

  // Moves past `count` bytes the caller has already checked are there (count <= remaining()).
  void Advance(size_t count) { position_ += count; }

  // Returns a view of the next `count` bytes and moves past them.
  absl::StatusOr<const uint8_t*> ReadBytes(uint64_t count, const char* what) {
    if (count > remaining()) {
      return absl::DataLossError(std::string("truncated reading ") + what + ": needs " +
                                 std::to_string(count) + " bytes, " + std::to_string(remaining()) +
                                 " left");
    }
    const uint8_t* start = position_;
    position_ += count;
    return start;
  }

 private:
  const uint8_t* position_ = nullptr;
  const uint8_t* end_ = nullptr;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_BYTE_READER_H_
