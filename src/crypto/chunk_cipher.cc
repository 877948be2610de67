#include "crypto/chunk_cipher.h"

#include "absl/strings/str_cat.h"

namespace pqpage {

absl::Status ColumnChunkCipher::Decrypt(internal::ModuleType type, int64_t page,
                                        absl::Span<const uint8_t> module,
                                        absl::Span<uint8_t> out) const {
  if (!Gcm(type)) return cipher_.DecryptCtr(module, out);
  absl::StatusOr<std::string> aad = internal::ModuleAad(file_aad_, type, row_group_, column_, page);
  if (!aad.ok()) return absl::DataLossError(aad.status().message());
  return cipher_.DecryptGcm(module, *aad, out);
}

absl::StatusOr<std::vector<uint8_t>> ColumnChunkCipher::Decrypt(
    internal::ModuleType type, int64_t page, absl::Span<const uint8_t> module) const {
  absl::StatusOr<size_t> size = ModuleSize(type, module);
  if (!size.ok()) return size.status();
  if (*size != module.size()) {
    return absl::DataLossError(absl::StrCat("an encrypted module of ", *size, " bytes where ",
                                            module.size(), " were expected"));
  }
  std::vector<uint8_t> plaintext(module.size() - Overhead(type));
  if (absl::Status status = Decrypt(type, page, module, absl::MakeSpan(plaintext)); !status.ok()) {
    return status;
  }
  return plaintext;
}

absl::Status ColumnChunkCipher::Encrypt(internal::ModuleType type, int64_t page,
                                        absl::Span<const uint8_t> plaintext,
                                        std::vector<uint8_t>* out) const {
  if (!Gcm(type)) return cipher_.EncryptCtr(plaintext, out);
  absl::StatusOr<std::string> aad = internal::ModuleAad(file_aad_, type, row_group_, column_, page);
  if (!aad.ok()) return aad.status();
  return cipher_.EncryptGcm(plaintext, *aad, out);
}

}  // namespace pqpage
