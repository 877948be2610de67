// DELTA_BYTE_ARRAY decoder. Reset() decodes both length streams, validates every prefix against the
// previous value's length and sizes one buffer for the page's values; Decode() then builds values
// back to back in it. Because each value directly follows the previous one in the buffer, its
// prefix is copied from just behind the write position, and both copies move 16 bytes at a time
// into slack at the end of the buffer.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "common/status_macros.h"
#include "encodings/delta_internal.h"
#include "pqpage/delta_byte_array.h"

namespace pqpage {

namespace {

// Slack after the page's bytes so that 16-byte copies may overrun a value's end.
constexpr size_t kCopySlack = 32;

// Copies `n` bytes in 16-byte steps; may read up to 15 bytes past src + n and write up to 15 bytes
// past dst + n. src < dst is allowed to overlap the step that is being written (the prefix case):
// each step is loaded before it is stored, and the bytes it needs lie before dst.
inline void CopyInSteps(uint8_t* dst, const uint8_t* src, size_t n) {
  for (size_t i = 0; i < n; i += 16) {
    uint8_t step[16];
    std::memcpy(step, src + i, 16);
    std::memcpy(dst + i, step, 16);
  }
}

}  // namespace

DeltaByteArrayDecoder::DeltaByteArrayDecoder(DeltaByteArrayOptions options) : options_(options) {}

absl::Status DeltaByteArrayDecoder::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  prefix_lengths_.clear();
  suffix_lengths_.clear();
  next_ = 0;
  built_ = 0;
  previous_length_ = 0;
  suffixes_ = suffixes_end_ = nullptr;
  const bool fixed = options_.type == PhysicalType::kFixedLenByteArray;
  if (!fixed && options_.type != PhysicalType::kByteArray) {
    return absl::InvalidArgumentError(std::string("DELTA_BYTE_ARRAY: unsupported type ") +
                                      std::string(PhysicalTypeName(options_.type)));
  }
  if (fixed && options_.type_length < 0) {
    return absl::InvalidArgumentError("DELTA_BYTE_ARRAY: negative FIXED_LEN_BYTE_ARRAY length");
  }
  internal::DeltaLengths prefixes, suffixes;
  absl::Status status = internal::DecodeDeltaLengths(data, num_values, "DELTA_BYTE_ARRAY",
                                                     "prefix length", &prefix_lengths_, &prefixes);
  if (status.ok()) {
    status = internal::DecodeDeltaLengths(data.subspan(prefixes.stream_bytes), num_values,
                                          "DELTA_BYTE_ARRAY", "suffix length", &suffix_lengths_,
                                          &suffixes);
  }
  auto fail = [this](absl::Status error) {
    prefix_lengths_.clear();
    suffix_lengths_.clear();
    return error;
  };
  if (!status.ok()) return fail(status);
  if (prefixes.header_count != suffixes.header_count) {
    return fail(absl::DataLossError("DELTA_BYTE_ARRAY: " + std::to_string(prefixes.header_count) +
                                    " prefix lengths but " + std::to_string(suffixes.header_count) +
                                    " suffix lengths"));
  }
  const size_t suffix_start = prefixes.stream_bytes + suffixes.stream_bytes;
  const size_t remaining = data.size() - suffix_start;
  if (static_cast<uint64_t>(suffixes.sum) > remaining) {
    return fail(absl::DataLossError("DELTA_BYTE_ARRAY: suffix lengths sum to " +
                                    std::to_string(suffixes.sum) + " bytes, " +
                                    std::to_string(remaining) + " follow the lengths"));
  }

  // Validate every value's shape and total the page's decoded size before allocating it.
  int64_t previous = 0;  // the state starts afresh on every page: the first prefix must be 0
  int64_t total = 0;
  const int64_t cap = options_.max_decoded_bytes;
  for (size_t i = 0; i < prefix_lengths_.size(); ++i) {
    const int64_t prefix = prefix_lengths_[i];
    if (prefix > previous) {
      return fail(absl::DataLossError(
          "DELTA_BYTE_ARRAY: prefix length " + std::to_string(prefix) + " of value " +
          std::to_string(i) + " exceeds the previous value's length " + std::to_string(previous)));
    }
    const int64_t length = prefix + suffix_lengths_[i];
    if (fixed && length != options_.type_length) {
      return fail(absl::DataLossError("DELTA_BYTE_ARRAY: FIXED_LEN_BYTE_ARRAY value " +
                                      std::to_string(i) + " is " + std::to_string(length) +
                                      " bytes, the type length is " +
                                      std::to_string(options_.type_length)));
    }
    if (length > std::numeric_limits<uint32_t>::max()) {
      return fail(absl::DataLossError("DELTA_BYTE_ARRAY: value " + std::to_string(i) +
                                      " is longer than 2^32 - 1 bytes"));
    }
    total += length;
    if (total > cap) {
      return fail(absl::ResourceExhaustedError("DELTA_BYTE_ARRAY: page decodes to more than " +
                                               std::to_string(cap) + " bytes (max_decoded_bytes)"));
    }
    previous = length;
  }
  const size_t needed = static_cast<size_t>(total) + kCopySlack;
  if (needed > buffer_capacity_) {
    buffer_.reset(new uint8_t[needed]);
    buffer_capacity_ = needed;
  }
  suffixes_ = data.data() + suffix_start;
  suffixes_end_ = data.data() + data.size();
  return absl::OkStatus();
}

template <bool kEmit>
void DeltaByteArrayDecoder::Build(ByteArray* out, size_t count) {
  const int32_t* prefixes = prefix_lengths_.data() + next_;
  const int32_t* suffixes = suffix_lengths_.data() + next_;
  uint8_t* const buffer = buffer_.get();
  size_t built = built_;
  size_t previous_length = previous_length_;
  const uint8_t* source = suffixes_;
  for (size_t i = 0; i < count; ++i) {
    const size_t prefix = static_cast<size_t>(prefixes[i]);
    const size_t suffix = static_cast<size_t>(suffixes[i]);
    uint8_t* dst = buffer + built;
    // The previous value ends at dst; Reset() checked prefix <= its length.
    CopyInSteps(dst, dst - previous_length, prefix);
    if (static_cast<size_t>(suffixes_end_ - source) >= suffix + 16) {
      CopyInSteps(dst + prefix, source, suffix);
    } else if (suffix > 0) {
      std::memcpy(dst + prefix, source, suffix);
    }
    source += suffix;
    const size_t length = prefix + suffix;
    if constexpr (kEmit) out[i] = ByteArray(dst, static_cast<uint32_t>(length));
    built += length;
    previous_length = length;
  }
  built_ = built;
  previous_length_ = static_cast<uint32_t>(previous_length);
  suffixes_ = source;
  next_ += count;
}

absl::Status DeltaByteArrayDecoder::Decode(absl::Span<ByteArray> out) {
  if (static_cast<int64_t>(out.size()) > values_left()) {
    return absl::InvalidArgumentError("DELTA_BYTE_ARRAY: asked for " + std::to_string(out.size()) +
                                      " values, " + std::to_string(values_left()) + " left");
  }
  Build<true>(out.data(), out.size());
  return absl::OkStatus();
}

absl::Status DeltaByteArrayDecoder::Skip(int64_t count) {
  if (count < 0 || count > values_left()) {
    return absl::InvalidArgumentError("DELTA_BYTE_ARRAY: cannot skip " + std::to_string(count) +
                                      " values, " + std::to_string(values_left()) + " left");
  }
  Build<false>(nullptr, static_cast<size_t>(count));
  return absl::OkStatus();
}

}  // namespace pqpage
