// The JSON document of `pqpage inspect --json`: the file's facts (size, footer, created_by,
// version, rows, key-value keys, leaf columns, empty groups), then every row group with its
// column chunks as InspectFile (pqpage/inspect.h) reports them (footer entry, encoding mix, every
// page with its statistics and CRC, the page index and where it disagrees with the pages), and
// the total of the problems found. Numbers are JSON numbers, encodings and page types their spec
// names, statistics bounds as pqpage/value_text.h writes them. Big files stream: the document is
// handed over chunk by chunk, as InspectFile delivers the reports.
#ifndef PQPAGE_INSPECT_JSON_H_
#define PQPAGE_INSPECT_JSON_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pqpage/file.h"

namespace pqpage {

struct InspectJsonOptions {
  std::string file_name;  // what the document's "file" member says
  int threads = 1;        // chunks inspected at once (InspectOptions::threads)
};

// Writes `pqpage inspect --json`'s document for `file` to `sink` in pieces, in order, as chunks
// are inspected (so memory stays bounded for big files). `problems`, when not null, receives the
// total of the chunks' problems. When inspecting fails for another reason than `sink`, the
// document is still closed (a reader of what was written finds it whole) before the error is
// returned.
// @return OK; InspectFile's errors; the first error `sink` returns.
absl::Status WriteInspectJson(const FileReader& file, const InspectJsonOptions& options,
                              const std::function<absl::Status(std::string_view)>& sink,
                              int64_t* problems = nullptr);

// @return the whole document as one string (ending in a newline), or WriteInspectJson's error.
absl::StatusOr<std::string> InspectJson(const FileReader& file, const InspectJsonOptions& options);

}  // namespace pqpage

#endif  // PQPAGE_INSPECT_JSON_H_
