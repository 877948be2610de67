// The ORC file layer (pqpage/orc/file.h, file_writer.h, metadata.h): the type-tree rules, and
// files written by pqpage read back stream for stream with every compression kind.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "orc_file_fixtures.h"
#include "orc_metadata.pb.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/file_writer.h"
#include "pqpage/orc/metadata.h"
#include "pqpage/status_macros.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage::orc {
namespace {

using absl::StatusCode;
using namespace fixtures;

// ------------------------------------------------------------------ the type tree

TEST(OrcTypeTreeTest, FlatteningNumbersTheTreeInPreOrder) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(SampleTree()));
  ASSERT_EQ(types.size(), 13u);
  EXPECT_EQ(types[0].kind, TypeKind::kStruct);
  EXPECT_EQ(types[0].subtypes, (std::vector<uint32_t>{1, 2, 3, 5, 8, 9, 10}));
  EXPECT_EQ(types[0].field_names[6], "choice");
  EXPECT_EQ(types[3].kind, TypeKind::kList);
  EXPECT_EQ(types[3].subtypes, (std::vector<uint32_t>{4}));
  EXPECT_EQ(types[5].subtypes, (std::vector<uint32_t>{6, 7}));
  EXPECT_EQ(types[8].precision, 10u);
  EXPECT_EQ(types[8].scale, 2u);
  EXPECT_EQ(types[9].maximum_length, 8u);
  EXPECT_EQ(types[10].subtypes, (std::vector<uint32_t>{11, 12}));
  PQPAGE_EXPECT_OK(ValidateTypeTree(types));
  EXPECT_EQ(SubtreeEnd(types, 0), 13u);
  EXPECT_EQ(SubtreeEnd(types, 3), 5u);
  EXPECT_EQ(SubtreeEnd(types, 5), 8u);
  EXPECT_EQ(SubtreeEnd(types, 8), 9u);
  EXPECT_EQ(SubtreeEnd(types, 10), 13u);
  EXPECT_EQ(TypeKindName(TypeKind::kTimestampInstant), "TIMESTAMP_INSTANT");
  EXPECT_EQ(TypeKindName(static_cast<TypeKind>(19)), "UNKNOWN");
}

TEST(OrcTypeTreeTest, TreesBreakingTheRulesAreRefused) {
  auto type = [](TypeKind kind, std::vector<uint32_t> subtypes = {},
                 std::vector<std::string> names = {}) {
    return OrcType{.kind = kind, .subtypes = std::move(subtypes), .field_names = std::move(names)};
  };
  const TypeKind kInt = TypeKind::kInt;
  const std::vector<std::pair<std::string, std::vector<OrcType>>> bad = {
      {"no types", {}},
      {"subtype past the end", {type(TypeKind::kStruct, {1, 5}, {"a", "b"}), type(kInt)}},
      {"subtypes not increasing",
       {type(TypeKind::kStruct, {2, 1}, {"a", "b"}), type(kInt), type(kInt)}},
      {"repeated subtype", {type(TypeKind::kStruct, {1, 1}, {"a", "b"}), type(kInt)}},
      {"child is the root (cycle)", {type(TypeKind::kList, {0})}},
      {"child points back", {type(TypeKind::kStruct, {1}, {"a"}), type(TypeKind::kList, {1})}},
      {"children out of pre-order",
       {type(TypeKind::kStruct, {1, 3}, {"a", "b"}), type(TypeKind::kList, {3}), type(kInt),
        type(kInt)}},
      {"unreachable type", {type(TypeKind::kStruct, {1}, {"a"}), type(kInt), type(kInt)}},
      {"list of two", {type(TypeKind::kList, {1, 2}), type(kInt), type(kInt)}},
      {"map of one", {type(TypeKind::kMap, {1}), type(kInt)}},
      {"union of none", {type(TypeKind::kUnion)}},
      {"struct names short", {type(TypeKind::kStruct, {1, 2}, {"a"}), type(kInt), type(kInt)}},
      {"scalar with a child", {type(kInt, {1}), type(kInt)}},
      {"unknown kind", {type(static_cast<TypeKind>(40))}},
  };
  for (const auto& [what, types] : bad) {
    SCOPED_TRACE(what);
    PQPAGE_EXPECT_ERROR(ValidateTypeTree(types), StatusCode::kDataLoss);
  }
  std::vector<OrcType> wide_union = {type(TypeKind::kUnion)};
  for (uint32_t i = 1; i <= 257; ++i) {
    wide_union[0].subtypes.push_back(i);
    wide_union.push_back(type(kInt));
  }
  PQPAGE_EXPECT_ERROR(ValidateTypeTree(wide_union), StatusCode::kDataLoss);
  // A scalar alone is a valid (if unusual) schema.
  PQPAGE_EXPECT_OK(ValidateTypeTree(std::vector<OrcType>{type(kInt)}));
  // A tree a writer is given is refused as an argument.
  PQPAGE_EXPECT_ERROR(FlattenTypeTree(OrcTypeNode{.kind = TypeKind::kMap}),
                      StatusCode::kInvalidArgument);
}

// ------------------------------------------------------------------ pqpage's own files

TEST(OrcFileTest, EveryCompressionKindRoundTripsStreamForStream) {
  for (CompressionKind kind : kWritableKinds) {
    for (uint64_t block_size : {uint64_t{1000}, kDefaultCompressionBlockSize}) {
      SCOPED_TRACE(absl::StrCat(CompressionKindName(kind).data(), " block ", block_size));
      OrcWriterOptions options;
      options.compression = kind;
      options.compression_block_size = block_size;
      options.user_metadata = {{"origin", "pqpage test"}, {"binary", std::string("\0\1\2", 3)}};
      options.writer_version = 9;
      options.writer_id = 77;
      PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<uint8_t> file, WriteSample(options));
      ASSERT_EQ(std::string(file.begin(), file.begin() + 3), "ORC");
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader, OpenBytes(file));
      PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<OrcType> types, FlattenTypeTree(SampleTree()));
      EXPECT_EQ(reader->types(), types);
      EXPECT_EQ(reader->compression(), kind);
      EXPECT_EQ(reader->compression_block_size(), block_size);
      EXPECT_EQ(reader->version(), (std::vector<uint32_t>{0, 12}));
      EXPECT_EQ(reader->writer_version(), 9u);
      EXPECT_EQ(reader->writer_id(), 77u);
      EXPECT_EQ(reader->row_index_stride(), 0u);
      EXPECT_EQ(reader->user_metadata(), options.user_metadata);
      EXPECT_EQ(reader->num_rows(), 1000u + 1001u + 1002u);

      const std::vector<SampleStripe> expected = SampleStripes(types.size(), true);
      ASSERT_EQ(reader->num_stripes(), 3);
      ASSERT_EQ(reader->num_stripe_statistics(), 3);
      StreamBuffers buffers;
      uint64_t previous_end = 3;
      for (int s = 0; s < reader->num_stripes(); ++s) {
        const StripeInfo& stripe = reader->stripes()[s];
        const OrcStripeInput& input = expected[s].input;
        EXPECT_EQ(stripe.offset, previous_end);
        EXPECT_EQ(stripe.index_length, 0u);
        EXPECT_EQ(stripe.num_rows, input.num_rows);
        previous_end = stripe.offset + stripe.data_length + stripe.footer_length;
        PQPAGE_ASSERT_OK_AND_ASSIGN(const StripeFooterInfo footer, reader->ReadStripeFooter(s));
        EXPECT_EQ(footer.encodings, input.encodings);
        EXPECT_EQ(footer.writer_timezone, input.writer_timezone);
        ASSERT_EQ(footer.streams.size(), input.streams.size());
        uint64_t offset = stripe.offset;
        for (size_t i = 0; i < footer.streams.size(); ++i) {
          const StreamInfo& stream = footer.streams[i];
          EXPECT_EQ(stream.kind, input.streams[i].kind);
          EXPECT_EQ(stream.column, input.streams[i].column);
          EXPECT_EQ(stream.file_offset, offset);
          offset += stream.length;
          PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> bytes,
                                      reader->ReadStream(stream, &buffers));
          EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.end()), expected[s].stream_bytes[i])
              << "stripe " << s << " stream " << i;
        }
        EXPECT_EQ(offset, stripe.offset + stripe.data_length);
        EXPECT_EQ(reader->StripeStatistics(s), input.statistics);
      }
      EXPECT_TRUE(reader->StripeStatistics(3).empty());
      const std::vector<std::string> file_statistics = reader->FileStatistics();
      ASSERT_EQ(file_statistics.size(), types.size());
      EXPECT_EQ(file_statistics[4], ColumnStatisticsBytes(28, 4));
      PQPAGE_EXPECT_ERROR(reader->ReadStripeFooter(3), StatusCode::kOutOfRange);
      PQPAGE_EXPECT_ERROR(reader->ReadStripeFooter(-1), StatusCode::kOutOfRange);
    }
  }
}

TEST(OrcFileTest, FilesWithoutStatisticsOrStripesAndOnDiskFilesRead) {
  OrcWriterOptions options;
  options.compression = CompressionKind::kZstd;
  options.file_version = {0, 11};
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<uint8_t> file,
                              WriteSample(options, /*with_statistics=*/false));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader, OpenBytes(file));
  EXPECT_EQ(reader->version(), (std::vector<uint32_t>{0, 11}));
  EXPECT_EQ(reader->writer_id(), std::nullopt);
  EXPECT_EQ(reader->writer_version(), 6u);
  EXPECT_TRUE(reader->FileStatistics().empty());
  EXPECT_EQ(reader->num_stripe_statistics(), 0);
  EXPECT_TRUE(reader->StripeStatistics(0).empty());

  // No stripes at all, written to a file and read through pread.
  const std::string path = testing::TestTempPath("empty.orc");
  {
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileWriter> writer,
                                OrcFileWriter::Create(path, {OrcType{.kind = TypeKind::kInt}}));
    EXPECT_EQ(writer->position(), 3u);
    PQPAGE_ASSERT_OK(writer->Close());
    PQPAGE_EXPECT_ERROR(writer->Close(), StatusCode::kInvalidArgument);
    EXPECT_TRUE(writer->ReleaseBytes().empty());
  }
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> empty, OrcFileReader::Open(path));
  EXPECT_EQ(empty->num_stripes(), 0);
  EXPECT_EQ(empty->num_rows(), 0u);
  EXPECT_EQ(empty->types().size(), 1u);
  EXPECT_EQ(empty->compression(), CompressionKind::kZlib);
  std::remove(path.c_str());
  PQPAGE_EXPECT_ERROR(OrcFileReader::Open(path), StatusCode::kNotFound);
}

TEST(OrcFileTest, TheWriterRefusesWhatItCannotWrite) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<OrcType> types, FlattenTypeTree(SampleTree()));
  OrcWriterOptions options;
  options.compression_block_size = 0;
  PQPAGE_EXPECT_ERROR(OrcFileWriter::Create(types, options), StatusCode::kInvalidArgument);
  options.compression_block_size = kMaxChunkLength + 1;
  PQPAGE_EXPECT_ERROR(OrcFileWriter::Create(types, options), StatusCode::kInvalidArgument);
  options = {};
  options.file_version = {0};
  PQPAGE_EXPECT_ERROR(OrcFileWriter::Create(types, options), StatusCode::kInvalidArgument);
  options = {};
  options.compression_level = 99;
  PQPAGE_EXPECT_ERROR(OrcFileWriter::Create(types, options), StatusCode::kInvalidArgument);
  std::vector<OrcType> broken = types;
  broken[0].subtypes[1] = 40;
  PQPAGE_EXPECT_ERROR(OrcFileWriter::Create(broken, {}), StatusCode::kInvalidArgument);

  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileWriter> writer,
                              OrcFileWriter::Create(types, {}));
  // The inputs' spans point into the samples, which must outlive them.
  const std::vector<SampleStripe> samples = SampleStripes(types.size(), true);
  OrcStripeInput stripe = samples[0].input;
  OrcStripeInput bad = stripe;
  bad.encodings.pop_back();
  PQPAGE_EXPECT_ERROR(writer->WriteStripe(bad), StatusCode::kInvalidArgument);
  bad = stripe;
  bad.streams[0].column = static_cast<uint32_t>(types.size());
  PQPAGE_EXPECT_ERROR(writer->WriteStripe(bad), StatusCode::kInvalidArgument);
  bad = stripe;
  bad.streams[0].kind = StreamKind::kRowIndex;
  PQPAGE_EXPECT_ERROR(writer->WriteStripe(bad), StatusCode::kInvalidArgument);
  bad = stripe;
  bad.statistics[1] = "\xff\xff";
  PQPAGE_EXPECT_ERROR(writer->WriteStripe(bad), StatusCode::kInvalidArgument);
  bad = stripe;
  bad.encodings[0].kind = static_cast<ColumnEncodingKind>(7);
  PQPAGE_EXPECT_ERROR(writer->WriteStripe(bad), StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(writer->WriteStripe(stripe));
  bad = stripe;
  bad.statistics.clear();  // the first stripe had statistics
  PQPAGE_EXPECT_ERROR(writer->WriteStripe(bad), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(writer->SetFileStatistics({"a"}), StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(writer->Close());
  PQPAGE_EXPECT_ERROR(writer->WriteStripe(stripe), StatusCode::kInvalidArgument);
  // The refused stripes left nothing behind: the file holds the one good stripe.
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              OpenBytes(writer->ReleaseBytes()));
  EXPECT_EQ(reader->num_stripes(), 1);
  PQPAGE_EXPECT_OK(reader->ReadStripeFooter(0));
}

}  // namespace
}  // namespace pqpage::orc
