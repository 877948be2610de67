// Inspect's check of a column chunk's page index against the chunk's pages as they were walked and
// decoded (pqpage/inspect.h).
#ifndef PQPAGE_FILE_INSPECT_PAGE_INDEX_H_
#define PQPAGE_FILE_INSPECT_PAGE_INDEX_H_

#include "pqpage/file.h"
#include "pqpage/inspect.h"

namespace pqpage::internal {

// Reads the chunk's page index into report->page_index (or why it cannot be read into
// report->page_index_error) and lists in report->page_index_problems every way it disagrees with
// report->pages: page count, offsets, first rows, null pages, null counts.
void CheckPageIndex(const FileReader& file, InspectedChunk* report);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_INSPECT_PAGE_INDEX_H_
