// The type-independent half of the page builder: turns encoded level and value sections into
// finished pages (compression, CRC, Thrift header), keeps the finished data pages until the chunk
// ends (the dictionary page has to go first, and is only known then), and accounts for everything
// ColumnChunkData reports: the ColumnMetaData and the OffsetIndex half of the page index.
#ifndef PQPAGE_PAGE_WRITE_CHUNK_ASSEMBLER_H_
#define PQPAGE_PAGE_WRITE_CHUNK_ASSEMBLER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "parquet_types.h"
#include "pqpage/column_chunk_writer.h"

namespace pqpage::internal {

// One data page's encoded parts, before compression.
struct EncodedDataPage {
  std::vector<uint8_t> repetition_levels;  // bare hybrid stream; empty when max_rep == 0
  std::vector<uint8_t> definition_levels;  // bare hybrid stream; empty when max_def == 0
  std::vector<uint8_t> values;             // the values section
  Encoding encoding = Encoding::kPlain;
  int64_t num_levels = 0;  // nulls included
  int64_t num_nulls = 0;   // levels with def < max_def
  int64_t num_rows = 0;
  std::optional<Statistics> statistics;

  // Sets repetition_levels and definition_levels to `rep` and `def` as the hybrid encoding
  // stores them, each empty when `column`'s maximum is 0.
  absl::Status EncodeLevels(const ColumnDescriptor& column, absl::Span<const int16_t> rep,
                            absl::Span<const int16_t> def);
};

class ChunkAssembler {
 public:
  ChunkAssembler(const ColumnDescriptor& column, const WriterOptions& options);

  // Compresses and frames one data page (v1 or v2 per the options) and keeps it. InvalidArgument
  // when a count or size does not fit the header's int32 fields; the codec's errors.
  absl::Status AddDataPage(const EncodedDataPage& page);

  // Bytes of the data pages kept so far, headers included.
  int64_t data_pages_bytes() const { return data_pages_bytes_; }
  int64_t num_rows() const { return num_rows_; }
  int64_t num_data_pages() const { return static_cast<int64_t>(pages_.size()); }

  // Puts the dictionary page (when `dictionary` is set: its PLAIN body and entry count) before the
  // data pages and returns the chunk placed at `file_offset`: copied into one buffer, or with
  // `in_pieces` the dictionary page in `bytes` and the blocks of data pages in `more_bytes` as
  // they are (a chunk of one block and no dictionary page is always handed over in `bytes`). The
  // assembler is spent afterwards.
  absl::StatusOr<ColumnChunkData> Finish(int64_t file_offset,
                                         const std::vector<uint8_t>* dictionary_body,
                                         int64_t dictionary_entries,
                                         std::optional<Statistics> statistics, bool in_pieces);

 private:
  void NoteEncoding(Encoding encoding);
  void CountPage(PageType type, Encoding encoding);
  // Room for a page header of the usual size, reserved with each page so that the header is
  // serialized into place.
  static constexpr size_t kUsualHeaderBytes = 256;
  // The size of the blocks the data pages are kept in until the chunk ends (a larger page gets a
  // block of its own size).
  static constexpr size_t kBlockBytes = size_t{4} << 20;

  static size_t StoredSize(absl::Span<const absl::Span<const uint8_t>> stored);
  // The last block, or a new one when it has fewer than `bytes` bytes of room left.
  std::vector<uint8_t>* BlockWithRoomFor(size_t bytes);
  // Serialises `header` (setting its compressed size and, when asked, the CRC of the stored
  // bytes) followed by the pieces of `stored` into `out`; returns the header's size.
  // InvalidArgument when the page's size does not fit the header.
  absl::StatusOr<int64_t> AppendPage(format::PageHeader* header,
                                     absl::Span<const absl::Span<const uint8_t>> stored,
                                     std::vector<uint8_t>* out);

  ColumnDescriptor column_;
  WriterOptions options_;
  // The data pages kept until the chunk ends, in blocks that are filled and never moved: one
  // growing buffer was copied about twice over as it grew, and once more when the dictionary page
  // went in front of it; Finish copies each byte once, or not at all in pieces. Blocks come from
  // the writer pool (common/buffer_pool.h) and go back to it once copied or written, as does the
  // chunk's buffer once written.
  std::vector<std::vector<uint8_t>> blocks_;
  int64_t data_pages_bytes_ = 0;
  // Kept from page to page so that no page is built in fresh memory: a v1 page's body before
  // compression, and any page's compressed bytes.
  std::vector<uint8_t> body_;
  std::vector<uint8_t> compressed_;
  // The data pages' OffsetIndex entries, offsets counted from the first data page.
  std::vector<IndexedPage> pages_;
  std::vector<Encoding> encodings_;  // data page values and levels, in order of first use
  std::vector<PageEncodingStats> encoding_stats_;  // data pages only
  int64_t num_values_ = 0;
  int64_t num_rows_ = 0;
  int64_t uncompressed_bytes_ = 0;  // data pages, headers included
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_CHUNK_ASSEMBLER_H_
