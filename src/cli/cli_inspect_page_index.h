// What `pqpage inspect` shows of a column chunk's page index: the index as the file stores it
// (FileReader::ReadPageIndex), each entry beside the page it describes, and every way it
// disagrees with the pages as they were walked and decoded (page count, offsets, first rows, null
// pages, null counts). A damaged or disagreeing index is flagged, never an error of the chunk:
// the data does not depend on it.
#ifndef PQPAGE_CLI_CLI_INSPECT_PAGE_INDEX_H_
#define PQPAGE_CLI_CLI_INSPECT_PAGE_INDEX_H_

#include <cstdio>

#include "cli/cli_inspect_report.h"
#include "cli/cli_json_writer.h"
#include "pqpage/file.h"

namespace pqpage::cli {

// Reads the chunk's page index into report->page_index (or page_index_error) and lists its
// disagreements with report->pages in report->page_index_problems.
void GatherPageIndex(const FileReader& file, ChunkReport* report);

// The table form: a "page index:" line, one row per indexed page, the problems.
void PrintPageIndexTable(FILE* out, const ChunkReport& chunk);

// The JSON form: a "page_index" key and object (nothing when the chunk has no index).
void WritePageIndexJson(JsonWriter& json, const ChunkReport& chunk);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_INSPECT_PAGE_INDEX_H_
