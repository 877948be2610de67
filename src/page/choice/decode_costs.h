// What decoding one value costs, per (physical type, encoding): the page builder's auto policy
// reads it to choose, among candidate encodings whose stored sizes are within a few percent of
// each other, the one that decodes fastest.
//
// The figures are measured, never typed: bench/decode_cost_bench.cc times every encoding on
// realistic data shapes and bench/decode_costs/make_decode_costs.py writes them into
// page/decode_costs.inc (bench/decode_costs/README.md says how and when to regenerate). They come
// from one machine, so only their ratios mean anything elsewhere.
#ifndef PQPAGE_PAGE_CHOICE_DECODE_COSTS_H_
#define PQPAGE_PAGE_CHOICE_DECODE_COSTS_H_

#include <optional>

#include "pqpage/types.h"

namespace pqpage::internal {

// Nanoseconds of CPU time to decode one value of `type` stored in `encoding` (a whole page through
// the Decoder<T> interface, the median over the benchmark's data shapes): positive and finite for
// every pair EncodingAllowed (pqpage/codec_factory.h) admits, nullopt for any other pair
// (BIT_PACKED holds levels, never values). PLAIN_DICTIONARY gives RLE_DICTIONARY's figure: the data
// pages are the same bytes, read by the same decoder.
std::optional<double> DecodeNanosPerValue(PhysicalType type, Encoding encoding);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_CHOICE_DECODE_COSTS_H_
