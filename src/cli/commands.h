// The pqpage tool's commands, one file each (src/cli/<name>_command.cc). Each takes the arguments
// after its name and returns the process exit status: 0 on success, 1 when a file cannot be read
// or written (a one-line error on stderr), 2 for a usage error.
#ifndef PQPAGE_CLI_COMMANDS_H_
#define PQPAGE_CLI_COMMANDS_H_

#include <string>
#include <vector>

namespace pqpage::cli {

int RunInspect(const std::vector<std::string>& args);
int RunDump(const std::vector<std::string>& args);
int RunRecode(const std::vector<std::string>& args);
int RunScan(const std::vector<std::string>& args);
int RunAdvise(const std::vector<std::string>& args);
int RunLookup(const std::vector<std::string>& args);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_COMMANDS_H_
