// How kAuto decides: the stored size of a sample of a chunk's values under each candidate encoding,
// and the choice among those sizes (the smallest, or the fastest to decode among those nearly as
// small). Kept apart from the page builder so that the rule can be tested on its own and the same
// rule serves the first choice and every later re-measurement.
#ifndef PQPAGE_PAGE_CHOICE_ENCODING_MEASURE_H_
#define PQPAGE_PAGE_CHOICE_ENCODING_MEASURE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/compression.h"
#include "pqpage/dictionary.h"
#include "pqpage/types.h"

namespace pqpage::internal {

// One candidate's result.
struct CandidateSize {
  Encoding encoding = Encoding::kPlain;
  int64_t stored_bytes = 0;
};

// What the measurement needs to know about the pages it predicts.
struct PageSetup {
  Compression codec = Compression::kUncompressed;
  int compression_level = kDefaultCompressionLevel;
  int data_page_version = 1;
};

// The bytes `section` takes in a data page: compressed with the codec; in data page v2 the raw
// bytes when compressing does not make them smaller (as the page builder stores them). Levels are
// left out: they are the same whatever the values' encoding.
absl::StatusOr<int64_t> StoredSectionBytes(const std::vector<uint8_t>& section,
                                           const PageSetup& setup);

// Encodes `values` once with each candidate (RLE_DICTIONARY standing for the dictionary, built in
// `*dictionary`, which must be fresh) and returns their stored sizes, in the order of
// `candidates`. A dictionary that fills up on the sample is left out of the result (the chunk
// could not stay dictionary-encoded).
//
// The dictionary's size is its indices plus its page, and when the chunk goes on past the sample
// (`chunk_ends` false) the page is projected: the number of entries is taken to grow like
// values^g, with g = log2(entries after the sample / entries after its first half) in [0, 1], over
// a chunk assumed to be 8 samples long (chunks are usually many pages; the projection needs only
// the right order), and the sample is charged its share: 8^(g - 1) of its page. So a dictionary
// that stopped growing costs an eighth of its page, and one that grows with every value (unique
// values) all of it, as it would. The codecs' errors.
template <typename T>
absl::StatusOr<std::vector<CandidateSize>> MeasureEncodings(absl::Span<const T> values,
                                                            const std::vector<Encoding>& candidates,
                                                            const ColumnDescriptor& column,
                                                            const PageSetup& setup, bool chunk_ends,
                                                            DictionaryEncoder<T>* dictionary);

// The one rule that picks between stored sizes and decode costs, for auto (ChooseEncoding, with
// costs from a table) and for advise (pqpage/advise.h, with decode times it measured): a
// contender's size and its cost to decode (any unit, the same for all; lower is faster; infinity
// when unknown).
struct SizeAndCost {
  int64_t stored_bytes = 0;
  double decode_cost = 0;
};

// How close two contenders must be to count as equal.
struct TieRule {
  // Sizes no more than (1 + margin) x the smallest, or `slack_bytes` more when that is more, are
  // as small as the smallest.
  double margin = 0.02;
  double slack_bytes = 0;
  // Costs within this fraction of each other are the same (measured times are noisy; a table's
  // costs are exact and use 0).
  double same_cost = 0;
};

// Among the contenders as small as the smallest (by `rule`), the one that decodes fastest: a later
// contender replaces the one kept when its cost is lower by more than rule.same_cost, or when it is
// not slower by more than that and is smaller; so among equal costs the smallest, and then the
// earliest, wins. `contenders` must not be empty.
// @return the index of the chosen contender.
size_t ChooseSmallOrFast(absl::Span<const SizeAndCost> contenders, const TieRule& rule);

// The candidate to write: ChooseSmallOrFast over `sizes` with each encoding's decode cost per value
// for `type` (DecodeNanosPerValue; unknown costs are infinite), a margin of `tie_margin` and a
// slack of 16 bytes (differences of a few bytes are noise in a sample's prediction), costs equal
// only when they are. `sizes` must not be empty.
// @return the chosen candidate's encoding.
Encoding ChooseEncoding(const std::vector<CandidateSize>& sizes, PhysicalType type,
                        double tie_margin);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_CHOICE_ENCODING_MEASURE_H_
