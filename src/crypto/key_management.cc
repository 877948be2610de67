// Envelope encryption through a KMS (pqpage/key_management.h): the writer's data keys wrapped
// into key material, and the reader's key retriever that unwraps them.
#include "pqpage/key_management.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "crypto/aes_cipher.h"
#include "crypto/key_material.h"
#include "pqpage/json_writer.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

using internal::KeyMaterial;

// The KEK and its ID are 16 random bytes each in parquet-java and Arrow alike.
constexpr size_t kKekBytes = 16;
constexpr size_t kKekIdBytes = 16;

bool IsUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

// `status` with `context` before its message, its code kept.
absl::Status WithContext(const absl::Status& status, std::string_view context) {
  return absl::Status(status.code(), absl::StrCat(internal::Absl(context), status.message()));
}

// Wraps the data keys of one file, drawing one KEK per master key when double wrapping.
class FileKeyWrapper {
 public:
  FileKeyWrapper(KmsClient& kms, const KmsEncryptionConfig& config) : kms_(kms), config_(config) {}

  // @return the key metadata (internal key material) of `data_key` under `master_key_id`.
  absl::StatusOr<std::string> KeyMetadata(std::string_view data_key,
                                          const std::string& master_key_id, bool is_footer_key) {
    KeyMaterial material;
    material.is_footer_key = is_footer_key;
    if (is_footer_key) {
      material.kms_instance_id =
          config_.kms_instance_id.empty() ? "DEFAULT" : config_.kms_instance_id;
      material.kms_instance_url =
          config_.kms_instance_url.empty() ? "DEFAULT" : config_.kms_instance_url;
    }
    material.master_key_id = master_key_id;
    material.double_wrapping = config_.double_wrapping;
    if (config_.double_wrapping) {
      PQPAGE_ASSIGN_OR_RETURN(const Kek* kek, KekFor(master_key_id));
      PQPAGE_ASSIGN_OR_RETURN(internal::AesCipher cipher, internal::AesCipher::Make(kek->bytes));
      // The KEK's raw ID is the AAD, tying the wrapped DEK to the KEK named beside it.
      PQPAGE_ASSIGN_OR_RETURN(std::string sealed, cipher.SealKey(data_key, kek->id));
      material.wrapped_dek = absl::Base64Escape(sealed);
      material.kek_id = absl::Base64Escape(kek->id);
      material.wrapped_kek = kek->wrapped;
    } else {
      PQPAGE_ASSIGN_OR_RETURN(material.wrapped_dek, Wrap(data_key, master_key_id));
    }
    return internal::SerializeKeyMaterial(material, /*internal_storage=*/true);
  }

 private:
  struct Kek {
    std::string bytes;
    std::string id;  // raw bytes; base64 in the material
    std::string wrapped;
  };

  absl::StatusOr<const Kek*> KekFor(const std::string& master_key_id) {
    if (const auto it = keks_.find(master_key_id); it != keks_.end()) return &it->second;
    Kek kek;
    PQPAGE_ASSIGN_OR_RETURN(kek.bytes, internal::RandomBytes(kKekBytes));
    PQPAGE_ASSIGN_OR_RETURN(kek.id, internal::RandomBytes(kKekIdBytes));
    PQPAGE_ASSIGN_OR_RETURN(kek.wrapped, Wrap(kek.bytes, master_key_id));
    return &keks_.emplace(master_key_id, std::move(kek)).first->second;
  }

  // The KMS's wrapping, which must be text: it goes into JSON as it is.
  absl::StatusOr<std::string> Wrap(std::string_view key, const std::string& master_key_id) {
    absl::StatusOr<std::string> wrapped = kms_.WrapKey(key, master_key_id);
    if (!wrapped.ok()) {
      return WithContext(wrapped.status(),
                         absl::StrCat("wrapping with master key \"", master_key_id, "\": "));
    }
    if (!IsUtf8(*wrapped)) {
      return absl::InvalidArgumentError(absl::StrCat("the KMS wrapped a key with master key \"",
                                                     master_key_id, "\" into bytes not UTF-8"));
    }
    return wrapped;
  }

  KmsClient& kms_;
  const KmsEncryptionConfig& config_;
  std::map<std::string, Kek> keks_;
};

absl::Status CheckConfig(const KmsEncryptionConfig& config) {
  if (config.footer_key.empty()) return absl::InvalidArgumentError("no footer master key ID");
  if (config.uniform_encryption == !config.column_keys.empty()) {
    return absl::InvalidArgumentError(config.uniform_encryption
                                          ? "both column keys and uniform encryption"
                                          : "neither column keys nor uniform encryption");
  }
  if (config.data_key_length_bits != 128 && config.data_key_length_bits != 192 &&
      config.data_key_length_bits != 256) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a data key length of ", config.data_key_length_bits, " bits, not 128, 192 or 256"));
  }
  if (!IsUtf8(config.footer_key)) {
    return absl::InvalidArgumentError("the footer master key ID is not UTF-8");
  }
  std::map<std::string_view, std::string_view> master_key_of_column;
  for (const auto& [master_key_id, columns] : config.column_keys) {
    if (master_key_id.empty()) return absl::InvalidArgumentError("an empty column master key ID");
    if (!IsUtf8(master_key_id)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "column master key ID \"", absl::CHexEscape(master_key_id), "\" is not UTF-8"));
    }
    if (columns.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("no columns for master key \"", master_key_id, "\""));
    }
    for (const std::string& column : columns) {
      if (column.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("an empty column path for master key \"", master_key_id, "\""));
      }
      const auto [it, added] = master_key_of_column.emplace(column, master_key_id);
      if (!added) {
        return absl::InvalidArgumentError(
            absl::StrCat("column \"", column, "\" is named twice (master keys \"",
                         internal::Absl(it->second), "\" and \"", master_key_id, "\")"));
      }
    }
  }
  return absl::OkStatus();
}

// The reader's side: key metadata -> data key. Shared by the copies of the retriever.
class FileKeyUnwrapper {
 public:
  FileKeyUnwrapper(std::shared_ptr<KmsClient> kms, std::string external_key_material)
      : kms_(std::move(kms)), external_json_(std::move(external_key_material)) {}

  absl::StatusOr<std::string> GetKey(std::string_view key_metadata) {
    if (kms_ == nullptr) return absl::InvalidArgumentError("no KMS client to unwrap keys with");
    PQPAGE_ASSIGN_OR_RETURN(internal::KeyMetadata metadata,
                            internal::ParseKeyMetadata(key_metadata));
    if (metadata.internal_storage) return DataKey(metadata.material, "");
    const std::string& reference = metadata.key_reference;
    PQPAGE_ASSIGN_OR_RETURN(const std::string* material_json, ExternalMaterial(reference));
    absl::StatusOr<KeyMaterial> material = internal::ParseKeyMaterial(*material_json);
    if (!material.ok()) {
      return WithContext(material.status(), absl::StrCat("\"", reference, "\": "));
    }
    return DataKey(*material, reference);
  }

 private:
  absl::StatusOr<const std::string*> ExternalMaterial(const std::string& reference) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (external_json_.empty()) {
      return absl::NotFoundError(
          absl::StrCat("the key metadata refers to external key material (\"", reference,
                       "\"), and none was given (the _KEY_MATERIAL_FOR_<file>.json file)"));
    }
    if (!external_.has_value()) external_ = internal::ParseExternalKeyMaterial(external_json_);
    if (!external_->ok()) return external_->status();
    const auto it = (*external_)->find(reference);
    if (it == (*external_)->end()) {
      return absl::NotFoundError(
          absl::StrCat("the external key material holds no key \"", reference, "\""));
    }
    return &it->second;
  }

  absl::StatusOr<std::string> DataKey(const KeyMaterial& material, std::string_view reference) {
    const std::string context =
        absl::StrCat(material.is_footer_key ? "footer key" : "column key",
                     reference.empty() ? "" : absl::StrCat(" \"", internal::Absl(reference), "\""),
                     " (master key \"", material.master_key_id, "\"): ");
    absl::StatusOr<std::string> key = Unwrap(material);
    if (!key.ok()) return WithContext(key.status(), context);
    if (!internal::CheckAesKey(*key).ok()) {
      return absl::DataLossError(absl::StrCat(context, "the data key unwrapped holds ", key->size(),
                                              " bytes, not 16, 24 or 32"));
    }
    return key;
  }

  absl::StatusOr<std::string> Unwrap(const KeyMaterial& material) {
    if (!material.double_wrapping)
      return kms_->UnwrapKey(material.wrapped_dek, material.master_key_id);
    PQPAGE_ASSIGN_OR_RETURN(const std::string kek_id,
                            internal::DecodeBase64(material.kek_id, "\"keyEncryptionKeyID\""));
    PQPAGE_ASSIGN_OR_RETURN(const std::string sealed_dek,
                            internal::DecodeBase64(material.wrapped_dek, "\"wrappedDEK\""));
    PQPAGE_ASSIGN_OR_RETURN(const std::string kek, KeyEncryptionKey(material));
    PQPAGE_ASSIGN_OR_RETURN(internal::AesCipher cipher, internal::AesCipher::Make(kek));
    absl::StatusOr<std::string> dek = cipher.OpenKey(sealed_dek, kek_id);
    if (!dek.ok()) {
      return WithContext(dek.status(), "\"wrappedDEK\" does not open under its KEK: ");
    }
    return dek;
  }

  // The KEK of `material`, unwrapped by the KMS once per KEK ID and master key.
  absl::StatusOr<std::string> KeyEncryptionKey(const KeyMaterial& material) {
    const std::string cache_key = absl::StrCat(material.kek_id, "/", material.master_key_id);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (const auto it = keks_.find(cache_key); it != keks_.end()) return it->second;
    }
    // Unlocked: a KMS call may be slow, and two threads unwrapping the same KEK is harmless.
    absl::StatusOr<std::string> kek = kms_->UnwrapKey(material.wrapped_kek, material.master_key_id);
    if (!kek.ok()) return WithContext(kek.status(), "\"wrappedKEK\": ");
    if (!internal::CheckAesKey(*kek).ok()) {
      return absl::DataLossError(
          absl::StrCat("the KEK unwrapped holds ", kek->size(), " bytes, not 16, 24 or 32"));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    keks_.emplace(cache_key, *kek);
    return kek;
  }

  const std::shared_ptr<KmsClient> kms_;
  const std::string external_json_;
  std::mutex mutex_;
  // Guarded by mutex_: the external material, parsed on first use, and the KEKs unwrapped.
  std::optional<absl::StatusOr<std::map<std::string, std::string>>> external_;
  std::map<std::string, std::string> keks_;
};

}  // namespace

absl::StatusOr<FileEncryptionProperties> EncryptionPropertiesFromKms(
    const std::shared_ptr<KmsClient>& kms, const KmsEncryptionConfig& config) {
  if (kms == nullptr) return absl::InvalidArgumentError("no KMS client");
  PQPAGE_RETURN_IF_ERROR(CheckConfig(config));
  const size_t key_bytes = static_cast<size_t>(config.data_key_length_bits / 8);
  FileKeyWrapper wrapper(*kms, config);
  FileEncryptionProperties properties;
  properties.algorithm = config.algorithm;
  properties.encrypted_footer = !config.plaintext_footer;
  PQPAGE_ASSIGN_OR_RETURN(properties.footer_key, internal::RandomBytes(key_bytes));
  PQPAGE_ASSIGN_OR_RETURN(properties.footer_key_metadata,
                          wrapper.KeyMetadata(properties.footer_key, config.footer_key,
                                              /*is_footer_key=*/true));
  for (const auto& [master_key_id, columns] : config.column_keys) {
    for (const std::string& column : columns) {
      ColumnEncryptionKey& column_key = properties.column_keys[column];
      PQPAGE_ASSIGN_OR_RETURN(column_key.key, internal::RandomBytes(key_bytes));
      PQPAGE_ASSIGN_OR_RETURN(column_key.key_metadata,
                              wrapper.KeyMetadata(column_key.key, master_key_id,
                                                  /*is_footer_key=*/false));
    }
  }
  return properties;
}

FileDecryptionProperties DecryptionPropertiesFromKms(std::shared_ptr<KmsClient> kms,
                                                     std::string external_key_material) {
  FileDecryptionProperties properties;
  auto unwrapper =
      std::make_shared<FileKeyUnwrapper>(std::move(kms), std::move(external_key_material));
  properties.key_retriever =
      [unwrapper](std::string_view key_metadata) -> absl::StatusOr<std::string> {
    return unwrapper->GetKey(key_metadata);
  };
  return properties;
}

std::string ExternalKeyMaterialPath(std::string_view parquet_file_path) {
  const size_t slash = parquet_file_path.rfind('/');
  const size_t name_at = slash == std::string_view::npos ? 0 : slash + 1;
  return absl::StrCat(internal::Absl(parquet_file_path.substr(0, name_at)),
                      internal::kExternalKeyMaterialPrefix,
                      internal::Absl(parquet_file_path.substr(name_at)), ".json");
}

}  // namespace pqpage
