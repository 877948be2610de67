// The Thrift header that precedes a bloom filter's bitset in a file (BloomFilterHeader), read and
// written here so that the file reader and writer agree on it. Only the format's one algorithm,
// hash and compression exist today (split-block, xxHash64, uncompressed); the filter's bits are
// the encodings layer's (pqpage/bloom_filter.h).
#ifndef PQPAGE_METADATA_BLOOM_FILTER_HEADER_H_
#define PQPAGE_METADATA_BLOOM_FILTER_HEADER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pqpage::internal {

// The most bytes a header takes: a reader that does not know a filter's length reads this much
// first.
inline constexpr int64_t kMaxBloomFilterHeaderBytes = 64;

struct BloomFilterHeaderInfo {
  int32_t num_bytes = 0;     // the bitset's bytes, after the header
  int64_t header_bytes = 0;  // the header's own bytes
};

// Reads the header at the front of `bytes` (which may go on past it).
// @return its figures; DataLoss for bytes that do not parse or a negative size; Unimplemented for
// an algorithm, hash or compression other than split-block, xxHash64 and uncompressed.
absl::StatusOr<BloomFilterHeaderInfo> ParseBloomFilterHeader(absl::Span<const uint8_t> bytes);

// Appends the header of a split-block, xxHash64, uncompressed bitset of `num_bytes` bytes.
absl::Status AppendBloomFilterHeader(int32_t num_bytes, std::vector<uint8_t>* out);

}  // namespace pqpage::internal

#endif  // PQPAGE_METADATA_BLOOM_FILTER_HEADER_H_
