// DELTA_BYTE_ARRAY encoder: the prefix each value shares with the previous one is measured eight
// bytes at a time; prefix and suffix lengths stream into two DELTA_BINARY_PACKED encoders in small
// batches and suffix bytes into the page body.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "common/byte_buffer.h"
#include "common/byte_io.h"
#include "common/small_copy.h"
#include "encodings/delta_internal.h"
#include "pqpage/delta_byte_array.h"

namespace pqpage {

namespace {

size_t CommonPrefix(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size) {
  const size_t limit = std::min(a_size, b_size);
  size_t i = 0;
  for (; i + 8 <= limit; i += 8) {
    const uint64_t diff =
        internal::LoadLittleEndian<uint64_t>(a + i) ^ internal::LoadLittleEndian<uint64_t>(b + i);
    if (diff != 0) return i + static_cast<size_t>(__builtin_ctzll(diff) / 8);
  }
  while (i < limit && a[i] == b[i]) ++i;
  return i;
}

}  // namespace

absl::Status DeltaByteArrayEncoder::Put(absl::Span<const ByteArray> values) {
  const bool fixed = type_length_ != kVariableLength;
  if (fixed && type_length_ < 0) {
    return absl::InvalidArgumentError("DELTA_BYTE_ARRAY: negative FIXED_LEN_BYTE_ARRAY length " +
                                      std::to_string(type_length_));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (fixed && values[i].size != static_cast<uint32_t>(type_length_)) {
      return absl::InvalidArgumentError(
          "DELTA_BYTE_ARRAY: FIXED_LEN_BYTE_ARRAY value " + std::to_string(i) + " is " +
          std::to_string(values[i].size) + " bytes, the type length is " +
          std::to_string(type_length_));
    }
    if (values[i].size > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
      return absl::InvalidArgumentError("DELTA_BYTE_ARRAY: value " + std::to_string(i) +
                                        " is longer than an INT32 length allows");
    }
  }
  if (values.empty()) return absl::OkStatus();

  constexpr size_t kBatch = 256;
  int32_t prefixes[kBatch];
  int32_t suffixes[kBatch];
  // The previous value: the last one put before this call, then this call's own elements.
  const uint8_t* previous = previous_.data();
  size_t previous_size = previous_.size();
  for (size_t start = 0; start < values.size(); start += kBatch) {
    const size_t count = std::min(kBatch, values.size() - start);
    size_t suffix_total = 0;
    for (size_t i = 0; i < count; ++i) {
      const ByteArray& value = values[start + i];
      const size_t prefix = CommonPrefix(previous, previous_size, value.data, value.size);
      prefixes[i] = static_cast<int32_t>(prefix);
      suffixes[i] = static_cast<int32_t>(value.size - prefix);
      suffix_total += value.size - prefix;
      previous = value.data;
      previous_size = value.size;
    }
    size_t at = suffix_bytes_.size();
    suffix_bytes_.resize(at + suffix_total);
    uint8_t* out = suffix_bytes_.data();
    for (size_t i = 0; i < count; ++i) {
      const ByteArray& value = values[start + i];
      internal::CopyExact(out + at, value.data + prefixes[i], static_cast<size_t>(suffixes[i]));
      at += static_cast<size_t>(suffixes[i]);
    }
    // Every INT32 is encodable: these Puts cannot fail.
    (void)prefix_lengths_.Put(absl::MakeConstSpan(prefixes, count));
    (void)suffix_lengths_.Put(absl::MakeConstSpan(suffixes, count));
  }
  const ByteArray& last = values.back();
  previous_.assign(last.data, last.data + last.size);
  return absl::OkStatus();
}

size_t DeltaByteArrayEncoder::EstimatedSize() const {
  return prefix_lengths_.EstimatedSize() + suffix_lengths_.EstimatedSize() + suffix_bytes_.size();
}

void DeltaByteArrayEncoder::FinishInto(std::vector<uint8_t>* out) {
  // Finish() into an empty buffer: one allocation for the three parts.
  if (out->empty()) out->reserve(EstimatedSize());
  prefix_lengths_.FinishInto(out);
  suffix_lengths_.FinishInto(out);
  internal::AppendAndClear(&suffix_bytes_, out);
  previous_.clear();
}

}  // namespace pqpage
