// The names a tool or binding takes from its user, parsed by the library: codecs pqpage writes and
// encoding policies in any case, compression levels checked, and the errors that list what is
// accepted.
#include <gtest/gtest.h>

#include <string>

#include "absl/status/status.h"
#include "pqpage/compression.h"
#include "pqpage/writer_options.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

TEST(WritableCompressionTest, NamesInAnyCaseReadBack) {
  for (const Compression codec :
       {Compression::kUncompressed, Compression::kSnappy, Compression::kGzip, Compression::kZstd,
        Compression::kLz4Raw, Compression::kBrotli}) {
    const std::string name = WritableCompressionName(codec);
    PQPAGE_ASSERT_OK_AND_ASSIGN(Compression parsed, WritableCompressionFromName(name));
    EXPECT_EQ(parsed, codec) << name;
  }
  EXPECT_EQ(WritableCompressionName(Compression::kLz4Raw), "lz4_raw");
  PQPAGE_ASSERT_OK_AND_ASSIGN(Compression zstd, WritableCompressionFromName("ZStd"));
  EXPECT_EQ(zstd, Compression::kZstd);
  PQPAGE_ASSERT_OK_AND_ASSIGN(Compression none, WritableCompressionFromName("NONE"));
  EXPECT_EQ(none, Compression::kUncompressed);
}

TEST(WritableCompressionTest, CodecsPqpageDoesNotWriteAreRefusedWithTheList) {
  for (const char* name : {"lzo", "lz4", "", "zstd "}) {
    const absl::StatusOr<Compression> parsed = WritableCompressionFromName(name);
    ASSERT_FALSE(parsed.ok()) << name;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(parsed.status().message(),
              std::string("unknown compression '") + name +
                  "' (uncompressed, snappy, gzip, zstd, lz4_raw, brotli)");
  }
}

TEST(CheckCompressionLevelTest, DefaultAlwaysPassesAndABadLevelSaysWhy) {
  for (const Compression codec :
       {Compression::kUncompressed, Compression::kSnappy, Compression::kGzip, Compression::kZstd,
        Compression::kLz4Raw, Compression::kBrotli}) {
    PQPAGE_EXPECT_OK(CheckCompressionLevel(codec, kDefaultCompressionLevel));
  }
  PQPAGE_EXPECT_OK(CheckCompressionLevel(Compression::kZstd, 3));
  PQPAGE_EXPECT_OK(CheckCompressionLevel(Compression::kGzip, 9));
  const absl::Status gzip = CheckCompressionLevel(Compression::kGzip, 99);
  EXPECT_EQ(gzip.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(gzip.message()).find("GZIP"), std::string::npos) << gzip.message();
  const absl::Status brotli = CheckCompressionLevel(Compression::kBrotli, 12);
  EXPECT_EQ(brotli.code(), absl::StatusCode::kInvalidArgument);
}

TEST(EncodingPolicyFromNameTest, NamesInAnyCaseAndTheListOtherwise) {
  for (const EncodingPolicy policy :
       {EncodingPolicy::kAuto, EncodingPolicy::kPlain, EncodingPolicy::kDictionary,
        EncodingPolicy::kDelta, EncodingPolicy::kDeltaLengthByteArray,
        EncodingPolicy::kByteStreamSplit}) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(EncodingPolicy parsed,
                                EncodingPolicyFromName(EncodingPolicyName(policy)));
    EXPECT_EQ(parsed, policy);
  }
  PQPAGE_ASSERT_OK_AND_ASSIGN(EncodingPolicy delta, EncodingPolicyFromName("DELTA"));
  EXPECT_EQ(delta, EncodingPolicy::kDelta);
  const absl::StatusOr<EncodingPolicy> unknown = EncodingPolicyFromName("rle");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(unknown.status().message(),
            "unknown encoding 'rle' (auto, plain, dictionary, delta, delta_length_byte_array, "
            "byte_stream_split)");
}

}  // namespace
}  // namespace pqpage
