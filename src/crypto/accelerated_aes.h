// AES-GCM and AES-CTR over whole buffers through Intel's Multi-Buffer Crypto library (ipsec-mb,
// Debian's libipsec-mb-dev), whose VAES and AVX-512 kernels open GCM and CTR modules 2.2 to 2.4
// times as fast as OpenSSL 3.0's on the CPUs that have them. AesCipher runs its modules through it
// where the build has the library and the CPU has AES-NI, and through OpenSSL's EVP interface
// otherwise; the two produce the same bytes.
#ifndef PQPAGE_CRYPTO_ACCELERATED_AES_H_
#define PQPAGE_CRYPTO_ACCELERATED_AES_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "absl/types/span.h"

namespace pqpage::internal {

// One key, with its schedule and GHASH key powers computed once. Thread-safe.
class AcceleratedAes {
 public:
  virtual ~AcceleratedAes() = default;

  // @return the key's state; nullptr when the build has no ipsec-mb, the CPU lacks AES-NI, or
  // `key` is not 16, 24 or 32 bytes.
  static std::unique_ptr<const AcceleratedAes> Make(std::string_view key);

  // GCM-encrypts `in` into `out` (in.size() bytes; `out` may be in.data()) under the 12-byte
  // `nonce` and `aad`, and writes the 16-byte tag to `tag`.
  virtual void GcmEncrypt(const uint8_t* nonce, std::string_view aad, absl::Span<const uint8_t> in,
                          uint8_t* out, uint8_t* tag) const = 0;
  // GCM-decrypts `in` into `out` likewise.
  // @return whether the tag it computes equals `tag` (compared in constant time).
  virtual bool GcmDecrypt(const uint8_t* nonce, std::string_view aad, absl::Span<const uint8_t> in,
                          uint8_t* out, const uint8_t* tag) const = 0;
  // XORs `in` with the CTR keystream of the 16-byte counter block `counter` into `out` (in.size()
  // bytes; may be in.data()): encryption and decryption alike.
  // @return false when the library refuses the job (it reports no reason a caller can act on).
  virtual bool Ctr(const uint8_t* counter, absl::Span<const uint8_t> in, uint8_t* out) const = 0;
};

// Whether this build has ipsec-mb (when false, AcceleratedAes::Make always returns nullptr).
bool AcceleratedAesBuiltIn();

}  // namespace pqpage::internal

#endif  // PQPAGE_CRYPTO_ACCELERATED_AES_H_
