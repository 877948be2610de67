// What `pqpage advise` measures for one column chunk: the chunk's levels and values are read once,
// then written again under every encoding policy with the page builder (same codec, page version
// and page size as a recode would use), and each result is decoded back to time it. Nothing is
// estimated: the bytes are those a recode with that policy writes for this chunk.
//
// Memory: one column chunk's levels and values (byte arrays copied into one buffer), plus the
// chunk written under one policy at a time.
#ifndef PQPAGE_CLI_CLI_ADVISE_MEASURE_H_
#define PQPAGE_CLI_CLI_ADVISE_MEASURE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"

namespace pqpage::cli {

// The policies advise tries, in the order it lists them; on equal bytes and speed the earlier one
// is recommended.
const std::vector<EncodingPolicy>& AdvisedPolicies();

struct CandidateResult {
  EncodingPolicy policy = EncodingPolicy::kPlain;
  int64_t stored_bytes = 0;  // the chunk as written: every page with its header
  // Value encodings of the data pages it wrote, e.g. "RLE_DICTIONARY+PLAIN" after a fallback.
  std::string encodings;
  std::vector<Encoding> value_encodings;  // the same, as a list
  double decode_seconds = 0;              // best of a few full decodes of the chunk
  int64_t decoded_value_bytes = 0;  // what one decode produced (values only; byte arrays' data)
};

struct ChunkMeasurement {
  int64_t stored_bytes = 0;  // the chunk as it is in the file
  std::string encodings;     // its data pages' value encodings, as above (pages with values)
  Compression codec = Compression::kUncompressed;
  std::vector<CandidateResult> candidates;  // one per AdvisedPolicies() entry
};

// Measures chunk (row_group, column) of `file` under every advised policy with `options` (its
// `encoding` field is replaced per candidate). Errors: the file's, when the chunk cannot be read;
// the writer's, which are not expected for values that were just read.
absl::StatusOr<ChunkMeasurement> MeasureChunk(const FileReader& file, int row_group, int column,
                                              const WriterOptions& options);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_ADVISE_MEASURE_H_
