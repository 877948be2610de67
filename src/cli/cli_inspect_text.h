// The names `pqpage inspect` gives, in its table and its JSON alike, to what the library's report
// (pqpage/inspect.h) holds: a chunk's page encoding mix and its page index's boundary order.
#ifndef PQPAGE_CLI_CLI_INSPECT_TEXT_H_
#define PQPAGE_CLI_CLI_INSPECT_TEXT_H_

#include <string>

#include "pqpage/inspect.h"
#include "pqpage/page_index.h"

namespace pqpage::cli {

// "DATA_PAGE": the page type of an entry of the mix.
std::string MixPageType(const PageEncodingCount& entry);
// "PLAIN", or empty for a page type without an encoding.
std::string MixEncoding(const PageEncodingCount& entry);

// The mix in one line: "DICTIONARY_PAGE/PLAIN x1, DATA_PAGE/RLE_DICTIONARY x3", "(no pages)" for
// none, and " (dictionary fallback)" after it when the chunk fell back.
std::string EncodingSummary(const InspectedChunk& chunk);

// "ASCENDING", "DESCENDING" or "UNORDERED".
const char* BoundaryOrderName(BoundaryOrder order);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_INSPECT_TEXT_H_
