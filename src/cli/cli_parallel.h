// The `--threads N` option of the commands whose library pass works on several column chunks at
// once (scan, recode, advise): its usage line and its value.
#ifndef PQPAGE_CLI_CLI_PARALLEL_H_
#define PQPAGE_CLI_CLI_PARALLEL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/cli_args.h"

namespace pqpage::cli {

// The usage line of the option, for a command's --help.
#define PQPAGE_CLI_THREADS_USAGE \
  "  --threads N             column chunks worked on at once (default: the cores, max 256)\n"

// Adds the "threads" option to a command's specs.
std::vector<OptionSpec> WithThreadsOption(std::vector<OptionSpec> specs);

// The --threads value, or the machine's core count when it was not given. InvalidArgument for a
// value that is not an integer in [1, 256].
absl::StatusOr<int> ThreadsFrom(const ParsedArgs& parsed);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_PARALLEL_H_
