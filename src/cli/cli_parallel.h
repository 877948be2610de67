// Runs the independent tasks of a command (one per column chunk, for scan: recode's run in the
// library) on several threads, and the `--threads N` option that sets how many. A command's output
// must not depend on the thread count, so tasks write their results into slots of their own and
// the caller combines them in task order once all are done; an error is reported the way one
// thread would report it.
#ifndef PQPAGE_CLI_CLI_PARALLEL_H_
#define PQPAGE_CLI_CLI_PARALLEL_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
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

// Calls task(i) for every i in [0, count) on up to `threads` threads (the calling thread is one of
// them), starting tasks in increasing i. Once a task fails no new task starts, and the error
// returned is the failed task with the smallest i: since tasks start in order, every task before
// it ran to its end, so this is the error one thread would have stopped at.
// @return OK when every task succeeded; otherwise that first failing task's status.
absl::Status RunTasks(int threads, int64_t count, const std::function<absl::Status(int64_t)>& task);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_PARALLEL_H_
