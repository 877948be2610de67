#include "pqpage/encryption.h"

namespace pqpage {

const char* EncryptionAlgorithmName(EncryptionAlgorithm algorithm) {
  return algorithm == EncryptionAlgorithm::kAesGcmCtrV1 ? "AES_GCM_CTR_V1" : "AES_GCM_V1";
}

FileDecryptionProperties DecryptionPropertiesFor(const FileEncryptionProperties& encryption) {
  FileDecryptionProperties decryption;
  decryption.footer_key = encryption.footer_key;
  for (const auto& [path, key] : encryption.column_keys) decryption.column_keys[path] = key.key;
  decryption.aad_prefix = encryption.aad_prefix;
  return decryption;
}

}  // namespace pqpage
