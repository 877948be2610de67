// inspect's table output for one column chunk: footer facts, encoding mix, one aligned row per
// page with its statistics and errors under it, and the page index beside the pages.
#ifndef PQPAGE_CLI_CLI_INSPECT_TABLE_H_
#define PQPAGE_CLI_CLI_INSPECT_TABLE_H_

#include <cstdio>

#include "pqpage/inspect.h"

namespace pqpage::cli {

// Prints `chunk` to `out`, indented under its row group's line.
void PrintChunkTable(FILE* out, const InspectedChunk& chunk);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_INSPECT_TABLE_H_
