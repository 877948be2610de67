// DELTA_LENGTH_BYTE_ARRAY encoder: lengths stream into a DELTA_BINARY_PACKED encoder in small
// batches, bytes into the page body.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "common/byte_buffer.h"
#include "common/small_copy.h"
#include "encodings/delta_internal.h"
#include "pqpage/delta_length_byte_array.h"

namespace pqpage {

absl::Status DeltaLengthByteArrayEncoder::Put(absl::Span<const ByteArray> values) {
  size_t total = 0;
  size_t shortest = std::numeric_limits<size_t>::max();
  size_t longest = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].size > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
      return absl::InvalidArgumentError("DELTA_LENGTH_BYTE_ARRAY: value " + std::to_string(i) +
                                        " is " + std::to_string(values[i].size) +
                                        " bytes, longer than an INT32 length allows");
    }
    total += values[i].size;
    shortest = std::min<size_t>(shortest, values[i].size);
    longest = std::max<size_t>(longest, values[i].size);
  }
  size_t at = bytes_.size();
  bytes_.resize(at + total);
  constexpr size_t kBatch = 256;
  int32_t batch[kBatch];
  internal::WithCopyForLengths(shortest, longest, [&](auto copy) {
    for (size_t start = 0; start < values.size(); start += kBatch) {
      const size_t count = std::min(kBatch, values.size() - start);
      for (size_t i = 0; i < count; ++i) {
        const ByteArray& value = values[start + i];
        batch[i] = static_cast<int32_t>(value.size);
        copy(bytes_.data() + at, value.data, value.size);
        at += value.size;
      }
      (void)lengths_.Put(absl::MakeConstSpan(batch, count));  // every INT32 is encodable
    }
  });
  return absl::OkStatus();
}

void DeltaLengthByteArrayEncoder::FinishInto(std::vector<uint8_t>* out) {
  // Finish() into an empty buffer: one allocation for both parts.
  if (out->empty()) out->reserve(EstimatedSize());
  lengths_.FinishInto(out);
  internal::AppendAndClear(&bytes_, out);
}

}  // namespace pqpage
