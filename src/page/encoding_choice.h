// Which value encodings a column chunk uses under an EncodingPolicy: whether it starts with a
// dictionary, the encoding of its pages when it does not (or after the dictionary fell back), and,
// for kAuto with data page v2, the candidates whose smallest result on the first fallback page is
// kept for the rest of the chunk.
#ifndef PQPAGE_PAGE_ENCODING_CHOICE_H_
#define PQPAGE_PAGE_ENCODING_CHOICE_H_

#include <vector>

#include "pqpage/column_chunk_writer.h"
#include "pqpage/types.h"

namespace pqpage::internal {

struct EncodingPlan {
  // Pages are RLE_DICTIONARY-encoded until the dictionary is full.
  bool use_dictionary = false;
  // The encoding of the pages without a dictionary: one entry is the encoding itself; several are
  // tried on the first such page (the smallest wins, ties to the earlier entry, PLAIN first).
  std::vector<Encoding> fallback;
};

EncodingPlan PlanEncodings(EncodingPolicy policy, PhysicalType type, int data_page_version);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_ENCODING_CHOICE_H_
