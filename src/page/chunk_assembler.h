// The type-independent half of the page builder: turns encoded level and value sections into
// finished pages (compression, CRC, Thrift header), keeps the finished data pages until the chunk
// ends (the dictionary page has to go first, and is only known then), and accounts for everything
// ColumnChunkMetadata reports.
#ifndef PQPAGE_PAGE_CHUNK_ASSEMBLER_H_
#define PQPAGE_PAGE_CHUNK_ASSEMBLER_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
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
};

class ChunkAssembler {
 public:
  ChunkAssembler(const ColumnDescriptor& column, const WriterOptions& options);

  // Compresses and frames one data page (v1 or v2 per the options) and keeps it. InvalidArgument
  // when a count or size does not fit the header's int32 fields; the codec's errors.
  absl::Status AddDataPage(const EncodedDataPage& page);

  // Bytes of the data pages kept so far, headers included.
  int64_t data_pages_bytes() const { return static_cast<int64_t>(data_pages_.size()); }
  int64_t num_rows() const { return num_rows_; }
  int64_t num_data_pages() const { return static_cast<int64_t>(locations_.size()); }

  // Puts the dictionary page (when `dictionary` is set: its PLAIN body and entry count) before the
  // data pages and returns the chunk placed at `file_offset`. The assembler is spent afterwards.
  absl::StatusOr<ColumnChunkData> Finish(int64_t file_offset,
                                         const std::vector<uint8_t>* dictionary_body,
                                         int64_t dictionary_entries,
                                         std::optional<Statistics> statistics);

 private:
  void NoteEncoding(Encoding encoding);
  void CountPage(PageType type, Encoding encoding);
  // Serialises `header` (setting its compressed size and, when asked, the CRC of the stored
  // bytes) followed by the pieces of `stored` into `out`; returns the header's size.
  // InvalidArgument when the page's size does not fit the header.
  absl::StatusOr<int64_t> AppendPage(format::PageHeader* header,
                                     std::initializer_list<absl::Span<const uint8_t>> stored,
                                     std::vector<uint8_t>* out);

  ColumnDescriptor column_;
  WriterOptions options_;
  std::vector<uint8_t> data_pages_;
  // Kept from page to page so that no page is built in fresh memory: a v1 page's body before
  // compression, and any page's compressed bytes.
  std::vector<uint8_t> body_;
  std::vector<uint8_t> compressed_;
  std::vector<DataPageLocation> locations_;  // offsets relative to data_pages_
  std::vector<Encoding> encodings_;          // data page values and levels, in order of first use
  std::vector<PageEncodingCount> encoding_stats_;  // data pages only
  int64_t num_values_ = 0;
  int64_t num_rows_ = 0;
  int64_t uncompressed_bytes_ = 0;  // data pages, headers included
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_CHUNK_ASSEMBLER_H_
