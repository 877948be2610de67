// --rows A:B, which dump and scan share: which rows of the file to read (RowsPerRowGroup and
// OpenColumnChunkRows in pqpage/file.h read them).
#ifndef PQPAGE_CLI_CLI_ROW_SELECTION_H_
#define PQPAGE_CLI_CLI_ROW_SELECTION_H_

#include <optional>

#include "absl/status/statusor.h"
#include "cli/cli_args.h"
#include "pqpage/page_index.h"

namespace pqpage::cli {

#define PQPAGE_CLI_ROWS_USAGE                                                               \
  "  --rows A:B              only rows A (included) to B (excluded) of the file, counted\n" \
  "                          from 0 across row groups; pages outside them are skipped\n"    \
  "                          through the page index when the file has one\n"

// The --rows option's range; std::nullopt when it is not given. InvalidArgument, naming the
// option, for anything but two whole numbers A <= B.
absl::StatusOr<std::optional<RowRange>> RowsFrom(const ParsedArgs& parsed);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_ROW_SELECTION_H_
