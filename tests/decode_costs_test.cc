// The decode cost table (src/page/decode_costs.h) covers exactly what the format allows: every
// (physical type, encoding) pair EncodingAllowed admits has a positive, finite cost, so the auto
// policy never meets a candidate without one after a new encoding or type is allowed and the
// table not regenerated; no other pair has one; PLAIN_DICTIONARY costs what RLE_DICTIONARY does.
#include "page/choice/decode_costs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"
#include "pqpage/types.h"
#include "type_and_encoding_lists.h"

namespace pqpage::internal {
namespace {

using testing::kAllEncodings;
using testing::kAllPhysicalTypes;

TEST(DecodeCostsTest, EveryAllowedPairHasAPositiveFiniteCost) {
  for (PhysicalType type : kAllPhysicalTypes) {
    for (Encoding encoding : kAllEncodings) {
      if (!EncodingAllowed(encoding, type)) continue;
      SCOPED_TRACE(std::string(PhysicalTypeName(type)) + " " + std::string(EncodingName(encoding)));
      const std::optional<double> cost = DecodeNanosPerValue(type, encoding);
      ASSERT_TRUE(cost.has_value()) << "missing from decode_costs.inc: regenerate it";
      EXPECT_GT(*cost, 0.0);
      EXPECT_TRUE(std::isfinite(*cost));
    }
  }
}

TEST(DecodeCostsTest, NoCostForAPairTheFormatDoesNotAllow) {
  for (PhysicalType type : kAllPhysicalTypes) {
    for (Encoding encoding : kAllEncodings) {
      if (EncodingAllowed(encoding, type)) continue;
      EXPECT_EQ(DecodeNanosPerValue(type, encoding), std::nullopt)
          << PhysicalTypeName(type) << " " << EncodingName(encoding);
    }
  }
}

TEST(DecodeCostsTest, BitPackedHoldsNoValues) {
  for (PhysicalType type : kAllPhysicalTypes) {
    EXPECT_EQ(DecodeNanosPerValue(type, Encoding::kBitPacked), std::nullopt)
        << PhysicalTypeName(type);
  }
}

TEST(DecodeCostsTest, PlainDictionaryCostsWhatRleDictionaryCosts) {
  int dictionary_types = 0;
  for (PhysicalType type : kAllPhysicalTypes) {
    EXPECT_EQ(DecodeNanosPerValue(type, Encoding::kPlainDictionary),
              DecodeNanosPerValue(type, Encoding::kRleDictionary))
        << PhysicalTypeName(type);
    if (DecodeNanosPerValue(type, Encoding::kPlainDictionary).has_value()) ++dictionary_types;
  }
  EXPECT_EQ(dictionary_types, 7);  // every type but BOOLEAN: not a vacuous pass over two nullopts
}

TEST(DecodeCostsTest, ValuesOutsideTheEnumsHaveNoCost) {
  EXPECT_EQ(DecodeNanosPerValue(static_cast<PhysicalType>(42), Encoding::kPlain), std::nullopt);
  EXPECT_EQ(DecodeNanosPerValue(PhysicalType::kInt32, static_cast<Encoding>(1)), std::nullopt);
}

}  // namespace
}  // namespace pqpage::internal
