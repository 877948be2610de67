// The writer settings of write_table and recode as Python passes them (a dict of the keyword
// arguments pqpage/__init__.py documents), turned into the library's options; and the way back,
// for advise's options that apply its advice.
#ifndef PQPAGE_PYTHON_WRITE_SETTINGS_H_
#define PQPAGE_PYTHON_WRITE_SETTINGS_H_

#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>

#include "pqpage/writer_options.h"

namespace pqpage::python {

struct WriteSettings {
  WriterOptions writer;
  bool page_index = true;
  int threads = 1;
  std::optional<int64_t> row_group_rows;
};

// Reads the keys compression, compression_level, encoding, page_version, column_encoding,
// column_compression, page_index, checksums, statistics, data_page_size, threads,
// row_group_rows, bloom_filter_options and use_content_defined_chunking (the last two as pyarrow
// takes them; None leaves a setting at its default; threads None means one per core). Ranges the
// writer checks (fpp in (0, 1), chunk sizes) raise when a column is written.
// Raises the library's ArgumentError (a ValueError) for an unknown key, a value of the wrong type
// or a name or level the library refuses.
WriteSettings WriteSettingsFromDict(const nanobind::dict& settings);

// The keyword arguments that give `options` to write_table or recode: page_version, encoding,
// compression, compression_level (when not the codec's default), and column_encoding /
// column_compression for the columns set apart.
nanobind::dict DictFromWriterOptions(const WriterOptions& options);

// @return `threads`, or one per core (at most 16) for None; raises ArgumentError below 1.
int ThreadsFromObject(nanobind::handle threads);

}  // namespace pqpage::python

#endif  // PQPAGE_PYTHON_WRITE_SETTINGS_H_
