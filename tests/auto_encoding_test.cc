// EncodingPolicy::kAuto: the encoding each column chunk gets is the one measured smallest on its
// own data (sorted ids -> delta, categories -> dictionary, sensor floats -> byte stream split,
// ...), never more than 2% above the smallest of the fixed policies it may choose from; the choice
// is made again when the data changes mid-chunk; only interoperable encodings unless widened; the
// dictionary switch; and the tie rule. Every chunk is written with verify_pages, so each one is
// also read back value for value by pqpage's own decoder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "column_data_helpers.h"
#include "page/choice/decode_costs.h"
#include "page/choice/encoding_measure.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/peer_readers.h"
#include "pqpage/schema.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using testing::ColumnData;

ColumnDescriptor Column(PhysicalType type, int type_length = 0) {
  return testing::MakeColumn(type, testing::Shape::kOptional, type_length);
}

// Appends a present value, after a null every tenth level.
template <typename T>
void Add(ColumnData<T>* data, const std::type_identity_t<T>& value) {
  if (data->def.size() % 10 == 9) data->def.push_back(0);
  data->def.push_back(1);
  data->values.push_back(value);
}

ColumnData<ByteArray> Strings(const std::vector<std::string>& strings) {
  ColumnData<ByteArray> data;
  for (const std::string& s : strings) Add(&data, data.AddBytes(s));
  return data;
}

struct Written {
  int64_t bytes = 0;
  std::vector<Encoding> page_encodings;  // data pages in order
  std::set<Encoding> used;
};

template <typename T>
Written Write(const ColumnDescriptor& column, const WriterOptions& options,
              const ColumnData<T>& data) {
  WriterOptions checked = options;
  checked.verify_pages = true;
  ColumnChunkWriter writer(column, checked);
  // Batches of up to 1000 levels, as a writer hands them over.
  const absl::Status status = testing::WriteInBatches(&writer, data, /*seed=*/1, 1000);
  EXPECT_TRUE(status.ok()) << status;
  auto chunk = writer.Finish(4);
  EXPECT_TRUE(chunk.ok()) << chunk.status();
  Written written;
  if (!chunk.ok()) return written;
  written.bytes = chunk->metadata.total_compressed_size;
  for (const PageEncodingStats& count : chunk->metadata.encoding_stats.value()) {
    if (count.page_type() == PageType::kDictionaryPage) continue;
    for (int i = 0; i < count.count; ++i) written.page_encodings.push_back(count.encoding());
    written.used.insert(count.encoding());
  }
  return written;
}

// The fixed policies whose encodings every peer reads for the type (kAuto's default set).
std::vector<EncodingPolicy> InteroperablePolicies(PhysicalType type) {
  switch (type) {
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      return {EncodingPolicy::kPlain, EncodingPolicy::kDictionary, EncodingPolicy::kDelta,
              EncodingPolicy::kByteStreamSplit};
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return {EncodingPolicy::kPlain, EncodingPolicy::kDictionary,
              EncodingPolicy::kByteStreamSplit};
    case PhysicalType::kByteArray:
      return {EncodingPolicy::kPlain, EncodingPolicy::kDictionary, EncodingPolicy::kDelta,
              EncodingPolicy::kDeltaLengthByteArray};
    default:
      return {EncodingPolicy::kPlain, EncodingPolicy::kDictionary};
  }
}

// Writes `data` with auto and with every fixed policy auto may choose from, for both page
// versions and two codecs: auto is within 2% of the smallest, and when `expected` is given, it
// is the encoding of every data page.
template <typename T>
void ExpectAutoPicksTheSmallest(const std::string& shape, const ColumnDescriptor& column,
                                const ColumnData<T>& data, std::optional<Encoding> expected) {
  for (int version : {1, 2}) {
    for (Compression codec : {Compression::kZstd, Compression::kSnappy}) {
      const std::string where =
          absl::StrCat(shape, " v", version, " ", CompressionName(codec).data());
      WriterOptions options;
      options.data_page_version = version;
      options.compression = codec;
      options.data_page_size = 64 << 10;
      const Written chosen = Write(column, options, data);
      int64_t smallest = INT64_MAX;
      std::string smallest_policy;
      for (EncodingPolicy policy : InteroperablePolicies(column.type)) {
        options.encoding = policy;
        const Written fixed = Write(column, options, data);
        if (fixed.bytes < smallest) {
          smallest = fixed.bytes;
          smallest_policy = EncodingPolicyName(policy);
        }
      }
      EXPECT_LE(static_cast<double>(chosen.bytes), 1.02 * static_cast<double>(smallest))
          << where << ": auto " << chosen.bytes << " bytes, " << smallest_policy << " " << smallest;
      if (expected.has_value()) {
        EXPECT_EQ(chosen.used, std::set<Encoding>{*expected}) << where;
      }
    }
  }
}

TEST(AutoEncodingTest, SortedIdsGetDelta) {
  ColumnData<int64_t> data;
  std::mt19937_64 rng(1);
  int64_t id = 5000000;
  for (int i = 0; i < 60000; ++i) Add(&data, id += 1 + (rng() % 20 == 0 ? rng() % 30 : 0));
  ExpectAutoPicksTheSmallest("sorted ids", Column(PhysicalType::kInt64), data,
                             Encoding::kDeltaBinaryPacked);
}

TEST(AutoEncodingTest, SteadyTimestampsGetDelta) {
  ColumnData<int64_t> data;
  for (int64_t i = 0; i < 60000; ++i) Add(&data, 1700000000000000 + i * 1000000);
  ExpectAutoPicksTheSmallest("timestamps", Column(PhysicalType::kInt64), data,
                             Encoding::kDeltaBinaryPacked);
}

TEST(AutoEncodingTest, LowCardinalityStringsGetTheDictionary) {
  const std::vector<std::string> carriers = {"AA", "DL", "UA", "WN", "B6", "AS", "NK", "F9",
                                             "G4", "HA", "SY", "MQ", "OH", "YX", "9E"};
  std::mt19937_64 rng(2);
  std::vector<std::string> strings;
  for (int i = 0; i < 50000; ++i) {
    // Zipf-like: the first carriers are far more common.
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    strings.push_back(carriers[static_cast<size_t>(std::pow(u, 2.5) * carriers.size())]);
  }
  ExpectAutoPicksTheSmallest("carriers", Column(PhysicalType::kByteArray), Strings(strings),
                             Encoding::kRleDictionary);
}

TEST(AutoEncodingTest, SensorFloatsGetByteStreamSplit) {
  ColumnData<float> data;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> step(0, 0.05);
  std::normal_distribution<double> noise(0, 0.3);
  double level = 21.5;
  for (int i = 0; i < 60000; ++i) {
    level += step(rng);
    Add(&data, static_cast<float>(level + noise(rng)));
  }
  ExpectAutoPicksTheSmallest("sensor", Column(PhysicalType::kFloat), data,
                             Encoding::kByteStreamSplit);
}

TEST(AutoEncodingTest, UniqueStringsAndSmallIntsStayWithinTwoPercent) {
  std::mt19937_64 rng(4);
  std::vector<std::string> uuids;
  for (int i = 0; i < 20000; ++i) {
    uuids.push_back(absl::StrCat(absl::Hex(rng(), absl::kZeroPad16), "-",
                                 absl::Hex(rng() >> 16, absl::kZeroPad12)));
  }
  ExpectAutoPicksTheSmallest("uuids", Column(PhysicalType::kByteArray), Strings(uuids),
                             std::nullopt);
  ColumnData<int32_t> hours;
  for (int i = 0; i < 60000; ++i) Add(&hours, static_cast<int32_t>((rng() % 24 + rng() % 24) / 2));
  ExpectAutoPicksTheSmallest("hours", Column(PhysicalType::kInt32), hours, std::nullopt);
  ColumnData<double> money;
  for (int i = 0; i < 60000; ++i) {
    Add(&money, std::round(std::exp(std::normal_distribution<double>(5, 0.6)(rng)) * 100) / 100);
  }
  ExpectAutoPicksTheSmallest("money", Column(PhysicalType::kDouble), money, std::nullopt);
}

TEST(AutoEncodingTest, SortedIdsThatTurnRandomSwitchOnce) {
  // The first 40,000 ids are sorted, the rest random: the pages after the change store far more
  // per value, the next page is measured again, and the rest of the chunk leaves delta.
  ColumnData<int64_t> data;
  std::mt19937_64 rng(5);
  for (int64_t i = 0; i < 40000; ++i) Add(&data, 1000000 + i);
  for (int i = 0; i < 60000; ++i) Add(&data, static_cast<int64_t>(rng() >> 1));
  for (int version : {1, 2}) {
    WriterOptions options;
    options.data_page_version = version;
    options.compression = Compression::kZstd;
    options.data_page_size = 32 << 10;
    const Written written = Write(Column(PhysicalType::kInt64), options, data);
    ASSERT_GE(written.page_encodings.size(), 4u);
    EXPECT_EQ(written.page_encodings.front(), Encoding::kDeltaBinaryPacked) << version;
    EXPECT_NE(written.page_encodings.back(), Encoding::kDeltaBinaryPacked) << version;
    // One switch: delta pages, then pages of one other encoding.
    const auto first_other =
        std::find_if(written.page_encodings.begin(), written.page_encodings.end(),
                     [](Encoding e) { return e != Encoding::kDeltaBinaryPacked; });
    EXPECT_TRUE(std::all_of(first_other, written.page_encodings.end(), [&](Encoding e) {
      return e == *first_other;
    })) << version;
    options.encoding = EncodingPolicy::kDelta;
    EXPECT_LT(written.bytes, Write(Column(PhysicalType::kInt64), options, data).bytes) << version;
  }
}

TEST(AutoEncodingTest, CategoriesThatOverflowTheDictionaryFallBackByMeasurement) {
  // Categories first (the dictionary wins), then unique keys that fill it: the rest of the chunk
  // is measured, in v1 as in v2, instead of going to PLAIN.
  std::vector<std::string> strings;
  for (int i = 0; i < 20000; ++i) strings.push_back(absl::StrCat("category-", i % 7));
  for (int i = 0; i < 40000; ++i) strings.push_back(absl::StrCat("https://example.com/item/", i));
  for (int version : {1, 2}) {
    WriterOptions options;
    options.data_page_version = version;
    options.compression = Compression::kZstd;
    options.data_page_size = 32 << 10;
    options.dictionary_page_size_limit = 64 << 10;
    const Written written = Write(Column(PhysicalType::kByteArray), options, Strings(strings));
    ASSERT_FALSE(written.page_encodings.empty());
    EXPECT_EQ(written.page_encodings.front(), Encoding::kRleDictionary) << version;
    EXPECT_NE(written.page_encodings.back(), Encoding::kRleDictionary) << version;
    EXPECT_NE(written.page_encodings.back(), Encoding::kPlain) << version;  // shared prefixes
  }
}

TEST(AutoEncodingTest, OnlyInteroperableEncodingsUnlessWidened) {
  // Decimals as FIXED_LEN_BYTE_ARRAY(6): byte stream split is the smallest, but DuckDB and polars
  // cannot read it there, so by default auto stays with what they read.
  ColumnData<ByteArray> data;
  std::mt19937_64 rng(6);
  for (int i = 0; i < 40000; ++i) {
    const auto cents =
        static_cast<uint64_t>(std::exp(std::normal_distribution<double>(10, 0.7)(rng)));
    std::string bytes(6, '\0');
    for (int b = 0; b < 6; ++b) bytes[5 - b] = static_cast<char>((cents >> (8 * b)) & 0xff);
    Add(&data, data.AddBytes(bytes));
  }
  const ColumnDescriptor column = Column(PhysicalType::kFixedLenByteArray, 6);
  for (int version : {1, 2}) {
    WriterOptions options;
    options.data_page_version = version;
    options.compression = Compression::kZstd;
    const Written safe = Write(column, options, data);
    for (Encoding e : safe.used) {
      EXPECT_TRUE(e == Encoding::kPlain || e == Encoding::kRleDictionary) << EncodingName(e);
    }
    options.auto_encodings = AutoEncodings::kAll;
    const Written all = Write(column, options, data);
    EXPECT_EQ(all.used, std::set<Encoding>{Encoding::kByteStreamSplit}) << version;
    EXPECT_LT(all.bytes, safe.bytes) << version;
  }
  // Booleans: RLE only in v2 pages by default, also in v1 when widened.
  ColumnData<bool> flags;
  for (int i = 0; i < 20000; ++i) Add(&flags, (i / 700) % 2 == 0);
  WriterOptions options;
  EXPECT_EQ(Write(Column(PhysicalType::kBoolean), options, flags).used,
            std::set<Encoding>{Encoding::kPlain});
  options.auto_encodings = AutoEncodings::kAll;
  EXPECT_EQ(Write(Column(PhysicalType::kBoolean), options, flags).used,
            std::set<Encoding>{Encoding::kRle});
}

TEST(AutoEncodingTest, TheInteroperableSetFollowsTheLogicalType) {
  // Decimals stored as BYTE_ARRAY (as Impala, parquet-mr and HVR write them):
  // DELTA_LENGTH_BYTE_ARRAY is the smallest, and auto takes it for plain binary, but DuckDB refuses
  // it for a decimal, so there auto stays with what every peer reads.
  ColumnData<ByteArray> data;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const auto cents = static_cast<uint64_t>(rng() % 5000000);
    std::string bytes;
    for (uint64_t v = cents; v != 0 || bytes.empty(); v >>= 8) {
      bytes.insert(bytes.begin(), static_cast<char>(v & 0xff));
    }
    if (static_cast<uint8_t>(bytes[0]) & 0x80) bytes.insert(bytes.begin(), '\0');
    Add(&data, data.AddBytes(bytes));
  }
  ColumnDescriptor binary = Column(PhysicalType::kByteArray);
  ColumnDescriptor decimal = binary;
  decimal.logical_type.kind = LogicalKind::kDecimal;
  decimal.logical_type.precision = 9;
  decimal.logical_type.scale = 2;
  for (int version : {1, 2}) {
    WriterOptions options;
    options.data_page_version = version;
    options.compression = Compression::kUncompressed;
    EXPECT_EQ(Write(binary, options, data).used,
              std::set<Encoding>{Encoding::kDeltaLengthByteArray})
        << version;
    const Written safe = Write(decimal, options, data);
    EXPECT_EQ(safe.used.count(Encoding::kDeltaLengthByteArray), 0u) << version;
    options.auto_encodings = AutoEncodings::kAll;
    EXPECT_EQ(Write(decimal, options, data).used,
              std::set<Encoding>{Encoding::kDeltaLengthByteArray})
        << version;
  }
  EXPECT_EQ(PeersRefusing(Encoding::kDeltaLengthByteArray, decimal, 1),
            std::vector<PeerReader>{PeerReader::kDuckdb});
  EXPECT_TRUE(PeersRefusing(Encoding::kDeltaLengthByteArray, binary, 1).empty());
  EXPECT_TRUE(PeersRefusing(Encoding::kDeltaByteArray, decimal, 2).empty());
  // FLOAT16: polars reads its bytes split, DuckDB does not; other fixed-length values neither.
  ColumnDescriptor half = Column(PhysicalType::kFixedLenByteArray, 2);
  half.logical_type.kind = LogicalKind::kFloat16;
  EXPECT_EQ(PeersRefusing(Encoding::kByteStreamSplit, half, 1),
            std::vector<PeerReader>{PeerReader::kDuckdb});
  EXPECT_EQ(
      PeersRefusing(Encoding::kByteStreamSplit, Column(PhysicalType::kFixedLenByteArray, 16), 1),
      (std::vector<PeerReader>{PeerReader::kDuckdb, PeerReader::kPolars}));
  // RLE booleans: every peer reads them in both page versions; auto offers them in v2 only.
  EXPECT_TRUE(PeersRefusing(Encoding::kRle, Column(PhysicalType::kBoolean), 1).empty());
  EXPECT_FALSE(InteroperableEncoding(Encoding::kRle, Column(PhysicalType::kBoolean), 1));
  EXPECT_TRUE(InteroperableEncoding(Encoding::kRle, Column(PhysicalType::kBoolean), 2));
}

TEST(AutoEncodingTest, DictionaryOrPlainForArrowDictionaryTypes) {
  // Shared-prefix unique strings: delta would be smallest, but the set allows only the
  // dictionary and PLAIN, and PLAIN is the smaller of those; categories keep the dictionary.
  std::vector<std::string> urls;
  for (int i = 0; i < 20000; ++i) {
    urls.push_back(absl::StrCat("https://shop.example.com/catalog/item/", i * 7919 % 100000));
  }
  std::vector<std::string> categories;
  for (int i = 0; i < 20000; ++i) categories.push_back(absl::StrCat("category-", i % 9));
  for (int version : {1, 2}) {
    WriterOptions options;
    options.data_page_version = version;
    options.auto_encodings = AutoEncodings::kDictionaryOrPlain;
    EXPECT_EQ(Write(Column(PhysicalType::kByteArray), options, Strings(urls)).used,
              std::set<Encoding>{Encoding::kPlain});
    EXPECT_EQ(Write(Column(PhysicalType::kByteArray), options, Strings(categories)).used,
              std::set<Encoding>{Encoding::kRleDictionary});
    options.auto_encodings = AutoEncodings::kInteroperable;
    EXPECT_EQ(Write(Column(PhysicalType::kByteArray), options, Strings(urls))
                  .used.count(Encoding::kPlain),
              0u);
  }
}

TEST(AutoEncodingTest, TheDictionarySwitch) {
  std::vector<std::string> categories;
  for (int i = 0; i < 30000; ++i) categories.push_back(absl::StrCat("c", i % 5));
  const ColumnData<ByteArray> data = Strings(categories);
  const ColumnDescriptor column = Column(PhysicalType::kByteArray);
  WriterOptions options;
  EXPECT_EQ(Write(column, options, data).used, std::set<Encoding>{Encoding::kRleDictionary});
  options.dictionary = false;
  EXPECT_EQ(Write(column, options, data).used.count(Encoding::kRleDictionary), 0u);
  options.encoding = EncodingPolicy::kDictionary;  // off wins over the policy
  EXPECT_EQ(Write(column, options, data).used, std::set<Encoding>{Encoding::kPlain});

  // On: sorted ids start with the dictionary (as an Arrow dictionary type needs) and, once it is
  // full, go on by measurement; with a fixed policy, in that policy's encoding.
  ColumnData<int64_t> ids;
  for (int64_t i = 0; i < 50000; ++i) Add(&ids, i * 3);
  WriterOptions on;
  on.dictionary = true;
  on.dictionary_page_size_limit = 16 << 10;
  const Written measured = Write(Column(PhysicalType::kInt64), on, ids);
  EXPECT_EQ(measured.page_encodings.front(), Encoding::kRleDictionary);
  EXPECT_EQ(measured.page_encodings.back(), Encoding::kDeltaBinaryPacked);
  on.encoding = EncodingPolicy::kByteStreamSplit;
  const Written fixed = Write(Column(PhysicalType::kInt64), on, ids);
  EXPECT_EQ(fixed.page_encodings.front(), Encoding::kRleDictionary);
  EXPECT_EQ(fixed.page_encodings.back(), Encoding::kByteStreamSplit);
}

TEST(AutoEncodingTest, ShortAndNullChunks) {
  // A chunk smaller than the sample is decided at Finish; a chunk of nulls has nothing to measure
  // and starts with the dictionary, as other writers do.
  ColumnData<int64_t> few;
  for (int64_t i = 0; i < 50; ++i) Add(&few, i);
  EXPECT_EQ(Write(Column(PhysicalType::kInt64), WriterOptions{}, few).page_encodings.size(), 1u);
  ColumnData<int64_t> nulls;
  nulls.def.assign(3000, 0);
  const Written written = Write(Column(PhysicalType::kInt64), WriterOptions{}, nulls);
  EXPECT_EQ(written.used, std::set<Encoding>{Encoding::kRleDictionary});
}

TEST(AutoEncodingTest, SizesWithinTheMarginGoToTheFasterDecoder) {
  using internal::CandidateSize;
  using internal::ChooseEncoding;
  using internal::DecodeNanosPerValue;
  const double plain = *DecodeNanosPerValue(PhysicalType::kInt64, Encoding::kPlain);
  const double split = *DecodeNanosPerValue(PhysicalType::kInt64, Encoding::kByteStreamSplit);
  ASSERT_NE(plain, split);
  const Encoding faster = plain < split ? Encoding::kPlain : Encoding::kByteStreamSplit;
  const Encoding slower = plain < split ? Encoding::kByteStreamSplit : Encoding::kPlain;
  // The slower one 1% smaller: within 2%, the faster wins; with no margin, the smaller.
  const std::vector<CandidateSize> close = {{faster, 100000}, {slower, 99000}};
  EXPECT_EQ(ChooseEncoding(close, PhysicalType::kInt64, 0.02), faster);
  EXPECT_EQ(ChooseEncoding(close, PhysicalType::kInt64, 0.0), slower);
  // 5% smaller is no tie.
  const std::vector<CandidateSize> apart = {{faster, 100000}, {slower, 95000}};
  EXPECT_EQ(ChooseEncoding(apart, PhysicalType::kInt64, 0.02), slower);
  // A few bytes apart is a tie whatever the ratio.
  const std::vector<CandidateSize> tiny = {{faster, 114}, {slower, 100}};
  EXPECT_EQ(ChooseEncoding(tiny, PhysicalType::kInt64, 0.02), faster);
  const std::vector<CandidateSize> small = {{faster, 100}, {slower, 49}};
  EXPECT_EQ(ChooseEncoding(small, PhysicalType::kInt64, 0.02), slower);
  // Equal cost (the same encoding twice): the smaller, then the earlier.
  EXPECT_EQ(ChooseEncoding({{Encoding::kPlain, 10}}, PhysicalType::kInt64, 0.02), Encoding::kPlain);
}

}  // namespace
}  // namespace pqpage
