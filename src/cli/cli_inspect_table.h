// inspect's table output for one column chunk: footer facts, encoding mix, and one aligned row
// per page with its statistics and errors under it.
#ifndef PQPAGE_CLI_CLI_INSPECT_TABLE_H_
#define PQPAGE_CLI_CLI_INSPECT_TABLE_H_

#include <cstdio>

#include "cli/cli_inspect_report.h"

namespace pqpage::cli {

void PrintChunkTable(FILE* out, const ChunkReport& chunk);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_INSPECT_TABLE_H_
