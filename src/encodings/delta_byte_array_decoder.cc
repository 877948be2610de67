// DELTA_BYTE_ARRAY decoder. Reset() decodes both length streams, validates every prefix against the
// previous value's length and sizes one buffer for the page's values; Decode() then builds values
// back to back in it. Because each value directly follows the previous one in the buffer, its
// prefix is copied from just behind the write position, and both copies move 16 bytes at a time
// into slack at the end of the buffer.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "codec/value_request.h"
#include "common/cpu_features.h"
#include "encodings/delta_internal.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/status_macros.h"

namespace pqpage {

namespace {

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

absl::Status DeltaByteArrayDecoder::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  if (options_.carry_prefix_across_pages && next_ > 0) {
    // Only the values handed out count: the page may not have been read to its end.
    const uint8_t* last = buffer_.get() + built_ - previous_length_;
    carried_.assign(last, last + previous_length_);
  } else if (!options_.carry_prefix_across_pages) {
    carried_.clear();
  }
  next_ = count_ = 0;
  built_ = 0;
  previous_length_ = 0;
  suffixes_ = suffixes_end_ = nullptr;
  const bool fixed = type_length_ != kVariableLength;
  if (fixed && type_length_ < 0) {
    return absl::InvalidArgumentError("DELTA_BYTE_ARRAY: negative FIXED_LEN_BYTE_ARRAY length " +
                                      std::to_string(type_length_));
  }
  internal::DeltaLengths prefixes, suffixes;
  absl::Status status =
      internal::DecodeDeltaLengths(data, num_values, "DELTA_BYTE_ARRAY", "prefix length",
                                   &length_decoder_, &prefix_lengths_, &prefixes);
  if (status.ok()) {
    status = internal::DecodeDeltaLengths(data.subspan(prefixes.stream_bytes), num_values,
                                          "DELTA_BYTE_ARRAY", "suffix length", &length_decoder_,
                                          &suffix_lengths_, &suffixes);
  }
  auto fail = [](absl::Status error) { return error; };
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

  // Validate every value's shape and total the page's decoded size before allocating it. The
  // state starts afresh on every page: the first prefix must be 0 (or, carrying state across pages,
  // at most the length of the previous page's last value). The checks run as branch-free
  // passes over chunks (lengths are non-negative int32, so prefix + suffix fits in uint32); the
  // first bad value is looked for only when a chunk fails.
  const uint32_t* prefix = reinterpret_cast<const uint32_t*>(prefix_lengths_.data());
  const uint32_t* suffix = reinterpret_cast<const uint32_t*>(suffix_lengths_.data());
  const size_t n = static_cast<size_t>(num_values);
  const int64_t cap = options_.max_decoded_bytes;
  const uint32_t type_length = static_cast<uint32_t>(type_length_);
  const uint32_t first_limit = static_cast<uint32_t>(carried_.size());
  int64_t total = static_cast<int64_t>(carried_.size());
  constexpr size_t kChunk = 1 << 14;
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t end = std::min(n, start + kChunk);
    uint32_t bad = start == 0 ? static_cast<uint32_t>(prefix[0] > first_limit) : 0;
    for (size_t i = std::max<size_t>(start, 1); i < end; ++i) {
      bad |= static_cast<uint32_t>(prefix[i] > prefix[i - 1] + suffix[i - 1]);
    }
    if (fixed) {
      for (size_t i = start; i < end; ++i) bad |= (prefix[i] + suffix[i]) ^ type_length;
    }
    // Added up in 32-bit lanes from the lengths' low and high 16 bits, which vectorizes without
    // widening; over kChunk values neither half can wrap a uint32.
    static_assert(kChunk <= (size_t{1} << 15), "the split sums could wrap");
    uint32_t low_sum = 0;
    uint32_t high_sum = 0;
    for (size_t i = start; i < end; ++i) {
      low_sum += (prefix[i] & 0xFFFFu) + (suffix[i] & 0xFFFFu);
      high_sum += (prefix[i] >> 16) + (suffix[i] >> 16);
    }
    const int64_t chunk_total = int64_t{low_sum} + (int64_t{high_sum} << 16);
    if (bad != 0) {
      for (size_t i = start; i < end; ++i) {
        const int64_t previous = i == 0 ? first_limit : int64_t{prefix[i - 1]} + suffix[i - 1];
        const int64_t length = int64_t{prefix[i]} + suffix[i];
        if (prefix[i] > previous) {
          return fail(absl::DataLossError(
              "DELTA_BYTE_ARRAY: prefix length " + std::to_string(prefix[i]) + " of value " +
              std::to_string(i) + " exceeds the previous value's length " +
              std::to_string(previous)));
        }
        if (fixed && length != type_length_) {
          return fail(absl::DataLossError("DELTA_BYTE_ARRAY: FIXED_LEN_BYTE_ARRAY value " +
                                          std::to_string(i) + " is " + std::to_string(length) +
                                          " bytes, the type length is " +
                                          std::to_string(type_length_)));
        }
      }
    }
    // A chunk adds less than 2^46, so checking per chunk keeps the total from overflowing.
    total += chunk_total;
    if (total > cap) {
      return fail(absl::ResourceExhaustedError("DELTA_BYTE_ARRAY: page decodes to more than " +
                                               std::to_string(cap) + " bytes (max_decoded_bytes)"));
    }
  }
  const size_t needed = static_cast<size_t>(total) + internal::kDeltaByteArraySlack;
  if (needed > buffer_capacity_) {
    buffer_.reset(new uint8_t[needed]);
    buffer_capacity_ = needed;
  }
  if (!carried_.empty()) {
    // The carried value sits just before the page's first value, where prefixes look for it.
    std::memcpy(buffer_.get(), carried_.data(), carried_.size());
    built_ = carried_.size();
    previous_length_ = static_cast<uint32_t>(carried_.size());
  }
  suffixes_ = data.data() + suffix_start;
  suffixes_end_ = data.data() + data.size();
  data_begin_ = data.data();
  count_ = static_cast<size_t>(num_values);
  return absl::OkStatus();
}

namespace {

// Builds the cursor's next value through memory; returns its length.
inline size_t BuildOneValue(internal::DeltaByteArrayCursor& c, ByteArray* out) {
  const size_t prefix = static_cast<size_t>(*c.prefixes++);
  const size_t suffix = static_cast<size_t>(*c.suffixes++);
  uint8_t* dst = c.buffer + c.built;
  // The previous value ends at dst; Reset() checked prefix <= its length.
  CopyInSteps(dst, dst - c.previous_length, prefix);
  if (static_cast<size_t>(c.source_end - c.source) >= suffix + 16) {
    CopyInSteps(dst + prefix, c.source, suffix);
  } else if (suffix > 0) {
    std::memcpy(dst + prefix, c.source, suffix);
  }
  c.source += suffix;
  const size_t length = prefix + suffix;
  if (out != nullptr) *out = ByteArray(dst, static_cast<uint32_t>(length));
  c.built += length;
  c.previous_length = length;
  return length;
}

}  // namespace

template <bool kEmit>
void DeltaByteArrayDecoder::Build(ByteArray* out, size_t count) {
  internal::DeltaByteArrayCursor cursor{prefix_lengths_.data() + next_,
                                        suffix_lengths_.data() + next_,
                                        suffixes_,
                                        data_begin_,
                                        suffixes_end_,
                                        buffer_.get(),
                                        built_,
                                        previous_length_};
  const bool simd = internal::UseAvx2Twins();
  size_t i = 0;
  while (i < count) {
    if (simd) {
      i += internal::BuildShortValuesAvx2(&cursor, count - i, kEmit ? out + i : nullptr);
    }
    // Through memory: values the vector path declined, until a short one is built.
    while (i < count) {
      const size_t length = BuildOneValue(cursor, kEmit ? out + i : nullptr);
      ++i;
      if (simd && length <= internal::kDeltaByteArrayShortValue) break;
    }
  }
  built_ = cursor.built;
  previous_length_ = static_cast<uint32_t>(cursor.previous_length);
  suffixes_ = cursor.source;
  next_ += count;
}

absl::Status DeltaByteArrayDecoder::Decode(absl::Span<ByteArray> out) {
  PQPAGE_RETURN_IF_ERROR(
      internal::CheckValueRequest("DELTA_BYTE_ARRAY", out.size(), values_left()));
  Build<true>(out.data(), out.size());
  return absl::OkStatus();
}

absl::Status DeltaByteArrayDecoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(internal::CheckValueRequest("DELTA_BYTE_ARRAY", count, values_left()));
  Build<false>(nullptr, static_cast<size_t>(count));
  return absl::OkStatus();
}

}  // namespace pqpage
