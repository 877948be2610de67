// --rows A:B, which dump and scan share: which rows of the file to read, and opening a column
// chunk so that it reads only those, skipping pages through the chunk's offset index when the
// file has one (and walking them otherwise).
#ifndef PQPAGE_CLI_CLI_ROW_SELECTION_H_
#define PQPAGE_CLI_CLI_ROW_SELECTION_H_

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/cli_args.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/file.h"
#include "pqpage/page_index.h"

namespace pqpage::cli {

#define PQPAGE_CLI_ROWS_USAGE                                                               \
  "  --rows A:B              only rows A (included) to B (excluded) of the file, counted\n" \
  "                          from 0 across row groups; pages outside them are skipped\n"    \
  "                          through the page index when the file has one\n"

// The --rows option's range; std::nullopt when it is not given. InvalidArgument, naming the
// option, for anything but two whole numbers A <= B.
absl::StatusOr<std::optional<RowRange>> RowsFrom(const ParsedArgs& parsed);

// For each row group, the part of `rows` (rows of the file) that lies in it, as rows of the
// group; std::nullopt for a group it does not reach.
std::vector<std::optional<RowRange>> RowsPerRowGroup(const FileReader& file, const RowRange& rows);

// A reader of chunk (row_group, column) that reads only `rows` of its row group, jumping over
// pages through the chunk's offset index when it has one. An index that cannot be read is
// reported on stderr as a warning of `command` ("pqpage COMMAND: warning: ..."), and the pages are
// then walked: the data is still readable.
absl::StatusOr<ColumnChunkReader> OpenRowsOfChunk(const char* command, const FileReader& file,
                                                  int row_group, int column, const RowRange& rows);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_ROW_SELECTION_H_
