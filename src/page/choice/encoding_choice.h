// Which value encodings a column chunk uses under its WriterOptions (the policy, the dictionary
// switch, kAuto's candidate set): whether it starts with a dictionary, the encoding of its pages
// when it does not (or once the dictionary is full), and for kAuto the candidates it measures.
#ifndef PQPAGE_PAGE_CHOICE_ENCODING_CHOICE_H_
#define PQPAGE_PAGE_CHOICE_ENCODING_CHOICE_H_

#include <vector>

#include "pqpage/types.h"
#include "pqpage/writer_options.h"

namespace pqpage::internal {

struct EncodingPlan {
  // kAuto without a dictionary switch: the chunk's first values are held back and encoded with
  // every entry of `measured`; the winner decides use_dictionary and fallback.
  bool measure = false;
  // The candidates of the measurement, RLE_DICTIONARY standing for the dictionary; PLAIN first.
  std::vector<Encoding> measured;
  // Pages are RLE_DICTIONARY-encoded until the dictionary is full.
  bool use_dictionary = false;
  // The encoding of the pages without a dictionary: one entry is the encoding itself; several are
  // tried on the first such page (the smallest wins, as kAuto chooses; PLAIN first).
  std::vector<Encoding> fallback;
};

// The candidates kAuto may choose from for `column` (its physical type, and for kInteroperable its
// logical type too: pqpage/peer_readers.h), PLAIN first, RLE_DICTIONARY standing for the
// dictionary (left out when `with_dictionary` is false, and for BOOLEAN).
std::vector<Encoding> AutoCandidates(const ColumnDescriptor& column, int data_page_version,
                                     AutoEncodings set, bool with_dictionary);

// `options` as ForColumn gave them to the column.
EncodingPlan PlanEncodings(const WriterOptions& options, const ColumnDescriptor& column);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_CHOICE_ENCODING_CHOICE_H_
