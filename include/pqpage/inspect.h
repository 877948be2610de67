// Inspecting a Parquet file at the page level: for each column chunk, its footer entry, every page
// header the page walker finds (CRCs checked, a mismatch only noted), what decoding the chunk adds
// (the nulls and rows that v1 headers leave out, the pages that do not decode), and where the
// chunk's page index disagrees with its pages. This is what `pqpage inspect` prints, for a tool or
// a test that wants to see why a file reads as it does.
//
// A damaged file is what inspecting is for, so problems are recorded in the reports, never
// returned as errors: a chunk that cannot be located, a page that does not decode, an unreadable
// page index each show in their chunk's report, and the other chunks are inspected all the same.
#ifndef PQPAGE_INSPECT_H_
#define PQPAGE_INSPECT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/file.h"
#include "pqpage/metadata.h"
#include "pqpage/page.h"
#include "pqpage/page_index.h"
#include "pqpage/types.h"

namespace pqpage {

// One page as the walker listed it, with what decoding it found.
struct InspectedPage {
  PageInfo info;
  // Set when the page is a data page whose levels and values decoded; the counts are then those
  // of its levels (nulls: definition level below the maximum; rows: repetition level 0).
  bool decoded = false;
  int64_t decoded_levels = 0;
  int64_t decoded_nulls = 0;
  int64_t decoded_rows = 0;
  std::string error;  // why this page could not be decoded; empty when it could

  // @return whether the header's type is DATA_PAGE or DATA_PAGE_V2.
  bool is_data_page() const;
  // @return whether the header's type is DICTIONARY_PAGE.
  bool is_dictionary_page() const;
  // @return the nulls the header states (v2) or decoding counted; std::nullopt when neither.
  std::optional<int64_t> nulls() const;
  // @return the rows the header states (v2) or decoding counted; std::nullopt when neither.
  std::optional<int64_t> rows() const;
};

// How many of a chunk's pages have one page type and encoding.
struct PageEncodingCount {
  int32_t page_type_id = 0;  // as the headers store it (PageInfo::type_id)
  // The pages' value encoding; std::nullopt for page types without one (index pages, unknown).
  std::optional<Encoding> encoding;
  int64_t count = 0;
};

// Everything inspecting found about column chunk (row_group, column).
struct InspectedChunk {
  int row_group = 0;
  int column = 0;
  // The column, and the chunk's footer entry (null when the footer has none): both point into
  // the FileReader, which must outlive the report.
  const ColumnDescriptor* descriptor = nullptr;
  const ColumnChunk* footer = nullptr;
  std::optional<ColumnChunkLocation> location;  // unset when the chunk cannot be located
  std::vector<InspectedPage> pages;             // in file order, index pages included
  std::vector<std::string> errors;              // problems not tied to one listed page
  // The chunk's page index when its footer entry references one (or why it could not be read),
  // and every way it disagrees with `pages`: page count, offsets, first rows, null pages and null
  // counts. A bad index is not a problem of the chunk: its data does not depend on it.
  std::optional<ChunkPageIndex> page_index;
  std::string page_index_error;
  std::vector<std::string> page_index_problems;
  // The chunk's bloom filter when its footer entry references one (the footer gives where it
  // is): its bitset's size, or why it could not be read. Like the index, not a problem of the
  // chunk.
  std::optional<int64_t> bloom_filter_bytes;
  std::string bloom_filter_error;

  // @return the pages with an error.
  int64_t page_problems() const;
  // @return the chunk's problems: pages with an error and errors of the chunk as a whole.
  int64_t problems() const { return page_problems() + static_cast<int64_t>(errors.size()); }
  // @return the numbers (into `pages`) of the data pages, in order: the pages an index describes.
  std::vector<size_t> DataPageNumbers() const;
  // @return the mix of page types and encodings over `pages`, in order of first appearance.
  std::vector<PageEncodingCount> EncodingMix() const;
  // @return whether a data page not dictionary-encoded follows one that is: the writer's
  // dictionary filled up and the chunk fell back to another encoding.
  bool DictionaryFallback() const;
};

// Inspects column chunk (row_group, column) of `file`. The page walk checks every CRC and only
// records a mismatch (PageInfo::crc_valid); the decoding follows file.options(), so with
// verify_checksums a page whose CRC does not match is also a page that does not decode.
// @return the chunk's report; InvalidArgument only for a row group or column outside the file.
absl::StatusOr<InspectedChunk> InspectChunk(const FileReader& file, int row_group, int column);

struct InspectOptions {
  // Leaf columns (schema order indices) to inspect in each row group, in the order given; empty:
  // every leaf column.
  std::vector<int> columns;
  // Chunks inspected at once; at least 1. Reports are delivered in file order whatever the count.
  int threads = 1;
};

// What InspectFile calls as it goes. Either may be unset. A callback that returns an error stops
// the pass, and InspectFile returns that error.
struct InspectCallbacks {
  // Called for every row group, in order, before its chunks (also when no column is selected).
  std::function<absl::Status(int row_group)> on_row_group;
  // Called with each chunk's report, in file order: row group by row group, the selected columns
  // in the order asked for.
  std::function<absl::Status(InspectedChunk chunk)> on_chunk;
};

// Inspects every selected column chunk of `file`, keeping at most `threads` reports in memory at
// once (a chunk's report holds its page headers, never its data).
// @return OK; InvalidArgument for threads < 1 or a column outside the schema; or the first error
// a callback returned.
absl::Status InspectFile(const FileReader& file, const InspectOptions& options,
                         const InspectCallbacks& callbacks);

// The names `pqpage inspect` gives what a report holds, in its table and its JSON alike.

// @return the page type of an entry of a chunk's encoding mix: "DATA_PAGE", or "UNKNOWN(id)".
std::string MixPageType(const PageEncodingCount& entry);
// @return the encoding of an entry of the mix ("PLAIN"), or "" for a page type without one.
std::string MixEncoding(const PageEncodingCount& entry);
// @return the chunk's encoding mix in one line: "DICTIONARY_PAGE/PLAIN x1,
// DATA_PAGE/RLE_DICTIONARY x3" ("(no pages)" when it has none), followed by
// " (dictionary fallback)" when the chunk fell back.
std::string EncodingSummary(const InspectedChunk& chunk);
// @return "ASCENDING", "DESCENDING" or "UNORDERED".
const char* BoundaryOrderName(BoundaryOrder order);

// InspectFile for a caller that wants every report at once.
// @return the reports in file order, or InspectFile's error.
absl::StatusOr<std::vector<InspectedChunk>> InspectFile(const FileReader& file,
                                                        const InspectOptions& options = {});

}  // namespace pqpage

#endif  // PQPAGE_INSPECT_H_
