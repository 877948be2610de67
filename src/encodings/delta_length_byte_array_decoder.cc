// DELTA_LENGTH_BYTE_ARRAY decoder, and the length-stream reader it shares with DELTA_BYTE_ARRAY.
// All lengths are decoded and checked at Reset(), so Decode() is a walk that hands out views.
#include <algorithm>
#include <string>

#include "codec/value_request.h"
#include "encodings/delta_internal.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/delta_length_byte_array.h"
#include "pqpage/status_macros.h"

namespace pqpage {

namespace internal {

absl::Status DecodeDeltaLengths(absl::Span<const uint8_t> data, int64_t num_values,
                                const char* encoding, const char* what,
                                DeltaBinaryPackedDecoder<int32_t>* decoder,
                                std::vector<int32_t>* lengths, DeltaLengths* result) {
  *result = DeltaLengths{};
  if (num_values < 0) {
    return absl::InvalidArgumentError(std::string(encoding) + ": negative value count " +
                                      std::to_string(num_values));
  }
  // Some writers leave a page without values empty; with values expected it is corruption.
  if (data.empty() && num_values == 0) return absl::OkStatus();
  absl::Status status = decoder->ResetWholeStream(data);
  if (!status.ok()) {
    return absl::DataLossError(std::string(encoding) + " " + what +
                               "s: " + std::string(status.message()));
  }
  result->header_count = decoder->header_value_count();
  if (result->header_count < num_values) {
    return absl::DataLossError(std::string(encoding) + ": " + std::to_string(num_values) +
                               " values expected, the " + what + " stream holds " +
                               std::to_string(result->header_count));
  }
  // Grown chunk by chunk as the stream yields lengths, never reserved from a count.
  constexpr int64_t kChunk = 1 << 16;
  int64_t sum = 0;
  for (int64_t done = 0; done < num_values;) {
    const int64_t take = std::min(kChunk, num_values - done);
    if (lengths->size() < static_cast<size_t>(done + take)) {
      lengths->resize(static_cast<size_t>(done + take));
    }
    int32_t* chunk = lengths->data() + done;
    status = decoder->Decode(absl::Span<int32_t>(chunk, static_cast<size_t>(take)));
    if (!status.ok()) {
      return absl::DataLossError(std::string(encoding) + " " + what +
                                 "s: " + std::string(status.message()));
    }
    // One pass that vectorizes in 32-bit lanes (widening to 64 bits took as long as decoding
    // the lengths): the sign bits OR-ed together, and the sum split into its low and high 16
    // bits, neither of which can wrap a uint32 over a chunk of 2^16 values.
    static_assert(kChunk <= (int64_t{1} << 16), "the split sums could wrap");
    uint32_t sign_bits = 0;
    uint32_t low_sum = 0;
    uint32_t high_sum = 0;
    for (int64_t i = 0; i < take; ++i) {
      const auto length = static_cast<uint32_t>(chunk[i]);
      sign_bits |= length;
      low_sum += length & 0xFFFFu;
      high_sum += length >> 16;
    }
    const int64_t chunk_sum = int64_t{low_sum} + (int64_t{high_sum} << 16);
    if ((sign_bits >> 31) != 0) {
      const auto it = std::find_if(chunk, chunk + take, [](int32_t v) { return v < 0; });
      return absl::DataLossError(std::string(encoding) + ": negative " + what + " " +
                                 std::to_string(*it) + " at value " +
                                 std::to_string(done + (it - chunk)));
    }
    // Each chunk adds less than 2^47, so with this check the sum can never overflow.
    sum += chunk_sum;
    if (sum > (int64_t{1} << 62)) {
      return absl::DataLossError(std::string(encoding) + ": " + what + "s overflow");
    }
    done += take;
  }
  absl::StatusOr<size_t> end = decoder->SkipToStreamEnd();
  if (!end.ok()) {
    return absl::DataLossError(std::string(encoding) + " " + what +
                               "s: " + std::string(end.status().message()));
  }
  result->stream_bytes = *end;
  result->sum = sum;
  return absl::OkStatus();
}

}  // namespace internal

absl::Status DeltaLengthByteArrayDecoder::Reset(absl::Span<const uint8_t> data,
                                                int64_t num_values) {
  next_ = count_ = 0;
  bytes_ = nullptr;
  internal::DeltaLengths result;
  absl::Status status = internal::DecodeDeltaLengths(
      data, num_values, "DELTA_LENGTH_BYTE_ARRAY", "length", &length_decoder_, &lengths_, &result);
  if (!status.ok()) return status;
  const size_t remaining = data.size() - result.stream_bytes;
  if (static_cast<uint64_t>(result.sum) > remaining) {
    return absl::DataLossError("DELTA_LENGTH_BYTE_ARRAY: lengths sum to " +
                               std::to_string(result.sum) + " bytes, " + std::to_string(remaining) +
                               " follow the lengths");
  }
  bytes_ = data.data() + result.stream_bytes;
  count_ = static_cast<size_t>(num_values);
  return absl::OkStatus();
}

absl::Status DeltaLengthByteArrayDecoder::Decode(absl::Span<ByteArray> out) {
  PQPAGE_RETURN_IF_ERROR(
      internal::CheckValueRequest("DELTA_LENGTH_BYTE_ARRAY", out.size(), values_left()));
  const int32_t* lengths = lengths_.data() + next_;
  const uint8_t* bytes = bytes_;
  for (size_t i = 0; i < out.size(); ++i) {
    const uint32_t length = static_cast<uint32_t>(lengths[i]);
    out[i] = ByteArray(bytes, length);
    bytes += length;
  }
  bytes_ = bytes;
  next_ += out.size();
  return absl::OkStatus();
}

absl::Status DeltaLengthByteArrayDecoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(
      internal::CheckValueRequest("DELTA_LENGTH_BYTE_ARRAY", count, values_left()));
  const int32_t* lengths = lengths_.data() + next_;
  size_t bytes = 0;
  for (int64_t i = 0; i < count; ++i) bytes += static_cast<uint32_t>(lengths[i]);
  bytes_ += bytes;
  next_ += static_cast<size_t>(count);
  return absl::OkStatus();
}

}  // namespace pqpage
