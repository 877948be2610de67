// BYTE_STREAM_SPLIT encoders and the portable scatter kernels.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "common/byte_io.h"
#include "encodings/byte_stream_split_internal.h"
#include "encodings/fixed_length_values.h"
#include "pqpage/byte_stream_split.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace internal {

namespace {

void EncodeBytewise(const uint8_t* values, int width, int64_t count, int64_t stride, uint8_t* out) {
  constexpr int64_t kBlock = 128;
  for (int64_t base = 0; base < count; base += kBlock) {
    const int64_t n = std::min(kBlock, count - base);
    for (int k = 0; k < width; ++k) {
      const uint8_t* in = values + base * width + k;
      uint8_t* dst = out + k * stride + base;
      for (int64_t i = 0; i < n; ++i) dst[i] = in[i * width];
    }
  }
}

template <int kWidth>
void EncodeWords(const uint8_t* values, int width, int64_t count, int64_t stride, uint8_t* out) {
  // Wide values: 8 values by 8 bytes at a time through a word transpose; the last width % 8
  // bytes of each value byte by byte.
  // A compile-time width lets the compiler unroll the word loop and fold the addressing.
  if constexpr (kWidth != 0) width = kWidth;
  const int whole_words = width / 8 * 8;
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const uint8_t* src = values + i * width;
    for (int k0 = 0; k0 < whole_words; k0 += 8) {
      uint64_t rows[8];
      for (int j = 0; j < 8; ++j) rows[j] = LoadLittleEndian<uint64_t>(src + j * width + k0);
      TransposeBytes8x8(rows);
      for (int r = 0; r < 8; ++r) StoreLittleEndian<uint64_t>(out + (k0 + r) * stride + i, rows[r]);
    }
    for (int k = whole_words; k < width; ++k) {
      uint8_t* dst = out + k * stride + i;
      for (int j = 0; j < 8; ++j) dst[j] = src[j * width + k];
    }
  }
  EncodeBytewise(values + i * width, width, count - i, stride, out + i);
}

}  // namespace

void ByteStreamSplitEncodeGeneric(const uint8_t* values, int width, int64_t count, int64_t stride,
                                  uint8_t* out) {
  if (width < 8) {
    EncodeBytewise(values, width, count, stride, out);
    return;
  }
  switch (width) {
    case 16:
      EncodeWords<16>(values, width, count, stride, out);
      return;
    default:
      EncodeWords<0>(values, width, count, stride, out);
  }
}

void ScalarByteStreamSplitEncode4(const uint8_t* values, int64_t count, int64_t stride,
                                  uint8_t* out) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t rows[8];
    for (int j = 0; j < 8; ++j) rows[j] = LoadLittleEndian<uint32_t>(values + (i + j) * 4);
    TransposeBytes8x8(rows);
    for (int k = 0; k < 4; ++k) StoreLittleEndian<uint64_t>(out + k * stride + i, rows[k]);
  }
  ByteStreamSplitEncodeGeneric(values + i * 4, 4, count - i, stride, out + i);
}

void ScalarByteStreamSplitEncode8(const uint8_t* values, int64_t count, int64_t stride,
                                  uint8_t* out) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t rows[8];
    for (int j = 0; j < 8; ++j) rows[j] = LoadLittleEndian<uint64_t>(values + (i + j) * 8);
    TransposeBytes8x8(rows);
    for (int k = 0; k < 8; ++k) StoreLittleEndian<uint64_t>(out + k * stride + i, rows[k]);
  }
  ByteStreamSplitEncodeGeneric(values + i * 8, 8, count - i, stride, out + i);
}

void ByteStreamSplitEncode(const uint8_t* values, int width, int64_t count, int64_t stride,
                           uint8_t* out) {
  if (count <= 0) return;
  switch (width) {
    case 4:
      ByteStreamSplitKernelsForCpu().encode4(values, count, stride, out);
      return;
    case 8:
      ByteStreamSplitKernelsForCpu().encode8(values, count, stride, out);
      return;
    case 1:
      std::memcpy(out, values, static_cast<size_t>(count));
      return;
    default:
      ByteStreamSplitEncodeGeneric(values, width, count, stride, out);
  }
}

}  // namespace internal

template <typename T>
void ByteStreamSplitEncoder<T>::Scatter(const uint8_t* values, size_t count) {
  if (count == 0) return;
  const auto width = static_cast<size_t>(width_);
  if (count_ + count > room_) {
    // Regions of twice the values at least, so a page costs a few moves of what it held.
    const size_t room = std::max({count_ + count, 2 * room_, size_t{1024}});
    std::vector<uint8_t> larger(room * width);
    for (size_t k = 0; count_ > 0 && k < width; ++k) {  // no regions yet: nothing to move
      std::memcpy(larger.data() + k * room, streams_.data() + k * room_, count_);
    }
    streams_.swap(larger);
    room_ = room;
  }
  internal::ByteStreamSplitEncode(values, width_, static_cast<int64_t>(count),
                                  static_cast<int64_t>(room_), streams_.data() + count_);
  count_ += count;
}

template <typename T>
absl::Status ByteStreamSplitEncoder<T>::Put(absl::Span<const T> values) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    checked_.clear();
    PQPAGE_RETURN_IF_ERROR(
        internal::AppendFixedLength("BYTE_STREAM_SPLIT", values, width_, &checked_));
    Scatter(checked_.data(), values.size());
  } else {
    // A number's bytes are its PLAIN bytes (little-endian hosts only, as everywhere in pqpage).
    Scatter(reinterpret_cast<const uint8_t*>(values.data()), values.size());
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status ByteStreamSplitEncoder<T>::PutBytes(absl::Span<const uint8_t> bytes) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckFixedLengthBytes("BYTE_STREAM_SPLIT", bytes, width_));
  Scatter(bytes.data(), bytes.size() / static_cast<size_t>(width_));
  return absl::OkStatus();
}

template <typename T>
void ByteStreamSplitEncoder<T>::FinishInto(std::vector<uint8_t>* out) {
  if (width_ > 0 && count_ > 0) {
    const auto width = static_cast<size_t>(width_);
    out->reserve(out->size() + count_ * width);
    // insert into reserved room copies without zero-filling first, as resize would.
    for (size_t k = 0; k < width; ++k) {
      const uint8_t* stream = streams_.data() + k * room_;
      out->insert(out->end(), stream, stream + count_);
    }
  }
  count_ = 0;
}

template class ByteStreamSplitEncoder<float>;
template class ByteStreamSplitEncoder<double>;
template class ByteStreamSplitEncoder<int32_t>;
template class ByteStreamSplitEncoder<int64_t>;
template class ByteStreamSplitEncoder<ByteArray>;

}  // namespace pqpage
