#include "cli/cli_keys.h"

#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pqpage/key_management.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {
namespace {

absl::Status OptionError(std::string_view option, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("option '--", std::string(option), "': ", std::string(why)));
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A key in hex: 32, 48 or 64 digits (16, 24 or 32 bytes).
absl::StatusOr<std::string> HexKey(std::string_view hex) {
  if (hex.size() % 2 != 0) {
    return absl::InvalidArgumentError("a key is an even number of hex digits");
  }
  std::string key;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexDigit(hex[i]);
    const int low = HexDigit(hex[i + 1]);
    if (high < 0 || low < 0) {
      return absl::InvalidArgumentError(absl::StrCat("'", std::string(hex), "' is not hex"));
    }
    key.push_back(static_cast<char>(high * 16 + low));
  }
  if (key.size() != 16 && key.size() != 24 && key.size() != 32) {
    return absl::InvalidArgumentError(
        absl::StrCat("a key is 16, 24 or 32 bytes (32, 48 or 64 hex digits), not ", key.size()));
  }
  return key;
}

absl::StatusOr<std::string> KeyFromHex(std::string_view option, std::string_view hex) {
  absl::StatusOr<std::string> key = HexKey(hex);
  if (!key.ok()) return OptionError(option, std::string(key.status().message()));
  return key;
}

// "NAME=VALUE", split at the first '='.
absl::StatusOr<std::pair<std::string, std::string>> NameValue(std::string_view option,
                                                              const std::string& text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    return OptionError(option, absl::StrCat("expected NAME=VALUE, not '", text, "'"));
  }
  return std::make_pair(text.substr(0, equals), text.substr(equals + 1));
}

// A key, and the metadata stored to find it again: "HEX" or "HEX:METADATA".
absl::StatusOr<ColumnEncryptionKey> KeyWithMetadata(std::string_view option,
                                                    const std::string& text) {
  const size_t colon = text.find(':');
  ColumnEncryptionKey key;
  PQPAGE_ASSIGN_OR_RETURN(key.key, KeyFromHex(option, text.substr(0, colon)));
  if (colon != std::string::npos) key.key_metadata = text.substr(colon + 1);
  return key;
}

// What a key file holds, read the same for input and output.
struct KeyFile {
  std::optional<ColumnEncryptionKey> footer;
  std::map<std::string, ColumnEncryptionKey> columns;
  std::map<std::string, std::string> master_keys;
  std::optional<std::string> aad_prefix;
};

// `output`: OUT's keys, which hold no master keys (those come from --master-key or --key-file).
absl::StatusOr<KeyFile> ReadKeyFile(std::string_view option, const std::string& path,
                                    bool output = false) {
  std::ifstream in(path);
  if (!in) return OptionError(option, absl::StrCat("cannot read ", path));
  KeyFile keys;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::vector<std::string> words =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipWhitespace());
    if (words.empty() || words[0][0] == '#') continue;
    const std::string where = absl::StrCat(path, ":", number);
    auto bad = [&] {
      return OptionError(option, absl::StrCat(where,
                                              ": expected 'footer HEX [METADATA]', 'column "
                                              "PATH HEX [METADATA]', 'master ID HEX' or "
                                              "'aad-prefix TEXT'"));
    };
    auto key = [&](size_t at) -> absl::StatusOr<ColumnEncryptionKey> {
      ColumnEncryptionKey parsed;
      absl::StatusOr<std::string> bytes = HexKey(words[at]);
      if (!bytes.ok()) {
        return OptionError(option, absl::StrCat(where, ": ", bytes.status().message()));
      }
      parsed.key = *bytes;
      if (words.size() > at + 1) parsed.key_metadata = words[at + 1];
      return parsed;
    };
    auto twice = [&](const std::string& what) {
      return OptionError(option, absl::StrCat(where, ": ", what, " is given twice"));
    };
    if (words[0] == "footer" && (words.size() == 2 || words.size() == 3)) {
      if (keys.footer) return twice("the footer key");
      PQPAGE_ASSIGN_OR_RETURN(keys.footer, key(1));
    } else if (words[0] == "column" && (words.size() == 3 || words.size() == 4)) {
      if (keys.columns.count(words[1]) != 0) return twice("column " + words[1]);
      PQPAGE_ASSIGN_OR_RETURN(keys.columns[words[1]], key(2));
    } else if (words[0] == "master" && words.size() == 3 && !output) {
      PQPAGE_ASSIGN_OR_RETURN(ColumnEncryptionKey master, key(2));
      keys.master_keys[words[1]] = master.key;
    } else if (words[0] == "aad-prefix" && words.size() == 2) {
      keys.aad_prefix = words[1];
    } else {
      return bad();
    }
  }
  return keys;
}

absl::StatusOr<std::map<std::string, std::string>> MasterKeys(const ParsedArgs& parsed,
                                                              const KeyFile& file) {
  std::map<std::string, std::string> keys = file.master_keys;
  for (const std::string& text : parsed.Values("master-key")) {
    PQPAGE_ASSIGN_OR_RETURN(auto pair, NameValue("master-key", text));
    PQPAGE_ASSIGN_OR_RETURN(keys[pair.first], KeyFromHex("master-key", pair.second));
  }
  return keys;
}

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::vector<OptionSpec> WithKeyOptions(std::vector<OptionSpec> specs) {
  for (const char* name : {"footer-key", "column-key", "aad-prefix", "key-file", "master-key"}) {
    specs.push_back({name, true});
  }
  return specs;
}

std::vector<OptionSpec> WithOutputKeyOptions(std::vector<OptionSpec> specs) {
  for (const char* name : {"encrypt", "out-footer-key", "out-column-key", "out-key-file",
                           "out-aad-prefix", "kms-footer", "kms-column"}) {
    specs.push_back({name, true});
  }
  for (const char* name : {"out-aad-prefix-not-stored", "plaintext-footer", "single-wrapping"}) {
    specs.push_back({name, false});
  }
  return specs;
}

absl::StatusOr<std::shared_ptr<const FileDecryptionProperties>> DecryptionFrom(
    const ParsedArgs& parsed, const std::string& file) {
  KeyFile from_file;
  if (std::optional<std::string> path = parsed.Value("key-file")) {
    PQPAGE_ASSIGN_OR_RETURN(from_file, ReadKeyFile("key-file", *path));
  }
  auto keys = std::make_shared<FileDecryptionProperties>();
  bool any = parsed.Value("key-file").has_value();
  if (from_file.footer) keys->footer_key = from_file.footer->key;
  for (const auto& [path, key] : from_file.columns) keys->column_keys[path] = key.key;
  keys->aad_prefix = from_file.aad_prefix.value_or("");
  if (std::optional<std::string> hex = parsed.Value("footer-key")) {
    PQPAGE_ASSIGN_OR_RETURN(keys->footer_key, KeyFromHex("footer-key", *hex));
    any = true;
  }
  for (const std::string& text : parsed.Values("column-key")) {
    PQPAGE_ASSIGN_OR_RETURN(auto pair, NameValue("column-key", text));
    PQPAGE_ASSIGN_OR_RETURN(keys->column_keys[pair.first], KeyFromHex("column-key", pair.second));
    any = true;
  }
  if (std::optional<std::string> prefix = parsed.Value("aad-prefix")) {
    keys->aad_prefix = *prefix;
    any = true;
  }
  PQPAGE_ASSIGN_OR_RETURN(const auto master_keys, MasterKeys(parsed, from_file));
  if (!master_keys.empty()) {
    PQPAGE_ASSIGN_OR_RETURN(std::shared_ptr<InMemoryKmsClient> kms,
                            InMemoryKmsClient::Make(master_keys));
    const std::string material_path = ExternalKeyMaterialPath(file);
    const std::string material =
        std::ifstream(material_path).good() ? ReadWhole(material_path) : std::string();
    keys->key_retriever = DecryptionPropertiesFromKms(kms, material).key_retriever;
    any = true;
  }
  if (!any) return nullptr;
  return keys;
}

absl::StatusOr<std::shared_ptr<const FileEncryptionProperties>> EncryptionFrom(
    const ParsedArgs& parsed) {
  const std::optional<std::string> algorithm = parsed.Value("encrypt");
  if (!algorithm) {
    for (const char* option :
         {"out-footer-key", "out-column-key", "out-key-file", "out-aad-prefix", "kms-footer",
          "kms-column", "out-aad-prefix-not-stored", "plaintext-footer", "single-wrapping"}) {
      if (parsed.Has(option)) return OptionError(option, "is for an encrypted output (--encrypt)");
    }
    return nullptr;
  }
  if (*algorithm != "gcm" && *algorithm != "ctr") {
    return OptionError("encrypt", absl::StrCat("expected gcm or ctr, not '", *algorithm, "'"));
  }
  auto properties = std::make_shared<FileEncryptionProperties>();
  const EncryptionAlgorithm chosen =
      *algorithm == "ctr" ? EncryptionAlgorithm::kAesGcmCtrV1 : EncryptionAlgorithm::kAesGcmV1;
  const bool plaintext_footer = parsed.Has("plaintext-footer");
  // Keys given and keys drawn for a KMS are two ways: one file takes one.
  if (parsed.Has("kms-footer")) {
    for (const char* option : {"out-footer-key", "out-column-key", "out-key-file"}) {
      if (parsed.Has(option)) return OptionError(option, "cannot go with --kms-footer");
    }
  } else if (parsed.Has("kms-column")) {
    return OptionError("kms-column", "needs --kms-footer (the footer's master key)");
  } else if (parsed.Has("single-wrapping")) {
    return OptionError("single-wrapping", "is for keys a KMS wraps (--kms-footer)");
  }
  if (std::optional<std::string> footer_id = parsed.Value("kms-footer")) {
    KmsEncryptionConfig config;
    config.footer_key = *footer_id;
    for (const std::string& text : parsed.Values("kms-column")) {
      PQPAGE_ASSIGN_OR_RETURN(auto pair, NameValue("kms-column", text));
      std::vector<std::string> paths = absl::StrSplit(pair.second, ',', absl::SkipEmpty());
      config.column_keys[pair.first] = std::move(paths);
    }
    config.uniform_encryption = config.column_keys.empty();
    config.algorithm = chosen;
    config.plaintext_footer = plaintext_footer;
    config.double_wrapping = !parsed.Has("single-wrapping");
    KeyFile from_file;
    if (std::optional<std::string> path = parsed.Value("key-file")) {
      PQPAGE_ASSIGN_OR_RETURN(from_file, ReadKeyFile("key-file", *path));
    }
    PQPAGE_ASSIGN_OR_RETURN(const auto master_keys, MasterKeys(parsed, from_file));
    PQPAGE_ASSIGN_OR_RETURN(std::shared_ptr<InMemoryKmsClient> kms,
                            InMemoryKmsClient::Make(master_keys));
    PQPAGE_ASSIGN_OR_RETURN(*properties, EncryptionPropertiesFromKms(kms, config));
  } else {
    KeyFile from_file;
    if (std::optional<std::string> path = parsed.Value("out-key-file")) {
      PQPAGE_ASSIGN_OR_RETURN(from_file, ReadKeyFile("out-key-file", *path, /*output=*/true));
    }
    std::optional<ColumnEncryptionKey> footer = from_file.footer;
    if (std::optional<std::string> text = parsed.Value("out-footer-key")) {
      PQPAGE_ASSIGN_OR_RETURN(footer, KeyWithMetadata("out-footer-key", *text));
    }
    if (!footer) {
      return OptionError("encrypt",
                         "needs a footer key (--out-footer-key, --out-key-file or --kms-footer)");
    }
    properties->footer_key = footer->key;
    properties->footer_key_metadata = footer->key_metadata;
    properties->column_keys = from_file.columns;
    for (const std::string& text : parsed.Values("out-column-key")) {
      PQPAGE_ASSIGN_OR_RETURN(auto pair, NameValue("out-column-key", text));
      PQPAGE_ASSIGN_OR_RETURN(properties->column_keys[pair.first],
                              KeyWithMetadata("out-column-key", pair.second));
    }
    properties->aad_prefix = from_file.aad_prefix.value_or("");
    properties->algorithm = chosen;
    properties->encrypted_footer = !plaintext_footer;
  }
  if (std::optional<std::string> prefix = parsed.Value("out-aad-prefix")) {
    properties->aad_prefix = *prefix;
  }
  if (parsed.Has("out-aad-prefix-not-stored")) {
    if (properties->aad_prefix.empty()) {
      return OptionError("out-aad-prefix-not-stored", "needs an AAD prefix (--out-aad-prefix)");
    }
    properties->store_aad_prefix = false;
  }
  return properties;
}

}  // namespace pqpage::cli
