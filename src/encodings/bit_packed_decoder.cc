#include "absl/strings/str_cat.h"
#include "bitpack/bit_packing.h"
#include "codec/value_request.h"
#include "encodings/rle_bit_packed_hybrid_internal.h"
#include "encodings/rle_bit_packed_hybrid_sinks.h"
#include "pqpage/bit_packed.h"
#include "pqpage/status_macros.h"

namespace pqpage {

BitPackedLevelDecoder::BitPackedLevelDecoder()
    : reader_(std::make_unique<internal::HybridRunReader>()) {}
BitPackedLevelDecoder::~BitPackedLevelDecoder() = default;
BitPackedLevelDecoder::BitPackedLevelDecoder(BitPackedLevelDecoder&&) noexcept = default;
BitPackedLevelDecoder& BitPackedLevelDecoder::operator=(BitPackedLevelDecoder&&) noexcept = default;

absl::Status BitPackedLevelDecoder::Reset(absl::Span<const uint8_t> data, int bit_width,
                                          int64_t num_values, BitPackedOrder order) {
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
  // The section is one bit-packed run without a header; the hybrid run walker reads it. LSB-first,
  // it is laid out exactly as a hybrid run, so the hybrid's width-1 fast path applies too.
  const bool msb_first = order == BitPackedOrder::kMostSignificantFirst;
  reader_->ResetSingleRun(data.first(needed), bit_width,
                          msb_first ? internal::BitPacking().unpack32_msb[bit_width]
                                    : internal::BitPacking().unpack32[bit_width],
                          static_cast<uint64_t>(num_values));
  values_left_ = num_values;
  fast_path_width_ = msb_first ? 0 : bit_width;
  return absl::OkStatus();
}

absl::Status BitPackedLevelDecoder::Decode(absl::Span<int16_t> out, int16_t max_level) {
  return DecodeCounting(out, max_level, max_level).status();
}

absl::StatusOr<int64_t> BitPackedLevelDecoder::DecodeCounting(absl::Span<int16_t> out,
                                                              int16_t max_level,
                                                              int16_t counted_level) {
  // The width-1 byte table reads LSB-first bytes: MSB-first sections pass no width, so it is not
  // used for them.
  return internal::DecodeLevelBatch("BIT_PACKED", *reader_, &values_left_, out, max_level,
                                    fast_path_width_, counted_level);
}

absl::Status BitPackedLevelDecoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("BIT_PACKED", count, values_left_));
  PQPAGE_RETURN_IF_ERROR(reader_->Skip(static_cast<size_t>(count)));
  values_left_ -= count;
  return absl::OkStatus();
}

}  // namespace pqpage
