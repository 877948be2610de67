#include "python/arrow_table_source.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "python/arrow_capsules.h"
#include "python/status_error.h"
#include "python/write_settings.h"

namespace nb = nanobind;

namespace pqpage::python {

ArrowTableSource::ArrowTableSource(const std::string& path,
                                   std::optional<std::vector<std::string>> columns,
                                   std::optional<std::pair<int64_t, int64_t>> rows,
                                   nb::handle threads, nb::handle dictionary, int64_t batch_rows,
                                   int64_t batch_bytes)
    : path_(path) {
  if (columns) options_.columns = *std::move(columns);
  if (rows) options_.rows = RowRange{rows->first, rows->second};
  options_.threads = ThreadsFromObject(threads);
  options_.batch_rows = batch_rows;
  options_.batch_bytes = batch_bytes;
  if (nb::isinstance<nb::bool_>(dictionary)) {
    options_.read_dictionary_all = nb::cast<bool>(dictionary);
  } else if (nb::isinstance<nb::list>(dictionary) || nb::isinstance<nb::tuple>(dictionary)) {
    options_.read_dictionary = nb::cast<std::vector<std::string>>(dictionary);
  } else {
    RaiseStatus(absl::InvalidArgumentError("dictionary must be a bool or a list of column paths"));
  }
  absl::Status opened;
  {
    nb::gil_scoped_release release;
    absl::StatusOr<std::unique_ptr<FileReader>> file = FileReader::Open(path);
    if (file.ok()) {
      file_ = std::shared_ptr<const FileReader>(*std::move(file));
      // Refuse what the options cannot meet now, not at the first batch.
      ArrowSchema schema{};
      opened = ExportArrowSchema(*file_, options_, &schema);
      if (opened.ok()) schema.release(&schema);
    } else {
      opened = file.status();
    }
  }
  RaiseIfError(opened);
}

nb::capsule ArrowTableSource::Stream() const {
  ArrowArrayStream stream{};
  absl::Status opened;
  {
    nb::gil_scoped_release release;
    opened = OpenArrowStream(file_, options_, &stream);
  }
  RaiseIfError(opened);
  return StreamCapsule(&stream);
}

nb::capsule ArrowTableSource::Schema() const {
  ArrowSchema schema{};
  RaiseIfError(ExportArrowSchema(*file_, options_, &schema));
  return SchemaCapsule(&schema);
}

int64_t ArrowTableSource::num_rows() const {
  const int64_t total = file_->num_rows();
  if (!options_.rows) return total;
  const int64_t begin = std::clamp<int64_t>(options_.rows->begin, 0, total);
  const int64_t end = std::clamp<int64_t>(options_.rows->end, begin, total);
  return end - begin;
}

std::vector<int64_t> ArrowTableSource::row_group_rows() const {
  std::vector<int64_t> rows;
  rows.reserve(static_cast<size_t>(file_->num_row_groups()));
  for (int group = 0; group < file_->num_row_groups(); ++group) {
    rows.push_back(file_->row_group_num_rows(group));
  }
  return rows;
}

}  // namespace pqpage::python
