// Writing an encrypted file (FileWriterOptions::encryption): each encrypted chunk's pages and
// page headers rewritten as modules, its column metadata, page indexes and bloom filter
// encrypted, and the footer encrypted (PARE) or signed (a plaintext footer), as the format lays
// them out. The file AAD's unique part is drawn at random for each file.
#ifndef PQPAGE_FILE_FILE_ENCRYPTION_H_
#define PQPAGE_FILE_FILE_ENCRYPTION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/chunk_cipher.h"
#include "parquet_types.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/encryption.h"
#include "pqpage/schema.h"

namespace pqpage::internal {

class FileEncryption {
 public:
  // @return the encryption; InvalidArgument for a key that is not 16, 24 or 32 bytes, or a
  // column key for a path the schema does not have.
  static absl::StatusOr<FileEncryption> Make(
      std::shared_ptr<const FileEncryptionProperties> properties, const Schema& schema);

  bool encrypted_footer() const { return properties_->encrypted_footer; }

  // The cipher of column `column`'s chunk in row group `row_group`; nullptr for a column left
  // unencrypted.
  absl::StatusOr<std::shared_ptr<const ColumnChunkCipher>> ChunkCipher(int64_t row_group,
                                                                       int column) const;

  // `chunk` (in one buffer or in pieces) with its pages rewritten as modules, in one buffer, for a
  // chunk that starts at `offset`: its bytes, its metadata's offsets and size, and its offset
  // index's page locations (its bloom filter is left out: the writer encrypts it apart).
  // @return the encrypted chunk; DataLoss for pages that do not parse (a chunk not made by the
  // page builder); InvalidArgument past 32,767 data pages (the AAD's page ordinal).
  static absl::StatusOr<ColumnChunkData> EncryptPages(const ColumnChunkCipher& cipher,
                                                      int64_t offset, const ColumnChunkData& chunk);

  // Sets the chunk's crypto metadata, and its ColumnMetaData as an encrypted module where the
  // format asks for one (a column key, or any encrypted column under a plaintext footer): the
  // footer then keeps no metadata (encrypted footer) or a copy without statistics (plaintext).
  absl::Status EncryptColumnMetadata(int64_t row_group, int column,
                                     format::ColumnChunk* chunk) const;

  // The footer's bytes, before its length and magic: the FileCryptoMetaData and the encrypted
  // FileMetaData, or the FileMetaData (with the algorithm) and its signature.
  absl::StatusOr<std::vector<uint8_t>> Footer(const format::FileMetaData& footer) const;

 private:
  FileEncryption() = default;
  format::EncryptionAlgorithm Algorithm() const;

  std::shared_ptr<const FileEncryptionProperties> properties_;
  std::string file_aad_;
  std::string aad_file_unique_;
  std::vector<std::string> paths_;  // of the schema's columns
};

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_FILE_ENCRYPTION_H_
