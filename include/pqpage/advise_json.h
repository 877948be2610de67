// The JSON document of `pqpage advise --json` for the advice Advise (pqpage/advise.h) gives: per
// column its type, the peers refusing each encoding, how it is stored now, every policy's bytes,
// ratio to now, decode speed and the peers refusing it, and the advice; the totals; and the one
// `pqpage recode` command that applies the advice. Also that command on its own, and the ratio
// the document and the tool's table show, so that every report says them alike.
#ifndef PQPAGE_ADVISE_JSON_H_
#define PQPAGE_ADVISE_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "pqpage/advise.h"

namespace pqpage {

struct AdviceJsonOptions {
  std::string file_name;  // "file" member, and the file the "command" member recodes
  bool chunks = false;    // include each column's per-chunk sizes (advise --json --verbose)
};

// @return `pqpage advise --json`'s document for `advice`, ending in a newline.
std::string AdviceJson(const FileAdvice& advice, const AdviceJsonOptions& options);

// The command line applies AdvisedOptions(advice): its page version, codec and policy as the
// command's options, and its per-column overrides as --column-encoding and --column-compression
// flags in column order; the output is OUT.parquet, and words a shell would split are quoted.
// @return the one `pqpage recode` command that writes `file_name` with every recommendation of
// `advice` ("pqpage recode in.parquet OUT.parquet --page-version 1 --compression zstd ...").
std::string AdvisedRecodeCommand(std::string_view file_name, const FileAdvice& advice);

// @return `bytes` as a fraction of `current_bytes` (what a column or file stores now), the
// "ratio" of the document and "vs now" of the table; 0 when current_bytes is not positive.
double SizeRatio(int64_t bytes, int64_t current_bytes);

}  // namespace pqpage

#endif  // PQPAGE_ADVISE_JSON_H_
