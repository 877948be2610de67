#include "absl/strings/str_cat.h"
#include "bitpack/bit_packing.h"
#include "encodings/rle_bit_packed_hybrid_internal.h"
#include "encodings/rle_bit_packed_hybrid_sinks.h"
#include "encodings/value_request.h"
#include "pqpage/bit_packed.h"
#include "pqpage/status_macros.h"

namespace pqpage {

BitPackedLevelDecoder::BitPackedLevelDecoder()
    : reader_(std::make_unique<internal::HybridRunReader>()) {}
BitPackedLevelDecoder::~BitPackedLevelDecoder() = default;
BitPackedLevelDecoder::BitPackedLevelDecoder(BitPackedLevelDecoder&&) noexcept = default;
BitPackedLevelDecoder& BitPackedLevelDecoder::operator=(BitPackedLevelDecoder&&) noexcept = default;

absl::Status BitPackedLevelDecoder::Reset(absl::Span<const uint8_t> data, int bit_width,
                                          int64_t num_values) {
  if (bit_width < 0 || bit_width > 16) {
    return absl::InvalidArgumentError(
        absl::StrCat("BIT_PACKED: level bit width ", bit_width, " is outside 0..16"));
  }
  if (num_values < 0) {
    return absl::InvalidArgumentError(absl::StrCat("BIT_PACKED: negative count ", num_values));
  }
  const size_t needed = BitPackedEncodedSize(bit_width, static_cast<size_t>(num_values));
  if (needed > data.size()) {
    return absl::DataLossError(absl::StrCat("BIT_PACKED: ", num_values, " levels of ", bit_width,
                                            " bits need ", needed, " bytes, ", data.size(),
                                            " present"));
  }
  // The section is one bit-packed run in MSB order; the hybrid run walker reads it.
  reader_->ResetSingleRun(data.first(needed), bit_width,
                          internal::BitPacking().unpack32_msb[bit_width],
                          static_cast<uint64_t>(num_values));
  values_left_ = num_values;
  return absl::OkStatus();
}

absl::Status BitPackedLevelDecoder::Decode(absl::Span<int16_t> out, int16_t max_level) {
  return DecodeCounting(out, max_level, max_level).status();
}

absl::StatusOr<int64_t> BitPackedLevelDecoder::DecodeCounting(absl::Span<int16_t> out,
                                                              int16_t max_level,
                                                              int16_t counted_level) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("BIT_PACKED", out.size(), values_left_));
  // MSB order: the width-1 byte table (LSB order) must not be used, so no width is passed.
  internal::LevelSink sink(out.data(), max_level, /*bit_width=*/0, counted_level);
  PQPAGE_RETURN_IF_ERROR(reader_->Read(out.size(), sink));
  values_left_ -= static_cast<int64_t>(out.size());
  return sink.counted();
}

absl::Status BitPackedLevelDecoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("BIT_PACKED", count, values_left_));
  PQPAGE_RETURN_IF_ERROR(reader_->Skip(static_cast<size_t>(count)));
  values_left_ -= count;
  return absl::OkStatus();
}

}  // namespace pqpage
