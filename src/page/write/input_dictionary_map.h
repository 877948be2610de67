// Dictionary-encoded input (ColumnChunkWriter::WriteIndexedBatch: another dictionary's entries
// plus indices) mapped onto the chunk's own dictionary. Each input entry is looked up in the
// chunk's DictionaryEncoder once, at its first value, so the chunk's dictionary comes out in the
// order hashing every value would give and fills up at the same value; after that a value costs
// one table load instead of a hash probe. A page's statistics need each distinct value once, not
// every value, so the map also tells which of a page's entries are new to the page.
#ifndef PQPAGE_PAGE_WRITE_INPUT_DICTIONARY_MAP_H_
#define PQPAGE_PAGE_WRITE_INPUT_DICTIONARY_MAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/dictionary.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {

// Values given as indices into entries, read like a span of the values.
template <typename T>
struct IndexedValues {
  absl::Span<const uint32_t> indices;
  absl::Span<const T> entries;

  size_t size() const { return indices.size(); }
  const T& operator[](size_t i) const { return entries[indices[i]]; }
  IndexedValues subspan(size_t position, size_t count) const {
    return {indices.subspan(position, count), entries};
  }
};

template <typename T>
class InputDictionaryMap {
 public:
  // Starts over when `entries` is not the span given last (by address and length): the caller
  // promises that the same span holds the same entries.
  void Use(absl::Span<const T> entries) {
    if (entries.data() == entries_.data() && entries.size() == entries_.size()) return;
    entries_ = entries;
    own_.assign(entries.size(), kUnmapped);
  }

  // Writes to (*own)[i] the chunk's index for input index indices[i] (each below the size of the
  // span given to Use), adding the entries seen for the first time to `encoder`. Returns how many
  // were mapped: fewer than indices.size() when the dictionary filled up at that value, whose
  // entry and every later one are then left out. InvalidArgument as DictionaryEncoder::EntryIndex.
  absl::StatusOr<size_t> Map(absl::Span<const uint32_t> indices, DictionaryEncoder<T>& encoder,
                             std::vector<uint32_t>* own) {
    own->resize(indices.size());
    for (size_t i = 0; i < indices.size(); ++i) {
      uint32_t mapped = own_[indices[i]];
      if (mapped == kUnmapped) {
        PQPAGE_ASSIGN_OR_RETURN(const int64_t entry, encoder.EntryIndex(entries_[indices[i]]));
        if (entry < 0) return i;
        mapped = static_cast<uint32_t>(entry);
        own_[indices[i]] = mapped;
      }
      (*own)[i] = mapped;
    }
    return indices.size();
  }

  // A new page: every entry is new to it again.
  void StartPage() {
    if (++page_ == 0) {  // wrapped: the stamps could match a page of long ago
      seen_in_page_.assign(seen_in_page_.size(), 0);
      page_ = 1;
    }
  }

  // Appends to `fresh` the entries of `own_entries` that `own` (chunk indices) uses and that
  // earlier calls since StartPage did not report, each once.
  void AddNewToPage(absl::Span<const uint32_t> own, absl::Span<const T> own_entries,
                    std::vector<T>* fresh) {
    if (seen_in_page_.size() < own_entries.size()) seen_in_page_.resize(own_entries.size(), 0);
    for (const uint32_t index : own) {
      if (seen_in_page_[index] == page_) continue;
      seen_in_page_[index] = page_;
      fresh->push_back(own_entries[index]);
    }
  }

 private:
  // Chunk indices are below 2^32 - 1: the encoder's page indices are uint32_t.
  static constexpr uint32_t kUnmapped = UINT32_MAX;

  absl::Span<const T> entries_;
  std::vector<uint32_t> own_;           // the chunk's index of each input entry, or kUnmapped
  std::vector<uint32_t> seen_in_page_;  // per chunk index: the last page that used it
  uint32_t page_ = 1;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_INPUT_DICTIONARY_MAP_H_
