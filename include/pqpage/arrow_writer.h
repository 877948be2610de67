// Writing a Parquet file from Arrow record batches given through the Arrow C Data Interface
// (pqpage/arrow_c_data.h): each batch is shredded into the definition and repetition levels and the
// values of its leaf columns and handed to the page builder, so a program that holds Arrow data
// (DuckDB, polars, pyarrow, an engine of its own) writes Parquet without linking Arrow.
//
// Types, Arrow -> Parquet, as Arrow C++ (pyarrow) writes them, so that the peers read the same
// values back: bool BOOLEAN; int8/16/32 and uint8/16/32 INT32, int64/uint64 INT64, each with its
// INTEGER annotation (int32 and int64 bare); float16 FIXED_LEN_BYTE_ARRAY(2) FLOAT16; float/double
// FLOAT/DOUBLE; utf8 / large_utf8 / utf8_view BYTE_ARRAY STRING, binary / large_binary /
// binary_view BYTE_ARRAY; fixed_size_binary FIXED_LEN_BYTE_ARRAY; decimal32/64/128/256 DECIMAL on
// INT32 up to 9 digits, INT64 up to 18, else FIXED_LEN_BYTE_ARRAY of the fewest bytes; date32
// DATE, date64 DATE (days); time32[s] / time32[ms] TIME(MILLIS), time64 TIME(MICROS|NANOS), all
// local (not adjusted to UTC); timestamp[s] TIMESTAMP(MILLIS), other units their own, adjusted to
// UTC when the type has a time zone; duration INT64; null INT32 UNKNOWN; the extension types
// arrow.uuid (UUID) and arrow.json (JSON) on their storage. list, large_list, list_view,
// large_list_view and fixed_size_list the three-level LIST (group "list", leaf or group "element");
// map the MAP of a repeated "key_value" group (key required); struct a group. A dictionary array is
// written as its value type through the page builder's dictionary-indexed path (each dictionary
// entry hashed once per batch, not once per value). Not written (InvalidArgument): intervals,
// unions, run-end encoded arrays, a struct without fields.
//
// The Arrow schema is stored under ARROW:schema (pqpage/arrow_schema.h) as pyarrow stores it, so
// Arrow readers get back what was written: large and view types, time zones, seconds, date64,
// durations, dictionaries, field metadata.
#ifndef PQPAGE_ARROW_WRITER_H_
#define PQPAGE_ARROW_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "pqpage/writer_options.h"

namespace pqpage {

struct ArrowWriteOptions {
  // How each column chunk is written: encodings (auto by default), codec, page version and sizes,
  // CRCs, statistics, per-column overrides keyed by Parquet column path ("tags.list.element").
  // A column of an Arrow dictionary type gets AutoEncodings::kDictionaryOrPlain unless its
  // override says otherwise: Arrow C++ reads such a column back into a dictionary only from
  // dictionary or PLAIN pages.
  WriterOptions writer;
  // created_by, key-value metadata (the Arrow schema's own metadata is added after it), page index.
  FileWriterOptions file;
  // A row group ends once it holds this many rows (pyarrow's default, 1Mi).
  int64_t row_group_rows = int64_t{1} << 20;
  // And, when above 0, once its column chunks' estimated sizes (compressed, summed) reach this
  // many bytes; checked after each batch a row group takes, so a group can pass it by a batch.
  int64_t row_group_bytes = 0;
  // Store the Arrow schema under ARROW:schema.
  bool store_arrow_schema = true;
  // Threads that shred and encode a batch's columns side by side; the file is the same for any
  // count.
  int threads = 1;
};

// The Parquet schema `schema` (a struct, "+s", whose children are the columns) is written as.
// @return the schema, or InvalidArgument naming the field for a type with no Parquet form (listed
// above) or a malformed ArrowSchema (a format string Arrow does not define, wrong child counts).
absl::StatusOr<Schema> ParquetSchemaForArrow(const ArrowSchema& schema);

// Writes one file, batch by batch. Thread safety: one thread at a time.
class ArrowFileWriter {
 public:
  // Creates `path` for batches of type `schema` (which stays the caller's, and may be released
  // once Open returns).
  // @return the writer; ParquetSchemaForArrow's errors; InvalidArgument for options out of range
  // (row_group_rows or threads below 1, an override naming no column), or the file's I/O error.
  static absl::StatusOr<std::unique_ptr<ArrowFileWriter>> Open(const std::string& path,
                                                               const ArrowSchema& schema,
                                                               ArrowWriteOptions options = {});
  ~ArrowFileWriter();

  const Schema& schema() const;

  // Appends the rows of `batch`, a struct array of the schema given to Open. The batch stays the
  // caller's: it may be released once the call returns (byte arrays are copied as pages fill).
  // @return OK; InvalidArgument for an array that does not match the schema (child or buffer
  // counts, a missing buffer, a negative length or offset, list or string offsets that decrease
  // or point past their child, a dictionary index outside its dictionary, a byte array over
  // 2^31 - 1 bytes, seconds that overflow as milliseconds); the page builder's errors; I/O
  // errors. A batch that is not a struct of the schema's fields is refused before anything is
  // written; after any other error the writer is unusable (every call returns that error).
  absl::Status WriteBatch(const ArrowArray& batch);

  // Ends the row group being filled (if it holds rows): the next batch starts a new one.
  absl::Status FlushRowGroup();

  // Ends the last row group, writes the footer and closes the file. A writer given no rows writes
  // a file of no row groups.
  absl::Status Close();

 private:
  ArrowFileWriter();
  struct State;
  std::unique_ptr<State> state_;
};

// Writes every batch of `stream` to `path` and closes the file. The stream stays the caller's
// (to release); the batches it gives are released here.
// @return OK, ArrowFileWriter's errors, or the stream's own (get_schema / get_next failing:
// Internal with get_last_error's text).
absl::Status WriteArrowStream(const std::string& path, ArrowArrayStream* stream,
                              const ArrowWriteOptions& options = {});

}  // namespace pqpage

#endif  // PQPAGE_ARROW_WRITER_H_
