// Lists the pages of one column chunk at the header level, without decoding them: every page
// header in order (dictionary, data v1 and v2, index pages and page types added after this
// version), with where it lies, its sizes and encodings, and the outcome of its CRC check. This is
// what `pqpage inspect` shows; an engine can use it to plan reads. ColumnChunkReader walks the
// same way, so page indices agree between the two.
#ifndef PQPAGE_PAGE_HEADER_ITERATOR_H_
#define PQPAGE_PAGE_HEADER_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/page.h"

namespace pqpage {

class PageHeaderIterator {
 public:
  // `source` must outlive the iterator. `column_path` appears in error messages. With
  // options.verify_checksums a CRC mismatch ends the walk with DataLoss; without it the mismatch
  // is only recorded in page().crc_valid and the walk goes on.
  PageHeaderIterator(const ByteSource* source, ColumnChunkLocation location,
                     std::string column_path, ReaderOptions options = {});
  ~PageHeaderIterator();
  PageHeaderIterator(PageHeaderIterator&&) noexcept;
  PageHeaderIterator& operator=(PageHeaderIterator&&) noexcept;

  // Moves to the next page and reads its header and stored bytes (to check the CRC). Returns
  // false after the chunk's last page: at location.length, or once the data pages' num_values add
  // up to location.num_values (so padding after a chunk is never read as pages).
  // @return DataLoss for a header or page running past the chunk, a malformed header, an encoding
  //         id the format does not define, or (when verifying) a CRC mismatch; ResourceExhausted
  //         for a page larger than options.max_page_bytes; the source's errors. After an error the
  //         iterator cannot go on.
  absl::StatusOr<bool> Next();

  // From the next Next() on, reads only the page headers: the stored bytes are neither read nor
  // checked (page().crc_checked stays false), so a walk that only plans reads (which pages hold
  // which rows, where they lie) costs a few hundred bytes a page.
  void SkipPageBodies();

  // The current page (valid after Next() returned true).
  const PageInfo& page() const;
  // Its 0-based index in the chunk, dictionary page included.
  int64_t page_index() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pqpage

#endif  // PQPAGE_PAGE_HEADER_ITERATOR_H_
