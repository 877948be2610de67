// Reading a column chunk's bloom filter (header, then bitset) from a file, every number checked
// against the file before anything is allocated (FileReader::ReadBloomFilter documents the rules).
// A function of a ByteSource and the footer's figures, so that the fuzz target can feed it
// anything.
#ifndef PQPAGE_FILE_BLOOM_FILTER_READ_H_
#define PQPAGE_FILE_BLOOM_FILTER_READ_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/byte_source.h"
#include "pqpage/encryption.h"

namespace pqpage::internal {

// Reads the filter at `offset` (of `length` bytes, header included, when the footer gives it),
// which must lie within [data_begin, data_end). With `cipher` (an encrypted chunk's) the header
// and the bitset are two modules, each decrypted and authenticated before it is used. DataLoss or
// Unimplemented, without the chunk's name (the caller adds it).
absl::StatusOr<BloomFilter> ReadBloomFilterAt(const ByteSource& source, int64_t offset,
                                              std::optional<int32_t> length, int64_t data_begin,
                                              int64_t data_end,
                                              const ColumnChunkCipher* cipher = nullptr);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_BLOOM_FILTER_READ_H_
