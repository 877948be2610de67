// Reading an encrypted file: its footer decrypted (PARE files) or its signature checked
// (plaintext footers), its columns' metadata decrypted, and a ColumnChunkCipher for each chunk
// whose key the reader has. Keys come from FileDecryptionProperties, given directly or through
// its key retriever, each retrieved once per file.
#ifndef PQPAGE_FILE_FILE_DECRYPTION_H_
#define PQPAGE_FILE_FILE_DECRYPTION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/aes_cipher.h"
#include "crypto/chunk_cipher.h"
#include "parquet_types.h"
#include "pqpage/encryption.h"
#include "pqpage/schema.h"

namespace pqpage::internal {

class FileDecryption {
 public:
  // `properties` may be null (a reader without keys): only a plaintext footer's file opens, and
  // only its unencrypted columns read.
  // @return the decryption; PermissionDenied when the AAD prefix must be supplied and was not,
  // DataLoss when a supplied prefix differs from the stored one, Unimplemented for an unknown
  // algorithm.
  static absl::StatusOr<FileDecryption> Make(
      const format::EncryptionAlgorithm& algorithm, std::string footer_key_metadata,
      std::shared_ptr<const FileDecryptionProperties> properties);

  // Decrypts a PARE file's footer module.
  // @return the FileMetaData's bytes; PermissionDenied without the footer key; DataLoss when it
  // does not authenticate.
  absl::StatusOr<std::vector<uint8_t>> DecryptFooter(absl::Span<const uint8_t> module);
  // Checks a plaintext footer's signature (`signature`: nonce and tag) over `footer`, when the
  // footer key can be had and the properties ask for it.
  // @return OK, also when it cannot be checked; DataLoss for a signature that does not match.
  absl::Status CheckFooterSignature(absl::Span<const uint8_t> footer,
                                    absl::Span<const uint8_t> signature);
  // Retrieves the key of every encrypted chunk (so that later calls only look keys up and may run
  // on several threads), replaces each encrypted column metadata whose key the reader has by its
  // decryption (one that does not authenticate or parse makes its chunk's ChunkCipher DataLoss),
  // and checks that every encrypted chunk's path is its column's.
  // @return OK; DataLoss for a chunk encrypted with no key named or for another column's path.
  absl::Status DecryptColumnMetadata(const Schema& schema, format::FileMetaData* footer);

  // The cipher of chunk (row_group, column); `starts_with_dictionary` as ColumnChunkCipher takes
  // it.
  // @return nullptr for an unencrypted chunk; PermissionDenied (naming the key metadata) when the
  // reader has no key for it.
  absl::StatusOr<std::shared_ptr<const ColumnChunkCipher>> ChunkCipher(
      const Schema& schema, const format::ColumnChunk& chunk, int row_group, int column,
      bool starts_with_dictionary) const;

 private:
  FileDecryption() = default;
  // The key for `key_metadata` (the footer's when `footer`), retrieved at the first call.
  absl::StatusOr<AesCipher> Key(bool footer, const std::string& path,
                                const std::string& key_metadata);
  // The key already retrieved for a chunk.
  absl::StatusOr<AesCipher> ChunkKey(const Schema& schema, const format::ColumnChunk& chunk,
                                     int column) const;
  static std::string KeyName(bool footer, const std::string& path, const std::string& metadata);

  std::shared_ptr<const FileDecryptionProperties> properties_;
  EncryptionAlgorithm algorithm_ = EncryptionAlgorithm::kAesGcmV1;
  std::string file_aad_;
  std::string footer_key_metadata_;
  // Chunks (row group, column) whose encrypted metadata did not authenticate or parse.
  std::map<std::pair<size_t, size_t>, absl::Status> chunk_errors_;
  // Keys by KeyName: the retriever's answer, error or key, kept so that each is asked once.
  std::map<std::string, absl::StatusOr<std::string>> keys_;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_FILE_DECRYPTION_H_
