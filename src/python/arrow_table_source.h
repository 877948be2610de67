// What read_table returns underneath: a Parquet file opened once, with the columns, rows, threads
// and dictionary choice fixed, that hands out a fresh Arrow C stream of its record batches each
// time one is asked for (so the object can be read more than once, like a table).
#ifndef PQPAGE_PYTHON_ARROW_TABLE_SOURCE_H_
#define PQPAGE_PYTHON_ARROW_TABLE_SOURCE_H_

#include <nanobind/nanobind.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pqpage/arrow_reader.h"
#include "pqpage/file.h"

namespace pqpage::python {

class ArrowTableSource {
 public:
  // Opens `path` and checks the options against its schema (raising the library's error). `rows`
  // is [begin, end) over the file's rows; `dictionary` is a bool (every byte array leaf) or a
  // list of leaf paths.
  ArrowTableSource(const std::string& path, std::optional<std::vector<std::string>> columns,
                   std::optional<std::pair<int64_t, int64_t>> rows, nanobind::handle threads,
                   nanobind::handle dictionary, int64_t batch_rows, int64_t batch_bytes);

  // An "arrow_array_stream" capsule over the selected rows, read from the start.
  nanobind::capsule Stream() const;
  // An "arrow_schema" capsule of the batches' type.
  nanobind::capsule Schema() const;
  // The rows the stream gives.
  int64_t num_rows() const;
  // The rows of each of the file's row groups.
  std::vector<int64_t> row_group_rows() const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::shared_ptr<const FileReader> file_;
  ArrowReadOptions options_;
};

}  // namespace pqpage::python

#endif  // PQPAGE_PYTHON_ARROW_TABLE_SOURCE_H_
