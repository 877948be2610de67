// Walks the pages of one column chunk at the header level: reads each page header and the page's
// stored (still compressed) bytes, and checks the page CRC. The page decoder is built on it, and
// `pqpage inspect` uses it to list every page, index and unknown pages included.
#ifndef PQPAGE_PAGE_READ_PAGE_WALKER_H_
#define PQPAGE_PAGE_READ_PAGE_WALKER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "page/read/pooled_buffer.h"
#include "parquet_types.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/page.h"

namespace pqpage::internal {

class PageWalker {
 public:
  // `source` must outlive the walker. `column_path` is used in error messages.
  PageWalker(const ByteSource* source, ColumnChunkLocation location, std::string column_path,
             ReaderOptions options);

  // Reads the next page: its header, then its compressed_page_size stored bytes. In an encrypted
  // chunk (location.cipher) both are modules, authenticated and decrypted here: stored_bytes()
  // is then the page as it was before encryption, and DataLoss is returned for a module that
  // does not authenticate. The walk ends at
  // location.length, or earlier once the data pages' num_values add up to location.num_values. The
  // CRC, when the page has one, is always computed (info().crc_checked/crc_valid); a mismatch is
  // DataLoss only when options.verify_checksums. Returns false after the last page of the chunk (a
  // chunk whose pages end exactly at location.length). DataLoss for a header or page running past
  // the chunk, a malformed header, a page larger than max_page_bytes (ResourceExhausted).
  absl::StatusOr<bool> Next();

  // Makes the next Next() read the page whose header is at `offset` (relative to the chunk), as
  // page `page_index` of the chunk, without reading what lies before it. `data_values` is the
  // num_values of the data pages before it, or -1 when they are not known (a jump through the
  // page index): the walk then ends only at location.length.
  void Restart(int64_t offset, int64_t page_index, int64_t data_values);
  // Reads ahead no further than `end` (relative to the chunk; location.length by default): a reader
  // that knows where the pages it needs end (from the page index) touches no byte past them.
  void LimitReadAhead(int64_t end) { read_ahead_end_ = end; }
  // Reads only the headers from the next Next() on: stored_bytes() is empty and no CRC is
  // computed (crc_checked stays false), for a walk that only plans reads.
  void SkipPageBodies() { skip_bodies_ = true; }
  // The offset, relative to the chunk, of the page the next Next() reads.
  int64_t next_offset() const { return next_offset_; }

  const PageInfo& info() const { return info_; }
  const format::PageHeader& header() const { return header_; }
  // The page's bytes as stored (after the header, before decompression); valid until Next(), or
  // as long as the source when it is in memory (ByteSource::InMemory).
  absl::Span<const uint8_t> stored_bytes() const { return stored_view_; }
  bool stored_bytes_live_with_source() const {
    return !source_->InMemory().empty() && location_.cipher == nullptr;
  }
  // 0-based index of the current page in the chunk.
  int64_t page_index() const { return page_index_; }

  // "column 'a.b' (<context>), page N at offset X: " for error messages about the current page.
  std::string Where() const;
  // Wraps `status` with Where(); OK stays OK.
  absl::Status Annotate(const absl::Status& status) const;

 private:
  const ByteSource* source_;
  ColumnChunkLocation location_;
  std::string column_path_;
  ReaderOptions options_;
  int64_t next_offset_ = 0;  // relative to location_.offset
  int64_t page_index_ = -1;
  int64_t data_values_ = 0;      // num_values of the data pages read so far; -1: not known
  int64_t read_ahead_end_ = -1;  // -1: location_.length
  bool skip_bodies_ = false;
  format::PageHeader header_;
  PageInfo info_;
  // Bytes of the chunk read ahead, [window_begin_, window_begin_ + window_size_) relative to the
  // chunk: headers and small pages are used in place, so a chunk of many small pages costs one
  // read per window instead of two per page. The buffers come from the reader pool: their sizes
  // are what earlier users left, so the bytes read are tracked apart from them.
  absl::StatusOr<absl::Span<const uint8_t>> Window(int64_t begin, int64_t length);
  PooledBuffer window_;
  // Where the window's bytes start in window_ (see ReadPad in page_walker.cc).
  size_t window_pad_ = 0;
  int64_t window_begin_ = 0;
  int64_t window_size_ = 0;
  PooledBuffer stored_;  // a page too large for the window
  // An encrypted chunk's decrypted header, and page when its module lies in the source's memory.
  std::vector<uint8_t> header_plaintext_;
  PooledBuffer decrypted_;
  // Reads and decrypts the header module at next_offset_ into header_; returns its module size.
  absl::StatusOr<size_t> ReadEncryptedHeader(int64_t remaining);
  // Decrypts stored_view_ (the page's module, at `page_begin` in the chunk) and points
  // stored_view_ at the plaintext: in place when the module is in this walker's buffers, else
  // into decrypted_.
  absl::Status DecryptPage(int64_t page_begin);
  // The part of the window decrypted in place, [begin, end) relative to the chunk; empty when
  // equal. Window() reads such bytes again rather than hand them out.
  int64_t decrypted_begin_ = 0;
  int64_t decrypted_end_ = 0;
  absl::Span<const uint8_t> stored_view_;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_READ_PAGE_WALKER_H_
