// Advise (pqpage/advise.h) on files written here: every column gets every policy measured and one
// advice by the rule auto uses; the options AdvisedOptions makes, given to Recode, write exactly
// the advised bytes and encodings; Arrow dictionary columns are advised only dictionary or PLAIN.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "page/choice/encoding_measure.h"
#include "pqpage/advise.h"
#include "pqpage/recode.h"
#include "recode_sample_file.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using AdviseTest = testing::SampleFileTest;

TEST_F(AdviseTest, EveryColumnGetsEveryPolicyAndOneAdvice) {
  int progress_calls = 0;
  AdviseOptions options;
  options.on_progress = [&](const FileProgress& at) {
    ++progress_calls;
    EXPECT_LE(at.bytes_done, at.total_bytes);
  };
  PQPAGE_ASSERT_OK_AND_ASSIGN(FileAdvice advice, Advise(*input_, options));
  EXPECT_EQ(progress_calls, 10);  // one per chunk
  EXPECT_EQ(advice.num_row_groups, 2);
  ASSERT_EQ(advice.columns.size(), 5u);
  int64_t current = 0;
  for (const ColumnAdvice& column : advice.columns) {
    ASSERT_EQ(column.totals.size(), AdvisedPolicies().size());
    for (size_t i = 0; i < column.totals.size(); ++i) {
      EXPECT_EQ(column.totals[i].policy, AdvisedPolicies()[i]);
      EXPECT_GT(column.totals[i].stored_bytes, 0);
    }
    EXPECT_EQ(column.chunks.size(), 2u);
    EXPECT_FALSE(column.advised().same_as.has_value()) << column.path;
    EXPECT_EQ(column.codec, Compression::kSnappy);
    int64_t chunks = 0;
    for (int rg = 0; rg < 2; ++rg) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation location,
                                  input_->LocateColumnChunk(rg, column.column));
      chunks += location.length;
    }
    EXPECT_EQ(column.current_bytes, chunks);
    current += chunks;
    // A policy a peer refuses is advised only when every one is refused.
    const bool some_readable =
        std::any_of(column.totals.begin(), column.totals.end(),
                    [](const PolicyTotal& t) { return t.refused_by.empty(); });
    if (some_readable) EXPECT_TRUE(column.advised().refused_by.empty()) << column.path;
    // No policy that is as small (within the margin) decodes clearly faster: the advice is the
    // rule's answer.
    int64_t smallest = column.advised().stored_bytes;
    for (const PolicyTotal& total : column.totals) {
      if (!total.same_as && total.refused_by.empty()) {
        smallest = std::min(smallest, total.stored_bytes);
      }
    }
    EXPECT_LE(static_cast<double>(column.advised().stored_bytes), smallest * 1.02) << column.path;
  }
  EXPECT_EQ(advice.current_bytes(), current);
  // The sequential ids are far smaller in delta than PLAIN, and four cities as a dictionary.
  EXPECT_LT(advice.advised_bytes(), advice.current_bytes());
  EXPECT_NE(advice.columns[0].advised().policy, EncodingPolicy::kPlain);
  EXPECT_NE(advice.columns[1].advised().policy, EncodingPolicy::kPlain);
}

TEST_F(AdviseTest, AdvisedOptionsMakeRecodeWriteWhatWasAdvised) {
  AdviseOptions options;
  options.data_page_version = 2;
  options.compression = Compression::kZstd;
  PQPAGE_ASSERT_OK_AND_ASSIGN(FileAdvice advice, Advise(*input_, options));
  RecodeOptions recode;
  recode.writer = AdvisedOptions(advice);
  EXPECT_EQ(recode.writer.data_page_version, 2);
  EXPECT_EQ(recode.writer.compression, Compression::kZstd);
  PQPAGE_ASSERT_OK_AND_ASSIGN(RecodeReport report, Recode(*input_, out_path_, recode));
  ASSERT_EQ(report.columns.size(), advice.columns.size());
  for (size_t c = 0; c < advice.columns.size(); ++c) {
    const PolicyTotal& advised = advice.columns[c].advised();
    EXPECT_EQ(report.columns[c].output_bytes, advised.stored_bytes) << report.columns[c].path;
    std::set<std::string> want;
    for (const std::string& joined : advised.encodings) {
      for (const absl::string_view name : absl::StrSplit(joined, '+')) want.emplace(name);
    }
    std::set<std::string> got;
    for (const Encoding encoding : report.columns[c].encodings) {
      got.emplace(EncodingName(encoding));
    }
    EXPECT_EQ(got, want) << report.columns[c].path;
  }
}

TEST(AdvisedOptionsTest, MostCommonPolicyAndCodecAreTheDefaultsAndTheRestOverrides) {
  FileAdvice advice;
  advice.data_page_version = 2;
  const auto column = [](const std::string& path, EncodingPolicy policy, Compression codec) {
    ColumnAdvice c;
    c.path = path;
    c.codec = codec;
    PolicyTotal total;
    total.policy = policy;
    c.totals.push_back(total);
    c.recommended = 0;
    return c;
  };
  advice.columns = {column("a", EncodingPolicy::kDelta, Compression::kZstd),
                    column("b", EncodingPolicy::kDictionary, Compression::kSnappy),
                    column("c", EncodingPolicy::kDictionary, Compression::kSnappy)};
  WriterOptions options = AdvisedOptions(advice);
  EXPECT_EQ(options.data_page_version, 2);
  EXPECT_EQ(options.encoding, EncodingPolicy::kDictionary);
  EXPECT_EQ(options.compression, Compression::kSnappy);
  ASSERT_EQ(options.column_overrides.size(), 1u);
  EXPECT_EQ(options.column_overrides["a"].encoding, EncodingPolicy::kDelta);
  EXPECT_EQ(options.column_overrides["a"].compression, Compression::kZstd);
  // A tie goes to the value that reached the count first.
  advice.columns.pop_back();
  options = AdvisedOptions(advice);
  EXPECT_EQ(options.encoding, EncodingPolicy::kDelta);
  EXPECT_EQ(options.compression, Compression::kZstd);
  EXPECT_EQ(options.column_overrides["b"].encoding, EncodingPolicy::kDictionary);
}

TEST_F(AdviseTest, OneColumnAndBadRequests) {
  AdviseOptions options;
  options.column = "city";
  PQPAGE_ASSERT_OK_AND_ASSIGN(FileAdvice advice, Advise(*input_, options));
  ASSERT_EQ(advice.columns.size(), 1u);
  EXPECT_EQ(advice.columns[0].path, "city");
  EXPECT_EQ(advice.columns[0].column, 1);
  options.column = "no.such.column";
  absl::StatusOr<FileAdvice> unknown = Advise(*input_, options);
  PQPAGE_EXPECT_ERROR(unknown, absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("no.such.column"), std::string::npos);
  AdviseOptions bad_version;
  bad_version.data_page_version = 3;
  PQPAGE_EXPECT_ERROR(Advise(*input_, bad_version), absl::StatusCode::kInvalidArgument);
}

TEST(AdviseArrowTest, ArrowDictionaryColumnsAreAdvisedOnlyDictionaryOrPlain) {
  const std::string path = testing::TestTempPath("arrow.parquet");
  PQPAGE_ASSERT_OK(testing::WriteArrowSampleFile(path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> file, FileReader::Open(path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(FileAdvice advice, Advise(*file, AdviseOptions{}));
  int dictionary_columns = 0;
  for (const ColumnAdvice& column : advice.columns) {
    if (column.arrow_dictionary) {
      ++dictionary_columns;
      EXPECT_TRUE(ArrowDictionaryPolicy(column.advised().policy)) << column.path;
    } else if (column.path == "s") {
      // The same strings where Arrow wants no dictionary: delta is far smaller.
      EXPECT_FALSE(ArrowDictionaryPolicy(column.advised().policy));
    }
  }
  EXPECT_EQ(dictionary_columns, 4);
  std::remove(path.c_str());
}

// The rule advise and auto share.
TEST(ChooseSmallOrFastTest, MarginSlackAndSameCost) {
  using internal::ChooseSmallOrFast;
  using internal::SizeAndCost;
  using internal::TieRule;
  const TieRule exact{.margin = 0.02, .slack_bytes = 0, .same_cost = 0};
  // Within the margin the faster wins; past it the smaller.
  EXPECT_EQ(ChooseSmallOrFast(std::vector<SizeAndCost>{{100, 10}, {101, 5}}, exact), 1u);
  EXPECT_EQ(ChooseSmallOrFast(std::vector<SizeAndCost>{{100, 10}, {110, 5}}, exact), 0u);
  // Slack in bytes widens the margin for small sizes.
  const TieRule slack{.margin = 0, .slack_bytes = 16, .same_cost = 0};
  EXPECT_EQ(ChooseSmallOrFast(std::vector<SizeAndCost>{{10, 10}, {25, 1}}, slack), 1u);
  EXPECT_EQ(ChooseSmallOrFast(std::vector<SizeAndCost>{{10, 10}, {27, 1}}, slack), 0u);
  // Costs within same_cost are equal: the smaller wins, and on equal sizes the earlier.
  const TieRule noisy{.margin = 0.02, .slack_bytes = 0, .same_cost = 0.05};
  EXPECT_EQ(ChooseSmallOrFast(std::vector<SizeAndCost>{{100, 10}, {99, 10.3}}, noisy), 1u);
  EXPECT_EQ(ChooseSmallOrFast(std::vector<SizeAndCost>{{100, 10}, {100, 9.7}}, noisy), 0u);
  EXPECT_EQ(ChooseSmallOrFast(std::vector<SizeAndCost>{{100, 10}, {99, 10.3}}, exact), 0u);
  EXPECT_EQ(ChooseSmallOrFast(std::vector<SizeAndCost>{{100, 10}, {100, 9}}, noisy), 1u);
}

}  // namespace
}  // namespace pqpage
