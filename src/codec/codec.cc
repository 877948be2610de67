// The codec interface's parts written once for every codec (the spaced forms, with nulls given as
// a validity bitmap, and Finish), instantiated for every value type of both families.
#include "pqpage/codec.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "codec/bitmap_writer.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

// InvalidArgument unless `validity` holds bits [offset, offset + slots).
absl::Status CheckValidity(const char* what, size_t slots, absl::Span<const uint8_t> validity,
                           int64_t offset) {
  if (offset < 0 || static_cast<uint64_t>(validity.size()) * 8 <
                        static_cast<uint64_t>(offset) + static_cast<uint64_t>(slots)) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": validity of ", validity.size(),
                                                   " bytes for ", slots, " slots at bit offset ",
                                                   offset));
  }
  return absl::OkStatus();
}

inline bool BitIsSet(const uint8_t* bitmap, int64_t bit) {
  return (bitmap[bit >> 3] >> (bit & 7)) & 1;
}

// Set bits in [offset, offset + count) of an LSB-first bitmap.
int64_t CountSetBits(const uint8_t* bitmap, int64_t offset, int64_t count) {
  int64_t bit = offset;
  const int64_t end = offset + count;
  int64_t ones = 0;
  for (; bit < end && (bit & 7) != 0; ++bit) ones += BitIsSet(bitmap, bit);
  const int64_t whole_bytes = (end - bit) / 8;
  ones += internal::CountOnes(bitmap + (bit >> 3), static_cast<size_t>(whole_bytes));
  for (bit += whole_bytes * 8; bit < end; ++bit) ones += BitIsSet(bitmap, bit);
  return ones;
}

}  // namespace

int CodecTypeLength(const ColumnDescriptor& column) {
  return column.type == PhysicalType::kFixedLenByteArray ? column.type_length : kVariableLength;
}

template <typename T>
absl::Status Decoder<T>::DecodeSpaced(absl::Span<T> out, absl::Span<const uint8_t> validity,
                                      int64_t validity_bit_offset) {
  PQPAGE_RETURN_IF_ERROR(CheckValidity("DecodeSpaced", out.size(), validity, validity_bit_offset));
  const int64_t slots = static_cast<int64_t>(out.size());
  const int64_t present = CountSetBits(validity.data(), validity_bit_offset, slots);
  PQPAGE_RETURN_IF_ERROR(Decode(out.first(static_cast<size_t>(present))));
  // Present values arrive packed at the front; spreading them from the back never overwrites one
  // not yet moved, since a value's slot is never before its packed position. Once the slot meets
  // the packed position, every slot before it is present and already in place.
  int64_t packed = present - 1;
  for (int64_t slot = slots - 1; slot > packed; --slot) {
    if (BitIsSet(validity.data(), validity_bit_offset + slot)) {
      out[slot] = out[packed--];
    } else {
      out[slot] = T{};
    }
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status Encoder<T>::PutSpaced(absl::Span<const T> values, absl::Span<const uint8_t> validity,
                                   int64_t validity_bit_offset) {
  PQPAGE_RETURN_IF_ERROR(CheckValidity("PutSpaced", values.size(), validity, validity_bit_offset));
  const int64_t slots = static_cast<int64_t>(values.size());
  if (CountSetBits(validity.data(), validity_bit_offset, slots) == slots) return Put(values);
  // Present values are gathered into chunks on the stack, so Put is called once per chunk.
  constexpr size_t kChunk = 512;
  std::array<T, kChunk> chunk;
  size_t filled = 0;
  for (int64_t slot = 0; slot < slots; ++slot) {
    if (!BitIsSet(validity.data(), validity_bit_offset + slot)) continue;
    chunk[filled++] = values[slot];
    if (filled == kChunk) {
      PQPAGE_RETURN_IF_ERROR(Put(absl::MakeConstSpan(chunk.data(), filled)));
      filled = 0;
    }
  }
  if (filled == 0) return absl::OkStatus();
  return Put(absl::MakeConstSpan(chunk.data(), filled));
}

template <typename T>
std::vector<uint8_t> Encoder<T>::Finish() {
  std::vector<uint8_t> out;
  FinishInto(&out);
  return out;
}

#define PQPAGE_INSTANTIATE_INTERFACES(T) \
  template class Decoder<T>;             \
  template class Encoder<T>;
PQPAGE_INSTANTIATE_INTERFACES(bool)
PQPAGE_INSTANTIATE_INTERFACES(int32_t)
PQPAGE_INSTANTIATE_INTERFACES(int64_t)
PQPAGE_INSTANTIATE_INTERFACES(Int96)
PQPAGE_INSTANTIATE_INTERFACES(float)
PQPAGE_INSTANTIATE_INTERFACES(double)
PQPAGE_INSTANTIATE_INTERFACES(ByteArray)
// ORC's byte RLE (pqpage/orc/byte_rle.h) stores bytes, a value type no Parquet column has.
PQPAGE_INSTANTIATE_INTERFACES(int8_t)
#undef PQPAGE_INSTANTIATE_INTERFACES

}  // namespace pqpage
