// Reading a Parquet file as Arrow record batches through the Arrow C Data Interface
// (pqpage/arrow_c_data.h): the schema mapped to Arrow types as Arrow C++ (pyarrow) maps it, and the
// rows assembled from definition and repetition levels into validity bitmaps, list offsets, structs
// and maps, so an engine that embeds pqpage imports whole columns without rebuilding them.
//
// Types, Parquet -> Arrow: BOOLEAN bool; INT32/INT64 int32/int64, or the INTEGER annotation's width
// and sign; FLOAT/DOUBLE float/double; DATE date32; TIME time32[ms] / time64[us|ns]; TIMESTAMP
// timestamp in its unit, with time zone "UTC" when adjusted to UTC; INT96 timestamp[ns]; DECIMAL
// (on any physical type) decimal128, or decimal256 above 38 digits; STRING, ENUM, JSON utf8; other
// BYTE_ARRAY binary; FIXED_LEN_BYTE_ARRAY fixed-size binary (UUID and INTERVAL too), FLOAT16
// float16; UNKNOWN null. UUID and JSON carry the extension names arrow.uuid and arrow.json
// (ArrowReadOptions::arrow_extensions). Groups: LIST (three-level, and the format's legacy two- and
// one-level forms) list, MAP and MAP_KEY_VALUE map, other groups struct, a bare repeated field a
// list of it. REQUIRED fields are not nullable. A stored ARROW:schema (pqpage/arrow_schema.h)
// refines types where its type reads from the same Parquet data: large_utf8 / large_binary /
// large_list, time zones, durations, decimal32 / decimal64 (a value that does not fit is
// DataLoss), and dictionaries of byte arrays.
//
// Errors of the file are the stream's errors: get_next returns an errno value (EIO for damaged
// data, EINVAL for a request the file cannot meet, ENOMEM) and get_last_error says why, naming
// the file, row group and column. No call crashes on a hostile file.
#ifndef PQPAGE_ARROW_READER_H_
#define PQPAGE_ARROW_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/file.h"
#include "pqpage/page_index.h"

namespace pqpage {

struct ArrowReadOptions {
  // Fields to read, each a path of names joined by '.' ("a", "a.b", "tags.list.element"): a
  // group's path selects every leaf under it; a leaf under a list or map keeps its ancestors (a
  // struct then holds only the selected children). Empty: every field. Top-level fields keep the
  // file's order.
  std::vector<std::string> columns;
  // Only these rows of the file (counted from 0 across row groups); pages outside them are skipped
  // through the offset index when there is one. Unset: every row.
  std::optional<RowRange> rows;
  // Rows per record batch at most; a batch never spans two row groups, so it may hold fewer.
  int64_t batch_rows = 64 * 1024;
  // Value bytes per record batch at most, 0 for no bound: a batch holds fewer than batch_rows
  // rows when its selected leaves' values (the bytes each row held in the batches before, or
  // what the file's metadata says before the first) would pass this many. A consumer that
  // releases each batch before the next then gets buffers that are still in the CPU's cache;
  // with 64 Ki rows of a wide table (15 MB) they are not, and the scan suite's files
  // (bench/tables) took 6% to 16% longer to read so. At least one row a batch.
  int64_t batch_bytes = int64_t{4} << 20;
  // Byte array leaf columns (paths as in `columns`) to read as dictionary arrays: int32 indices
  // into each batch's distinct values (Arrow C++'s read_dictionary). Columns a stored
  // ARROW:schema gives a dictionary type are read so too.
  std::vector<std::string> read_dictionary;
  // Read every selected byte array leaf as a dictionary array, as if read_dictionary named them
  // all (FIXED_LEN_BYTE_ARRAY leaves stay fixed-size binary).
  bool read_dictionary_all = false;
  // Take the types of the stored ARROW:schema where they read from the same data.
  bool use_stored_arrow_schema = true;
  // Read UUID and JSON columns as Arrow's canonical extension types arrow.uuid (on
  // fixed_size_binary(16)) and arrow.json (on utf8): their storage types with the field metadata
  // ARROW:extension:name, as pyarrow reads them by default (arrow_extensions_enabled).
  bool arrow_extensions = true;
  // Threads that read a batch's columns (and assemble its top-level fields) side by side; the
  // batches are the same for any count.
  int threads = 1;
};

// Fills `out` with the Arrow schema the file reads as under `options`: a struct ("+s") whose
// children are the selected top-level fields. The caller releases it.
// @return OK; InvalidArgument for a column path that names no field, a read_dictionary path that
// names no selected byte array leaf, a batch_rows or threads below 1, a negative batch_bytes;
// DataLoss for a schema pqpage cannot map (a LIST or MAP group of an impossible shape) or a
// malformed ARROW:schema.
absl::Status ExportArrowSchema(const FileReader& file, const ArrowReadOptions& options,
                               ArrowSchema* out);

// Fills `out` with a stream of record batches (struct arrays of ExportArrowSchema's type) over
// `file`'s rows, in file order. The stream keeps `file` alive; the caller releases the stream,
// and each array it gets, exactly once. Arrays outlive the stream.
// @return OK, or ExportArrowSchema's errors (then `out` is left released).
absl::Status OpenArrowStream(std::shared_ptr<const FileReader> file,
                             const ArrowReadOptions& options, ArrowArrayStream* out);

}  // namespace pqpage

#endif  // PQPAGE_ARROW_READER_H_
