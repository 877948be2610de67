// The ORC cases of issue 23, each first as a small file made here (so that a clone alone tests it)
// and then, where ../shared/repro is there, through the real file another writer made: type
// attributes (Iceberg's), LZO, a root that is not a struct, a struct whose stripe encoding is
// unset, a timestamp before 1677, timestamps of a writer in US/Pacific, the ORCv2 draft's 64-bit
// decimals, and column encryption.
// The expected values of the real files are those pyarrow (Apache ORC C++) reads; for the files
// pyarrow refuses, those ORC C++ reads through pyorc.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "orc/metadata_proto.h"
#include "orc_file_fixtures.h"
#include "orc_metadata.pb.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/file_writer.h"
#include "pqpage/orc/integer_rle_v2.h"
#include "pqpage/orc/metadata.h"
#include "pqpage/orc/stripe_columns.h"
#include "pqpage/orc/writer_timezone.h"
#include "pqpage/status_macros.h"
#include "status_matchers.h"

namespace pqpage::orc {
namespace {

using absl::StatusCode;

// ------------------------------------------------------------------ files made here

OrcTypeNode Leaf(TypeKind kind) {
  OrcTypeNode node;
  node.kind = kind;
  return node;
}

// The file of `columns` (one stripe) written with `options`, opened from memory.
absl::StatusOr<std::unique_ptr<OrcFileReader>> WriteAndOpen(
    const std::vector<OrcType>& types, const std::vector<ColumnValues>& columns,
    const OrcWriterOptions& options) {
  PQPAGE_ASSIGN_OR_RETURN(EncodedStripe encoded, EncodeStripeColumns(types, columns, 2));
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<OrcFileWriter> writer,
                          OrcFileWriter::Create(types, options));
  OrcStripeInput stripe;
  stripe.num_rows = static_cast<uint64_t>(columns[0].slots);
  stripe.streams = encoded.streams;
  stripe.encodings = encoded.encodings;
  PQPAGE_RETURN_IF_ERROR(writer->WriteStripe(stripe));
  PQPAGE_RETURN_IF_ERROR(writer->Close());
  return fixtures::OpenBytes(writer->ReleaseBytes());
}

// A struct root over one LONG column of `rows` values i * 7 - 3.
std::vector<ColumnValues> LongColumns(int64_t rows) {
  std::vector<ColumnValues> columns(2);
  columns[0].kind = TypeKind::kStruct;
  columns[0].slots = columns[0].num_present = rows;
  columns[1].kind = TypeKind::kLong;
  columns[1].slots = columns[1].num_present = rows;
  for (int64_t i = 0; i < rows; ++i) columns[1].integers.push_back(i * 7 - 3);
  return columns;
}

TEST(OrcReproTest, TypeAttributesAreReadAndWritten) {
  OrcTypeNode root = Leaf(TypeKind::kStruct);
  root.field_names = {"id"};
  root.children = {Leaf(TypeKind::kLong)};
  root.children[0].attributes = {{"iceberg.id", "1"}, {"iceberg.required", "true"}};
  root.attributes = {{"spark.sql.catalyst.type", "struct<id:bigint>"}};
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(root));
  ASSERT_EQ(types[1].attributes.size(), 2u);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              WriteAndOpen(types, LongColumns(10), {}));
  EXPECT_EQ(reader->types(), types);
  EXPECT_EQ(reader->types()[1].attributes[0], (TypeAttribute{"iceberg.id", "1"}));
  EXPECT_EQ(reader->types()[0].attributes[0].value, "struct<id:bigint>");
}

TEST(OrcReproTest, LzoFilesRoundTrip) {
  OrcTypeNode root = Leaf(TypeKind::kStruct);
  root.field_names = {"x"};
  root.children = {Leaf(TypeKind::kLong)};
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(root));
  OrcWriterOptions options;
  options.compression = CompressionKind::kLzo;
  options.compression_block_size = 4096;
  const std::vector<ColumnValues> columns = LongColumns(50000);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              WriteAndOpen(types, columns, options));
  EXPECT_EQ(reader->compression(), CompressionKind::kLzo);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> read, ReadStripeColumns(*reader, 0));
  EXPECT_EQ(read[1].integers, columns[1].integers);
}

// An LZO1X block of "abcabcabcabcabcabcabc" (a literal run of 3, then a match 18 bytes long at
// distance 3, then the end marker), written out by hand from the format: not from liblzo2's
// compressor, so that a decompressor that merely undoes it would not pass.
TEST(OrcReproTest, AHandMadeLzoChunkInflates) {
  const std::vector<uint8_t> block = {
      0x14, 'a',  'b',  'c',  // first byte 17 + 3: three literals
      0x30, 0x08, 0x00,       // M3 (001LLLLL): length 16 + 2, distance 2 + 1 (low 14 bits << 2)
      0x11, 0x00, 0x00};      // end of stream
  std::vector<uint8_t> stream = {static_cast<uint8_t>(block.size() * 2), 0, 0};
  stream.insert(stream.end(), block.begin(), block.end());
  std::vector<uint8_t> buffer;
  PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> out,
                              DecompressStream(CompressionKind::kLzo, 1000, stream, &buffer));
  EXPECT_EQ(std::string(out.begin(), out.end()), "abcabcabcabcabcabcabc");
  // Past the block size, and cut short.
  PQPAGE_EXPECT_ERROR(DecompressStream(CompressionKind::kLzo, 20, stream, &buffer),
                      StatusCode::kDataLoss);
  stream[0] -= 2;
  stream.pop_back();
  PQPAGE_EXPECT_ERROR(DecompressStream(CompressionKind::kLzo, 1000, stream, &buffer),
                      StatusCode::kDataLoss);
}

TEST(OrcReproTest, ARootThatIsNotAStructIsReadAndWritten) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types,
                              FlattenTypeTree(Leaf(TypeKind::kTimestamp)));
  std::vector<ColumnValues> columns(1);
  columns[0].kind = TypeKind::kTimestamp;
  columns[0].slots = 4;
  columns[0].present = {1, 0, 1, 1};
  columns[0].num_present = 3;
  columns[0].seconds = {0, -5, 700000000};
  columns[0].nanos = {999000, 1, 0};
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              WriteAndOpen(types, columns, {}));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> read, ReadStripeColumns(*reader, 0));
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].present, columns[0].present);
  EXPECT_EQ(read[0].seconds, columns[0].seconds);
  EXPECT_EQ(read[0].nanos, columns[0].nanos);
}

// A stripe footer whose struct column's encoding has no kind (cuDF's test file from ORC Java):
// nothing of a struct's depends on it, so it is read; an INT column still needs one.
TEST(OrcReproTest, AnUnsetEncodingIsIgnoredWhereNoStreamDependsOnIt) {
  OrcTypeNode root = Leaf(TypeKind::kStruct);
  root.field_names = {"s", "i"};
  OrcTypeNode inner = Leaf(TypeKind::kStruct);
  inner.field_names = {"b"};
  inner.children = {Leaf(TypeKind::kBoolean)};
  root.children = {inner, Leaf(TypeKind::kInt)};
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(root));
  proto::StripeFooter footer;
  for (size_t c = 0; c < types.size(); ++c) {
    proto::ColumnEncoding* encoding = footer.add_columns();
    if (c != 1 && c != 2) encoding->set_kind(proto::ColumnEncoding::DIRECT_V2);
  }
  PQPAGE_ASSERT_OK_AND_ASSIGN(const StripeFooterInfo info,
                              internal::StripeFooterFromProto(footer, 3, 0, types));
  ASSERT_EQ(info.encodings.size(), types.size());
  EXPECT_EQ(info.encodings[3].kind, ColumnEncodingKind::kDirectV2);
  footer.mutable_columns(3)->clear_kind();
  const absl::StatusOr<StripeFooterInfo> refused =
      internal::StripeFooterFromProto(footer, 3, 0, types);
  PQPAGE_EXPECT_ERROR(refused, StatusCode::kDataLoss);
  EXPECT_NE(refused.status().message().find("column 3"), std::string::npos) << refused.status();
}

// The footer's encryption is checked before inspect indexes columns and keys by it.
TEST(OrcReproTest, EncryptionNamingAbsentColumnsOrKeysIsRefused) {
  proto::Footer footer;
  proto::Encryption* encryption = footer.mutable_encryption();
  encryption->set_keyprovider(1);
  proto::EncryptionKey* key = encryption->add_key();
  key->set_keyname("pii");
  key->set_algorithm(2);
  proto::DataMask* mask = encryption->add_mask();
  mask->set_name("redact");
  mask->add_maskparameters("x");
  mask->add_columns(1);
  proto::EncryptionVariant* variant = encryption->add_variants();
  variant->set_root(1);
  variant->set_key(0);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::optional<EncryptionInfo> info,
                              internal::EncryptionFromFooter(footer, 2));
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->masks[0].parameters, std::vector<std::string>{"x"});
  EXPECT_EQ(KeyProviderName(info->key_provider), "HADOOP");
  PQPAGE_EXPECT_ERROR(internal::EncryptionFromFooter(footer, 1), StatusCode::kDataLoss);
  variant->set_key(1);
  PQPAGE_EXPECT_ERROR(internal::EncryptionFromFooter(footer, 2), StatusCode::kDataLoss);
  variant->set_key(0);
  mask->add_columns(7);
  PQPAGE_EXPECT_ERROR(internal::EncryptionFromFooter(footer, 2), StatusCode::kDataLoss);
  footer.clear_encryption();
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::optional<EncryptionInfo> none,
                              internal::EncryptionFromFooter(footer, 2));
  EXPECT_FALSE(none.has_value());
}

// A time before 1677 is kept as stored seconds and nanoseconds: read, recoded and read again the
// same, though its nanoseconds from 1970 do not fit in 64 bits.
TEST(OrcReproTest, ATimeInt64NanosecondsCannotHoldSurvivesAsStored) {
  OrcTypeNode root = Leaf(TypeKind::kStruct);
  root.field_names = {"ts"};
  root.children = {Leaf(TypeKind::kTimestamp)};
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(root));
  std::vector<ColumnValues> columns(2);
  columns[0].kind = TypeKind::kStruct;
  columns[0].slots = columns[0].num_present = 2;
  columns[1].kind = TypeKind::kTimestamp;
  columns[1].slots = columns[1].num_present = 2;
  const int64_t year_1300 = -21'143'116'800 - kOrcTimestampEpochSeconds;
  columns[1].seconds = {year_1300, 0};
  columns[1].nanos = {0, 5};
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              WriteAndOpen(types, columns, {}));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> read, ReadStripeColumns(*reader, 0));
  EXPECT_EQ(read[1].seconds, columns[1].seconds);
  EXPECT_EQ(read[1].nanos, columns[1].nanos);
  PQPAGE_EXPECT_ERROR(TimestampNanos(read[1].seconds[0], read[1].nanos[0]),
                      StatusCode::kOutOfRange);
}

// The ORCv2 draft (file version 1.9999) stores a decimal of up to 18 digits as signed integer
// RLE v2 in DATA with no SECONDARY stream, its scale the type's, while ORC's Java writer still
// calls the encoding DIRECT; one of 19 digits or more keeps the v1 layout.
TEST(OrcReproTest, DecimalsOfTheOrcV2DraftAreIntegers) {
  OrcTypeNode root = Leaf(TypeKind::kStruct);
  root.field_names = {"d"};
  OrcTypeNode decimal = Leaf(TypeKind::kDecimal);
  decimal.precision = 12;
  decimal.scale = 2;
  root.children = {decimal};
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(root));
  const std::vector<int64_t> unscaled = {3, -8, 999999999999, 0, -1};
  IntegerRleV2Encoder encoder(Signedness::kSigned);
  PQPAGE_ASSERT_OK(encoder.Put(unscaled));
  std::vector<uint8_t> data;
  encoder.FinishInto(&data);
  OrcWriterOptions options;
  options.file_version = {1, 9999};
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileWriter> writer,
                              OrcFileWriter::Create(types, options));
  OrcStripeInput stripe;
  stripe.num_rows = unscaled.size();
  stripe.streams = {{StreamKind::kData, 1, data}};
  stripe.encodings = {{ColumnEncodingKind::kDirect, 0}, {ColumnEncodingKind::kDirect, 0}};
  PQPAGE_ASSERT_OK(writer->WriteStripe(stripe));
  PQPAGE_ASSERT_OK(writer->Close());
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              fixtures::OpenBytes(writer->ReleaseBytes()));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> read, ReadStripeColumns(*reader, 0));
  ASSERT_EQ(read[1].decimals.size(), unscaled.size());
  for (size_t i = 0; i < unscaled.size(); ++i) {
    EXPECT_EQ(read[1].decimals[i], absl::int128(unscaled[i]));
    EXPECT_EQ(read[1].scales[i], 2);
  }
}

// A TIMESTAMP counts from 2015-01-01 in its writer's zone, and readers in UTC show its wall clock:
// in US/Pacific a summer midnight is stored an hour away from where a winter one would be.
TEST(OrcReproTest, TimestampsAreReadAsTheirWriterZonesWallClock) {
  absl::TimeZone pacific;
  if (!absl::LoadTimeZone("US/Pacific", &pacific)) GTEST_SKIP() << "no time zone database";
  PQPAGE_ASSERT_OK_AND_ASSIGN(const WriterTimezone zone, WriterTimezone::Load("US/Pacific"));
  // 2015-01-01 00:00 PST is stored as 0, and reads as 2015-01-01 00:00.
  EXPECT_EQ(zone.ToUtcStoredSeconds(0), 0);
  // 1996-08-02 00:00 PDT (UTC-7): 838,969,200 s from 1970, 1,420,099,200 for the zone's epoch.
  const int64_t summer = 838'969'200 - 1'420'099'200;
  EXPECT_EQ(zone.ToUtcStoredSeconds(summer), 838'944'000 - kOrcTimestampEpochSeconds);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const WriterTimezone utc, WriterTimezone::Load(std::nullopt));
  EXPECT_EQ(utc.ToUtcStoredSeconds(summer), summer);
  EXPECT_EQ(utc.ToUtcStoredSeconds(std::numeric_limits<int64_t>::max()), std::nullopt);
  PQPAGE_EXPECT_ERROR(WriterTimezone::Load("Nowhere/Atlantis"), StatusCode::kNotFound);
}

// ------------------------------------------------------------------ the files of ../shared/repro

class OrcReproFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(PQPAGE_SHARED_DIR) + "/repro";
    if (!std::filesystem::is_directory(dir_)) GTEST_SKIP() << "no ../shared/repro";
  }
  absl::StatusOr<std::unique_ptr<OrcFileReader>> Open(const std::string& name) {
    return OrcFileReader::Open(dir_ + "/" + name);
  }
  std::string dir_;
};

TEST_F(OrcReproFileTest, IcebergAttributes) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              Open("orc_iceberg_attributes.orc"));
  const std::vector<OrcType>& types = reader->types();
  ASSERT_EQ(types.size(), 5u);
  EXPECT_EQ(types[1].attributes,
            (std::vector<TypeAttribute>{{"iceberg.id", "1"}, {"iceberg.required", "false"}}));
  EXPECT_EQ(types[4].attributes,
            (std::vector<TypeAttribute>{{"iceberg.id", "4"}, {"iceberg.required", "true"}}));
}

TEST_F(OrcReproFileTest, StructEncodingUnset) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              Open("orc_struct_encoding_unset.orc"));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> columns,
                              ReadStripeColumns(*reader, 0));
  // _c3: list<struct<key: smallint, value: smallint>>. ORC C++ (pyorc) reads the first list's
  // keys as 62463, 59710 (stored past 16 bits), pyarrow narrows them to -3073, -5826; its values
  // are null, 28958.
  ASSERT_EQ(columns.size(), 5u);
  EXPECT_EQ(columns[0].slots, 102);
  ASSERT_GE(columns[3].integers.size(), 2u);
  EXPECT_EQ(columns[3].integers[0], 62463);
  EXPECT_EQ(static_cast<int16_t>(columns[3].integers[1]), -5826);
  ASSERT_FALSE(columns[4].present.empty());
  EXPECT_EQ(columns[4].present[0], 0);
  EXPECT_EQ(columns[4].integers[0], 28958);
}

TEST_F(OrcReproFileTest, OutOfRangeTimestamp) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              Open("orc_out_of_range_timestamp.orc"));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> columns,
                              ReadStripeColumns(*reader, 0));
  ASSERT_EQ(columns[1].seconds.size(), 1u);
  // 1300-01-01 00:00:00, as ORC C++ (pyorc) reads it; pyarrow refuses it for nanoseconds.
  EXPECT_EQ(columns[1].seconds[0] + kOrcTimestampEpochSeconds, -21'143'116'800);
  EXPECT_EQ(columns[1].nanos[0], 0);
  const absl::StatusOr<int64_t> nanos = TimestampNanos(columns[1].seconds[0], columns[1].nanos[0]);
  PQPAGE_EXPECT_ERROR(nanos, StatusCode::kOutOfRange);
}

TEST_F(OrcReproFileTest, TimestampRoot) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              Open("orc_timestamp_root.orc"));
  ASSERT_EQ(reader->types().size(), 1u);
  EXPECT_EQ(reader->types()[0].kind, TypeKind::kTimestamp);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> columns,
                              ReadStripeColumns(*reader, 0));
  ASSERT_EQ(columns[0].seconds.size(), 12u);
  // ORC C++ (pyorc, in UTC): 2037-01-01 00:00:00.000999 first, 1996-08-02 00:00:00.7231 tenth,
  // written in US/Pacific.
  EXPECT_EQ(TimestampNanos(columns[0].seconds[0], columns[0].nanos[0]).value(),
            int64_t{2114380800} * 1'000'000'000 + 999'000);
  absl::TimeZone pacific;
  if (!absl::LoadTimeZone("US/Pacific", &pacific)) GTEST_SKIP() << "no time zone database";
  PQPAGE_ASSERT_OK_AND_ASSIGN(const StripeFooterInfo footer, reader->ReadStripeFooter(0));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const WriterTimezone zone,
                              WriterTimezone::Load(footer.writer_timezone));
  const std::optional<int64_t> tenth = zone.ToUtcStoredSeconds(columns[0].seconds[9]);
  ASSERT_TRUE(tenth.has_value());
  EXPECT_EQ(TimestampNanos(*tenth, columns[0].nanos[9]).value() / 1000, int64_t{838944000723100});
}

TEST_F(OrcReproFileTest, Lzo) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader, Open("orc_lzo.orc"));
  EXPECT_EQ(reader->compression(), CompressionKind::kLzo);
  int64_t rows = 0;
  for (int s = 0; s < reader->num_stripes(); ++s) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> columns,
                                ReadStripeColumns(*reader, s));
    if (s == 0) {
      // ORC C++ (pyorc): (-1182032251, 0, 7280265975036434323) first.
      EXPECT_EQ(columns[1].integers[0], -1182032251);
      EXPECT_EQ(columns[2].integers[0], 0);
      EXPECT_EQ(columns[3].integers[0], 7280265975036434323);
    }
    rows += columns[0].slots;
  }
  EXPECT_EQ(rows, 10000);
}

TEST_F(OrcReproFileTest, Decimal64V2) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader, Open("orc_decimal64_v2.orc"));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> columns,
                              ReadStripeColumns(*reader, 0));
  // pyarrow's first row: 17292380420, 24, 36164.16, 0.03, 0.01.
  EXPECT_EQ(columns[2].decimals[0], 24);
  EXPECT_EQ(columns[2].scales[0], 0);
  EXPECT_EQ(columns[3].decimals[0], 3616416);
  EXPECT_EQ(columns[3].scales[0], 2);
  EXPECT_EQ(columns[4].decimals[0], 3);
  EXPECT_EQ(columns[4].scales[0], 2);
  EXPECT_EQ(columns[5].decimals[0], 1);
}

TEST_F(OrcReproFileTest, EncryptedSample) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              Open("orc_encrypted_sample1.orc"));
  ASSERT_TRUE(reader->encryption().has_value());
  const EncryptionInfo& encryption = *reader->encryption();
  ASSERT_EQ(encryption.variants.size(), 2u);
  EXPECT_EQ(encryption.variants[0].root, 1u);
  EXPECT_EQ(encryption.keys.at(encryption.variants[0].key).name, "pii");
  EXPECT_EQ(EncryptionAlgorithmName(encryption.keys[0].algorithm), "AES_CTR_256");
  ASSERT_EQ(encryption.masks.size(), 2u);
  EXPECT_EQ(encryption.masks[0].name, "nullify");
  EXPECT_EQ(encryption.masks[1].name, "sha256");
  EXPECT_EQ(encryption.masks[1].columns, std::vector<uint32_t>{2});
  PQPAGE_ASSERT_OK_AND_ASSIGN(const StripeFooterInfo footer, reader->ReadStripeFooter(0));
  ASSERT_EQ(footer.encrypted_streams.size(), 2u);
  EXPECT_EQ(footer.encrypted_streams[1].size(), 2u);
  EXPECT_EQ(footer.encrypted_streams[1][0].column, 2u);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<ColumnValues> columns,
                              ReadStripeColumns(*reader, 0));
  // pyarrow without keys: ssn null (mask "nullify"), email its SHA-256 in hex, name as it is.
  EXPECT_EQ(columns[1].num_present, 0);
  ASSERT_EQ(columns[2].num_present, 1);
  EXPECT_EQ(columns[2].Bytes(0),
            "841626795E7D351555B835A002E3BF10669DE9B81C95A3D59E10865AC37EA7C3");
  ASSERT_EQ(columns[3].num_present, 1);
  EXPECT_EQ(columns[3].Bytes(0), "Dongjoon Hyun");
}

}  // namespace
}  // namespace pqpage::orc
