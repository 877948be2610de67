// AES-GCM and AES-CTR shaped as Parquet encryption modules: a 4-byte little-endian length, a
// 12-byte nonce, the ciphertext and (GCM only) a 16-byte tag. The length counts what follows it.
// Intel's ipsec-mb runs them where it can (accelerated_aes.h), OpenSSL's EVP interface elsewhere.
// Nonces come from OpenSSL's cryptographic random source.
#ifndef PQPAGE_CRYPTO_AES_CIPHER_H_
#define PQPAGE_CRYPTO_AES_CIPHER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/accelerated_aes.h"

namespace pqpage::internal {

inline constexpr size_t kModuleLengthBytes = 4;
inline constexpr size_t kNonceBytes = 12;
inline constexpr size_t kTagBytes = 16;
// Bytes a module adds to its plaintext.
inline constexpr size_t kGcmOverhead = kModuleLengthBytes + kNonceBytes + kTagBytes;
inline constexpr size_t kCtrOverhead = kModuleLengthBytes + kNonceBytes;

// InvalidArgument unless `key` is 16, 24 or 32 bytes (AES-128, -192, -256).
absl::Status CheckAesKey(std::string_view key);

// The whole length of the module at the start of `bytes`, prefix included, read from its prefix.
// @return 4 + the stored length; DataLoss when `bytes` is shorter than the prefix, the module runs
// past `bytes`, or the length is too short to hold a nonce (and for GCM a tag).
absl::StatusOr<size_t> ModuleSize(absl::Span<const uint8_t> bytes, bool gcm);

// Which code runs AES: the fastest this build and CPU have (ipsec-mb, else OpenSSL), or OpenSSL
// whatever else there is (tests compare the two).
enum class AesEngine { kFastest, kOpenSsl };

// One key. Thread-safe: every call sets up its own context.
class AesCipher {
 public:
  // @return the cipher; InvalidArgument for a key of the wrong length.
  static absl::StatusOr<AesCipher> Make(std::string_view key,
                                        AesEngine engine = AesEngine::kFastest);

  // Whether modules go through ipsec-mb rather than OpenSSL.
  bool accelerated() const { return accelerated_ != nullptr; }

  // Appends the GCM module of `plaintext` under `aad` to `out`.
  // @return OK; Internal when OpenSSL fails (no random bytes), InvalidArgument past 2 GiB.
  absl::Status EncryptGcm(absl::Span<const uint8_t> plaintext, std::string_view aad,
                          std::vector<uint8_t>* out) const;
  // Appends the CTR module of `plaintext` to `out` (no AAD, no tag: used for pages only).
  absl::Status EncryptCtr(absl::Span<const uint8_t> plaintext, std::vector<uint8_t>* out) const;

  // Decrypts the GCM module `module` (exactly ModuleSize bytes) into `out`, which must hold
  // module.size() - kGcmOverhead bytes. The tag is verified before this returns OK; on failure
  // `out` is zeroed.
  // @return OK; DataLoss ("... does not authenticate") for a wrong key, a wrong AAD or any
  // changed byte; InvalidArgument when `out` is not the plaintext's size.
  absl::Status DecryptGcm(absl::Span<const uint8_t> module, std::string_view aad,
                          absl::Span<uint8_t> out) const;
  // Decrypts the CTR module `module` into `out` (module.size() - kCtrOverhead bytes). CTR has no
  // tag: a changed byte changes the plaintext, which the page's own checks then meet.
  absl::Status DecryptCtr(absl::Span<const uint8_t> module, absl::Span<uint8_t> out) const;

  // The GCM tag of `plaintext` under `aad` and `nonce`: a plaintext footer's signature.
  absl::StatusOr<std::array<uint8_t, kTagBytes>> GcmTag(absl::Span<const uint8_t> plaintext,
                                                        std::string_view aad,
                                                        absl::Span<const uint8_t> nonce) const;

  // Plain AES-GCM without the length prefix (nonce, ciphertext, tag), as key tools wrap keys.
  absl::StatusOr<std::string> SealKey(std::string_view key, std::string_view aad) const;
  // @return the key SealKey sealed; DataLoss when it does not authenticate.
  absl::StatusOr<std::string> OpenKey(std::string_view sealed, std::string_view aad) const;

 private:
  AesCipher(std::string key, std::shared_ptr<const AcceleratedAes> accelerated)
      : key_(std::move(key)), accelerated_(std::move(accelerated)) {}
  absl::Status Gcm(bool encrypt, absl::Span<const uint8_t> nonce, std::string_view aad,
                   absl::Span<const uint8_t> in, uint8_t* out, uint8_t* tag) const;
  absl::Status Ctr(absl::Span<const uint8_t> nonce, absl::Span<const uint8_t> in,
                   uint8_t* out) const;
  std::string key_;
  std::shared_ptr<const AcceleratedAes> accelerated_;  // null: OpenSSL runs every module
};

// `n` bytes from the cryptographic random source. Internal when it fails.
absl::StatusOr<std::string> RandomBytes(size_t n);

}  // namespace pqpage::internal

#endif  // PQPAGE_CRYPTO_AES_CIPHER_H_
