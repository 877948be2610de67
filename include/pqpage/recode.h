// Recoding a whole Parquet file: every column chunk of every row group read and written again
// with other writer options (encoding policy, codec, data page version, per-column overrides),
// keeping the schema, the row groups (same rows each) and the key-value metadata. This is what
// `pqpage recode` does, for a writer that embeds pqpage.
//
// Chunks are encoded on several threads but written in file order, so the output is byte for
// byte the same whatever the thread count. Dictionary-encoded input pages are passed on as indices
// into the input's dictionary (ColumnChunkWriter::WriteIndexedBatch), which writes what the
// values would and is faster. A column the file's Arrow schema (ARROW:schema) makes a dictionary
// type is kept readable as one: see ArrowDictionaryPolicy below.
#ifndef PQPAGE_RECODE_H_
#define PQPAGE_RECODE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/encryption.h"
#include "pqpage/file.h"
#include "pqpage/types.h"

namespace pqpage {

// Which column chunks of a recoded file get bloom filters (RecodeOptions::bloom_filters).
enum class BloomFilterPolicy : int8_t {
  // The columns that have a filter in any row group of the input (and every column when
  // writer.bloom_filter is enabled).
  kKeep,
  // Every column (BOOLEAN columns never get one).
  kAll,
  // None.
  kNone,
};

struct RecodeOptions {
  // How every chunk is written; column_overrides set single columns apart (their keys must name
  // columns of the input: Recode refuses unknown ones).
  WriterOptions writer;
  // Write the page index (an OffsetIndex for every chunk, a ColumnIndex where the type has an
  // order).
  bool write_page_index = true;
  // Which columns get bloom filters; a column whose override sets bloom_filter keeps its own
  // setting. A filter holds hashes of values, so each is rebuilt from the values as they are
  // written, sized as writer.bloom_filter says (its distinct count, rate and limit).
  BloomFilterPolicy bloom_filters = BloomFilterPolicy::kKeep;
  // Column chunks encoded (and finished) at once, at least 1. The output does not depend on it.
  // Finished chunks waiting for the ones before them to be written hold at most about 32 MiB per
  // thread (the chunk next in file order always proceeds, whatever its size).
  int threads = 1;
  // After writing, read the output back and compare every column chunk's level and value streams
  // with the input's (the input's are hashed while it is read). writer.verify_pages checks each
  // page as it is written; this checks the file.
  bool verify = false;
  // Encrypt the output (pqpage/encryption.h); unset: the output is written in the clear. The
  // input's own keys are in its FileReader's ReaderOptions::decryption, so a recode decrypts
  // (keys in, none out), encrypts (none in, keys out) or re-keys (both).
  std::shared_ptr<const FileEncryptionProperties> encryption;
  // Called, serialised, as the recode reaches each new input page (from the threads that encode).
  // Empty: no calls.
  std::function<void(const FileProgress&)> on_progress;
  // Called before any chunk is written with what the recode could not honour but goes on without
  // (an ARROW:schema pqpage cannot read: its columns are then not treated as dictionary types).
  std::function<void(const std::string&)> on_warning;
};

// One column over all row groups.
struct RecodedColumn {
  std::string path;  // ColumnDescriptor::PathString()
  int64_t input_bytes = 0;
  int64_t output_bytes = 0;  // its chunks as written, page headers included
  // The value encodings of the data pages written, distinct, in order of first use.
  std::vector<Encoding> encodings;
  // The file's Arrow schema makes it a dictionary type (ArrowDictionaryPolicy applied).
  bool arrow_dictionary = false;
};

struct RecodeReport {
  int64_t input_bytes = 0;   // the input file's size
  int64_t output_bytes = 0;  // the output file's size
  int num_row_groups = 0;
  bool verified = false;               // RecodeOptions::verify was set and the output matched
  std::vector<RecodedColumn> columns;  // schema order
};

// Which encoding policies keep a column that the file's Arrow schema makes a dictionary type
// readable into one by Arrow: Arrow builds the dictionary array only from dictionary or PLAIN
// pages, so only kDictionary and kPlain (and kAuto restricted to AutoEncodings::kDictionaryOrPlain,
// which Recode applies to such a column unless its override sets auto_encodings).
// @return true for kDictionary and kPlain.
bool ArrowDictionaryPolicy(EncodingPolicy policy);

// Writes `input` recoded to a new file at `out_path` (replaced if it exists), under `options`.
// On any error the output, if it was created, is removed: a half-written or unverified file must
// not pass for a recoded one. Errors name the file at fault and, for a chunk, its row group and
// column.
// @return the report on success. InvalidArgument when `out_path` is the input file itself, when
// options.threads is below 1, or when a column override names no column (the message, "no column
// 'a', 'b' in INPUT", lists them, and IsUnknownColumnError tells this error from the others);
// the input's errors (DataLoss for damaged pages); the writer's (I/O, a codec); DataLoss from
// verification when a column read back differs from the input.
absl::StatusOr<RecodeReport> Recode(const FileReader& input, const std::string& out_path,
                                    const RecodeOptions& options);

// Whether `status` is Recode's refusal of column overrides that name no column of the input: an
// InvalidArgument carrying a payload under kUnknownColumnPayload, so that a caller can treat the
// misspelt path as its user's mistake (the tool makes it a usage error) without parsing messages.
// @return true for that error only.
bool IsUnknownColumnError(const absl::Status& status);

// The payload type URL (absl::Status::GetPayload) of Recode's unknown-column error; its value is
// the unknown paths, one to a line.
inline constexpr char kUnknownColumnPayload[] = "pqpage/recode/unknown-column";

}  // namespace pqpage

#endif  // PQPAGE_RECODE_H_
