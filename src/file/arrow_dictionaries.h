// The Arrow-dictionary restriction, in one place for Recode and Advise: a column that the file's
// Arrow schema (ARROW:schema) makes a dictionary type is read into one by Arrow only from
// dictionary or PLAIN pages, so only those are written (recode) or advised (advise) for it.
#ifndef PQPAGE_FILE_ARROW_DICTIONARIES_H_
#define PQPAGE_FILE_ARROW_DICTIONARIES_H_

#include <functional>
#include <string>
#include <vector>

#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"

namespace pqpage::internal {

// The paths of the columns `file`'s Arrow schema makes dictionary types (ArrowDictionaryColumns).
// A schema pqpage cannot read changes nothing: its message goes to `on_warning` (when set) and the
// result is empty.
std::vector<std::string> ArrowDictionaryPaths(
    const FileReader& file, const std::function<void(const std::string&)>& on_warning);

// Restricts kAuto to the dictionary or PLAIN for each of `paths`, unless the column's override
// chooses its auto_encodings itself. Other policies are left as asked: a caller that names one
// for the column means it.
void KeepArrowDictionaries(const std::vector<std::string>& paths, WriterOptions* options);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_ARROW_DICTIONARIES_H_
