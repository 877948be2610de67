#include "file/bloom_filter_read.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "metadata/bloom_filter_header.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {

absl::StatusOr<BloomFilter> ReadBloomFilterAt(const ByteSource& source, int64_t offset,
                                              std::optional<int32_t> length, int64_t data_begin,
                                              int64_t data_end) {
  const std::string where = absl::StrCat("bloom filter at offset ", offset);
  if (offset < data_begin || offset >= data_end) {
    return absl::DataLossError(
        absl::StrCat(where, " is not inside the file's data (", data_begin, "..", data_end, ")"));
  }
  if (length.has_value() && (*length <= 0 || *length > data_end - offset)) {
    return absl::DataLossError(absl::StrCat(where, ": its length ", *length,
                                            " does not fit the file's data, which ends at ",
                                            data_end));
  }
  // The header first: all of the filter when its length is known, else as much as a header
  // can take.
  const int64_t first_read =
      length.has_value() ? *length : std::min(kMaxBloomFilterHeaderBytes, data_end - offset);
  std::vector<uint8_t> bytes(static_cast<size_t>(first_read));
  PQPAGE_RETURN_IF_ERROR(source.ReadAt(offset, absl::MakeSpan(bytes)));
  absl::StatusOr<BloomFilterHeaderInfo> header = ParseBloomFilterHeader(bytes);
  if (!header.ok()) {
    return absl::Status(header.status().code(),
                        absl::StrCat(where, ": ", header.status().message()));
  }
  const int64_t bitset_bytes = header->num_bytes;
  if (bitset_bytes == 0 || bitset_bytes % BloomFilter::kBlockBytes != 0 ||
      bitset_bytes > BloomFilter::kMaxBytes) {
    return absl::DataLossError(absl::StrCat(where, ": the header gives a bitset of ", bitset_bytes,
                                            " bytes, not a positive multiple of ",
                                            BloomFilter::kBlockBytes, " up to ",
                                            BloomFilter::kMaxBytes));
  }
  const int64_t total = header->header_bytes + bitset_bytes;
  if (length.has_value() && total != *length) {
    return absl::DataLossError(absl::StrCat(where, ": header and bitset take ", total,
                                            " bytes, bloom_filter_length says ", *length));
  }
  if (total > data_end - offset) {
    return absl::DataLossError(absl::StrCat(
        where, ": its ", total, " bytes pass the end of the file's data at ", data_end));
  }
  if (!length.has_value()) {
    bytes.resize(static_cast<size_t>(total));
    if (total > first_read) {
      PQPAGE_RETURN_IF_ERROR(source.ReadAt(
          offset + first_read, absl::MakeSpan(bytes).subspan(static_cast<size_t>(first_read))));
    }
  }
  return BloomFilter::FromBitset(
      absl::MakeConstSpan(bytes).subspan(static_cast<size_t>(header->header_bytes)));
}

}  // namespace pqpage::internal
