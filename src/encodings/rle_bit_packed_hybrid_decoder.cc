#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "codec/value_request.h"
#include "common/byte_io.h"
#include "encodings/rle_bit_packed_hybrid_internal.h"
#include "encodings/rle_bit_packed_hybrid_sinks.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

constexpr char kHybrid[] = "RLE/bit-packed hybrid";

using internal::BitmapSink;
using internal::BooleanSink;
using internal::Uint32Sink;

}  // namespace

RleBitPackedHybridDecoder::RleBitPackedHybridDecoder()
    : reader_(std::make_unique<internal::HybridRunReader>()) {}
RleBitPackedHybridDecoder::~RleBitPackedHybridDecoder() = default;
RleBitPackedHybridDecoder::RleBitPackedHybridDecoder(RleBitPackedHybridDecoder&&) noexcept =
    default;
RleBitPackedHybridDecoder& RleBitPackedHybridDecoder::operator=(
    RleBitPackedHybridDecoder&&) noexcept = default;

absl::Status RleBitPackedHybridDecoder::Reset(absl::Span<const uint8_t> data, int bit_width,
                                              int64_t num_values) {
  if (bit_width < 0 || bit_width > internal::kMaxBitWidth32) {
    return absl::InvalidArgumentError(
        absl::StrCat("RLE/bit-packed hybrid: bit width ", bit_width, " is outside 0..32"));
  }
  if (num_values < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("RLE/bit-packed hybrid: negative value count ", num_values));
  }
  reader_->Reset(data, bit_width);
  values_left_ = num_values;
  return absl::OkStatus();
}

absl::Status RleBitPackedHybridDecoder::Decode(absl::Span<uint32_t> out) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest(kHybrid, out.size(), values_left_));
  const int width = reader_->bit_width();
  Uint32Sink sink(out.data(), width == 32 ? 0xFFFFFFFFu : (uint64_t{1} << width) - 1);
  PQPAGE_RETURN_IF_ERROR(reader_->Read(out.size(), sink));
  values_left_ -= static_cast<int64_t>(out.size());
  return absl::OkStatus();
}

absl::Status RleBitPackedHybridDecoder::DecodeLevels(absl::Span<int16_t> out, int16_t max_level) {
  return DecodeLevelsCounting(out, max_level, max_level).status();
}

absl::StatusOr<int64_t> RleBitPackedHybridDecoder::DecodeLevelsCounting(absl::Span<int16_t> out,
                                                                        int16_t max_level,
                                                                        int16_t counted_level) {
  return internal::DecodeLevelBatch(kHybrid, *reader_, &values_left_, out, max_level,
                                    reader_->bit_width(), counted_level);
}

absl::StatusOr<int64_t> RleBitPackedHybridDecoder::CountMaxLevels(int16_t max_level) {
  const int width = reader_->bit_width();
  internal::LevelCountSink sink(nullptr, max_level, width, max_level);
  const auto count = static_cast<size_t>(values_left_);
  values_left_ = 0;
  if (width == 1 && max_level >= 1) {
    PQPAGE_RETURN_IF_ERROR(internal::ReadWidth1(
        *reader_, count, sink, [](const uint8_t* stream, size_t stream_bytes, size_t capacity) {
          return internal::CountWidth1Runs(stream, stream_bytes, capacity);
        }));
  } else {
    PQPAGE_RETURN_IF_ERROR(reader_->Read(count, sink));
  }
  return sink.counted();
}

absl::Status RleBitPackedHybridDecoder::DecodeBooleans(absl::Span<bool> out) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest(kHybrid, out.size(), values_left_));
  if (reader_->bit_width() != 1) {
    return absl::InvalidArgumentError("RLE booleans need bit width 1");
  }
  BooleanSink sink(out.data());
  PQPAGE_RETURN_IF_ERROR(reader_->Read(out.size(), sink));
  values_left_ -= static_cast<int64_t>(out.size());
  return absl::OkStatus();
}

absl::StatusOr<int64_t> RleBitPackedHybridDecoder::DecodeToBitmap(uint8_t* bitmap,
                                                                  int64_t bit_offset,
                                                                  int64_t count) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest(kHybrid, count, values_left_));
  if (bit_offset < 0) {
    return absl::InvalidArgumentError("DecodeToBitmap: negative bitmap offset");
  }
  if (reader_->bit_width() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("DecodeToBitmap needs bit width 1, the stream has ", reader_->bit_width()));
  }
  BitmapSink sink(bitmap, bit_offset);
  PQPAGE_RETURN_IF_ERROR(internal::ReadWidth1(
      *reader_, static_cast<size_t>(count), sink,
      [&sink, bitmap](const uint8_t* stream, size_t stream_bytes, size_t capacity) {
        return internal::DecodeWidth1BitmapRuns(stream, stream_bytes, bitmap, sink.bit(), capacity);
      }));
  values_left_ -= count;
  return sink.ones();
}

absl::Status RleBitPackedHybridDecoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest(kHybrid, count, values_left_));
  PQPAGE_RETURN_IF_ERROR(reader_->Skip(static_cast<size_t>(count)));
  values_left_ -= count;
  return absl::OkStatus();
}

absl::Status RleBooleanDecoder::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  // A failed Reset leaves no values to read, as every decoder's does.
  PQPAGE_RETURN_IF_ERROR(hybrid_.Reset({}, 1, 0));
  if (num_values < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("RLE booleans: negative value count ", num_values));
  }
  size_t consumed = 0;
  PQPAGE_ASSIGN_OR_RETURN(const absl::Span<const uint8_t> stream,
                          SplitLengthPrefixed(data, &consumed));
  return hybrid_.Reset(stream, 1, num_values);
}

void AppendLengthPrefixed(absl::Span<const uint8_t> stream, std::vector<uint8_t>* out) {
  uint8_t prefix[4];
  internal::StoreLittleEndian(prefix, static_cast<uint32_t>(stream.size()));
  out->insert(out->end(), prefix, prefix + 4);
  out->insert(out->end(), stream.begin(), stream.end());
}

absl::StatusOr<absl::Span<const uint8_t>> SplitLengthPrefixed(absl::Span<const uint8_t> data,
                                                              size_t* consumed) {
  if (data.size() < 4) {
    return absl::DataLossError(
        absl::StrCat("length-prefixed RLE stream: ", data.size(), " bytes, the prefix needs 4"));
  }
  const uint32_t length = internal::LoadLittleEndian<uint32_t>(data.data());
  if (length > data.size() - 4) {
    return absl::DataLossError(absl::StrCat("length-prefixed RLE stream: prefix says ", length,
                                            " bytes, ", data.size() - 4, " follow"));
  }
  *consumed = 4 + static_cast<size_t>(length);
  return data.subspan(4, length);
}

}  // namespace pqpage
