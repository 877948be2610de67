#include "crypto/key_material.h"

#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "pqpage/json_writer.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {
namespace {

// The field names, shared by parquet-java's KeyMaterial/KeyMetadata and Arrow's.
constexpr char kKeyMaterialTypeField[] = "keyMaterialType";
constexpr char kInternalStorageField[] = "internalStorage";
constexpr char kKeyReferenceField[] = "keyReference";
constexpr char kIsFooterKeyField[] = "isFooterKey";
constexpr char kKmsInstanceIdField[] = "kmsInstanceID";
constexpr char kKmsInstanceUrlField[] = "kmsInstanceURL";
constexpr char kMasterKeyIdField[] = "masterKeyID";
constexpr char kWrappedDekField[] = "wrappedDEK";
constexpr char kDoubleWrappingField[] = "doubleWrapping";
constexpr char kKekIdField[] = "keyEncryptionKeyID";
constexpr char kWrappedKekField[] = "wrappedKEK";

// A recursive-descent reader over one flat object. Every error names the byte offset.
class FlatJsonReader {
 public:
  explicit FlatJsonReader(std::string_view json) : json_(json) {}

  absl::StatusOr<FlatJsonObject> ReadObject() {
    FlatJsonObject object;
    SkipSpace();
    if (!Consume('{')) return Error("expected '{'");
    SkipSpace();
    if (!Consume('}')) {
      while (true) {
        SkipSpace();
        const size_t key_at = at_;
        std::string key;
        if (absl::Status status = ReadString(&key); !status.ok()) return status;
        SkipSpace();
        if (!Consume(':')) return Error("expected ':'");
        SkipSpace();
        JsonScalar value;
        if (absl::Status status = ReadScalar(&value); !status.ok()) return status;
        if (!object.emplace(key, std::move(value)).second) {
          return Error(absl::StrCat("member \"", key, "\" appears twice"), key_at);
        }
        SkipSpace();
        if (Consume('}')) break;
        if (!Consume(',')) return Error("expected ',' or '}'");
      }
    }
    SkipSpace();
    if (at_ != json_.size()) return Error("text after the object");
    return object;
  }

 private:
  absl::Status Error(absl::string_view what) const { return Error(what, at_); }
  absl::Status Error(absl::string_view what, size_t at) const {
    return absl::DataLossError(absl::StrCat("malformed JSON at byte ", at, ": ", what));
  }

  bool Consume(char c) {
    if (at_ < json_.size() && json_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool ConsumeWord(std::string_view word) {
    if (json_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }
  void SkipSpace() {
    while (at_ < json_.size() &&
           (json_[at_] == ' ' || json_[at_] == '\t' || json_[at_] == '\n' || json_[at_] == '\r')) {
      ++at_;
    }
  }

  absl::Status ReadScalar(JsonScalar* value) {
    if (at_ >= json_.size()) return Error("the text ends where a value was expected");
    const char c = json_[at_];
    if (c == '"') {
      value->type = JsonScalar::Type::kString;
      return ReadString(&value->text);
    }
    if (ConsumeWord("true") || ConsumeWord("false")) {
      value->type = JsonScalar::Type::kBool;
      value->boolean = c == 't';
      return absl::OkStatus();
    }
    if (c == '-' || absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      value->type = JsonScalar::Type::kNumber;
      return ReadNumber(&value->text);
    }
    if (c == '{' || c == '[') return Error("nested objects and arrays are not key material");
    if (c == 'n') return Error("null is not key material");
    return Error("expected a value");
  }

  // The JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  absl::Status ReadNumber(std::string* text) {
    const size_t start = at_;
    const auto digits = [&] {
      const size_t from = at_;
      while (at_ < json_.size() && absl::ascii_isdigit(static_cast<unsigned char>(json_[at_]))) {
        ++at_;
      }
      return at_ - from;
    };
    Consume('-');
    const size_t integer_at = at_;
    const size_t integer_digits = digits();
    if (integer_digits == 0) return Error("a number without digits");
    if (integer_digits > 1 && json_[integer_at] == '0') return Error("a number with a leading 0");
    if (Consume('.') && digits() == 0) return Error("a number without digits after '.'");
    if (Consume('e') || Consume('E')) {
      if (!Consume('+')) Consume('-');
      if (digits() == 0) return Error("a number without exponent digits");
    }
    *text = std::string(json_.substr(start, at_ - start));
    return absl::OkStatus();
  }

  absl::Status ReadHex4(uint32_t* code) {
    if (json_.size() - at_ < 4) return Error("a \\u escape cut short");
    *code = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = json_[at_ + k];
      if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return Error("a bad \\u escape");
      *code =
          (*code << 4) | static_cast<uint32_t>(absl::ascii_isdigit(static_cast<unsigned char>(c))
                                                   ? c - '0'
                                                   : absl::ascii_tolower(c) - 'a' + 10);
    }
    at_ += 4;
    return absl::OkStatus();
  }

  static void AppendUtf8(uint32_t code, std::string* out) {
    if (code < 0x80) {
      *out += static_cast<char>(code);
    } else if (code < 0x800) {
      *out += static_cast<char>(0xc0 | (code >> 6));
      *out += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      *out += static_cast<char>(0xe0 | (code >> 12));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      *out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      *out += static_cast<char>(0xf0 | (code >> 18));
      *out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      *out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }

  // A \u escape, a surrogate pair taking two.
  absl::Status ReadUnicodeEscape(std::string* out) {
    uint32_t code = 0;
    if (absl::Status status = ReadHex4(&code); !status.ok()) return status;
    if (code >= 0xdc00 && code <= 0xdfff) return Error("a lone low surrogate");
    if (code >= 0xd800 && code <= 0xdbff) {
      if (!ConsumeWord("\\u")) return Error("a high surrogate without its low half");
      uint32_t low = 0;
      if (absl::Status status = ReadHex4(&low); !status.ok()) return status;
      if (low < 0xdc00 || low > 0xdfff) return Error("a high surrogate without its low half");
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    }
    AppendUtf8(code, out);
    return absl::OkStatus();
  }

  absl::Status ReadString(std::string* out) {
    if (!Consume('"')) return Error("expected a string");
    out->clear();
    while (true) {
      if (at_ >= json_.size()) return Error("a string without its closing quote");
      const auto c = static_cast<unsigned char>(json_[at_]);
      if (c == '"') {
        ++at_;
        return absl::OkStatus();
      }
      if (c < 0x20) return Error("a control character inside a string");
      if (c == '\\') {
        ++at_;
        if (at_ >= json_.size()) return Error("a string without its closing quote");
        const char escape = json_[at_++];
        switch (escape) {
          case '"':
          case '\\':
          case '/':
            *out += escape;
            break;
          case 'b':
            *out += '\b';
            break;
          case 'f':
            *out += '\f';
            break;
          case 'n':
            *out += '\n';
            break;
          case 'r':
            *out += '\r';
            break;
          case 't':
            *out += '\t';
            break;
          case 'u':
            if (absl::Status status = ReadUnicodeEscape(out); !status.ok()) return status;
            break;
          default:
            return Error("an unknown escape", at_ - 1);
        }
        continue;
      }
      const size_t length = Utf8SequenceLength(json_, at_);
      if (length == 0) return Error("bytes that are not UTF-8");
      out->append(json_.substr(at_, length));
      at_ += length;
    }
  }

  std::string_view json_;
  size_t at_ = 0;
};

// Writes one compact object ({"a":"b","c":true}), as Arrow's writer does.
class CompactJsonObject {
 public:
  CompactJsonObject() : out_("{") {}

  void String(std::string_view key, std::string_view value) {
    Key(key);
    AppendString(value);
  }
  void Bool(std::string_view key, bool value) {
    Key(key);
    out_ += value ? "true" : "false";
  }
  std::string Finish() && {
    out_ += '}';
    return std::move(out_);
  }

 private:
  void Key(std::string_view key) {
    if (out_.size() > 1) out_ += ',';
    AppendString(key);
    out_ += ':';
  }
  // Quotes, backslashes and control characters escaped; other bytes as they are (UTF-8).
  void AppendString(std::string_view text) {
    out_ += '"';
    for (const char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += c;
      } else if (byte < 0x20) {
        static constexpr char kHex[] = "0123456789abcdef";
        out_ += "\\u00";
        out_ += kHex[byte >> 4];
        out_ += kHex[byte & 0xf];
      } else {
        out_ += c;
      }
    }
    out_ += '"';
  }

  std::string out_;
};

// Typed access to a parsed document; `what` ("key metadata", "key material") names it in errors.
class Fields {
 public:
  Fields(const FlatJsonObject& object, absl::string_view what) : object_(object), what_(what) {}

  absl::StatusOr<std::string> String(absl::string_view field) const {
    const auto it = object_.find(field);
    if (it == object_.end()) return Missing(field);
    if (it->second.type != JsonScalar::Type::kString) {
      return absl::DataLossError(absl::StrCat(what_, ": \"", field, "\" is not a string"));
    }
    return it->second.text;
  }
  // A string that may be absent (the KMS instance fields, which readers do not need).
  absl::StatusOr<std::string> OptionalString(absl::string_view field) const {
    if (object_.find(field) == object_.end()) return std::string();
    return String(field);
  }
  // JSON true/false, or the strings "true"/"false": parquet-java's key tools before 1.12 kept
  // every member a string.
  absl::StatusOr<bool> Bool(absl::string_view field) const {
    const auto it = object_.find(field);
    if (it == object_.end()) return Missing(field);
    const JsonScalar& value = it->second;
    if (value.type == JsonScalar::Type::kBool) return value.boolean;
    if (value.type == JsonScalar::Type::kString &&
        (value.text == "true" || value.text == "false")) {
      return value.text == "true";
    }
    return absl::DataLossError(absl::StrCat(what_, ": \"", field, "\" is not a boolean"));
  }

  absl::Status CheckType() const {
    absl::StatusOr<std::string> type = String(kKeyMaterialTypeField);
    if (!type.ok()) return type.status();
    if (*type != kKeyMaterialType1) {
      return absl::DataLossError(absl::StrCat(what_, ": \"", kKeyMaterialTypeField, "\" is \"",
                                              *type, "\", not \"", kKeyMaterialType1, "\""));
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Missing(absl::string_view field) const {
    return absl::DataLossError(absl::StrCat(what_, ": \"", field, "\" is missing"));
  }

  const FlatJsonObject& object_;
  absl::string_view what_;
};

// The fields internal and external material share (everything but the type and storage fields).
absl::StatusOr<KeyMaterial> ReadMaterialFields(const Fields& fields) {
  KeyMaterial material;
  PQPAGE_ASSIGN_OR_RETURN(material.is_footer_key, fields.Bool(kIsFooterKeyField));
  if (material.is_footer_key) {
    PQPAGE_ASSIGN_OR_RETURN(material.kms_instance_id, fields.OptionalString(kKmsInstanceIdField));
    PQPAGE_ASSIGN_OR_RETURN(material.kms_instance_url, fields.OptionalString(kKmsInstanceUrlField));
  }
  PQPAGE_ASSIGN_OR_RETURN(material.master_key_id, fields.String(kMasterKeyIdField));
  PQPAGE_ASSIGN_OR_RETURN(material.wrapped_dek, fields.String(kWrappedDekField));
  PQPAGE_ASSIGN_OR_RETURN(material.double_wrapping, fields.Bool(kDoubleWrappingField));
  if (material.double_wrapping) {
    PQPAGE_ASSIGN_OR_RETURN(material.kek_id, fields.String(kKekIdField));
    PQPAGE_ASSIGN_OR_RETURN(material.wrapped_kek, fields.String(kWrappedKekField));
  }
  return material;
}

// `status` with "`what`: " before its message.
absl::Status Named(const absl::Status& status, absl::string_view what) {
  return absl::Status(status.code(), absl::StrCat(what, ": ", status.message()));
}

}  // namespace

absl::StatusOr<std::string> DecodeBase64(std::string_view text, std::string_view what) {
  size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') {
    ++padding;
  }
  const size_t data = text.size() - padding;
  // One character left over holds no whole byte; padding makes whole groups of four.
  bool ok = data % 4 != 1 && (padding == 0 || text.size() % 4 == 0);
  for (size_t i = 0; ok && i < data; ++i) {
    const char c = text[i];
    ok = absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/';
  }
  std::string bytes;
  if (!ok || !absl::Base64Unescape(Absl(text), &bytes)) {
    return absl::DataLossError(absl::StrCat(Absl(what), " is not base64"));
  }
  return bytes;
}

absl::StatusOr<FlatJsonObject> ParseFlatJsonObject(std::string_view json) {
  return FlatJsonReader(json).ReadObject();
}

std::string SerializeKeyMaterial(const KeyMaterial& material, bool internal_storage) {
  CompactJsonObject json;
  json.String(kKeyMaterialTypeField, kKeyMaterialType1);
  // Internal storage: the metadata and the material are one document, holding the metadata's
  // storage field too.
  if (internal_storage) json.Bool(kInternalStorageField, true);
  json.Bool(kIsFooterKeyField, material.is_footer_key);
  if (material.is_footer_key) {
    json.String(kKmsInstanceIdField, material.kms_instance_id);
    json.String(kKmsInstanceUrlField, material.kms_instance_url);
  }
  json.String(kMasterKeyIdField, material.master_key_id);
  json.String(kWrappedDekField, material.wrapped_dek);
  json.Bool(kDoubleWrappingField, material.double_wrapping);
  if (material.double_wrapping) {
    json.String(kKekIdField, material.kek_id);
    json.String(kWrappedKekField, material.wrapped_kek);
  }
  return std::move(json).Finish();
}

std::string SerializeExternalKeyMetadata(std::string_view key_reference) {
  CompactJsonObject json;
  json.String(kKeyMaterialTypeField, kKeyMaterialType1);
  json.Bool(kInternalStorageField, false);
  json.String(kKeyReferenceField, key_reference);
  return std::move(json).Finish();
}

std::string SerializeExternalKeyMaterial(const std::map<std::string, std::string>& materials) {
  CompactJsonObject json;
  for (const auto& [reference, material] : materials) json.String(reference, material);
  return std::move(json).Finish();
}

absl::StatusOr<KeyMetadata> ParseKeyMetadata(std::string_view json) {
  constexpr absl::string_view kWhat = "key metadata";
  absl::StatusOr<FlatJsonObject> object = ParseFlatJsonObject(json);
  if (!object.ok()) return Named(object.status(), kWhat);
  const Fields fields(*object, kWhat);
  if (absl::Status status = fields.CheckType(); !status.ok()) return status;
  KeyMetadata metadata;
  PQPAGE_ASSIGN_OR_RETURN(metadata.internal_storage, fields.Bool(kInternalStorageField));
  if (metadata.internal_storage) {
    PQPAGE_ASSIGN_OR_RETURN(metadata.material, ReadMaterialFields(fields));
  } else {
    PQPAGE_ASSIGN_OR_RETURN(metadata.key_reference, fields.String(kKeyReferenceField));
  }
  return metadata;
}

absl::StatusOr<KeyMaterial> ParseKeyMaterial(std::string_view json) {
  constexpr absl::string_view kWhat = "key material";
  absl::StatusOr<FlatJsonObject> object = ParseFlatJsonObject(json);
  if (!object.ok()) return Named(object.status(), kWhat);
  const Fields fields(*object, kWhat);
  if (absl::Status status = fields.CheckType(); !status.ok()) return status;
  return ReadMaterialFields(fields);
}

absl::StatusOr<std::map<std::string, std::string>> ParseExternalKeyMaterial(std::string_view json) {
  constexpr absl::string_view kWhat = "external key material";
  absl::StatusOr<FlatJsonObject> object = ParseFlatJsonObject(json);
  if (!object.ok()) return Named(object.status(), kWhat);
  std::map<std::string, std::string> materials;
  for (auto& [reference, value] : *object) {
    if (value.type != JsonScalar::Type::kString) {
      return absl::DataLossError(
          absl::StrCat(kWhat, ": \"", reference, "\" is not a material string"));
    }
    materials.emplace(reference, std::move(value.text));
  }
  return materials;
}

}  // namespace pqpage::internal
