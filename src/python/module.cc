// pqpage._pqpage: the extension module under the Python package (src/python/pqpage), which wraps
// it with the documented keyword signatures. Every call releases the GIL while the library works,
// so calls from several Python threads run in parallel; errors are raised as the classes of
// pqpage/_errors.py with the library's message.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pqpage/advise.h"
#include "pqpage/advise_json.h"
#include "pqpage/arrow_writer.h"
#include "pqpage/file.h"
#include "pqpage/inspect_json.h"
#include "pqpage/lookup.h"
#include "pqpage/recode.h"
#include "pqpage/status_macros.h"
#include "pqpage/types.h"
#include "pqpage/value_text.h"
#include "python/arrow_capsules.h"
#include "python/arrow_table_source.h"
#include "python/status_error.h"
#include "python/write_settings.h"

namespace nb = nanobind;

namespace pqpage::python {
namespace {

// Runs `work` without the GIL, then raises its error, if any, with the GIL back.
template <typename Work>
auto WithoutGil(Work&& work) {
  using Result = decltype(work());
  std::optional<Result> result;
  {
    nb::gil_scoped_release release;
    result.emplace(work());
  }
  if constexpr (std::is_same_v<Result, absl::Status>) {
    RaiseIfError(*result);
  } else {
    return ValueOrRaise(*std::move(result));
  }
}

std::shared_ptr<const FileReader> OpenFile(const std::string& path) {
  return WithoutGil([&]() -> absl::StatusOr<std::shared_ptr<const FileReader>> {
    absl::StatusOr<std::unique_ptr<FileReader>> file = FileReader::Open(path);
    if (!file.ok()) return file.status();
    return std::shared_ptr<const FileReader>(*std::move(file));
  });
}

ArrowWriteOptions ArrowWriteOptionsFrom(const nb::dict& settings) {
  const WriteSettings parsed = WriteSettingsFromDict(settings);
  ArrowWriteOptions options;
  options.writer = parsed.writer;
  options.file.write_page_index = parsed.page_index;
  options.threads = parsed.threads;
  if (parsed.row_group_rows) options.row_group_rows = *parsed.row_group_rows;
  return options;
}

void WriteStream(nb::handle stream_capsule, const std::string& path, const nb::dict& settings) {
  const ArrowWriteOptions options = ArrowWriteOptionsFrom(settings);
  ArrowArrayStream* stream = StreamFromCapsule(stream_capsule);
  WithoutGil([&] { return WriteArrowStream(path, stream, options); });
}

void WriteArray(nb::handle schema_capsule, nb::handle array_capsule, const std::string& path,
                const nb::dict& settings) {
  const ArrowWriteOptions options = ArrowWriteOptionsFrom(settings);
  const ArrowSchema* schema = SchemaFromCapsule(schema_capsule);
  const ArrowArray* array = ArrayFromCapsule(array_capsule);
  WithoutGil([&]() -> absl::Status {
    absl::StatusOr<std::unique_ptr<ArrowFileWriter>> writer =
        ArrowFileWriter::Open(path, *schema, options);
    if (!writer.ok()) return writer.status();
    absl::Status written = (*writer)->WriteBatch(*array);
    if (!written.ok()) return written;
    return (*writer)->Close();
  });
}

nb::list EncodingNames(const std::vector<Encoding>& encodings) {
  nb::list names;
  for (const Encoding encoding : encodings) names.append(std::string(EncodingName(encoding)));
  return names;
}

nb::dict Recode(const std::string& source, const std::string& destination, const nb::dict& settings,
                bool verify, const std::string& bloom_filters) {
  const WriteSettings parsed = WriteSettingsFromDict(settings);
  RecodeOptions options;
  if (bloom_filters == "all") {
    options.bloom_filters = BloomFilterPolicy::kAll;
  } else if (bloom_filters == "none") {
    options.bloom_filters = BloomFilterPolicy::kNone;
  } else if (bloom_filters != "keep") {
    RaiseStatus(absl::InvalidArgumentError(
        absl::StrCat("bloom_filters is 'keep', 'all' or 'none', not '", bloom_filters, "'")));
  }
  options.writer = parsed.writer;
  options.write_page_index = parsed.page_index;
  options.threads = parsed.threads;
  options.verify = verify;
  std::shared_ptr<const FileReader> file = OpenFile(source);
  const RecodeReport report =
      WithoutGil([&] { return pqpage::Recode(*file, destination, options); });
  nb::dict out;
  out["input_bytes"] = report.input_bytes;
  out["output_bytes"] = report.output_bytes;
  out["num_row_groups"] = report.num_row_groups;
  out["verified"] = report.verified;
  nb::list columns;
  for (const RecodedColumn& column : report.columns) {
    nb::dict entry;
    entry["path"] = column.path;
    entry["input_bytes"] = column.input_bytes;
    entry["output_bytes"] = column.output_bytes;
    entry["encodings"] = EncodingNames(column.encodings);
    entry["arrow_dictionary"] = column.arrow_dictionary;
    columns.append(entry);
  }
  out["columns"] = columns;
  return out;
}

// Advice on the columns named (every column for None), as (advise --json's document, the writer
// settings that apply it).
std::pair<std::string, nb::dict> Advise(const std::string& path,
                                        std::optional<std::vector<std::string>> columns,
                                        std::optional<std::string> compression, int page_version) {
  AdviseOptions options;
  options.data_page_version = page_version;
  if (compression) options.compression = ValueOrRaise(WritableCompressionFromName(*compression));
  std::shared_ptr<const FileReader> file = OpenFile(path);
  const FileAdvice advice = WithoutGil([&]() -> absl::StatusOr<FileAdvice> {
    if (!columns) return pqpage::Advise(*file, options);
    FileAdvice merged;
    merged.data_page_version = page_version;
    merged.num_row_groups = file->num_row_groups();
    for (const std::string& column : *columns) {
      options.column = column;
      absl::StatusOr<FileAdvice> one = pqpage::Advise(*file, options);
      if (!one.ok()) return one.status();
      for (ColumnAdvice& entry : one->columns) merged.columns.push_back(std::move(entry));
    }
    return merged;
  });
  AdviceJsonOptions json_options;
  json_options.file_name = path;
  return {AdviceJson(advice, json_options), DictFromWriterOptions(AdvisedOptions(advice))};
}

// lookup's JSON (pqpage/lookup.h LookupJson, an array of one object per value): the values are
// text as the column's type reads it (ParseValueText).
std::string Lookup(const std::string& path, const std::string& column_path,
                   const std::vector<std::string>& texts, bool rows) {
  std::shared_ptr<const FileReader> file = OpenFile(path);
  const std::optional<int> found = file->schema().FindColumn(column_path);
  if (!found) {
    RaiseStatus(
        absl::InvalidArgumentError(absl::StrCat("no column '", column_path, "' in ", path)));
  }
  const int column = *found;
  const ColumnDescriptor& descriptor = file->schema().columns()[static_cast<size_t>(column)];
  std::vector<std::string> values;
  for (const std::string& text : texts) {
    values.push_back(ValueOrRaise(ParseValueText(descriptor, text)));
  }
  return WithoutGil([&]() -> absl::StatusOr<std::string> {
    PQPAGE_ASSIGN_OR_RETURN(const std::vector<ValueLookup> lookups,
                            LookupValues(*file, column, values, nullptr));
    std::vector<std::vector<int64_t>> found;
    for (const ValueLookup& lookup : lookups) {
      if (!rows) break;
      PQPAGE_ASSIGN_OR_RETURN(std::vector<int64_t> lookup_rows, FindRows(*file, lookup, nullptr));
      found.push_back(std::move(lookup_rows));
    }
    return LookupJson(*file, lookups, rows ? &found : nullptr);
  });
}

std::string Inspect(const std::string& path, nb::handle threads) {
  InspectJsonOptions options;
  options.file_name = path;
  options.threads = ThreadsFromObject(threads);
  std::shared_ptr<const FileReader> file = OpenFile(path);
  return WithoutGil([&] { return InspectJson(*file, options); });
}

}  // namespace
}  // namespace pqpage::python

NB_MODULE(_pqpage, module) {
  using namespace pqpage::python;  // NOLINT(google-build-using-namespace): the module's own calls
  module.doc() = "pqpage's extension module; use the pqpage package, which documents each call.";
  nb::class_<ArrowTableSource>(module, "ArrowTableSource")
      .def(nb::init<const std::string&, std::optional<std::vector<std::string>>,
                    std::optional<std::pair<int64_t, int64_t>>, nb::handle, nb::handle, int64_t,
                    int64_t>(),
           nb::arg("path"), nb::arg("columns").none(), nb::arg("rows").none(),
           nb::arg("threads").none(), nb::arg("dictionary"), nb::arg("batch_rows"),
           nb::arg("batch_bytes"))
      .def("stream", &ArrowTableSource::Stream)
      .def("schema", &ArrowTableSource::Schema)
      .def_prop_ro("num_rows", &ArrowTableSource::num_rows)
      .def_prop_ro("row_group_rows", &ArrowTableSource::row_group_rows)
      .def_prop_ro("row_group_rows", &ArrowTableSource::row_group_rows)
      .def_prop_ro("path", &ArrowTableSource::path);
  module.def("write_stream", &WriteStream, nb::arg("stream"), nb::arg("path"), nb::arg("settings"));
  module.def("write_array", &WriteArray, nb::arg("schema"), nb::arg("array"), nb::arg("path"),
             nb::arg("settings"));
  module.def("recode", &Recode, nb::arg("source"), nb::arg("destination"), nb::arg("settings"),
             nb::arg("verify"), nb::arg("bloom_filters"));
  module.def("lookup", &Lookup, nb::arg("path"), nb::arg("column"), nb::arg("values"),
             nb::arg("rows"));
  module.def("advise", &Advise, nb::arg("path"), nb::arg("columns").none(),
             nb::arg("compression").none(), nb::arg("page_version"));
  module.def("inspect", &Inspect, nb::arg("path"), nb::arg("threads").none());
}
