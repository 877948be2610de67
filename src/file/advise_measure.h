// Advise's measurement of one column chunk: read once, written again under every advised policy,
// each result decoded back to time it.
#ifndef PQPAGE_FILE_ADVISE_MEASURE_H_
#define PQPAGE_FILE_ADVISE_MEASURE_H_

#include "absl/status/statusor.h"
#include "pqpage/advise.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"

namespace pqpage::internal {

// Measures chunk (row_group, column) of `file` under every AdvisedPolicies() entry with `options`
// (its `encoding` field is replaced per candidate).
// @return the measurement; the file's errors when the chunk cannot be read; the writer's, which
// are not expected for values that were just read.
absl::StatusOr<ChunkMeasurement> MeasureChunk(const FileReader& file, int row_group, int column,
                                              const WriterOptions& options);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_ADVISE_MEASURE_H_
