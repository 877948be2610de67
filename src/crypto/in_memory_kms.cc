// InMemoryKmsClient (pqpage/key_management.h): master keys in a map, keys wrapped locally the
// way parquet-java's InMemoryKMS wraps them.
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "crypto/aes_cipher.h"
#include "crypto/key_material.h"
#include "pqpage/key_management.h"

namespace pqpage {

absl::StatusOr<std::shared_ptr<InMemoryKmsClient>> InMemoryKmsClient::Make(
    std::map<std::string, std::string> master_keys) {
  for (const auto& [id, key] : master_keys) {
    if (absl::Status status = internal::CheckAesKey(key); !status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("master key \"", id, "\" holds ", key.size(), " bytes, not 16, 24 or 32"));
    }
  }
  return std::shared_ptr<InMemoryKmsClient>(new InMemoryKmsClient(
      std::map<std::string, std::string, std::less<>>(master_keys.begin(), master_keys.end())));
}

namespace {

absl::Status UnknownMasterKey(std::string_view master_key_id) {
  return absl::NotFoundError(
      absl::StrCat("no master key \"", internal::Absl(master_key_id), "\" in the KMS"));
}

}  // namespace

absl::StatusOr<std::string> InMemoryKmsClient::WrapKey(std::string_view key_bytes,
                                                       std::string_view master_key_id) {
  const auto it = master_keys_.find(master_key_id);
  if (it == master_keys_.end()) return UnknownMasterKey(master_key_id);
  absl::StatusOr<internal::AesCipher> cipher = internal::AesCipher::Make(it->second);
  if (!cipher.ok()) return cipher.status();
  // The master key's ID as AAD binds the wrapped key to the ID it was wrapped under.
  absl::StatusOr<std::string> sealed = cipher->SealKey(key_bytes, master_key_id);
  if (!sealed.ok()) return sealed.status();
  return absl::Base64Escape(*sealed);
}

absl::StatusOr<std::string> InMemoryKmsClient::UnwrapKey(std::string_view wrapped_key,
                                                         std::string_view master_key_id) {
  const auto it = master_keys_.find(master_key_id);
  if (it == master_keys_.end()) return UnknownMasterKey(master_key_id);
  absl::StatusOr<std::string> sealed = internal::DecodeBase64(
      wrapped_key,
      absl::StrCat("a key wrapped with master key \"", internal::Absl(master_key_id), "\""));
  if (!sealed.ok()) return sealed.status();
  absl::StatusOr<internal::AesCipher> cipher = internal::AesCipher::Make(it->second);
  if (!cipher.ok()) return cipher.status();
  absl::StatusOr<std::string> key = cipher->OpenKey(*sealed, master_key_id);
  if (absl::IsDataLoss(key.status())) {
    // Too short or not authentic: a wrong master key and an altered wrapped key look the same.
    return absl::PermissionDeniedError(
        absl::StrCat("master key \"", internal::Absl(master_key_id),
                     "\" does not unwrap this key (another key under that ID, or an altered "
                     "wrapped key): ",
                     key.status().message()));
  }
  return key;
}

}  // namespace pqpage
