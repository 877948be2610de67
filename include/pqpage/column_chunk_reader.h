// The page decoder: reads one column chunk page by page (dictionary page, data pages v1 and v2,
// skipping index pages and page types it does not know), decompresses, verifies page CRCs, and
// decodes levels and values in batches straight into the caller's buffers. Dictionaries are
// resolved, or handed back with their indices for engines that keep data dictionary-encoded; a
// spaced form (values at their slots plus a validity bitmap) serves Arrow-style engines.
//
// Memory: the reader holds the current page (compressed and decompressed bytes), the dictionary
// and small per-page decoder state, never a whole column chunk; the caller owns every batch. Its
// page buffers come from a pool the process's readers share and go back to it when the reader is
// destroyed, so the next reader (of any chunk, file or thread) reuses them instead of allocating
// and filling fresh memory; the pool keeps at most 256 MiB, and no buffer over 64 MiB.
// ReleaseReaderBuffers() frees what it keeps.
//
// Threads: a reader is used by one thread at a time. Readers over chunks of one source (the same
// chunk or different ones) run on different threads at once; they share nothing but the source.
//
// Errors: every message names the column, the context the caller gave (file, row group) and the
// page (its index in the chunk and its file offset).
//   - DataLoss: a truncated or malformed header or page, a CRC mismatch (while verifying),
//     levels or values disagreeing with the header's counts, a level above its maximum, a first
//     repetition level that is not 0, a value count that disagrees with the column chunk's
//     metadata, more than one dictionary page or one after data pages, dictionary indices
//     without a dictionary.
//   - Unimplemented: an encoding or codec the format does not define (or LZO), or an encoding the
//     physical type cannot have.
//   - InvalidArgument: a caller mistake (a value type that does not match the column, a negative
//     count, asking for dictionary indices on a page that is not dictionary-encoded).
//   - ResourceExhausted: a page larger than ReaderOptions::max_page_bytes.
#ifndef PQPAGE_COLUMN_CHUNK_READER_H_
#define PQPAGE_COLUMN_CHUNK_READER_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/bit_packed.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/compression.h"
#include "pqpage/encryption.h"
#include "pqpage/page.h"
#include "pqpage/page_index.h"
#include "pqpage/types.h"

namespace pqpage {

struct ReaderOptions {
  // Compare each page's CRC, when it has one, with the bytes read; a mismatch is DataLoss.
  bool verify_checksums = true;
  // The largest page (compressed or decompressed) the reader will allocate for. The default is
  // the format's own limit (sizes are i32): brotli and zstd legitimately inflate a few KB into a
  // page of a GiB, so a lower default would refuse real files.
  int64_t max_page_bytes = INT32_MAX;
  // FileReader::Open(path) maps the file into memory (OpenMappedFileByteSource) instead of reading
  // it with pread: uncompressed pages are then decoded in place, without a copy. Only for files
  // that do not shrink while they are read (see byte_source.h).
  bool memory_map = false;
  // Keys for encrypted files (pqpage/encryption.h); none: encrypted footers and columns are
  // refused with PermissionDenied, a plaintext footer's unencrypted columns read.
  std::shared_ptr<const FileDecryptionProperties> decryption;
};

// Where a column chunk lies and how it was written, as its ColumnMetaData says.
struct ColumnChunkLocation {
  int64_t offset = 0;  // of the first page (the dictionary page when there is one)
  int64_t length = 0;  // total_compressed_size: every page with its header
  Compression codec = Compression::kUncompressed;
  // The chunk's num_values; -1 when unknown (the page counts are then not cross-checked).
  int64_t num_values = -1;
  // The row group's num_rows; -1 when unknown. Once every level has been read in batches, the
  // rows found (repetition level 0) must equal it.
  int64_t num_rows = -1;
  // Prefixed to every error message, e.g. "file.parquet: row group 3".
  std::string context;
  // Work around parquet-mr before 1.8.0 (PARQUET-246), which did not reset DELTA_BYTE_ARRAY's
  // previous value between pages: a page's first prefix may refer to the page before. The file
  // layer decides this from the footer's created_by; the page layer knows no writer names.
  bool carry_delta_byte_array_prefix = false;
  // The bit order of BIT_PACKED level sections (data pages v1 of old writers). The format's is
  // most significant bit first; Impala, parquet-cpp and parquet-rs wrote least significant bit
  // first. The file layer decides this from the footer's created_by too.
  BitPackedOrder bit_packed_levels = BitPackedOrder::kMostSignificantFirst;
  // For an encrypted chunk: its page headers and pages are modules this decrypts.
  std::shared_ptr<const ColumnChunkCipher> cipher;
};

// How many levels and values a batch call produced.
struct BatchCounts {
  int64_t levels = 0;  // levels read (the slots written by the spaced form)
  int64_t values = 0;  // values present among them (def == max_def)
};

class ColumnChunkReader {
 public:
  // `source` must outlive the reader.
  ColumnChunkReader(ColumnDescriptor column, const ByteSource* source, ColumnChunkLocation location,
                    ReaderOptions options = {});
  ~ColumnChunkReader();
  ColumnChunkReader(ColumnChunkReader&&) noexcept;
  ColumnChunkReader& operator=(ColumnChunkReader&&) noexcept;

  const ColumnDescriptor& column() const;

  // Moves to the next data page, reading (and keeping) a dictionary page found on the way and
  // passing over index pages and unknown page types. Returns false once the chunk's pages are
  // exhausted; at that point the chunk's total value count is checked against the metadata. It
  // walks every page whatever SelectRows chose.
  absl::StatusOr<bool> NextDataPage();

  // Row addressing. Rows are counted within the row group from 0; a repeated column's row begins
  // at each repetition level of 0, and in data pages v1 a row may go on into the next page.
  //
  // Without an offset index, pages are still walked to (their headers and stored bytes read), but
  // a page whose rows all lie before the row sought is neither decompressed nor decoded when its
  // header tells how many rows it holds (columns without repetition; data pages v2). With one
  // (UseOffsetIndex), the reader goes straight to the page holding the row and reads nothing
  // else but the dictionary and index pages before the first data page; under SelectRows it
  // reads no byte of a page that holds no selected row.

  // Makes row addressing jump to pages through the chunk's OffsetIndex (ChunkPageIndex from
  // FileReader::ReadPageIndex, which checked it against the chunk). Call it before reading.
  // InvalidArgument when the index has no OffsetIndex or pages, places a page outside the
  // chunk, lists pages or first rows out of order or a first row other than 0 first, or the
  // reader has read pages already. A chunk read with carry_delta_byte_array_prefix keeps walking
  // every page (a page's values depend on the one before). A page that is not where the index
  // says, or that (in a repeated column) does not start a row, is DataLoss when reached.
  absl::Status UseOffsetIndex(const ChunkPageIndex& index);

  // The rows begun so far: the index of the next row to begin. After a batch that ended inside a
  // row, that row's remaining levels come first.
  int64_t current_row() const;

  // Positions the reader at the first level of `row`, forward or backward: the next batch starts
  // there. `row` may be the row group's row count (or, when it is unknown, any row past the
  // chunk's end): the chunk is then exhausted. InvalidArgument for a negative row or one past
  // the row group's num_rows. Ends a selection made by SelectRows.
  absl::Status SeekToRow(int64_t row);

  // Passes over the rest of a row already begun and then `rows` rows; returns how many rows were
  // passed over (fewer only at the end of the chunk). Ends a selection made by SelectRows.
  absl::StatusOr<int64_t> SkipRows(int64_t rows);

  // Makes the batch calls that follow read only the rows of `ranges` ([begin, end) each, in
  // ascending order, not overlapping; empty ones are allowed), then report the end of the chunk.
  // A batch never holds rows of two ranges. Rows past the row group's num_rows are left out.
  // InvalidArgument for a negative bound, an end before its begin, or ranges out of order.
  absl::Status SelectRows(std::vector<RowRange> ranges);

  // The current data page (valid after NextDataPage returned true).
  const PageInfo& page() const;
  // The 0-based index of the current page among all pages of the chunk, dictionary page included.
  int64_t page_index() const;
  // Levels of the current page not yet read.
  int64_t levels_left_in_page() const;
  // The dictionary page's header, when the chunk has one (after it was read).
  const PageInfo* dictionary_page() const;

  // Reads up to values.size() levels of the current data page, moving to the next data page
  // first when the current one is exhausted; a batch never spans two pages. Returns zero counts at
  // the end of the chunk. `values` receives only the present values, packed. The level spans
  // receive the levels: each must be empty (the levels are then decoded but not handed out) or at
  // least values.size() long; InvalidArgument otherwise. T is bool, int32_t, int64_t, Int96,
  // float, double, or ByteArray (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY). ByteArray views stay valid
  // until the call that moves to another page.
  template <typename T>
  absl::StatusOr<BatchCounts> ReadBatch(absl::Span<int16_t> definition_levels,
                                        absl::Span<int16_t> repetition_levels,
                                        absl::Span<T> values);

  // For BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY columns: reads like ReadBatch<ByteArray>, but copies
  // the present values instead of handing out views, for a caller that builds buffers of its own
  // (an Arrow data buffer): value i's length goes to lengths[i], and the values' bytes, one after
  // another, to the memory `reserve(bytes)` returns, which must have room for `bytes`. `reserve`
  // is called at most once a call, with the batch's total bytes, before any is written; not when
  // the batch has no values or the page's values are bad. The batch is at most lengths.size()
  // levels, and the level spans are as for ReadBatch. PLAIN pages are copied straight from the
  // page, with no view made.
  // @return the levels and values read (zero at the end of the chunk); the errors of ReadBatch.
  absl::StatusOr<BatchCounts> ReadByteArrayCopies(absl::Span<int16_t> definition_levels,
                                                  absl::Span<int16_t> repetition_levels,
                                                  absl::Span<int32_t> lengths,
                                                  absl::FunctionRef<uint8_t*(size_t)> reserve);

  // The spaced form, for columns without repetition: writes one slot per level into `values`
  // (null slots are left as they were) and sets bit (validity_bit_offset + i) of `validity` for
  // each present value, clearing it for each null (LSB first). InvalidArgument for a repeated
  // column, or a `validity` shorter than validity_bit_offset + values.size() bits.
  template <typename T>
  absl::StatusOr<BatchCounts> ReadBatchSpaced(absl::Span<int16_t> definition_levels,
                                              absl::Span<T> values, absl::Span<uint8_t> validity,
                                              int64_t validity_bit_offset);

  // The bitmap form of ReadBatch and ReadByteArrayCopies, for columns without repetition, whose
  // definition levels matter only as present or not (an engine's validity bitmap): bit
  // (validity_bit_offset + i) of `validity` is set where level i is the maximum and cleared
  // elsewhere (LSB first); the bitmap's other bits are left as they were. The values are as in
  // ReadBatch (packed) and ReadByteArrayCopies. Width-1 levels (a maximum of 1) in RLE are
  // turned into bits run by run, without a level per value.
  // @return the levels and values read (zero at the end of the chunk); InvalidArgument for a
  // repeated column or a `validity` shorter than validity_bit_offset + values.size() bits; the
  // errors of ReadBatch.
  template <typename T>
  absl::StatusOr<BatchCounts> ReadBatchValidity(absl::Span<uint8_t> validity,
                                                int64_t validity_bit_offset, absl::Span<T> values);
  absl::StatusOr<BatchCounts> ReadByteArrayCopiesValidity(
      absl::Span<uint8_t> validity, int64_t validity_bit_offset, absl::Span<int32_t> lengths,
      absl::FunctionRef<uint8_t*(size_t)> reserve);

  // Like ReadBatch, but hands back dictionary indices for engines that keep data dictionary
  // encoded; Dictionary<T>() gives the entries. InvalidArgument if the page the batch would come
  // from is not dictionary-encoded (after a fallback, later pages may not be).
  absl::StatusOr<BatchCounts> ReadIndices(absl::Span<int16_t> definition_levels,
                                          absl::Span<int16_t> repetition_levels,
                                          absl::Span<uint32_t> indices);
  // Whether the page the next batch comes from is dictionary-encoded (moves to the next data page
  // when the current one is exhausted; false at the end of the chunk).
  absl::StatusOr<bool> NextBatchIsDictionaryEncoded();
  // The dictionary's entries (empty before a dictionary page was read). ByteArray views point
  // into the reader's copy of the dictionary page and live as long as the reader.
  template <typename T>
  absl::StatusOr<absl::Span<const T>> Dictionary();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Frees the page buffers that readers gave back for reuse (see Memory above); readers still alive
// keep theirs. For long-running processes between scans.
void ReleaseReaderBuffers();

}  // namespace pqpage

#endif  // PQPAGE_COLUMN_CHUNK_READER_H_
