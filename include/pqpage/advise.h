// Advice on a Parquet file's encodings, learnt by trying them all on the file's own data: each
// column chunk is read once and written again under every encoding policy (same codec, page
// version and page size as a recode would use), and each result is decoded back to time it.
// Nothing is estimated: the bytes are those a recode with that policy writes. Per column, the
// advice says what it is stored as now, what each policy writes and how fast that decodes, which
// peers (pqpage/peer_readers.h) would refuse each result, and the recommendation; AdvisedOptions
// turns it into the writer options with which Recode (pqpage/recode.h) applies it. This is what
// `pqpage advise` prints.
//
// Memory: one column chunk's levels and values (byte arrays copied into one buffer), plus the
// chunk written under one policy at a time.
#ifndef PQPAGE_ADVISE_H_
#define PQPAGE_ADVISE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/compression.h"
#include "pqpage/file.h"
#include "pqpage/peer_readers.h"
#include "pqpage/recode.h"
#include "pqpage/types.h"

namespace pqpage {

struct AdviseOptions {
  // Only the column at this path (ColumnDescriptor::PathString()); unset: every column.
  std::optional<std::string> column;
  // The codec to measure with; unset: each column's own (that of its first chunk; one pqpage does
  // not write is replaced by the nearest it does: LZ4 (Hadoop) by LZ4_RAW, LZO by SNAPPY).
  std::optional<Compression> compression;
  int data_page_version = 1;  // 1 or 2
  // Sizes this close to the smallest count as equal, and then the fastest to decode wins.
  double tie_margin = 0.02;
  // As in RecodeOptions: called at each column chunk measured, and with what advice could not
  // honour (an ARROW:schema pqpage cannot read).
  std::function<void(const FileProgress&)> on_progress;
  std::function<void(const std::string&)> on_warning;
};

// One policy written for one column chunk.
struct PolicyMeasurement {
  EncodingPolicy policy = EncodingPolicy::kPlain;
  int64_t stored_bytes = 0;  // the chunk as written: every page with its header
  // Value encodings of the data pages it wrote, e.g. "RLE_DICTIONARY+PLAIN" after a fallback.
  std::string encodings;
  std::vector<Encoding> value_encodings;  // the same, as a list
  double decode_seconds = 0;              // best of a few full decodes of the chunk
  int64_t decoded_value_bytes = 0;  // what one decode produced (values only; byte arrays' data)
};

// One column chunk: as it is in the file, and under every policy.
struct ChunkMeasurement {
  int64_t stored_bytes = 0;  // the chunk as it is in the file
  std::string encodings;     // its data pages' value encodings, as above ("-" for none)
  Compression codec = Compression::kUncompressed;
  std::vector<PolicyMeasurement> candidates;  // one per AdvisedPolicies() entry
};

// One policy over all of a column's chunks.
struct PolicyTotal {
  EncodingPolicy policy = EncodingPolicy::kPlain;
  int64_t stored_bytes = 0;
  double decode_seconds = 0;
  int64_t decoded_value_bytes = 0;
  std::vector<std::string> encodings;  // distinct per-chunk encodings, in order of appearance
  std::vector<PeerReader> refused_by;  // the peers that refuse one of its chunks' encodings
  // An earlier policy that wrote the same encodings and bytes (a policy that does not apply to
  // the type writes PLAIN): listed, never advised, so the advice names what really differs.
  std::optional<EncodingPolicy> same_as;

  // How fast the policy's pages decode.
  // @return decoded value megabytes per second; 0 when nothing was timed.
  double DecodeMegabytesPerSecond() const {
    return decode_seconds > 0 ? static_cast<double>(decoded_value_bytes) / 1e6 / decode_seconds
                              : 0.0;
  }
};

struct ColumnAdvice {
  int column = 0;  // index among the schema's leaf columns
  std::string path;
  PhysicalType type = PhysicalType::kInt32;
  std::string logical_type;  // LogicalType::ToString(), "" for none
  // The peers refusing each encoding pqpage writes for the type, in WrittenValueEncodings order.
  std::vector<std::pair<Encoding, std::vector<PeerReader>>> peers_refusing;
  // What auto chooses among by default (AutoEncodings::kInteroperable), the dictionary included.
  std::vector<Encoding> interoperable;
  Compression codec = Compression::kUncompressed;  // measured with
  int64_t current_bytes = 0;
  std::vector<std::string> current_encodings;  // distinct per-chunk encodings now
  std::vector<PolicyTotal> totals;             // AdvisedPolicies() order
  std::vector<ChunkMeasurement> chunks;        // one per row group
  size_t recommended = 0;                      // index into totals
  // The file's Arrow schema makes it a dictionary type: only the policies ArrowDictionaryPolicy
  // (pqpage/recode.h) allows are advised.
  bool arrow_dictionary = false;

  // @return the recommended policy's total (totals[recommended]).
  const PolicyTotal& advised() const { return totals[recommended]; }
};

struct FileAdvice {
  int num_row_groups = 0;
  int data_page_version = 1;          // measured with
  std::vector<ColumnAdvice> columns;  // schema order; only AdviseOptions::column when set

  // @return the columns' bytes as the file stores them now (their chunks' lengths).
  int64_t current_bytes() const;
  // @return the columns' bytes under their advised policies.
  int64_t advised_bytes() const;
};

// The policies advise tries, in the order it lists them; on equal bytes and speed the earlier one
// is recommended.
// @return plain, dictionary, delta, delta_length_byte_array, byte_stream_split, auto.
const std::vector<EncodingPolicy>& AdvisedPolicies();

// Measures every chunk of the chosen columns of `file` under every advised policy and recommends
// one per column: among the policies no peer refuses (all of them when every policy is refused by
// one), and for an Arrow dictionary column those ArrowDictionaryPolicy allows, the smallest, or
// among those within options.tie_margin of the smallest the fastest to decode (decode times within
// 5% count as equal: a busy machine's noise), by the rule that auto uses too.
// @return the advice. InvalidArgument when options.column names no column or
// options.data_page_version is not 1 or 2; the file's errors when a chunk cannot be read; the
// writer's, which are not expected for values that were just read.
absl::StatusOr<FileAdvice> Advise(const FileReader& file, const AdviseOptions& options);

// The writer options that apply `advice`: its page version; as encoding and compression the
// policy and codec most columns are advised (ties to the column first reaching the count), and a
// column override for each column advised otherwise. Everything else is WriterOptions' default.
// Recode with these writes each advised column in the encodings its advice measured.
// @return those options (column_overrides keyed by column path).
WriterOptions AdvisedOptions(const FileAdvice& advice);

}  // namespace pqpage

#endif  // PQPAGE_ADVISE_H_
