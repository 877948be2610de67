// BYTE_STREAM_SPLIT decoders, the portable gather kernels and the run-time kernel choice.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "codec/value_request.h"
#include "common/byte_io.h"
#include "common/cpu_features.h"
#include "encodings/byte_stream_split_internal.h"
#include "pqpage/byte_stream_split.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace internal {

namespace {

void DecodeBytewise(const uint8_t* streams, int width, int64_t stride, int64_t count,
                    uint8_t* out) {
  // Blocks of values keep the K output rows and K input runs in cache together.
  constexpr int64_t kBlock = 128;
  for (int64_t base = 0; base < count; base += kBlock) {
    const int64_t n = std::min(kBlock, count - base);
    for (int k = 0; k < width; ++k) {
      const uint8_t* in = streams + k * stride + base;
      uint8_t* dst = out + base * width + k;
      for (int64_t i = 0; i < n; ++i) dst[i * width] = in[i];
    }
  }
}

template <int kWidth>
void DecodeWords(const uint8_t* streams, int width, int64_t stride, int64_t count, uint8_t* out) {
  // Wide values (FIXED_LEN_BYTE_ARRAY(16), decimals): 8 values by 8 streams at a time through a
  // word transpose; the last width % 8 streams byte by byte.
  // A compile-time width lets the compiler unroll the word loop and fold the addressing.
  if constexpr (kWidth != 0) width = kWidth;
  const int whole_words = width / 8 * 8;
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint8_t* dst = out + i * width;
    for (int k0 = 0; k0 < whole_words; k0 += 8) {
      uint64_t rows[8];
      for (int r = 0; r < 8; ++r)
        rows[r] = LoadLittleEndian<uint64_t>(streams + (k0 + r) * stride + i);
      TransposeBytes8x8(rows);
      for (int j = 0; j < 8; ++j) StoreLittleEndian<uint64_t>(dst + j * width + k0, rows[j]);
    }
    for (int k = whole_words; k < width; ++k) {
      const uint8_t* in = streams + k * stride + i;
      for (int j = 0; j < 8; ++j) dst[j * width + k] = in[j];
    }
  }
  DecodeBytewise(streams + i, width, stride, count - i, out + i * width);
}

}  // namespace

void ByteStreamSplitDecodeGeneric(const uint8_t* streams, int width, int64_t stride, int64_t count,
                                  uint8_t* out) {
  if (width < 8) {
    DecodeBytewise(streams, width, stride, count, out);
    return;
  }
  switch (width) {
    case 16:
      DecodeWords<16>(streams, width, stride, count, out);
      return;
    default:
      DecodeWords<0>(streams, width, stride, count, out);
  }
}

void ScalarByteStreamSplitDecode4(const uint8_t* streams, int64_t stride, int64_t count,
                                  uint8_t* out) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t rows[8] = {};
    for (int k = 0; k < 4; ++k) rows[k] = LoadLittleEndian<uint64_t>(streams + k * stride + i);
    TransposeBytes8x8(rows);
    for (int j = 0; j < 8; j += 2) {
      StoreLittleEndian<uint64_t>(out + (i + j) * 4,
                                  (rows[j] & 0xFFFFFFFFULL) | (rows[j + 1] << 32));
    }
  }
  ByteStreamSplitDecodeGeneric(streams + i, 4, stride, count - i, out + i * 4);
}

void ScalarByteStreamSplitDecode8(const uint8_t* streams, int64_t stride, int64_t count,
                                  uint8_t* out) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t rows[8];
    for (int k = 0; k < 8; ++k) rows[k] = LoadLittleEndian<uint64_t>(streams + k * stride + i);
    TransposeBytes8x8(rows);
    for (int j = 0; j < 8; ++j) StoreLittleEndian<uint64_t>(out + (i + j) * 8, rows[j]);
  }
  ByteStreamSplitDecodeGeneric(streams + i, 8, stride, count - i, out + i * 8);
}

const ByteStreamSplitKernels& ScalarByteStreamSplitKernels() {
  static const ByteStreamSplitKernels kernels = {
      "scalar", ScalarByteStreamSplitDecode4, ScalarByteStreamSplitDecode8,
      ScalarByteStreamSplitEncode4, ScalarByteStreamSplitEncode8};
  return kernels;
}

const ByteStreamSplitKernels& ByteStreamSplitKernelsForCpu() {
  // The AVX-512 tier keeps the AVX2 kernels: 512-bit byte permutes (VBMI's vpermt2b, and the
  // unpack ladder) measured faster than AVX2 on the kernels alone but slower in page decoding and
  // encoding (BYTE_STREAM_SPLIT DOUBLE decode 3.9 vs 4.9 G values/s, encode 1.39 vs 1.57) on an
  // Intel Xeon, which lowers its clock while running them; width 4 was slower even alone.
  static const ByteStreamSplitKernels* const kernels =
      UseAvx2Twins() ? &Avx2ByteStreamSplitKernels() : &ScalarByteStreamSplitKernels();
  return *kernels;
}

void ByteStreamSplitDecode(const uint8_t* streams, int width, int64_t stride, int64_t count,
                           uint8_t* out) {
  if (count <= 0) return;
  switch (width) {
    case 4:
      ByteStreamSplitKernelsForCpu().decode4(streams, stride, count, out);
      return;
    case 8:
      ByteStreamSplitKernelsForCpu().decode8(streams, stride, count, out);
      return;
    case 1:
      std::memcpy(out, streams, static_cast<size_t>(count));
      return;
    default:
      ByteStreamSplitDecodeGeneric(streams, width, stride, count, out);
  }
}

}  // namespace internal

template <typename T>
absl::Status ByteStreamSplitDecoder<T>::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  data_ = data.data();
  position_ = 0;
  values_left_ = 0;
  stream_length_ = 0;
  page_values_ = 0;
  if (width_ <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "BYTE_STREAM_SPLIT: FIXED_LEN_BYTE_ARRAY type length ", width_, " is not positive"));
  }
  if (num_values < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("BYTE_STREAM_SPLIT: negative value count ", num_values));
  }
  const size_t width = static_cast<size_t>(width_);
  if (data.size() % width != 0) {
    return absl::DataLossError(absl::StrCat("BYTE_STREAM_SPLIT: page of ", data.size(),
                                            " bytes is not a multiple of the value width ", width));
  }
  const uint64_t n = data.size() / width;
  if (n < static_cast<uint64_t>(num_values)) {
    return absl::DataLossError(absl::StrCat("BYTE_STREAM_SPLIT: streams hold ", n,
                                            " values, fewer than the ", num_values, " expected"));
  }
  stream_length_ = static_cast<int64_t>(n);
  values_left_ = page_values_ = num_values;
  return absl::OkStatus();
}

template <typename T>
absl::Status ByteStreamSplitDecoder<T>::Decode(absl::Span<T> out) {
  const int64_t count = static_cast<int64_t>(out.size());
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("BYTE_STREAM_SPLIT", count, values_left_));
  const size_t width = static_cast<size_t>(width_);
  if constexpr (std::is_same_v<T, ByteArray>) {
    if (count == 0) return absl::OkStatus();
    // Sized once per page, before its first view is handed out: page_values_ * K <= the page's
    // bytes (checked by Reset), so the input bounds the allocation.
    const size_t needed = static_cast<size_t>(page_values_) * width;
    if (gathered_capacity_ < needed) {
      gathered_.reset(new uint8_t[needed]);
      gathered_capacity_ = needed;
    }
    uint8_t* next = gathered_.get() + static_cast<size_t>(position_) * width;
    internal::ByteStreamSplitDecode(data_ + position_, width_, stream_length_, count, next);
    for (ByteArray& value : out) {
      value = ByteArray(next, static_cast<uint32_t>(width));
      next += width;
    }
  } else {
    internal::ByteStreamSplitDecode(data_ + position_, width_, stream_length_, count,
                                    reinterpret_cast<uint8_t*>(out.data()));
  }
  position_ += count;
  values_left_ -= count;
  return absl::OkStatus();
}

template <typename T>
absl::Status ByteStreamSplitDecoder<T>::DecodeBytes(absl::Span<uint8_t> out) {
  if (width_ <= 0 || out.size() % static_cast<size_t>(width_) != 0) {
    return absl::InvalidArgumentError(absl::StrCat("BYTE_STREAM_SPLIT: output of ", out.size(),
                                                   " bytes is not a multiple of the value width ",
                                                   width_));
  }
  const int64_t count = static_cast<int64_t>(out.size() / static_cast<size_t>(width_));
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("BYTE_STREAM_SPLIT", count, values_left_));
  internal::ByteStreamSplitDecode(data_ + position_, width_, stream_length_, count, out.data());
  position_ += count;
  values_left_ -= count;
  return absl::OkStatus();
}

template <typename T>
absl::Status ByteStreamSplitDecoder<T>::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("BYTE_STREAM_SPLIT", count, values_left_));
  position_ += count;
  values_left_ -= count;
  return absl::OkStatus();
}

template class ByteStreamSplitDecoder<float>;
template class ByteStreamSplitDecoder<double>;
template class ByteStreamSplitDecoder<int32_t>;
template class ByteStreamSplitDecoder<int64_t>;
template class ByteStreamSplitDecoder<ByteArray>;

}  // namespace pqpage
