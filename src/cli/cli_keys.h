// The key options of the commands that read a file (--footer-key, --column-key, --aad-prefix,
// --key-file, --master-key) and of recode's output (--encrypt and the --out-* keys, or master
// key IDs for the key tools' envelope encryption), parsed the same way everywhere.
#ifndef PQPAGE_CLI_CLI_KEYS_H_
#define PQPAGE_CLI_CLI_KEYS_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/cli_args.h"
#include "pqpage/encryption.h"

namespace pqpage::cli {

// The reading key options, appended to `specs`.
std::vector<OptionSpec> WithKeyOptions(std::vector<OptionSpec> specs);
// recode's output key options, appended to `specs`.
std::vector<OptionSpec> WithOutputKeyOptions(std::vector<OptionSpec> specs);

#define PQPAGE_CLI_KEY_USAGE                                                                      \
  "  --footer-key HEX        the footer key of an encrypted file (16, 24 or 32 bytes in hex)\n"   \
  "  --column-key PATH=HEX   the key of encrypted column PATH (repeatable)\n"                     \
  "  --aad-prefix TEXT       the AAD prefix the file's writer did not store in it\n"              \
  "  --key-file FILE         keys from FILE instead of the command line, one per line:\n"         \
  "                          'footer HEX', 'column PATH HEX', 'master ID HEX', 'aad-prefix "      \
  "TEXT'\n"                                                                                       \
  "  --master-key ID=HEX     a master key of the key tools' envelope encryption (pyarrow's\n"     \
  "                          CryptoFactory, parquet-java): keys wrapped with it, in the file's\n" \
  "                          key metadata or its _KEY_MATERIAL_FOR_ file, are unwrapped locally\n"

// The decryption properties the options give for `file` (whose _KEY_MATERIAL_FOR_ file is read
// when --master-key is given and it exists); nullptr when no key option is given.
// @return them; InvalidArgument naming the option for malformed hex, a missing '=' or an
// unreadable key file.
absl::StatusOr<std::shared_ptr<const FileDecryptionProperties>> DecryptionFrom(
    const ParsedArgs& parsed, const std::string& file);

// The output encryption recode's options ask for; nullptr without --encrypt.
// @return them; InvalidArgument naming the option for anything malformed or missing.
absl::StatusOr<std::shared_ptr<const FileEncryptionProperties>> EncryptionFrom(
    const ParsedArgs& parsed);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_KEYS_H_
