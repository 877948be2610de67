// Key material: the small JSON documents through which the key tools of parquet-java, Arrow C++
// and pyarrow (PKMT1, "Parquet key management tools, version 1") find a data key again. A file's
// key metadata is either the material itself plus "internalStorage": true, or a reference
// ("keyReference") into a separate material file, `_KEY_MATERIAL_FOR_<file>.json`, whose one
// object maps each reference to a material document held as a JSON string.
//
// The reader here takes flat objects only (string, boolean and number members), which is all these
// documents are, and refuses anything else with DataLoss naming what it met.
#ifndef PQPAGE_CRYPTO_KEY_MATERIAL_H_
#define PQPAGE_CRYPTO_KEY_MATERIAL_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace pqpage::internal {

// One member value of a flat JSON object. Numbers keep their text: key material has none, and a
// member nobody reads need not be converted.
struct JsonScalar {
  enum class Type { kString, kBool, kNumber };
  Type type = Type::kString;
  std::string text;  // the decoded string, or the number as written
  bool boolean = false;
};
using FlatJsonObject = std::map<std::string, JsonScalar, std::less<>>;

// Parses `json`, one object whose members are strings, booleans or numbers (whitespace around
// tokens allowed, nothing after the object). Strings must be UTF-8; escapes, \uXXXX and surrogate
// pairs included, are decoded.
// @return the members; DataLoss naming the offset and what was wrong for anything else (arrays,
// nested objects, null, a member named twice, bad escapes, bytes that are not UTF-8).
absl::StatusOr<FlatJsonObject> ParseFlatJsonObject(std::string_view json);

// Decodes standard base64 (padded, or unpadded as Java's decoder allows), nothing else: no
// whitespace, no URL-safe alphabet.
// @return the bytes; DataLoss naming `what` for anything else.
absl::StatusOr<std::string> DecodeBase64(std::string_view text, std::string_view what);

// The fields of one key's material, as the documents name them in the comments.
struct KeyMaterial {
  bool is_footer_key = false;    // "isFooterKey"
  std::string kms_instance_id;   // "kmsInstanceID", footer key only
  std::string kms_instance_url;  // "kmsInstanceURL", footer key only
  std::string master_key_id;     // "masterKeyID"
  std::string wrapped_dek;       // "wrappedDEK": base64 (double) or the KMS's text (single)
  bool double_wrapping = true;   // "doubleWrapping"
  std::string kek_id;            // "keyEncryptionKeyID": base64 of 16 random bytes
  std::string wrapped_kek;       // "wrappedKEK": the KMS's text
};

// What a file stores as a key's metadata: the material itself, or a reference into the external
// material file.
struct KeyMetadata {
  bool internal_storage = true;
  KeyMaterial material;       // internal_storage only
  std::string key_reference;  // otherwise: "footerKey", "columnKey0", ...
};

// Debian's Abseil has its own string_view, which absl::StrCat and the base64 functions take.
inline absl::string_view Absl(std::string_view text) { return {text.data(), text.size()}; }

inline constexpr char kKeyMaterialType1[] = "PKMT1";
// The file holding a Parquet file's external key material: this prefix, the file's name, ".json".
inline constexpr char kExternalKeyMaterialPrefix[] = "_KEY_MATERIAL_FOR_";

// The material as JSON in the writers' field order: "keyMaterialType", ("internalStorage": true
// when `internal_storage`), "isFooterKey", the KMS instance fields (footer key only),
// "masterKeyID", "wrappedDEK", "doubleWrapping", then the KEK fields (double wrapping only). The
// strings must be UTF-8 (the caller checks).
// @return the compact JSON text.
std::string SerializeKeyMaterial(const KeyMaterial& material, bool internal_storage);
// @return the key metadata that refers to external material by `key_reference`.
std::string SerializeExternalKeyMetadata(std::string_view key_reference);
// @return the external material file's content: an object of reference -> material string.
std::string SerializeExternalKeyMaterial(const std::map<std::string, std::string>& materials);

// Parses a file's key metadata.
// @return it; DataLoss naming the field for malformed JSON, a "keyMaterialType" other than PKMT1,
// or a field missing or of the wrong type.
absl::StatusOr<KeyMetadata> ParseKeyMetadata(std::string_view json);
// Parses one material document of an external material file (it carries its own
// "keyMaterialType").
// @return it; DataLoss as for ParseKeyMetadata.
absl::StatusOr<KeyMaterial> ParseKeyMaterial(std::string_view json);
// Parses an external material file.
// @return reference -> material string; DataLoss when it is not one flat object of strings.
absl::StatusOr<std::map<std::string, std::string>> ParseExternalKeyMaterial(std::string_view json);

}  // namespace pqpage::internal

#endif  // PQPAGE_CRYPTO_KEY_MATERIAL_H_
