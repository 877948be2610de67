#include "python/write_settings.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "pqpage/compression.h"
#include "python/status_error.h"

namespace nb = nanobind;

namespace pqpage::python {
namespace {

[[noreturn]] void RaiseArgument(const std::string& message) {
  RaiseStatus(absl::InvalidArgumentError(message));
}

std::string TypeName(nb::handle value) {
  return nb::cast<std::string>(
      nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(value.ptr()))).attr("__name__"));
}

std::string StringOf(nb::handle value, const std::string& what) {
  if (!nb::isinstance<nb::str>(value)) {
    RaiseArgument(absl::StrCat(what, " must be a str, not ", TypeName(value)));
  }
  return nb::cast<std::string>(value);
}

// An int, but not a bool (True would otherwise pass as 1).
int64_t IntegerOf(nb::handle value, const std::string& what) {
  if (!nb::isinstance<nb::int_>(value) || nb::isinstance<nb::bool_>(value)) {
    RaiseArgument(absl::StrCat(what, " must be an int, not ", TypeName(value)));
  }
  return nb::cast<int64_t>(value);
}

bool BoolOf(nb::handle value, const std::string& what) {
  if (!nb::isinstance<nb::bool_>(value)) {
    RaiseArgument(absl::StrCat(what, " must be a bool, not ", TypeName(value)));
  }
  return nb::cast<bool>(value);
}

int LevelOf(nb::handle value, Compression codec, const std::string& what) {
  const int64_t level = IntegerOf(value, what);
  if (level < -1000000 || level > 1000000) {
    RaiseArgument(absl::StrCat(what, " ", level, " is out of range"));
  }
  RaiseIfError(CheckCompressionLevel(codec, static_cast<int>(level)));
  return static_cast<int>(level);
}

nb::dict DictOf(nb::handle value, const std::string& what) {
  if (!nb::isinstance<nb::dict>(value)) {
    RaiseArgument(
        absl::StrCat(what, " must be a dict of column path to setting, not ", TypeName(value)));
  }
  return nb::borrow<nb::dict>(value);
}

// column_compression's value: a codec name, or (codec name, level).
void ApplyColumnCompression(const std::string& path, nb::handle value,
                            ColumnWriterOverride& override) {
  const std::string what = absl::StrCat("column_compression['", path, "']");
  if (nb::isinstance<nb::tuple>(value) && nb::len(value) == 2) {
    nb::tuple pair = nb::borrow<nb::tuple>(value);
    override.compression =
        ValueOrRaise(WritableCompressionFromName(StringOf(pair[0], what + " codec")));
    override.compression_level = LevelOf(pair[1], *override.compression, what + " level");
    return;
  }
  override.compression = ValueOrRaise(WritableCompressionFromName(StringOf(value, what)));
}

double FloatOf(nb::handle value, const std::string& what) {
  if (!nb::isinstance<nb::float_>(value) && !nb::isinstance<nb::int_>(value)) {
    RaiseArgument(absl::StrCat(what, " must be a float, not ", TypeName(value)));
  }
  return nb::cast<double>(value);
}

// bloom_filter_options, as pyarrow takes it: {column path: {"ndv": int, "fpp": float}}, each key
// optional (no ndv: each chunk's own distinct values).
void ApplyBloomFilterOptions(const nb::dict& columns, WriterOptions& writer) {
  for (auto [path, settings] : columns) {
    const std::string column = StringOf(path, "a bloom_filter_options path");
    const std::string what = absl::StrCat("bloom_filter_options['", column, "']");
    BloomFilterOptions bloom = writer.bloom_filter;
    bloom.enabled = true;
    if (!nb::isinstance<nb::dict>(settings)) {
      RaiseArgument(
          absl::StrCat(what, " must be a dict with ndv and fpp, not ", TypeName(settings)));
    }
    for (auto [name_object, value] : nb::borrow<nb::dict>(settings)) {
      const std::string name = StringOf(name_object, what + " key");
      if (name == "ndv") {
        bloom.distinct_values = IntegerOf(value, what + "['ndv']");
      } else if (name == "fpp") {
        bloom.fpp = FloatOf(value, what + "['fpp']");
      } else {
        RaiseArgument(absl::StrCat(what, " has no setting '", name, "' (ndv, fpp)"));
      }
    }
    writer.column_overrides[column].bloom_filter = bloom;
  }
}

// use_content_defined_chunking, as pyarrow takes it: a bool, or a dict of min_chunk_size,
// max_chunk_size (bytes) and norm_level.
void ApplyContentDefinedChunking(nb::handle value, WriterOptions& writer) {
  ContentDefinedChunking& chunking = writer.content_defined_chunking;
  if (nb::isinstance<nb::bool_>(value)) {
    chunking.enabled = nb::cast<bool>(value);
    return;
  }
  if (!nb::isinstance<nb::dict>(value)) {
    RaiseArgument(absl::StrCat("use_content_defined_chunking must be a bool or a dict, not ",
                               TypeName(value)));
  }
  chunking.enabled = true;
  for (auto [name_object, setting] : nb::borrow<nb::dict>(value)) {
    const std::string name = StringOf(name_object, "a use_content_defined_chunking key");
    const std::string what = absl::StrCat("use_content_defined_chunking['", name, "']");
    if (name == "min_chunk_size") {
      chunking.min_page_bytes = IntegerOf(setting, what);
    } else if (name == "max_chunk_size") {
      chunking.max_page_bytes = IntegerOf(setting, what);
    } else if (name == "norm_level") {
      chunking.norm_level = static_cast<int>(IntegerOf(setting, what));
    } else {
      RaiseArgument(absl::StrCat("use_content_defined_chunking has no setting '", name,
                                 "' (min_chunk_size, max_chunk_size, norm_level)"));
    }
  }
}

}  // namespace

int ThreadsFromObject(nb::handle threads) {
  if (threads.is_none()) {
    return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U, 16U));
  }
  const int64_t count = IntegerOf(threads, "threads");
  if (count < 1 || count > 1024) {
    RaiseArgument(absl::StrCat("threads must be between 1 and 1024, not ", count));
  }
  return static_cast<int>(count);
}

WriteSettings WriteSettingsFromDict(const nb::dict& settings) {
  WriteSettings out;
  WriterOptions& writer = out.writer;
  nb::handle level_object;
  for (auto [key_object, value] : settings) {
    const std::string key = nb::cast<std::string>(key_object);
    if (key == "threads") {
      out.threads = ThreadsFromObject(value);
      continue;
    }
    if (value.is_none()) continue;  // the setting's default
    if (key == "compression") {
      writer.compression = ValueOrRaise(WritableCompressionFromName(StringOf(value, key)));
    } else if (key == "compression_level") {
      level_object = value;
    } else if (key == "encoding") {
      writer.encoding = ValueOrRaise(EncodingPolicyFromName(StringOf(value, key)));
    } else if (key == "page_version") {
      const int64_t version = IntegerOf(value, key);
      if (version != 1 && version != 2) {
        RaiseArgument(absl::StrCat("page_version must be 1 or 2, not ", version));
      }
      writer.data_page_version = static_cast<int>(version);
    } else if (key == "column_encoding") {
      for (auto [path, policy] : DictOf(value, key)) {
        const std::string column = StringOf(path, "a column_encoding path");
        writer.column_overrides[column].encoding = ValueOrRaise(
            EncodingPolicyFromName(StringOf(policy, absl::StrCat(key, "['", column, "']"))));
      }
    } else if (key == "column_compression") {
      for (auto [path, codec] : DictOf(value, key)) {
        const std::string column = StringOf(path, "a column_compression path");
        ApplyColumnCompression(column, codec, writer.column_overrides[column]);
      }
    } else if (key == "page_index") {
      out.page_index = BoolOf(value, key);
    } else if (key == "checksums") {
      writer.write_checksums = BoolOf(value, key);
    } else if (key == "statistics") {
      writer.write_statistics = BoolOf(value, key);
    } else if (key == "data_page_size") {
      writer.data_page_size = IntegerOf(value, key);
      if (writer.data_page_size < 1) RaiseArgument("data_page_size must be at least 1");
    } else if (key == "bloom_filter_options") {
      ApplyBloomFilterOptions(DictOf(value, key), writer);
    } else if (key == "use_content_defined_chunking") {
      ApplyContentDefinedChunking(value, writer);
    } else if (key == "row_group_rows") {
      out.row_group_rows = IntegerOf(value, key);
      if (*out.row_group_rows < 1) RaiseArgument("row_group_rows must be at least 1");
    } else {
      RaiseArgument(absl::StrCat("unknown writer setting '", key, "'"));
    }
  }
  // The level belongs to the codec, whichever order the keys came in.
  if (level_object.is_valid()) {
    writer.compression_level = LevelOf(level_object, writer.compression, "compression_level");
  }
  return out;
}

nb::dict DictFromWriterOptions(const WriterOptions& options) {
  nb::dict out;
  out["page_version"] = options.data_page_version;
  out["encoding"] = std::string(EncodingPolicyName(options.encoding));
  out["compression"] = WritableCompressionName(options.compression);
  if (options.compression_level != kDefaultCompressionLevel) {
    out["compression_level"] = options.compression_level;
  }
  nb::dict encodings;
  nb::dict codecs;
  for (const auto& [path, override] : options.column_overrides) {
    if (override.encoding)
      encodings[path.c_str()] = std::string(EncodingPolicyName(*override.encoding));
    if (override.compression) {
      const std::string name = WritableCompressionName(*override.compression);
      if (override.compression_level) {
        codecs[path.c_str()] = nb::make_tuple(name, *override.compression_level);
      } else {
        codecs[path.c_str()] = name;
      }
    }
  }
  if (nb::len(encodings) > 0) out["column_encoding"] = encodings;
  if (nb::len(codecs) > 0) out["column_compression"] = codecs;
  return out;
}

}  // namespace pqpage::python
