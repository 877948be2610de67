// inspect --json for one column chunk: its footer facts, encoding mix and every page, as one
// JSON object.
#ifndef PQPAGE_CLI_CLI_INSPECT_JSON_H_
#define PQPAGE_CLI_CLI_INSPECT_JSON_H_

#include "cli/cli_inspect_report.h"
#include "cli/cli_json_writer.h"

namespace pqpage::cli {

void WriteChunkJson(JsonWriter& json, const ChunkReport& chunk);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_INSPECT_JSON_H_
