#include "page/choice/decode_costs.h"

#include <cstddef>
#include <iterator>
#include <optional>

#include "pqpage/types.h"

namespace pqpage::internal {
namespace {

struct DecodeCost {
  PhysicalType type;
  Encoding encoding;
  double nanos_per_value;
};

constexpr DecodeCost kDecodeCosts[] = {
#include "page/choice/decode_costs.inc"
};

// The generator writes each pair once and never PLAIN_DICTIONARY (looked up as RLE_DICTIONARY):
// a hand edit that broke either would otherwise go unnoticed, a duplicate shadowed by the first.
constexpr bool WellFormed() {
  for (size_t i = 0; i < std::size(kDecodeCosts); ++i) {
    const DecodeCost& row = kDecodeCosts[i];
    if (row.encoding == Encoding::kPlainDictionary || !(row.nanos_per_value > 0)) return false;
    for (size_t j = 0; j < i; ++j) {
      if (kDecodeCosts[j].type == row.type && kDecodeCosts[j].encoding == row.encoding) {
        return false;
      }
    }
  }
  return true;
}
static_assert(WellFormed(), "decode_costs.inc: a pair twice, PLAIN_DICTIONARY, or a cost <= 0");

}  // namespace

std::optional<double> DecodeNanosPerValue(PhysicalType type, Encoding encoding) {
  if (encoding == Encoding::kPlainDictionary) encoding = Encoding::kRleDictionary;
  for (const DecodeCost& row : kDecodeCosts) {
    if (row.type == type && row.encoding == encoding) return row.nanos_per_value;
  }
  return std::nullopt;
}

}  // namespace pqpage::internal
