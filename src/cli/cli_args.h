// The option parser every pqpage command shares, and the helpers that turn its outcomes into the
// tool's exit statuses (0 ok, 1 a file could not be read or written, 2 a usage error).
//
// Accepted forms: positional arguments, `--flag`, `--name value` and `--name=value`; `--` ends
// the options (everything after it is positional); `-h` means `--help`, which every command
// accepts. An option given twice: Value() is the last one given, Values() all of them in order
// (for the repeatable ones).
#ifndef PQPAGE_CLI_CLI_ARGS_H_
#define PQPAGE_CLI_CLI_ARGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pqpage::cli {

// One option a command accepts.
struct OptionSpec {
  std::string name;          // without the leading "--"
  bool takes_value = false;  // false: a flag, which must not be given a value
  // A flag that may also be given a value inline, as --name=VALUE (never from the next
  // argument, which stays positional): Value() is "" for the bare flag.
  bool inline_value_allowed = false;
};

class ParsedArgs {
 public:
  const std::vector<std::string>& positional() const { return positional_; }
  // Whether the flag or option was given.
  bool Has(std::string_view name) const;
  // The option's value (the last one given), if it was given.
  std::optional<std::string> Value(std::string_view name) const;
  // Every value the option was given, in order (empty if it was not given).
  std::vector<std::string> Values(std::string_view name) const;

 private:
  friend absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                              const std::vector<OptionSpec>& specs);
  std::vector<std::string> positional_;
  std::map<std::string, std::vector<std::string>, std::less<>> options_;  // a flag holds ""
};

// Parses `args` against `specs` ("help" is added implicitly). InvalidArgument, with a message fit
// for the user, for an unknown option, a flag given a value, or an option missing its value.
absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                     const std::vector<OptionSpec>& specs);

// A size in bytes with an optional K, M or G suffix (powers of 1024), in [min, max] bytes;
// InvalidArgument naming the option otherwise.
absl::StatusOr<int64_t> ParseByteSizeOption(std::string_view option, std::string_view text,
                                            int64_t min, int64_t max);

// A whole decimal integer in [min, max]; InvalidArgument naming the option otherwise.
absl::StatusOr<int64_t> ParseIntegerOption(std::string_view option, std::string_view text,
                                           int64_t min, int64_t max);

// Prints "pqpage COMMAND: MESSAGE" and a pointer to --help on stderr; returns 2.
int UsageError(std::string_view command, std::string_view message);
int UsageError(std::string_view command, const absl::Status& status);
// Prints "pqpage COMMAND: MESSAGE" on stderr, on one line whatever the message holds; returns 1.
int FailureExit(std::string_view command, std::string_view message);
int FailureExit(std::string_view command, const absl::Status& status);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_ARGS_H_
