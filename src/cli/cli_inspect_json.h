// inspect --json for one column chunk: its footer facts, encoding mix, every page and its page
// index, as one JSON object.
#ifndef PQPAGE_CLI_CLI_INSPECT_JSON_H_
#define PQPAGE_CLI_CLI_INSPECT_JSON_H_

#include "pqpage/inspect.h"
#include "pqpage/json_writer.h"

namespace pqpage::cli {

// Writes `chunk` as one member of the enclosing array.
void WriteChunkJson(JsonWriter& json, const InspectedChunk& chunk);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_INSPECT_JSON_H_
