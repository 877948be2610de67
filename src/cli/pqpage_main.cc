// pqpage: see how a Parquet file's pages are encoded, dump them exactly, re-encode them, and time
// their decoding. Each command lives in its own file; this one only dispatches.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

constexpr Command kCommands[] = {
    {"inspect", "row groups, column chunks and every page: encodings, sizes, statistics, CRCs",
     pqpage::cli::RunInspect},
    {"dump", "every decoded level and value, one JSON object per leaf column",
     pqpage::cli::RunDump},
    {"recode", "re-encode every column with another encoding, page version or codec",
     pqpage::cli::RunRecode},
    {"scan", "decode every page without printing; rows, values and MB/s", pqpage::cli::RunScan},
    {"advise", "try every encoding on each column's data; the smallest, and the recode command",
     pqpage::cli::RunAdvise},
    {"lookup", "the row groups, pages and rows of a column that may hold a value, and why",
     pqpage::cli::RunLookup},
};

void PrintUsage(FILE* out) {
  std::fprintf(
      out,
      "usage: pqpage COMMAND [ARGS]\n\n"
      "The page level of Apache Parquet files, and the streams of ORC files.\n\ncommands:\n");
  for (const Command& command : kCommands) {
    std::fprintf(out, "  %-8s %s\n", command.name, command.summary);
  }
  std::fprintf(out, "\n'pqpage COMMAND --help' describes a command's arguments.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    PrintUsage(stderr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    PrintUsage(stdout);
    return 0;
  }
  for (const Command& command : kCommands) {
    if (name == command.name) {
      return command.run(std::vector<std::string>(argv + 2, argv + argc));
    }
  }
  std::fprintf(stderr, "pqpage: unknown command '%s'\n\n", name.c_str());
  PrintUsage(stderr);
  return 2;
}
