// ReadStripeColumns and EncodeStripeColumns through whole files: a stripe of every column kind
// (nulls, nested structs, lists, maps, unions, dictionary and direct strings) is encoded in RLE v1
// and v2, written with OrcFileWriter under every codec, read back with OrcFileReader, and must
// decode to the same values; damaged stripes must fail cleanly.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "pqpage/byte_source.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/file_writer.h"
#include "pqpage/orc/integer_rle_v2.h"
#include "pqpage/orc/stripe_columns.h"
#include "status_matchers.h"

namespace pqpage::orc {
namespace {

OrcTypeNode Leaf(TypeKind kind) {
  OrcTypeNode node;
  node.kind = kind;
  return node;
}

// struct<b:boolean, t:tinyint, s:smallint, i:int, l:bigint, f:float, d:double, str:string,
//        dict:string, bin:binary, dt:date, ts:timestamp, dec:decimal(38,10),
//        nested:struct<x:int>, lst:list<bigint>, m:map<string,int>, u:uniontype<int,string>>
OrcTypeNode Schema() {
  OrcTypeNode root;
  root.kind = TypeKind::kStruct;
  auto field = [&](const char* name, OrcTypeNode node) {
    root.field_names.push_back(name);
    root.children.push_back(std::move(node));
  };
  field("b", Leaf(TypeKind::kBoolean));
  field("t", Leaf(TypeKind::kByte));
  field("s", Leaf(TypeKind::kShort));
  field("i", Leaf(TypeKind::kInt));
  field("l", Leaf(TypeKind::kLong));
  field("f", Leaf(TypeKind::kFloat));
  field("d", Leaf(TypeKind::kDouble));
  field("str", Leaf(TypeKind::kString));
  field("dict", Leaf(TypeKind::kString));
  field("bin", Leaf(TypeKind::kBinary));
  field("dt", Leaf(TypeKind::kDate));
  field("ts", Leaf(TypeKind::kTimestamp));
  OrcTypeNode decimal = Leaf(TypeKind::kDecimal);
  decimal.precision = 38;
  decimal.scale = 10;
  field("dec", decimal);
  OrcTypeNode nested = Leaf(TypeKind::kStruct);
  nested.field_names = {"x"};
  nested.children = {Leaf(TypeKind::kInt)};
  field("nested", nested);
  OrcTypeNode list = Leaf(TypeKind::kList);
  list.children = {Leaf(TypeKind::kLong)};
  field("lst", list);
  OrcTypeNode map = Leaf(TypeKind::kMap);
  map.children = {Leaf(TypeKind::kString), Leaf(TypeKind::kInt)};
  field("m", map);
  OrcTypeNode variant = Leaf(TypeKind::kUnion);
  variant.children = {Leaf(TypeKind::kInt), Leaf(TypeKind::kString)};
  field("u", variant);
  return root;
}

// Fills `column` with `slots` slots, every `null_every`-th null (0: none), values from `make`.
template <typename Make>
void Fill(ColumnValues& column, int64_t slots, int null_every, Make make) {
  column.slots = slots;
  column.present.clear();
  if (null_every > 0) {
    for (int64_t i = 0; i < slots; ++i) column.present.push_back(i % null_every == 1 ? 0 : 1);
  }
  column.num_present = 0;
  for (int64_t i = 0; i < slots; ++i) {
    if (column.present.empty() || column.present[i] != 0) make(column, column.num_present++);
  }
}

void AddBytes(ColumnValues& column, const std::string& value) {
  if (column.offsets.empty()) column.offsets.push_back(0);
  column.bytes.insert(column.bytes.end(), value.begin(), value.end());
  column.offsets.push_back(column.bytes.size());
}

std::vector<ColumnValues> MakeColumns(const std::vector<OrcType>& types, int64_t rows,
                                      uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ColumnValues> columns(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    columns[i].kind = types[i].kind;
    columns[i].encoding = ColumnEncodingKind::kDirectV2;
  }
  Fill(columns[0], rows, 0, [](ColumnValues&, int64_t) {});
  const int64_t n = columns[0].num_present;
  auto integers = [&](size_t id, int null_every, auto make) {
    Fill(columns[id], n, null_every,
         [&](ColumnValues& c, int64_t k) { c.integers.push_back(make(k)); });
  };
  integers(1, 5, [&](int64_t) { return static_cast<int64_t>(rng() & 1); });
  integers(2, 7, [&](int64_t k) {
    return k % 50 < 30 ? int64_t{-7} : static_cast<int64_t>(static_cast<int8_t>(rng()));
  });
  integers(3, 0, [&](int64_t k) { return static_cast<int64_t>(static_cast<int16_t>(k * 37)); });
  integers(4, 3, [&](int64_t k) {
    return k % 97 == 0 ? int64_t{std::numeric_limits<int32_t>::min()}
                       : static_cast<int64_t>(rng() % 1000);
  });
  integers(5, 11, [&](int64_t k) {
    const int64_t extremes[] = {std::numeric_limits<int64_t>::min(),
                                std::numeric_limits<int64_t>::max()};
    return k % 101 == 0 ? extremes[k % 2] : 1'700'000'000'000 + k * 1000;
  });
  Fill(columns[6], n, 13,
       [&](ColumnValues& c, int64_t k) { c.reals.push_back(static_cast<float>(k) / 3); });
  Fill(columns[7], n, 0,
       [&](ColumnValues& c, int64_t k) { c.reals.push_back(k * 0.25 - 1e300 * (k % 2)); });
  Fill(columns[8], n, 4,
       [&](ColumnValues& c, int64_t k) { AddBytes(c, "v" + std::to_string(rng() % 100000)); });
  columns[9].encoding = ColumnEncodingKind::kDictionaryV2;
  Fill(columns[9], n, 6, [&](ColumnValues& c, int64_t k) {
    AddBytes(c, k % 3 == 0 ? "" : "city" + std::to_string(k % 17));
  });
  Fill(columns[10], n, 9,
       [&](ColumnValues& c, int64_t k) { AddBytes(c, std::string(k % 5, static_cast<char>(k))); });
  integers(11, 8, [&](int64_t k) { return -800 + k; });
  Fill(columns[12], n, 10, [&](ColumnValues& c, int64_t k) {
    c.seconds.push_back(-1'500'000'000 + k * 3601);
    // Negative nanoseconds are how ORC's C++ writer (and so pyarrow) stores times before 1970.
    const int64_t nanos[] = {0, 1000, 100000, 123456789, 999999999, 5000000, -1000, -999999999};
    c.nanos.push_back(nanos[k % 8]);
  });
  Fill(columns[13], n, 12, [&](ColumnValues& c, int64_t k) {
    absl::int128 unscaled = static_cast<int64_t>(rng());
    if (k % 7 == 0) unscaled *= absl::int128(std::numeric_limits<int64_t>::max());
    c.decimals.push_back(k % 2 == 0 ? -unscaled : unscaled);
    c.scales.push_back(10);
  });
  Fill(columns[14], n, 5, [](ColumnValues&, int64_t) {});  // nested struct
  Fill(columns[15], columns[14].num_present, 3,
       [&](ColumnValues& c, int64_t k) { c.integers.push_back(k); });
  int64_t items = 0;
  Fill(columns[16], n, 4, [&](ColumnValues& c, int64_t k) {
    c.integers.push_back(k % 4);
    items += k % 4;
  });
  Fill(columns[17], items, 0, [&](ColumnValues& c, int64_t k) { c.integers.push_back(k * k); });
  int64_t entries = 0;
  Fill(columns[18], n, 7, [&](ColumnValues& c, int64_t k) {
    c.integers.push_back(k % 3);
    entries += k % 3;
  });
  Fill(columns[19], entries, 0,
       [&](ColumnValues& c, int64_t k) { AddBytes(c, "k" + std::to_string(k)); });
  Fill(columns[20], entries, 5, [&](ColumnValues& c, int64_t k) { c.integers.push_back(-k); });
  int64_t variants[2] = {0, 0};
  Fill(columns[21], n, 6, [&](ColumnValues& c, int64_t k) {
    c.integers.push_back(k % 2);
    ++variants[k % 2];
  });
  Fill(columns[22], variants[0], 0, [&](ColumnValues& c, int64_t k) { c.integers.push_back(k); });
  Fill(columns[23], variants[1], 3,
       [&](ColumnValues& c, int64_t k) { AddBytes(c, std::to_string(k)); });
  for (ColumnValues& column : columns) {
    if (column.offsets.empty() &&
        (column.kind == TypeKind::kString || column.kind == TypeKind::kBinary)) {
      column.offsets.push_back(0);
    }
  }
  return columns;
}

void ExpectSameColumns(const std::vector<ColumnValues>& got, const std::vector<ColumnValues>& want,
                       const std::string& label) {
  ASSERT_EQ(got.size(), want.size()) << label;
  for (size_t i = 0; i < got.size(); ++i) {
    const std::string where = label + " column " + std::to_string(i);
    EXPECT_EQ(got[i].slots, want[i].slots) << where;
    EXPECT_EQ(got[i].num_present, want[i].num_present) << where;
    const bool want_nulls = !want[i].present.empty() &&
                            std::count(want[i].present.begin(), want[i].present.end(), 0) > 0;
    if (want_nulls) EXPECT_EQ(got[i].present, want[i].present) << where;
    EXPECT_EQ(got[i].integers, want[i].integers) << where;
    EXPECT_EQ(got[i].reals, want[i].reals) << where;
    EXPECT_EQ(got[i].bytes, want[i].bytes) << where;
    if (!want[i].offsets.empty()) EXPECT_EQ(got[i].offsets, want[i].offsets) << where;
    EXPECT_EQ(got[i].decimals, want[i].decimals) << where;
    EXPECT_EQ(got[i].scales, want[i].scales) << where;
    EXPECT_EQ(got[i].seconds, want[i].seconds) << where;
    EXPECT_EQ(got[i].nanos, want[i].nanos) << where;
  }
}

TEST(OrcStripeColumnsTest, EveryKindRoundTripsThroughFiles) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(Schema()));
  ASSERT_EQ(types.size(), 24u);
  const std::vector<std::vector<ColumnValues>> stripes = {
      MakeColumns(types, 3000, 1), MakeColumns(types, 1, 2), MakeColumns(types, 777, 3)};
  for (const int rle : {1, 2}) {
    for (const CompressionKind compression :
         {CompressionKind::kNone, CompressionKind::kZlib, CompressionKind::kSnappy,
          CompressionKind::kLz4, CompressionKind::kZstd}) {
      const std::string label = "rle " + std::to_string(rle) + " compression " +
                                std::to_string(static_cast<int>(compression));
      OrcWriterOptions options;
      options.compression = compression;
      options.compression_block_size = 1000;
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileWriter> writer,
                                  OrcFileWriter::Create(types, options));
      for (const std::vector<ColumnValues>& columns : stripes) {
        PQPAGE_ASSERT_OK_AND_ASSIGN(EncodedStripe encoded,
                                    EncodeStripeColumns(types, columns, rle));
        OrcStripeInput input;
        input.num_rows = static_cast<uint64_t>(columns[0].slots);
        input.streams = encoded.streams;
        input.encodings = encoded.encodings;
        PQPAGE_ASSERT_OK(writer->WriteStripe(input));
      }
      PQPAGE_ASSERT_OK(writer->Close());
      const std::vector<uint8_t> file = writer->ReleaseBytes();
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                                  OrcFileReader::Open(MakeMemoryByteSource(file)));
      ASSERT_EQ(reader->num_stripes(), 3) << label;
      for (int s = 0; s < 3; ++s) {
        PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> read,
                                    ReadStripeColumns(*reader, s));
        ExpectSameColumns(read, stripes[s], label + " stripe " + std::to_string(s));
        PQPAGE_ASSERT_OK_AND_ASSIGN(const StripeFooterInfo footer, reader->ReadStripeFooter(s));
        EXPECT_EQ(footer.encodings[9].kind,
                  rle == 1 ? ColumnEncodingKind::kDictionary : ColumnEncodingKind::kDictionaryV2);
        EXPECT_EQ(footer.encodings[4].kind,
                  rle == 1 ? ColumnEncodingKind::kDirect : ColumnEncodingKind::kDirectV2);
      }
    }
  }
}

// The stream of `kind` of column `column` in `stripe`.
absl::Span<const uint8_t> StreamOf(const EncodedStripe& stripe, uint32_t column, StreamKind kind) {
  for (const OrcStreamInput& stream : stripe.streams) {
    if (stream.column == column && stream.kind == kind) return stream.bytes;
  }
  ADD_FAILURE() << "no stream of kind " << static_cast<int>(kind) << " for column " << column;
  return {};
}

std::vector<int64_t> UnsignedRle(absl::Span<const uint8_t> bytes, size_t count) {
  IntegerRleV2Decoder decoder(Signedness::kUnsigned);
  std::vector<int64_t> values(count);
  EXPECT_TRUE(decoder.Reset(bytes, static_cast<int64_t>(count)).ok());
  EXPECT_TRUE(decoder.Decode(absl::MakeSpan(values)).ok());
  return values;
}

std::string AsString(absl::Span<const uint8_t> bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// The spec's string column examples, direct and dictionary, and its timestamp nanoseconds.
TEST(OrcStripeColumnsTest, SpecColumnExamples) {
  OrcTypeNode root;
  root.field_names = {"s", "ts"};
  root.children = {Leaf(TypeKind::kString), Leaf(TypeKind::kTimestamp)};
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(root));
  auto columns_of = [](const std::vector<std::string>& strings, ColumnEncodingKind encoding) {
    std::vector<ColumnValues> columns(3);
    const auto rows = static_cast<int64_t>(strings.size());
    columns[0].kind = TypeKind::kStruct;
    columns[1].kind = TypeKind::kString;
    columns[1].encoding = encoding;
    columns[2].kind = TypeKind::kTimestamp;
    for (ColumnValues& column : columns) column.slots = column.num_present = rows;
    for (const std::string& value : strings) AddBytes(columns[1], value);
    for (int64_t i = 0; i < rows; ++i) {
      columns[2].seconds.push_back(i);
      columns[2].nanos.push_back(i % 2 == 0 ? 1000 : 100000);
    }
    return columns;
  };
  // Direct: DATA "NevadaCalifornia", LENGTH [6, 10]; nanoseconds 1000 and 100000 are 0x0a, 0x0c.
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const EncodedStripe direct,
      EncodeStripeColumns(types,
                          columns_of({"Nevada", "California"}, ColumnEncodingKind::kDirectV2), 2));
  EXPECT_EQ(AsString(StreamOf(direct, 1, StreamKind::kData)), "NevadaCalifornia");
  EXPECT_EQ(UnsignedRle(StreamOf(direct, 1, StreamKind::kLength), 2),
            (std::vector<int64_t>{6, 10}));
  EXPECT_EQ(UnsignedRle(StreamOf(direct, 2, StreamKind::kSecondary), 2),
            (std::vector<int64_t>{0x0a, 0x0c}));
  // Dictionary: DICTIONARY_DATA "CaliforniaFloridaNevada", LENGTH [10, 7, 6], DATA [2, 0, 2, 0, 1].
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const EncodedStripe dictionary,
      EncodeStripeColumns(types,
                          columns_of({"Nevada", "California", "Nevada", "California", "Florida"},
                                     ColumnEncodingKind::kDictionaryV2),
                          2));
  EXPECT_EQ(AsString(StreamOf(dictionary, 1, StreamKind::kDictionaryData)),
            "CaliforniaFloridaNevada");
  EXPECT_EQ(UnsignedRle(StreamOf(dictionary, 1, StreamKind::kLength), 3),
            (std::vector<int64_t>{10, 7, 6}));
  EXPECT_EQ(UnsignedRle(StreamOf(dictionary, 1, StreamKind::kData), 5),
            (std::vector<int64_t>{2, 0, 2, 0, 1}));
  EXPECT_EQ(dictionary.encodings[1].kind, ColumnEncodingKind::kDictionaryV2);
  EXPECT_EQ(dictionary.encodings[1].dictionary_size, 3u);
}

TEST(OrcStripeColumnsTest, TimestampNanosMatchesOrcReaders) {
  EXPECT_EQ(TimestampNanos(0, 0).value(), kOrcTimestampEpochSeconds * 1'000'000'000);
  // A time before 1970 is stored with its seconds truncated towards zero: -1.5 s as second -1
  // and 0.5e9 nanoseconds, which readers turn back into -1.5 s.
  EXPECT_EQ(TimestampNanos(-kOrcTimestampEpochSeconds - 1, 500'000'000).value(), -1'500'000'000);
  // Nanoseconds within the first millisecond are taken as they are.
  EXPECT_EQ(TimestampNanos(-kOrcTimestampEpochSeconds - 5, 999'999).value(),
            -5'000'000'000 + 999'999);
}

// 1300-01-01 (Impala's out-of-range test file) is -21,143,116,800 s from 1970: its nanoseconds
// do not fit in 64 bits and used to come out wrapped. So must the ends of the stored range.
TEST(OrcStripeColumnsTest, TimestampNanosRefusesWhatInt64CannotHold) {
  const int64_t year_1300 = -21'143'116'800;
  const absl::StatusOr<int64_t> nanos = TimestampNanos(year_1300 - kOrcTimestampEpochSeconds, 0);
  PQPAGE_EXPECT_ERROR(nanos, absl::StatusCode::kOutOfRange);
  EXPECT_NE(nanos.status().message().find("-21143116800 s"), std::string::npos) << nanos.status();
  PQPAGE_EXPECT_ERROR(TimestampNanos(std::numeric_limits<int64_t>::max(), 0),
                      absl::StatusCode::kOutOfRange);
  PQPAGE_EXPECT_ERROR(TimestampNanos(std::numeric_limits<int64_t>::min(), 999'999'999),
                      absl::StatusCode::kOutOfRange);
  // The last second that fits, 2262-04-11 23:47:16, and its last representable nanosecond.
  const int64_t last_second = std::numeric_limits<int64_t>::max() / 1'000'000'000;
  EXPECT_EQ(TimestampNanos(last_second - kOrcTimestampEpochSeconds, 854'775'807).value(),
            std::numeric_limits<int64_t>::max());
  PQPAGE_EXPECT_ERROR(TimestampNanos(last_second - kOrcTimestampEpochSeconds, 854'775'808),
                      absl::StatusCode::kOutOfRange);
}

TEST(OrcStripeColumnsTest, RejectsMismatchedColumns) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(Schema()));
  std::vector<ColumnValues> columns = MakeColumns(types, 10, 4);
  PQPAGE_EXPECT_ERROR(EncodeStripeColumns(types, columns, 3).status(),
                      absl::StatusCode::kInvalidArgument);
  columns[4].integers.pop_back();
  PQPAGE_EXPECT_ERROR(EncodeStripeColumns(types, columns, 2).status(),
                      absl::StatusCode::kInvalidArgument);
}

// Every single-byte change to a small file's streams either decodes or fails with a status.
TEST(OrcStripeColumnsTest, DamagedStripesFailCleanly) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(Schema()));
  const std::vector<ColumnValues> columns = MakeColumns(types, 40, 5);
  PQPAGE_ASSERT_OK_AND_ASSIGN(EncodedStripe encoded, EncodeStripeColumns(types, columns, 2));
  OrcWriterOptions options;
  options.compression = CompressionKind::kNone;
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileWriter> writer,
                              OrcFileWriter::Create(types, options));
  OrcStripeInput input;
  input.num_rows = 40;
  input.streams = encoded.streams;
  input.encodings = encoded.encodings;
  PQPAGE_ASSERT_OK(writer->WriteStripe(input));
  PQPAGE_ASSERT_OK(writer->Close());
  const std::vector<uint8_t> file = writer->ReleaseBytes();
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> clean,
                              OrcFileReader::Open(MakeMemoryByteSource(file)));
  const uint64_t data_end = clean->stripes()[0].offset + clean->stripes()[0].data_length;
  int failures = 0;
  for (uint64_t at = 3; at < data_end; ++at) {
    for (const uint8_t flip : {0x01, 0x80, 0xFF}) {
      std::vector<uint8_t> damaged = file;
      damaged[at] ^= flip;
      absl::StatusOr<std::unique_ptr<OrcFileReader>> reader =
          OrcFileReader::Open(MakeMemoryByteSource(damaged));
      if (!reader.ok()) continue;
      if (!ReadStripeColumns(**reader, 0).ok()) ++failures;
    }
  }
  EXPECT_GT(failures, 0);
}

}  // namespace
}  // namespace pqpage::orc
