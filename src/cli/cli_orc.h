// The pqpage tool's ORC side. inspect, dump and recode look at the first bytes of their input and
// hand an ORC file (one that starts with "ORC"; a Parquet file starts with "PAR1") to these
// functions, which use the public ORC API (pqpage/orc/) only. Each returns the command's exit
// status: 0 done, 1 a file could not be read or written (one line on stderr), 2 a usage error.
#ifndef PQPAGE_CLI_CLI_ORC_H_
#define PQPAGE_CLI_CLI_ORC_H_

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cli/cli_args.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/metadata.h"

namespace pqpage::cli {

// Whether the file at `path` starts with ORC's magic. False when it cannot be read: the Parquet
// path then reports why.
bool IsOrcFile(const std::string& path);

// InvalidArgument naming the first option of `specs` that was given but is not in `allowed`
// ("does not apply to ORC files"): the commands share their option list between both formats,
// and an option silently ignored would mislead.
absl::Status RejectOptionsOutside(const ParsedArgs& parsed, const std::vector<OptionSpec>& specs,
                                  const std::set<std::string, std::less<>>& allowed);

// Opens `path` with pread, or mapped into memory when `mmap` is set.
absl::StatusOr<std::unique_ptr<orc::OrcFileReader>> OpenOrc(const std::string& path, bool mmap);

// Each column's dotted name: "" for the root, a struct field's name under its parent, and the
// names ORC's Java TypeDescription gives the children of the other compound types ("_elem" of a
// list, "_key" and "_value" of a map, the variant's number of a union).
std::vector<std::string> OrcColumnPaths(const std::vector<orc::OrcType>& types);

// The implementation a footer's writer id registers ("ORC Java", "ORC C++", ...), or "unknown".
std::string_view OrcWriterName(uint32_t writer_id);

// pqpage inspect FILE.orc [--json].
int InspectOrc(const std::string& path, bool json, bool mmap);

// pqpage dump FILE.orc [--column PATH]: `only_column` empty for every column.
int DumpOrc(const std::string& path, const std::string& only_column, bool mmap);

// pqpage recode IN.orc OUT.orc with the ORC options of `parsed` (the recode command's; `specs` is
// its whole option list, to refuse the Parquet-only ones).
int RecodeOrc(const ParsedArgs& parsed, const std::vector<OptionSpec>& specs);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_ORC_H_
