// Damaged and hostile ORC files (hand-made tails, truncations, lying lengths, bad type trees,
// stripes and streams out of place) are refused with a clear status, never a crash.
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

// ------------------------------------------------------------------ hostile files

// A file assembled by hand: the body (which must start with "ORC"), then the metadata, footer and
// postscript given, compressed as the postscript says; `tamper` may change the postscript last.
struct HandMadeFile {
  std::vector<uint8_t> body = {'O', 'R', 'C'};
  proto::Footer footer;
  std::optional<proto::Metadata> metadata;
  proto::PostScript postscript;
  std::function<void(proto::PostScript*)> tamper;
  // Raw bytes to use as the stored footer instead of compressing `footer`.
  std::optional<std::vector<uint8_t>> stored_footer;

  HandMadeFile() {
    postscript.set_compression(proto::ZLIB);
    postscript.set_compressionblocksize(4096);
    postscript.add_version(0);
    postscript.add_version(12);
    postscript.set_magic("ORC");
    proto::Type* root = footer.add_types();
    root->set_kind(proto::Type::STRUCT);
    root->add_subtypes(1);
    root->add_fieldnames("x");
    footer.add_types()->set_kind(proto::Type::LONG);
  }

  std::vector<uint8_t> Build() const {
    const CompressionKind kind = static_cast<CompressionKind>(postscript.compression());
    std::vector<uint8_t> file = body;
    std::vector<uint8_t> metadata_bytes;
    if (metadata) {
      EXPECT_TRUE(CompressStream(kind, postscript.compressionblocksize(),
                                 AsBytes(metadata->SerializeAsString()), &metadata_bytes)
                      .ok());
    }
    std::vector<uint8_t> footer_bytes;
    if (stored_footer) {
      footer_bytes = *stored_footer;
    } else {
      EXPECT_TRUE(CompressStream(kind, postscript.compressionblocksize(),
                                 AsBytes(footer.SerializeAsString()), &footer_bytes)
                      .ok());
    }
    proto::PostScript final_postscript = postscript;
    final_postscript.set_footerlength(footer_bytes.size());
    final_postscript.set_metadatalength(metadata_bytes.size());
    if (tamper) tamper(&final_postscript);
    const std::string postscript_bytes = final_postscript.SerializeAsString();
    file.insert(file.end(), metadata_bytes.begin(), metadata_bytes.end());
    file.insert(file.end(), footer_bytes.begin(), footer_bytes.end());
    file.insert(file.end(), postscript_bytes.begin(), postscript_bytes.end());
    file.push_back(static_cast<uint8_t>(postscript_bytes.size()));
    return file;
  }
};

void ExpectOpenFails(const std::vector<uint8_t>& file, StatusCode code,
                     const std::string& message_part = "") {
  absl::StatusOr<std::unique_ptr<OrcFileReader>> reader = OpenBytes(file);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), code) << reader.status();
  EXPECT_NE(reader.status().message().find(message_part), std::string::npos) << reader.status();
}

TEST(OrcHostileFileTest, TheHandMadeBaselineOpens) {
  HandMadeFile made;
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader, OpenBytes(made.Build()));
  EXPECT_EQ(reader->types().size(), 2u);
  EXPECT_EQ(reader->num_stripes(), 0);
}

TEST(OrcHostileFileTest, EveryTruncationOfAFileIsAnError) {
  OrcWriterOptions options;
  options.compression_block_size = 512;
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::vector<uint8_t> file, WriteSample(options));
  for (size_t cut = 0; cut < file.size(); ++cut) {
    const std::vector<uint8_t> truncated(file.begin(), file.begin() + cut);
    EXPECT_FALSE(OpenBytes(truncated).ok()) << "cut at " << cut;
  }
}

TEST(OrcHostileFileTest, PostscriptLengthsOutsideTheFileAreRefused) {
  const std::vector<uint8_t> file = HandMadeFile().Build();
  ASSERT_GT(file.size(), 10u);
  const size_t last = file.size() - 1;
  std::vector<uint8_t> zero = file;
  zero[last] = 0;
  ExpectOpenFails(zero, StatusCode::kDataLoss, "postscript length 0");
  ExpectOpenFails({'O', 'R', 'C', 'x', 200}, StatusCode::kDataLoss, "postscript length 200");
  std::vector<uint8_t> beyond = file;
  beyond[last] = static_cast<uint8_t>(last - 2);  // would reach into the header
  ExpectOpenFails(beyond, StatusCode::kDataLoss);
  ExpectOpenFails({}, StatusCode::kDataLoss, "too short");
  ExpectOpenFails({'O', 'R', 'C', 1}, StatusCode::kDataLoss, "too short");
}

TEST(OrcHostileFileTest, SectionLengthsThatOverflowOrPassTheFileAreRefused) {
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const std::vector<std::function<void(proto::PostScript*)>> tampers = {
      [&](proto::PostScript* ps) { ps->set_footerlength(kMax); },
      [&](proto::PostScript* ps) { ps->set_metadatalength(kMax - 2); },
      [&](proto::PostScript* ps) {
        ps->set_footerlength(uint64_t{1} << 63);
        ps->set_metadatalength(uint64_t{1} << 63);
      },
      [&](proto::PostScript* ps) { ps->set_stripestatisticslength(kMax); },
      [&](proto::PostScript* ps) { ps->set_footerlength(ps->footerlength() + 1000); },
  };
  for (size_t i = 0; i < tampers.size(); ++i) {
    SCOPED_TRACE(i);
    HandMadeFile made;
    made.tamper = tampers[i];
    ExpectOpenFails(made.Build(), StatusCode::kDataLoss, "does not fit");
  }
}

TEST(OrcHostileFileTest, FooterChunksThatLieAreRefused) {
  // A chunk header claiming more bytes than the footer holds.
  HandMadeFile past;
  past.stored_footer = std::vector<uint8_t>{0xf0, 0x00, 0x00, 1, 2, 3};
  ExpectOpenFails(past.Build(), StatusCode::kDataLoss, "runs past the end");
  // A footer chunk that inflates beyond the postscript's block size.
  HandMadeFile big;
  for (int i = 0; i < 200; ++i) big.footer.add_metadata()->set_name("a long enough key name");
  std::vector<uint8_t> stored;
  ASSERT_TRUE(CompressStream(CompressionKind::kZlib, 1 << 20,
                             AsBytes(big.footer.SerializeAsString()), &stored)
                  .ok());
  big.stored_footer = stored;
  big.postscript.set_compressionblocksize(1000);
  ExpectOpenFails(big.Build(), StatusCode::kDataLoss, "more than its limit");
  // Bytes that are not a Footer message.
  HandMadeFile garbage;
  garbage.postscript.set_compression(proto::NONE);
  garbage.stored_footer = std::vector<uint8_t>{0xff, 0xff, 0xff};
  ExpectOpenFails(garbage.Build(), StatusCode::kDataLoss, "not a valid message");
  // A block size of 0 with compression.
  HandMadeFile zero;
  zero.tamper = [](proto::PostScript* ps) { ps->set_compressionblocksize(0); };
  ExpectOpenFails(zero.Build(), StatusCode::kDataLoss, "block size is 0");
}

TEST(OrcHostileFileTest, MagicAndCompressionKindAreChecked) {
  HandMadeFile wrong;
  wrong.postscript.set_magic("ORD");
  ExpectOpenFails(wrong.Build(), StatusCode::kDataLoss, "magic");
  // Hive 0.11's files have no magic in the postscript: the header's is enough...
  HandMadeFile hive;
  hive.postscript.clear_magic();
  PQPAGE_EXPECT_OK(OpenBytes(hive.Build()));
  // ...but one of the two must be there.
  hive.body = {'R', 'C', 'O'};
  ExpectOpenFails(hive.Build(), StatusCode::kDataLoss, "magic");
  // A compression kind newer than the spec's list must not read as NONE.
  HandMadeFile future;
  future.postscript.set_compression(proto::NONE);
  std::vector<uint8_t> file = future.Build();
  const uint8_t postscript_length = file.back();
  file.pop_back();
  file.insert(file.end(), {0x10, 0x09});  // field 2 (compression), varint 9
  file.push_back(static_cast<uint8_t>(postscript_length + 2));
  ExpectOpenFails(file, StatusCode::kUnimplemented, "compression kind 9");
}

TEST(OrcHostileFileTest, BadTypeTreesInTheFooterAreRefused) {
  const std::vector<std::function<void(proto::Footer*)>> breakages = {
      [](proto::Footer* f) { f->clear_types(); },
      [](proto::Footer* f) { f->mutable_types(0)->set_subtypes(0, 7); },
      [](proto::Footer* f) { f->mutable_types(0)->set_subtypes(0, 0); },
      [](proto::Footer* f) { f->mutable_types(0)->add_fieldnames("y"); },
      [](proto::Footer* f) { f->add_types()->set_kind(proto::Type::INT); },
      [](proto::Footer* f) { f->mutable_types(1)->add_subtypes(1); },
      [](proto::Footer* f) { f->mutable_types(0)->set_kind(proto::Type::MAP); },
      [](proto::Footer* f) { f->mutable_types(1)->clear_kind(); },
  };
  for (size_t i = 0; i < breakages.size(); ++i) {
    SCOPED_TRACE(i);
    HandMadeFile made;
    breakages[i](&made.footer);
    ExpectOpenFails(made.Build(), StatusCode::kDataLoss, "type tree");
  }
}

TEST(OrcHostileFileTest, StripesOutsideTheBodyOrOutOfOrderAreRefused) {
  auto add_stripe = [](HandMadeFile* made, uint64_t offset, uint64_t data, uint64_t footer,
                       uint64_t rows) {
    proto::StripeInformation* stripe = made->footer.add_stripes();
    stripe->set_offset(offset);
    stripe->set_datalength(data);
    stripe->set_footerlength(footer);
    stripe->set_numberofrows(rows);
  };
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  struct Case {
    std::string what;
    std::function<void(HandMadeFile*)> build;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"past the tail", [&](HandMadeFile* m) { add_stripe(m, 3, 100, 10, 5); }, "does not lie"},
      {"over the header", [&](HandMadeFile* m) { add_stripe(m, 0, 3, 0, 5); }, "does not lie"},
      {"lengths overflow", [&](HandMadeFile* m) { add_stripe(m, 3, kMax, 2, 5); }, "does not lie"},
      {"overlapping",
       [&](HandMadeFile* m) {
         add_stripe(m, 3, 10, 5, 1);
         add_stripe(m, 10, 5, 5, 1);
       },
       "does not lie"},
      {"rows disagree",
       [&](HandMadeFile* m) {
         add_stripe(m, 3, 10, 5, 4);
         m->footer.set_numberofrows(5);
       },
       "add up"},
      {"rows overflow",
       [&](HandMadeFile* m) {
         add_stripe(m, 3, 5, 5, kMax);
         add_stripe(m, 13, 5, 0, 2);
       },
       "overflow"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HandMadeFile made;
    made.body.resize(30, 0);
    c.build(&made);
    ExpectOpenFails(made.Build(), StatusCode::kDataLoss, c.message);
  }
}

TEST(OrcHostileFileTest, StripeFootersWhoseStreamsPassTheStripeAreRefused) {
  // One stripe of 20 data bytes whose footer is chosen per case.
  auto file_with_stripe_footer = [](const proto::StripeFooter& stripe_footer) {
    HandMadeFile made;
    made.body.resize(3 + 20, 'd');
    std::vector<uint8_t> stored;
    EXPECT_TRUE(CompressStream(CompressionKind::kZlib, 4096,
                               AsBytes(stripe_footer.SerializeAsString()), &stored)
                    .ok());
    made.body.insert(made.body.end(), stored.begin(), stored.end());
    proto::StripeInformation* stripe = made.footer.add_stripes();
    stripe->set_offset(3);
    stripe->set_indexlength(5);
    stripe->set_datalength(15);
    stripe->set_footerlength(stored.size());
    stripe->set_numberofrows(1);
    made.footer.set_numberofrows(1);
    return made.Build();
  };
  auto stream = [](proto::StripeFooter* footer, proto::Stream::Kind kind, uint32_t column,
                   uint64_t length) {
    proto::Stream* s = footer->add_streams();
    s->set_kind(kind);
    s->set_column(column);
    s->set_length(length);
  };
  proto::StripeFooter good;
  stream(&good, proto::Stream::ROW_INDEX, 1, 5);
  stream(&good, proto::Stream::DATA, 1, 12);
  stream(&good, proto::Stream::LENGTH, 1, 3);
  good.add_columns()->set_kind(proto::ColumnEncoding::DIRECT);
  good.add_columns()->set_kind(proto::ColumnEncoding::DIRECT_V2);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> reader,
                              OpenBytes(file_with_stripe_footer(good)));
  PQPAGE_ASSERT_OK_AND_ASSIGN(StripeFooterInfo footer, reader->ReadStripeFooter(0));
  ASSERT_EQ(footer.streams.size(), 3u);
  EXPECT_EQ(footer.streams[1], (StreamInfo{StreamKind::kData, 1, 8, 12}));
  EXPECT_EQ(footer.streams[2], (StreamInfo{StreamKind::kLength, 1, 20, 3}));
  EXPECT_EQ(footer.encodings[1].kind, ColumnEncodingKind::kDirectV2);
  EXPECT_EQ(footer.writer_timezone, std::nullopt);
  // A descriptor not from this file: past its end.
  StreamBuffers buffers;
  PQPAGE_EXPECT_ERROR(reader->ReadStream({StreamKind::kData, 1, 5, 1u << 30}, &buffers),
                      StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(
      reader->ReadStream({StreamKind::kData, 1, std::numeric_limits<uint64_t>::max(), 2}, &buffers),
      StatusCode::kDataLoss);
  // Stored bytes that are not chunks: 'd' * 12 read as chunk headers run past the stream.
  PQPAGE_EXPECT_ERROR(reader->ReadStream(footer.streams[1], &buffers), StatusCode::kDataLoss);

  proto::StripeFooter past = good;
  past.mutable_streams(2)->set_length(4);
  PQPAGE_ASSERT_OK_AND_ASSIGN(reader, OpenBytes(file_with_stripe_footer(past)));
  absl::StatusOr<StripeFooterInfo> refused = reader->ReadStripeFooter(0);
  PQPAGE_EXPECT_ERROR(refused, StatusCode::kDataLoss);
  EXPECT_NE(refused.status().message().find("runs past"), std::string::npos) << refused.status();

  proto::StripeFooter overflow = good;
  overflow.mutable_streams(1)->set_length(std::numeric_limits<uint64_t>::max());
  PQPAGE_ASSERT_OK_AND_ASSIGN(reader, OpenBytes(file_with_stripe_footer(overflow)));
  PQPAGE_EXPECT_ERROR(reader->ReadStripeFooter(0), StatusCode::kDataLoss);

  proto::StripeFooter bad_column = good;
  bad_column.mutable_streams(0)->set_column(2);
  PQPAGE_ASSERT_OK_AND_ASSIGN(reader, OpenBytes(file_with_stripe_footer(bad_column)));
  PQPAGE_EXPECT_ERROR(reader->ReadStripeFooter(0), StatusCode::kDataLoss);

  proto::StripeFooter no_kind = good;
  no_kind.mutable_streams(0)->clear_kind();
  PQPAGE_ASSERT_OK_AND_ASSIGN(reader, OpenBytes(file_with_stripe_footer(no_kind)));
  PQPAGE_EXPECT_ERROR(reader->ReadStripeFooter(0), StatusCode::kDataLoss);
}

}  // namespace
}  // namespace pqpage::orc
