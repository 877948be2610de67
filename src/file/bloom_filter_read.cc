#include "file/bloom_filter_read.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "common/byte_io.h"
#include "crypto/chunk_cipher.h"
#include "metadata/bloom_filter_header.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {
namespace {

// An encrypted header's module may hold more than the Thrift structure: parquet-java's hold 100
// bytes, of which the header takes 16 (the reader parses the structure and ignores the rest).
constexpr int64_t kMaxEncryptedHeaderBytes = 4096;

// Reads and decrypts the module at `offset`, which may take at most `most` bytes (after its
// length) and must end by `data_end`.
absl::StatusOr<std::vector<uint8_t>> ReadModule(const ByteSource& source, int64_t offset,
                                                int64_t data_end, int64_t most,
                                                const ColumnChunkCipher& cipher, ModuleType type,
                                                int64_t* module_bytes) {
  uint8_t prefix[kModuleLengthBytes];
  if (offset > data_end - int64_t{kModuleLengthBytes}) {
    return absl::DataLossError("an encrypted module runs past the file's data");
  }
  PQPAGE_RETURN_IF_ERROR(source.ReadAt(offset, absl::MakeSpan(prefix)));
  const int64_t stored = LoadLittleEndian<uint32_t>(prefix);
  if (stored > most || stored > data_end - offset - int64_t{kModuleLengthBytes}) {
    return absl::DataLossError(
        absl::StrCat("an encrypted module of ", stored, " bytes is larger than it can be here"));
  }
  std::vector<uint8_t> module(kModuleLengthBytes + static_cast<size_t>(stored));
  PQPAGE_RETURN_IF_ERROR(source.ReadAt(offset, absl::MakeSpan(module)));
  *module_bytes = static_cast<int64_t>(module.size());
  return cipher.Decrypt(type, 0, module);
}

absl::StatusOr<BloomFilter> ReadEncrypted(const ByteSource& source, int64_t offset,
                                          std::optional<int32_t> length, int64_t data_end,
                                          const ColumnChunkCipher& cipher) {
  int64_t header_module = 0;
  PQPAGE_ASSIGN_OR_RETURN(std::vector<uint8_t> header_bytes,
                          ReadModule(source, offset, data_end, kMaxEncryptedHeaderBytes, cipher,
                                     ModuleType::kBloomFilterHeader, &header_module));
  PQPAGE_ASSIGN_OR_RETURN(BloomFilterHeaderInfo header, ParseBloomFilterHeader(header_bytes));
  int64_t bitset_module = 0;
  PQPAGE_ASSIGN_OR_RETURN(std::vector<uint8_t> bitset,
                          ReadModule(source, offset + header_module, data_end,
                                     BloomFilter::kMaxBytes + int64_t{kGcmOverhead}, cipher,
                                     ModuleType::kBloomFilterBitset, &bitset_module));
  if (static_cast<int64_t>(bitset.size()) != header.num_bytes) {
    return absl::DataLossError(absl::StrCat("the header gives a bitset of ", header.num_bytes,
                                            " bytes, its module holds ", bitset.size()));
  }
  if (length.has_value() && header_module + bitset_module != *length) {
    return absl::DataLossError(absl::StrCat("header and bitset modules take ",
                                            header_module + bitset_module,
                                            " bytes, bloom_filter_length says ", *length));
  }
  return BloomFilter::FromBitset(bitset);
}

}  // namespace

absl::StatusOr<BloomFilter> ReadBloomFilterAt(const ByteSource& source, int64_t offset,
                                              std::optional<int32_t> length, int64_t data_begin,
                                              int64_t data_end, const ColumnChunkCipher* cipher) {
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
  if (cipher != nullptr) {
    absl::StatusOr<BloomFilter> filter = ReadEncrypted(source, offset, length, data_end, *cipher);
    if (filter.ok()) return filter;
    return absl::Status(filter.status().code(),
                        absl::StrCat(where, ": ", filter.status().message()));
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
