// Parquet Modular Encryption: the keys and settings a reader decrypts a file with and a writer
// encrypts one with. Every page, page header, column index, offset index, bloom filter, encrypted
// column metadata and (optionally) the footer is its own AES-GCM module (data and dictionary pages
// are AES-CTR modules with AES_GCM_CTR_V1) whose additional authenticated data binds it to its
// file, row group, column and page, so a module cannot be moved or replayed.
//
// These are the low-level properties for engines that hold their own keys; key_management.h
// builds them from a KMS the way parquet-java, Arrow C++ and pyarrow do.
#ifndef PQPAGE_ENCRYPTION_H_
#define PQPAGE_ENCRYPTION_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace pqpage {

enum class EncryptionAlgorithm : uint8_t {
  kAesGcmV1,     // every module AES-GCM
  kAesGcmCtrV1,  // pages AES-CTR (no tag), every other module AES-GCM
};

// "AES_GCM_V1" or "AES_GCM_CTR_V1", as the format names them.
const char* EncryptionAlgorithmName(EncryptionAlgorithm algorithm);

// The modules of one encrypted column chunk, with its key: made by the file layer for each
// encrypted chunk it opens (ColumnChunkLocation::cipher); opaque to users.
class ColumnChunkCipher;

// Maps the key metadata stored in a file (the footer's, or a column's) to the key: 16, 24 or 32
// bytes. Called once per distinct metadata when a file is opened.
// @return the key; NotFound or PermissionDenied when the caller cannot give it (the column is then
// unreadable, the rest of the file is not).
using KeyRetriever = std::function<absl::StatusOr<std::string>(std::string_view key_metadata)>;

// What a reader needs to decrypt a file. Keys are raw bytes (16, 24 or 32 of them), given
// directly or found through `key_retriever` from the key metadata the file stores; a key given
// directly wins.
struct FileDecryptionProperties {
  // The footer key: decrypts an encrypted footer, verifies a plaintext footer's signature and
  // decrypts the columns encrypted with the footer key.
  std::string footer_key;
  // Column keys by the column's dotted path ("a.b.c").
  std::map<std::string, std::string> column_keys;
  KeyRetriever key_retriever;
  // The AAD prefix, for files whose writer did not store it (supply_aad_prefix). When the file
  // stores one too, the two must be equal.
  std::string aad_prefix;
  // Check a plaintext footer's signature with the footer key when it can be had. Without the
  // footer key, a plaintext footer is read unsigned either way (its plain columns stay readable).
  bool check_footer_signature = true;
};

// One encrypted column's key and the metadata stored to find it again.
struct ColumnEncryptionKey {
  std::string key;
  std::string key_metadata;
};

// What a writer needs to encrypt a file.
struct FileEncryptionProperties {
  EncryptionAlgorithm algorithm = EncryptionAlgorithm::kAesGcmV1;
  // 16, 24 or 32 bytes; required.
  std::string footer_key;
  // Stored with the footer (FileCryptoMetaData.key_metadata or footer_signing_key_metadata).
  std::string footer_key_metadata;
  // Encrypt the footer (the file ends in PARE). false: a plaintext footer signed with the footer
  // key, so that readers without keys can read the columns left unencrypted.
  bool encrypted_footer = true;
  // Columns (by dotted path) encrypted with their own keys. Empty: every column is encrypted with
  // the footer key. Otherwise the columns not named here are left unencrypted.
  std::map<std::string, ColumnEncryptionKey> column_keys;
  // Bound into every module's AAD, e.g. the file's name or table, so that a file cannot pass for
  // another.
  std::string aad_prefix;
  // Store aad_prefix in the file. false: the reader must supply it.
  bool store_aad_prefix = true;
};

// The properties that read back a file written with `encryption`: its footer key, column keys
// and AAD prefix.
FileDecryptionProperties DecryptionPropertiesFor(const FileEncryptionProperties& encryption);

}  // namespace pqpage

#endif  // PQPAGE_ENCRYPTION_H_
