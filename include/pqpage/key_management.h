// Key management for Parquet Modular Encryption: envelope encryption through a key management
// service (KMS), compatible with the key tools of parquet-java, Arrow C++ and pyarrow
// (pyarrow.parquet.encryption.CryptoFactory). A writer draws random data keys (DEKs), has them
// wrapped by master keys that stay in the KMS, and stores the wrapped keys as JSON key metadata in
// the file; a reader with access to the same master keys gets the data keys back. Master keys are
// named by ID only, so a file written by pyarrow with some KMS client is read here with a KmsClient
// speaking to the same KMS, and the other way round.
//
// Double wrapping (the default, as in those tools): each master key wraps one random key
// encryption key (KEK) per file, and the KEK wraps the data keys locally with AES-GCM, so that a
// file costs the KMS one call per master key rather than one per column.
#ifndef PQPAGE_KEY_MANAGEMENT_H_
#define PQPAGE_KEY_MANAGEMENT_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/encryption.h"

namespace pqpage {

// A client of a key management service. Implementations must be safe to call from several threads
// when the properties built on them are.
class KmsClient {
 public:
  virtual ~KmsClient() = default;

  // Wraps (encrypts) `key_bytes` with the master key `master_key_id`.
  // @return the wrapped key as the KMS gives it: UTF-8 text (base64, or a JSON document), stored
  // in the key material as it is; NotFound for a master key the KMS does not have,
  // PermissionDenied when it refuses, or the KMS's own error.
  virtual absl::StatusOr<std::string> WrapKey(std::string_view key_bytes,
                                              std::string_view master_key_id) = 0;
  // Unwraps a key WrapKey wrapped with the master key `master_key_id`.
  // @return the key bytes; NotFound for an unknown master key, PermissionDenied when the KMS will
  // not (or cannot) unwrap it with that master key, DataLoss when `wrapped_key` is not one the KMS
  // could have written, or the KMS's own error.
  virtual absl::StatusOr<std::string> UnwrapKey(std::string_view wrapped_key,
                                                std::string_view master_key_id) = 0;
};

// Master keys held in memory, for tests and demos. It wraps as parquet-java's InMemoryKMS and
// Arrow's TestOnlyInServerWrapKms do: AES-GCM under the master key, with the master key ID's bytes
// as additional authenticated data, laid out nonce (12 bytes) || ciphertext || tag (16 bytes) and
// base64-encoded (standard alphabet, padded). Thread-safe.
class InMemoryKmsClient : public KmsClient {
 public:
  // `master_keys`: master key ID -> key bytes (16, 24 or 32 of them).
  // @return the client; InvalidArgument naming the ID of a key of another length.
  static absl::StatusOr<std::shared_ptr<InMemoryKmsClient>> Make(
      std::map<std::string, std::string> master_keys);

  // @return the base64 text; NotFound naming an unknown master key ID.
  absl::StatusOr<std::string> WrapKey(std::string_view key_bytes,
                                      std::string_view master_key_id) override;
  // @return the key; NotFound naming an unknown master key ID, DataLoss for text that is not
  // base64, PermissionDenied when the master key does not authenticate it (another key under that
  // ID, or an altered wrapped key).
  absl::StatusOr<std::string> UnwrapKey(std::string_view wrapped_key,
                                        std::string_view master_key_id) override;

 private:
  explicit InMemoryKmsClient(std::map<std::string, std::string, std::less<>> master_keys)
      : master_keys_(std::move(master_keys)) {}

  // Never changed after Make, so reads need no lock.
  const std::map<std::string, std::string, std::less<>> master_keys_;
};

// What to encrypt and how, as pyarrow's EncryptionConfiguration says it.
struct KmsEncryptionConfig {
  // The master key ID that wraps the footer key; required.
  std::string footer_key;
  // Master key ID -> the dotted paths ("a.b.c") of the columns whose keys it wraps. Each column
  // gets its own data key; the columns not named are left unencrypted.
  std::map<std::string, std::vector<std::string>> column_keys;
  // Encrypt every column with the footer key instead; column_keys must then be empty.
  bool uniform_encryption = false;
  EncryptionAlgorithm algorithm = EncryptionAlgorithm::kAesGcmV1;
  // A plaintext, signed footer (for readers without keys). pqpage honours it with uniform
  // encryption too, where Arrow's CryptoFactory ignores it.
  bool plaintext_footer = false;
  bool double_wrapping = true;
  // 128, 192 or 256.
  int data_key_length_bits = 128;
  // Written into the footer key's material for readers that choose a KMS by them; empty means
  // "DEFAULT", as in Arrow and parquet-java.
  std::string kms_instance_id = "DEFAULT";
  std::string kms_instance_url = "DEFAULT";
};

// Draws the data keys for one file and wraps them through `kms`, storing the key material in the
// file's key metadata (the tools' "internal storage"). Each call draws new keys (and KEKs).
// @return properties for a writer; InvalidArgument for no `kms`, an empty footer key ID, neither
// or both of column_keys and uniform_encryption, an empty master key ID or column path, a column
// named twice, a master key ID that is not UTF-8, a data key length other than 128/192/256, or a
// KMS that wraps into bytes that are not UTF-8 text; the KMS's error when it cannot wrap (NotFound
// for an unknown master key, say); Internal when no random bytes can be had.
absl::StatusOr<FileEncryptionProperties> EncryptionPropertiesFromKms(
    const std::shared_ptr<KmsClient>& kms, const KmsEncryptionConfig& config);

// Properties whose key_retriever reads the key metadata the key tools write and unwraps the keys
// through `kms`. `external_key_material` is the content of the file's external material file
// (`_KEY_MATERIAL_FOR_<file name>.json` beside it; see ExternalKeyMaterialPath), for files whose
// key metadata refers to it; empty when there is none. KEKs are unwrapped once per KEK ID and
// master key, for every file read with these properties.
// @return the properties. Their retriever returns the data key; DataLoss naming the field for
// malformed key metadata or material (or external material that is not JSON) and for a wrapped
// key that does not open under its KEK; NotFound for a reference the external material lacks (or
// no external material); the KMS's error (NotFound, PermissionDenied, ...) when it cannot unwrap;
// InvalidArgument when `kms` is null.
FileDecryptionProperties DecryptionPropertiesFromKms(std::shared_ptr<KmsClient> kms,
                                                     std::string external_key_material = "");

// @return the path of the external key material file of the Parquet file at
// `parquet_file_path`: its folder, then "_KEY_MATERIAL_FOR_", its name and ".json".
std::string ExternalKeyMaterialPath(std::string_view parquet_file_path);

}  // namespace pqpage

#endif  // PQPAGE_KEY_MANAGEMENT_H_
