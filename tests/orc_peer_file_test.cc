// ORC files written by Apache ORC's C++ writer (through pyarrow: testfiles/orc/make_orc_files.py)
// read, checked against the values they hold, truncated, and recoded stream for stream.
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

namespace pqpage::orc {
namespace {

using absl::StatusCode;
using namespace fixtures;

// ------------------------------------------------------------------ Apache ORC's files

// Where testfiles/ is: the PQPAGE_TESTFILES_DIR compile definition when the build sets it, else
// the environment variable of the same name.
std::optional<std::string> TestfilesDir() {
#ifdef PQPAGE_TESTFILES_DIR
  return std::string(PQPAGE_TESTFILES_DIR);
#else
  if (const char* dir = std::getenv("PQPAGE_TESTFILES_DIR")) return std::string(dir);
  return std::nullopt;
#endif
}

struct PeerFile {
  std::string name;
  CompressionKind compression;
  std::vector<uint32_t> version;
};

const PeerFile kPeerFiles[] = {
    {"zlib_v0_12.orc", CompressionKind::kZlib, {0, 12}},
    {"snappy_v0_12.orc", CompressionKind::kSnappy, {0, 12}},
    {"lz4_v0_12.orc", CompressionKind::kLz4, {0, 12}},
    {"zstd_v0_12.orc", CompressionKind::kZstd, {0, 12}},
    {"uncompressed_v0_11.orc", CompressionKind::kNone, {0, 11}},
    {"zlib_v0_11.orc", CompressionKind::kZlib, {0, 11}},
};

// The columns of make_orc_files.py's table.
constexpr uint32_t kDoubleColumn = 4;
constexpr uint32_t kStringColumn = 3;
constexpr uint32_t kNumPeerColumns = 15;
constexpr int kPeerRows = 300;

class OrcPeerFileTest : public ::testing::TestWithParam<PeerFile> {
 protected:
  void SetUp() override {
    const std::optional<std::string> dir = TestfilesDir();
    if (!dir) GTEST_SKIP() << "set PQPAGE_TESTFILES_DIR to the repository's testfiles folder";
    path_ = *dir + "/orc/" + GetParam().name;
  }
  std::string path_;
};

// The concatenated bytes of stream (column, kind) over every stripe.
std::vector<uint8_t> WholeStream(const OrcFileReader& reader, uint32_t column, StreamKind kind) {
  std::vector<uint8_t> all;
  StreamBuffers buffers;
  for (int s = 0; s < reader.num_stripes(); ++s) {
    absl::StatusOr<StripeFooterInfo> footer = reader.ReadStripeFooter(s);
    EXPECT_TRUE(footer.ok()) << footer.status();
    if (!footer.ok()) return all;
    for (const StreamInfo& stream : footer->streams) {
      if (stream.column != column || stream.kind != kind) continue;
      absl::StatusOr<absl::Span<const uint8_t>> bytes = reader.ReadStream(stream, &buffers);
      EXPECT_TRUE(bytes.ok()) << bytes.status();
      if (bytes.ok()) all.insert(all.end(), bytes->begin(), bytes->end());
    }
  }
  return all;
}

TEST_P(OrcPeerFileTest, TheTailStripesAndStreamsRead) {
  const PeerFile& peer = GetParam();
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader, OrcFileReader::Open(path_));
  EXPECT_EQ(reader->compression(), peer.compression);
  EXPECT_EQ(reader->version(), peer.version);
  EXPECT_EQ(reader->writer_id(), 1u);  // ORC C++
  EXPECT_EQ(reader->num_rows(), static_cast<uint64_t>(kPeerRows));
  EXPECT_EQ(reader->row_index_stride(), 1000u);
  EXPECT_EQ(reader->compression_block_size(), 65536u);
  EXPECT_GE(reader->num_stripes(), 2);

  const std::vector<OrcType>& types = reader->types();
  ASSERT_EQ(types.size(), kNumPeerColumns);
  EXPECT_EQ(types[0].kind, TypeKind::kStruct);
  EXPECT_EQ(types[0].field_names,
            (std::vector<std::string>{"int", "bigint", "string", "double", "bool", "date",
                                      "timestamp", "decimal", "list", "map", "pad"}));
  const TypeKind kinds[] = {TypeKind::kStruct, TypeKind::kInt,       TypeKind::kLong,
                            TypeKind::kString, TypeKind::kDouble,    TypeKind::kBoolean,
                            TypeKind::kDate,   TypeKind::kTimestamp, TypeKind::kDecimal,
                            TypeKind::kList,   TypeKind::kLong,      TypeKind::kMap,
                            TypeKind::kString, TypeKind::kInt,       TypeKind::kString};
  for (uint32_t c = 0; c < kNumPeerColumns; ++c) EXPECT_EQ(types[c].kind, kinds[c]) << c;
  EXPECT_EQ(types[8].precision, 10u);
  EXPECT_EQ(types[8].scale, 2u);
  EXPECT_EQ(SubtreeEnd(types, 9), 11u);
  EXPECT_EQ(SubtreeEnd(types, 11), 14u);

  EXPECT_EQ(reader->FileStatistics().size(), kNumPeerColumns);
  EXPECT_EQ(reader->num_stripe_statistics(), reader->num_stripes());
  uint64_t rows = 0;
  StreamBuffers buffers;
  bool saw_row_index = false;
  for (int s = 0; s < reader->num_stripes(); ++s) {
    rows += reader->stripes()[s].num_rows;
    EXPECT_EQ(reader->StripeStatistics(s).size(), kNumPeerColumns);
    PQPAGE_ASSERT_OK_AND_ASSIGN(const StripeFooterInfo footer, reader->ReadStripeFooter(s));
    ASSERT_EQ(footer.encodings.size(), kNumPeerColumns);
    // RLE v2 needs file version 0.12; the 0.11 files use v1.
    const ColumnEncodingKind direct =
        peer.version[1] == 12 ? ColumnEncodingKind::kDirectV2 : ColumnEncodingKind::kDirect;
    EXPECT_EQ(footer.encodings[1].kind, direct);
    EXPECT_EQ(footer.encodings[kStringColumn].kind, direct);
    for (const StreamInfo& stream : footer.streams) {
      saw_row_index = saw_row_index || stream.kind == StreamKind::kRowIndex;
      PQPAGE_EXPECT_OK(reader->ReadStream(stream, &buffers));
    }
  }
  EXPECT_TRUE(saw_row_index);
  EXPECT_EQ(rows, static_cast<uint64_t>(kPeerRows));

  // The double column's DATA stream is its non-null values, little-endian IEEE 754; the string
  // column's is its non-null values one after another.
  std::vector<uint8_t> doubles;
  std::string strings;
  for (int i = 0; i < kPeerRows; ++i) {
    if ((i + 3) % 7 != 3) {
      const double value = i * 0.5;
      const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
      doubles.insert(doubles.end(), bytes, bytes + sizeof(value));
    }
    if ((i + 2) % 7 != 3) strings += absl::StrCat("s", i);
  }
  EXPECT_EQ(WholeStream(*reader, kDoubleColumn, StreamKind::kData), doubles);
  const std::vector<uint8_t> string_data = WholeStream(*reader, kStringColumn, StreamKind::kData);
  EXPECT_EQ(std::string(string_data.begin(), string_data.end()), strings);
}

TEST_P(OrcPeerFileTest, EveryTruncationOfTheTailIsAnError) {
  std::ifstream in(path_, std::ios::binary);
  const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  ASSERT_FALSE(file.empty());
  PQPAGE_ASSERT_OK(OpenBytes(file));
  for (size_t cut = 0; cut < file.size(); ++cut) {
    const std::vector<uint8_t> truncated(file.begin(), file.begin() + cut);
    EXPECT_FALSE(OpenBytes(truncated).ok()) << "cut at " << cut;
  }
}

// Copies a peer's file through OrcFileWriter with another compression: every data stream,
// encoding and statistic must read back unchanged (the row indexes are dropped: the writer
// writes none). PQPAGE_ORC_RECODE_DIR, when set, keeps the files there for other readers.
TEST_P(OrcPeerFileTest, RecodingKeepsEveryDataStreamAndStatistic) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> source, OrcFileReader::Open(path_));
  for (CompressionKind kind : kWritableKinds) {
    SCOPED_TRACE(CompressionKindName(kind).data());
    OrcWriterOptions options;
    options.compression = kind;
    options.compression_block_size = 5000;
    options.file_version = source->version();
    options.writer_version = source->writer_version();
    options.user_metadata = source->user_metadata();
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileWriter> writer,
                                OrcFileWriter::Create(source->types(), options));
    std::vector<std::vector<std::vector<uint8_t>>> kept(source->num_stripes());
    for (int s = 0; s < source->num_stripes(); ++s) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(const StripeFooterInfo footer, source->ReadStripeFooter(s));
      OrcStripeInput stripe;
      stripe.num_rows = source->stripes()[s].num_rows;
      stripe.encodings = footer.encodings;
      stripe.writer_timezone = footer.writer_timezone;
      stripe.statistics = source->StripeStatistics(s);
      StreamBuffers buffers;
      for (const StreamInfo& stream : footer.streams) {
        if (stream.kind == StreamKind::kRowIndex) continue;
        PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> bytes,
                                    source->ReadStream(stream, &buffers));
        kept[s].emplace_back(bytes.begin(), bytes.end());
        stripe.streams.push_back({stream.kind, stream.column, {}});
      }
      for (size_t i = 0; i < kept[s].size(); ++i) stripe.streams[i].bytes = kept[s][i];
      PQPAGE_ASSERT_OK(writer->WriteStripe(stripe));
    }
    PQPAGE_ASSERT_OK(writer->SetFileStatistics(source->FileStatistics()));
    PQPAGE_ASSERT_OK(writer->Close());
    const std::vector<uint8_t> recoded = writer->ReleaseBytes();
    if (const char* keep = std::getenv("PQPAGE_ORC_RECODE_DIR")) {
      const std::string out =
          absl::StrCat(keep, "/", CompressionKindName(kind).data(), "_", GetParam().name);
      std::ofstream(out, std::ios::binary)
          .write(reinterpret_cast<const char*>(recoded.data()),
                 static_cast<std::streamsize>(recoded.size()));
    }

    PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> copy, OpenBytes(recoded));
    EXPECT_EQ(copy->types(), source->types());
    EXPECT_EQ(copy->num_rows(), source->num_rows());
    EXPECT_EQ(copy->FileStatistics(), source->FileStatistics());
    ASSERT_EQ(copy->num_stripes(), source->num_stripes());
    StreamBuffers buffers;
    for (int s = 0; s < copy->num_stripes(); ++s) {
      EXPECT_EQ(copy->StripeStatistics(s), source->StripeStatistics(s));
      PQPAGE_ASSERT_OK_AND_ASSIGN(const StripeFooterInfo footer, copy->ReadStripeFooter(s));
      ASSERT_EQ(footer.streams.size(), kept[s].size());
      for (size_t i = 0; i < footer.streams.size(); ++i) {
        PQPAGE_ASSERT_OK_AND_ASSIGN(absl::Span<const uint8_t> bytes,
                                    copy->ReadStream(footer.streams[i], &buffers));
        EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.end()), kept[s][i]);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PyarrowFiles, OrcPeerFileTest, ::testing::ValuesIn(kPeerFiles),
                         [](const ::testing::TestParamInfo<PeerFile>& info) {
                           std::string name = info.param.name.substr(0, info.param.name.find('.'));
                           return name;
                         });

}  // namespace
}  // namespace pqpage::orc
