#include "crypto/aes_cipher.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <climits>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/byte_io.h"

namespace pqpage::internal {
namespace {

struct ContextFree {
  void operator()(EVP_CIPHER_CTX* context) const { EVP_CIPHER_CTX_free(context); }
};
using Context = std::unique_ptr<EVP_CIPHER_CTX, ContextFree>;

// The ciphers, fetched once: OpenSSL 3 looks an algorithm up on every init otherwise, under a lock.
const EVP_CIPHER* Cipher(bool gcm, size_t key_bytes) {
  static const EVP_CIPHER* const kCiphers[2][3] = {
      {EVP_CIPHER_fetch(nullptr, "AES-128-CTR", nullptr),
       EVP_CIPHER_fetch(nullptr, "AES-192-CTR", nullptr),
       EVP_CIPHER_fetch(nullptr, "AES-256-CTR", nullptr)},
      {EVP_CIPHER_fetch(nullptr, "AES-128-GCM", nullptr),
       EVP_CIPHER_fetch(nullptr, "AES-192-GCM", nullptr),
       EVP_CIPHER_fetch(nullptr, "AES-256-GCM", nullptr)}};
  return kCiphers[gcm ? 1 : 0][(key_bytes - 16) / 8];
}

absl::Status OpenSslError(absl::string_view what) {
  return absl::InternalError(absl::StrCat("OpenSSL failed to ", what));
}

absl::Status NotAuthentic() {
  return absl::DataLossError(
      "an encrypted module does not authenticate: a wrong key or AAD prefix, a module moved from "
      "elsewhere, or changed bytes");
}

absl::Status CheckSize(size_t n) {
  // Module lengths are 4-byte numbers and OpenSSL counts in int.
  if (n > static_cast<size_t>(INT_MAX) - kGcmOverhead) {
    return absl::InvalidArgumentError(absl::StrCat("cannot encrypt ", n, " bytes in one module"));
  }
  return absl::OkStatus();
}

// Appends a module's length and a fresh nonce to `out`, and room for `plaintext_size` bytes and a
// tag of `tag_size`; returns where the ciphertext goes (right after the nonce).
absl::StatusOr<uint8_t*> AppendModuleHead(size_t plaintext_size, size_t tag_size,
                                          std::vector<uint8_t>* out) {
  if (absl::Status status = CheckSize(plaintext_size); !status.ok()) return status;
  absl::StatusOr<std::string> nonce = RandomBytes(kNonceBytes);
  if (!nonce.ok()) return nonce.status();
  const size_t begin = out->size();
  out->resize(begin + kModuleLengthBytes + kNonceBytes + plaintext_size + tag_size);
  uint8_t* at = out->data() + begin;
  StoreLittleEndian<uint32_t>(at, static_cast<uint32_t>(kNonceBytes + plaintext_size + tag_size));
  std::memcpy(at + kModuleLengthBytes, nonce->data(), kNonceBytes);
  return at + kModuleLengthBytes + kNonceBytes;
}

}  // namespace

absl::Status CheckAesKey(std::string_view key) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32) {
    return absl::InvalidArgumentError(
        absl::StrCat("an AES key is 16, 24 or 32 bytes, not ", key.size()));
  }
  return absl::OkStatus();
}

absl::StatusOr<size_t> ModuleSize(absl::Span<const uint8_t> bytes, bool gcm) {
  if (bytes.size() < kModuleLengthBytes) {
    return absl::DataLossError("an encrypted module is cut short before its length");
  }
  const uint64_t length = LoadLittleEndian<uint32_t>(bytes.data());
  const size_t least = gcm ? kNonceBytes + kTagBytes : kNonceBytes;
  if (length < least) {
    return absl::DataLossError(absl::StrCat("an encrypted module of ", length,
                                            " bytes cannot hold its nonce", gcm ? " and tag" : ""));
  }
  if (length > bytes.size() - kModuleLengthBytes) {
    return absl::DataLossError(absl::StrCat("an encrypted module of ", length,
                                            " bytes runs past the ",
                                            bytes.size() - kModuleLengthBytes, " bytes there"));
  }
  return static_cast<size_t>(length) + kModuleLengthBytes;
}

absl::StatusOr<AesCipher> AesCipher::Make(std::string_view key, AesEngine engine) {
  if (absl::Status status = CheckAesKey(key); !status.ok()) return status;
  std::shared_ptr<const AcceleratedAes> accelerated;
  if (engine == AesEngine::kFastest) accelerated = AcceleratedAes::Make(key);
  return AesCipher(std::string(key), std::move(accelerated));
}

absl::Status AesCipher::Gcm(bool encrypt, absl::Span<const uint8_t> nonce, std::string_view aad,
                            absl::Span<const uint8_t> in, uint8_t* out, uint8_t* tag) const {
  if (accelerated_ != nullptr) {
    if (encrypt) {
      accelerated_->GcmEncrypt(nonce.data(), aad, in, out, tag);
      return absl::OkStatus();
    }
    if (accelerated_->GcmDecrypt(nonce.data(), aad, in, out, tag)) return absl::OkStatus();
    if (!in.empty()) std::memset(out, 0, in.size());
    return NotAuthentic();
  }
  Context context(EVP_CIPHER_CTX_new());
  if (context == nullptr) return OpenSslError("make a cipher context");
  const auto* key = reinterpret_cast<const unsigned char*>(key_.data());
  int n = 0;
  const bool ok = EVP_CipherInit_ex(context.get(), Cipher(true, key_.size()), nullptr, key,
                                    nonce.data(), encrypt ? 1 : 0) == 1 &&
                  (aad.empty() || EVP_CipherUpdate(context.get(), nullptr, &n,
                                                   reinterpret_cast<const uint8_t*>(aad.data()),
                                                   static_cast<int>(aad.size())) == 1) &&
                  (in.empty() || EVP_CipherUpdate(context.get(), out, &n, in.data(),
                                                  static_cast<int>(in.size())) == 1);
  if (!ok) return OpenSslError(encrypt ? "encrypt" : "decrypt");
  if (encrypt) {
    if (EVP_CipherFinal_ex(context.get(), out + in.size(), &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag) != 1) {
      return OpenSslError("finish a GCM tag");
    }
    return absl::OkStatus();
  }
  if (EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag) != 1) {
    return OpenSslError("set a GCM tag");
  }
  if (EVP_CipherFinal_ex(context.get(), out + in.size(), &n) != 1) {
    if (!in.empty()) std::memset(out, 0, in.size());
    return NotAuthentic();
  }
  return absl::OkStatus();
}

absl::Status AesCipher::EncryptGcm(absl::Span<const uint8_t> plaintext, std::string_view aad,
                                   std::vector<uint8_t>* out) const {
  absl::StatusOr<uint8_t*> body = AppendModuleHead(plaintext.size(), kTagBytes, out);
  if (!body.ok()) return body.status();
  return Gcm(true, absl::MakeConstSpan(*body - kNonceBytes, kNonceBytes), aad, plaintext, *body,
             *body + plaintext.size());
}

absl::Status AesCipher::DecryptGcm(absl::Span<const uint8_t> module, std::string_view aad,
                                   absl::Span<uint8_t> out) const {
  if (module.size() < kGcmOverhead || out.size() != module.size() - kGcmOverhead) {
    return absl::InvalidArgumentError("GCM plaintext buffer of the wrong size");
  }
  std::array<uint8_t, kTagBytes> tag;
  std::memcpy(tag.data(), module.data() + module.size() - kTagBytes, kTagBytes);
  return Gcm(false, module.subspan(kModuleLengthBytes, kNonceBytes), aad,
             module.subspan(kModuleLengthBytes + kNonceBytes, out.size()), out.data(), tag.data());
}

absl::StatusOr<std::array<uint8_t, kTagBytes>> AesCipher::GcmTag(
    absl::Span<const uint8_t> plaintext, std::string_view aad,
    absl::Span<const uint8_t> nonce) const {
  if (absl::Status status = CheckSize(plaintext.size()); !status.ok()) return status;
  if (nonce.size() != kNonceBytes) return absl::InvalidArgumentError("a GCM nonce is 12 bytes");
  std::vector<uint8_t> ciphertext(plaintext.size());
  std::array<uint8_t, kTagBytes> tag;
  if (absl::Status status = Gcm(true, nonce, aad, plaintext, ciphertext.data(), tag.data());
      !status.ok()) {
    return status;
  }
  return tag;
}

absl::Status AesCipher::EncryptCtr(absl::Span<const uint8_t> plaintext,
                                   std::vector<uint8_t>* out) const {
  absl::StatusOr<uint8_t*> body = AppendModuleHead(plaintext.size(), 0, out);
  if (!body.ok()) return body.status();
  return Ctr(absl::MakeConstSpan(*body - kNonceBytes, kNonceBytes), plaintext, *body);
}

absl::Status AesCipher::DecryptCtr(absl::Span<const uint8_t> module,
                                   absl::Span<uint8_t> out) const {
  if (module.size() < kCtrOverhead || out.size() != module.size() - kCtrOverhead) {
    return absl::InvalidArgumentError("CTR plaintext buffer of the wrong size");
  }
  return Ctr(module.subspan(kModuleLengthBytes, kNonceBytes), module.subspan(kCtrOverhead),
             out.data());
}

absl::Status AesCipher::Ctr(absl::Span<const uint8_t> nonce, absl::Span<const uint8_t> in,
                            uint8_t* out) const {
  // The counter block is the nonce and a 32-bit big-endian counter that starts at 1, as in GCM.
  uint8_t iv[16] = {0};
  std::memcpy(iv, nonce.data(), kNonceBytes);
  iv[15] = 1;
  // Should ipsec-mb refuse the job, OpenSSL runs it.
  if (accelerated_ != nullptr && accelerated_->Ctr(iv, in, out)) return absl::OkStatus();
  Context context(EVP_CIPHER_CTX_new());
  int n = 0;
  if (context == nullptr ||
      EVP_EncryptInit_ex(context.get(), Cipher(false, key_.size()), nullptr,
                         reinterpret_cast<const unsigned char*>(key_.data()), iv) != 1 ||
      (!in.empty() &&
       EVP_EncryptUpdate(context.get(), out, &n, in.data(), static_cast<int>(in.size())) != 1) ||
      EVP_EncryptFinal_ex(context.get(), out + in.size(), &n) != 1) {
    return OpenSslError("run AES-CTR");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> AesCipher::SealKey(std::string_view key, std::string_view aad) const {
  absl::StatusOr<std::string> nonce = RandomBytes(kNonceBytes);
  if (!nonce.ok()) return nonce.status();
  std::string sealed = *nonce;
  sealed.resize(kNonceBytes + key.size() + kTagBytes);
  auto* body = reinterpret_cast<uint8_t*>(sealed.data()) + kNonceBytes;
  if (absl::Status status =
          Gcm(true, absl::MakeConstSpan(body - kNonceBytes, kNonceBytes), aad,
              absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(key.data()), key.size()), body,
              body + key.size());
      !status.ok()) {
    return status;
  }
  return sealed;
}

absl::StatusOr<std::string> AesCipher::OpenKey(std::string_view sealed,
                                               std::string_view aad) const {
  if (sealed.size() < kNonceBytes + kTagBytes) {
    return absl::DataLossError("a wrapped key too short to hold its nonce and tag");
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(sealed.data());
  std::string key(sealed.size() - kNonceBytes - kTagBytes, '\0');
  std::array<uint8_t, kTagBytes> tag;
  std::memcpy(tag.data(), bytes + sealed.size() - kTagBytes, kTagBytes);
  if (absl::Status status = Gcm(false, absl::MakeConstSpan(bytes, kNonceBytes), aad,
                                absl::MakeConstSpan(bytes + kNonceBytes, key.size()),
                                reinterpret_cast<uint8_t*>(key.data()), tag.data());
      !status.ok()) {
    return status;
  }
  return key;
}

absl::StatusOr<std::string> RandomBytes(size_t n) {
  std::string bytes(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(n)) != 1) {
    return OpenSslError("draw random bytes");
  }
  return bytes;
}

}  // namespace pqpage::internal
