#include "pqpage/orc/varint.h"

#include <string>

#include "absl/status/status.h"
#include "common/byte_reader.h"

namespace pqpage::orc {

size_t AppendVarint(uint64_t value, std::vector<uint8_t>* out) {
  const size_t before = out->size();
  internal::AppendUleb128(*out, value);
  return out->size() - before;
}

size_t AppendSignedVarint(int64_t value, std::vector<uint8_t>* out) {
  return AppendVarint(internal::ZigZagEncode(value), out);
}

size_t AppendSignedVarint128(absl::int128 value, std::vector<uint8_t>* out) {
  const absl::uint128 sign = value < 0 ? ~absl::uint128(0) : absl::uint128(0);
  absl::uint128 bits = (static_cast<absl::uint128>(value) << 1) ^ sign;
  size_t written = 1;
  while (bits >= 0x80) {
    out->push_back(static_cast<uint8_t>(absl::Uint128Low64(bits) | 0x80));
    bits >>= 7;
    ++written;
  }
  out->push_back(static_cast<uint8_t>(absl::Uint128Low64(bits)));
  return written;
}

size_t VarintSize(uint64_t value) {
  size_t size = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++size;
  }
  return size;
}

absl::StatusOr<uint64_t> ReadVarint(absl::Span<const uint8_t> data, size_t* position) {
  if (*position > data.size()) return absl::DataLossError("ORC varint: position past the data");
  internal::ByteReader reader(data.subspan(*position));
  absl::StatusOr<uint64_t> value = reader.ReadUleb64("an ORC varint");
  if (value.ok()) *position = static_cast<size_t>(reader.position() - data.data());
  return value;
}

absl::StatusOr<int64_t> ReadSignedVarint(absl::Span<const uint8_t> data, size_t* position) {
  absl::StatusOr<uint64_t> value = ReadVarint(data, position);
  if (!value.ok()) return value.status();
  return internal::ZigZagDecode(*value);
}

absl::StatusOr<absl::int128> ReadSignedVarint128(absl::Span<const uint8_t> data, size_t* position) {
  absl::uint128 bits = 0;
  size_t at = *position;
  for (int shift = 0; shift < 128; shift += 7) {
    if (at >= data.size()) {
      return absl::DataLossError("truncated ORC decimal varint at byte " + std::to_string(at));
    }
    const uint8_t byte = data[at++];
    const uint64_t group = byte & 0x7F;
    // The 19th byte may carry only the two bits 128 has left.
    if (shift + 7 > 128 && (group >> (128 - shift)) != 0) {
      return absl::DataLossError("ORC decimal varint of more than 128 bits at byte " +
                                 std::to_string(*position));
    }
    bits |= absl::uint128(group) << shift;
    if ((byte & 0x80) == 0) {
      *position = at;
      const absl::uint128 sign = (bits & 1) != 0 ? ~absl::uint128(0) : absl::uint128(0);
      return static_cast<absl::int128>((bits >> 1) ^ sign);
    }
  }
  return absl::DataLossError("ORC decimal varint longer than 19 bytes at byte " +
                             std::to_string(*position));
}

}  // namespace pqpage::orc
