#include "pqpage/encryption.h"

namespace pqpage {

const char* EncryptionAlgorithmName(EncryptionAlgorithm algorithm) {
  return algorithm == EncryptionAlgorithm::kAesGcmCtrV1 ? "AES_GCM_CTR_V1" : "AES_GCM_V1";
}

}  // namespace pqpage
