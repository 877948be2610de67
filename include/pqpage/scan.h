// Scanning a whole Parquet file: every page of every column decoded (levels and values,
// dictionaries resolved) and nothing kept, as an engine drives the page decoder: one reusable
// batch buffer per column chunk, never a whole chunk in memory. It counts what it decoded and
// checks every chunk's rows against its row group's. This is what `pqpage scan` does, for an
// engine or a test that wants to know a file decodes, and how fast.
//
// Column chunks are decoded on several threads; the totals, and which error is reported (the first
// in file order), do not depend on the thread count.
#ifndef PQPAGE_SCAN_H_
#define PQPAGE_SCAN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/file.h"
#include "pqpage/page_index.h"

namespace pqpage {

// What a scan decoded.
struct ScanTotals {
  int64_t rows = 0;              // rows (repetition level 0), counted once per file
  int64_t levels = 0;            // levels read, nulls included
  int64_t values = 0;            // values present (non-null)
  int64_t compressed_bytes = 0;  // the column chunks' stored lengths, page headers included
  int64_t value_bytes = 0;       // decoded values: sizeof(T) each, a byte array's length
  int64_t data_pages = 0;        // data pages met

  void Add(const ScanTotals& other);
};

struct ScanOptions {
  // Threads decoding at once; at least 1. With more than one, a chunk larger than its share of
  // the work (the file's chunk bytes over 4 x threads, and at least min_run_bytes) is split into
  // runs of pages (SplitIntoPageRuns) decoded side by side, so a file of one large column or one
  // row group uses every thread too. Each run reads the chunk's dictionary page, so the bytes
  // read grow a little; the totals do not change.
  int threads = 1;
  // The smallest run of pages worth a thread of its own: smaller ones cost more in hand-offs and
  // repeated dictionary pages than they save. At least 1.
  int64_t min_run_bytes = int64_t{1} << 20;
  // Only these rows of the file (counted from 0 across row groups); pages outside them are skipped
  // through the offset index when the file has one. Unset: every row.
  std::optional<RowRange> rows;
  // Called with where the scan is, at each new page (from one thread at a time).
  std::function<void(const FileProgress&)> on_progress;
  // Called with a problem that did not stop the scan (an offset index that cannot be used).
  std::function<void(const std::string&)> on_warning;
};

struct ScanReport {
  ScanTotals file;                  // every column's figures added; rows counted once
  std::vector<ScanTotals> columns;  // one per leaf column, in schema order
};

// Decodes every selected page of `file`.
// @return the totals; InvalidArgument for threads < 1; the first error in file order of a chunk
// that cannot be located or decoded; DataLoss, naming the file, row group and column, for a chunk
// whose rows disagree with its row group's (or with the rows asked for).
absl::StatusOr<ScanReport> Scan(const FileReader& file, const ScanOptions& options);

}  // namespace pqpage

#endif  // PQPAGE_SCAN_H_
