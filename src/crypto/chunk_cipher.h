// The modules of one encrypted column chunk: its key, the file's algorithm and AAD, and its row
// group and column ordinals. The file layer makes one per chunk it opens; the page layer decrypts
// page headers and pages with it, the file layer the chunk's metadata, indexes and bloom filter.
#ifndef PQPAGE_CRYPTO_CHUNK_CIPHER_H_
#define PQPAGE_CRYPTO_CHUNK_CIPHER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/aes_cipher.h"
#include "crypto/module_aad.h"
#include "pqpage/encryption.h"

namespace pqpage {

class ColumnChunkCipher {
 public:
  // `starts_with_dictionary`: the chunk's first page is a dictionary page (its header has the
  // dictionary header's AAD, and the data page ordinals start at the page after it).
  ColumnChunkCipher(internal::AesCipher cipher, EncryptionAlgorithm algorithm, std::string file_aad,
                    int64_t row_group, int64_t column, bool starts_with_dictionary)
      : cipher_(std::move(cipher)),
        algorithm_(algorithm),
        file_aad_(std::move(file_aad)),
        row_group_(row_group),
        column_(column),
        starts_with_dictionary_(starts_with_dictionary) {}

  bool starts_with_dictionary() const { return starts_with_dictionary_; }
  // The data page ordinal of page `page_index` of the chunk (dictionary page counted).
  int64_t DataPageOrdinal(int64_t page_index) const {
    return page_index - (starts_with_dictionary_ ? 1 : 0);
  }

  // Whether modules of `type` are GCM (tagged) rather than CTR.
  bool Gcm(internal::ModuleType type) const {
    return algorithm_ == EncryptionAlgorithm::kAesGcmV1 || !internal::IsPageModule(type);
  }
  // What a module of `type` adds to its plaintext.
  size_t Overhead(internal::ModuleType type) const {
    return Gcm(type) ? internal::kGcmOverhead : internal::kCtrOverhead;
  }
  // The size of the module of `type` at the start of `bytes` (internal::ModuleSize).
  absl::StatusOr<size_t> ModuleSize(internal::ModuleType type,
                                    absl::Span<const uint8_t> bytes) const {
    return internal::ModuleSize(bytes, Gcm(type));
  }

  // Decrypts `module` (exactly one module) into `out` (module.size() - Overhead(type) bytes).
  // `page` is the data page ordinal for page and page header modules.
  // @return OK; DataLoss when it does not authenticate or names an ordinal past the AAD's room.
  absl::Status Decrypt(internal::ModuleType type, int64_t page, absl::Span<const uint8_t> module,
                       absl::Span<uint8_t> out) const;
  // Decrypt into a new buffer. DataLoss also when `module` is not exactly one module.
  absl::StatusOr<std::vector<uint8_t>> Decrypt(internal::ModuleType type, int64_t page,
                                               absl::Span<const uint8_t> module) const;
  // Appends the module of `plaintext` to `out`.
  // @return OK; InvalidArgument for an ordinal past the AAD's room.
  absl::Status Encrypt(internal::ModuleType type, int64_t page, absl::Span<const uint8_t> plaintext,
                       std::vector<uint8_t>* out) const;

 private:
  internal::AesCipher cipher_;
  EncryptionAlgorithm algorithm_;
  std::string file_aad_;
  int64_t row_group_;
  int64_t column_;
  bool starts_with_dictionary_;
};

}  // namespace pqpage

#endif  // PQPAGE_CRYPTO_CHUNK_CIPHER_H_
