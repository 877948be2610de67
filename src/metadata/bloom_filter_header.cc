#include "metadata/bloom_filter_header.h"

#include "absl/strings/str_cat.h"
#include "metadata/thrift_compact.h"
#include "parquet_types.h"

namespace pqpage::internal {

absl::StatusOr<BloomFilterHeaderInfo> ParseBloomFilterHeader(absl::Span<const uint8_t> bytes) {
  format::BloomFilterHeader header;
  // A header holds no string or list: tight limits keep a hostile one from asking for memory.
  ThriftLimits limits;
  limits.max_string_bytes = 1;  // 0 would mean no limit
  limits.max_container_entries = 1;
  absl::StatusOr<size_t> size = DeserializeCompact(bytes, &header, limits);
  if (!size.ok()) {
    return absl::DataLossError(
        absl::StrCat("bloom filter header does not parse: ", size.status().message()));
  }
  if (header.numBytes < 0) {
    return absl::DataLossError(
        absl::StrCat("bloom filter header gives a negative size: ", header.numBytes));
  }
  if (!header.algorithm.__isset.BLOCK) {
    return absl::UnimplementedError("bloom filter algorithm other than split-block");
  }
  if (!header.hash.__isset.XXHASH) {
    return absl::UnimplementedError("bloom filter hash other than xxHash64");
  }
  if (!header.compression.__isset.UNCOMPRESSED) {
    return absl::UnimplementedError("compressed bloom filter");
  }
  return BloomFilterHeaderInfo{header.numBytes, static_cast<int64_t>(*size)};
}

absl::Status AppendBloomFilterHeader(int32_t num_bytes, std::vector<uint8_t>* out) {
  format::BloomFilterHeader header;
  header.numBytes = num_bytes;
  header.algorithm.__set_BLOCK(format::SplitBlockAlgorithm());
  header.hash.__set_XXHASH(format::XxHash());
  header.compression.__set_UNCOMPRESSED(format::BloomFilterUncompressed());
  return SerializeCompact(header, out);
}

}  // namespace pqpage::internal
