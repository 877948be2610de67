// ORC's base 128 varints: the protobuf form (7 bits a byte, least significant group first, the
// high bit set on every byte but the last), unsigned or zigzag-signed, in 64 bits for integer RLE
// version 1 and in 128 bits for the unbounded varints of decimal columns (38 digits need 127 bits
// and a sign). Readers are bounded: a varint longer than its type allows, or one that runs off the
// end of the data, is DataLoss, so no input can make them loop or overflow.
#ifndef PQPAGE_ORC_VARINT_H_
#define PQPAGE_ORC_VARINT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pqpage::orc {

// The most bytes a varint of 64 bits takes (ceil(64 / 7)), and of 128 bits (ceil(128 / 7)).
inline constexpr size_t kMaxVarint64Bytes = 10;
inline constexpr size_t kMaxVarint128Bytes = 19;

// Appends `value` as an unsigned varint; @return the bytes appended (1..10).
size_t AppendVarint(uint64_t value, std::vector<uint8_t>* out);
// Appends the zigzag form of `value` (0, -1, 1, -2 -> 0, 1, 2, 3, so that small magnitudes stay
// small); @return the bytes appended (1..10).
size_t AppendSignedVarint(int64_t value, std::vector<uint8_t>* out);
// Appends the zigzag form of a 128-bit `value` (a decimal's unscaled integer); @return the bytes
// appended (1..19).
size_t AppendSignedVarint128(absl::int128 value, std::vector<uint8_t>* out);

// The bytes AppendVarint would append for `value`.
size_t VarintSize(uint64_t value);

// Reads an unsigned varint at data[*position] and moves *position past it.
// @return the value; DataLoss if the varint is truncated or carries more than 64 bits (then
// *position is unspecified).
absl::StatusOr<uint64_t> ReadVarint(absl::Span<const uint8_t> data, size_t* position);
// ReadVarint, then undoes the zigzag.
absl::StatusOr<int64_t> ReadSignedVarint(absl::Span<const uint8_t> data, size_t* position);
// Reads a zigzag varint of up to 128 bits (a decimal's unbounded varint).
// @return the value; DataLoss if it is truncated or carries more than 128 bits.
absl::StatusOr<absl::int128> ReadSignedVarint128(absl::Span<const uint8_t> data, size_t* position);

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_VARINT_H_
