// Recode (pqpage/recode.h) on files written here: every value survives, overrides and the Arrow
// dictionary restriction apply, the thread count changes nothing, and bad input fails cleanly.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "pqpage/recode.h"
#include "recode_sample_file.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool Exists(const std::string& path) { return std::ifstream(path).good(); }

// Every chunk of `a` and `b` holds the same levels and values.
void ExpectSameContent(const FileReader& a, const FileReader& b) {
  ASSERT_EQ(a.num_row_groups(), b.num_row_groups());
  ASSERT_EQ(a.schema().columns().size(), b.schema().columns().size());
  for (int rg = 0; rg < a.num_row_groups(); ++rg) {
    EXPECT_EQ(a.row_group_num_rows(rg), b.row_group_num_rows(rg));
    for (int c = 0; c < static_cast<int>(a.schema().columns().size()); ++c) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> want, testing::ChunkLevels(a, rg, c));
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> got, testing::ChunkLevels(b, rg, c));
      EXPECT_FALSE(want.empty());
      EXPECT_TRUE(want == got) << "row group " << rg << ", column "
                               << a.schema().columns()[c].PathString();
    }
  }
}

// The data page value encodings of every chunk of `column` in `file`, distinct.
std::vector<Encoding> ValueEncodings(const FileReader& file, int column) {
  std::vector<Encoding> encodings;
  for (const RowGroup& group : file.metadata().row_groups) {
    const ColumnChunk& chunk = group.columns[static_cast<size_t>(column)];
    if (!chunk.meta_data || !chunk.meta_data->encoding_stats) continue;
    for (const PageEncodingStats& stats : *chunk.meta_data->encoding_stats) {
      const auto type = static_cast<PageType>(stats.page_type_id);
      const auto encoding = static_cast<Encoding>(stats.encoding_id);
      if ((type == PageType::kDataPage || type == PageType::kDataPageV2) &&
          std::find(encodings.begin(), encodings.end(), encoding) == encodings.end()) {
        encodings.push_back(encoding);
      }
    }
  }
  return encodings;
}

using RecodeTest = testing::SampleFileTest;

TEST_F(RecodeTest, EveryValueSurvivesEveryPolicyAndPageVersion) {
  for (const EncodingPolicy policy : {EncodingPolicy::kAuto, EncodingPolicy::kDictionary,
                                      EncodingPolicy::kDelta, EncodingPolicy::kByteStreamSplit}) {
    for (const int version : {1, 2}) {
      RecodeOptions options;
      options.writer.encoding = policy;
      options.writer.data_page_version = version;
      options.writer.compression = Compression::kZstd;
      PQPAGE_ASSERT_OK_AND_ASSIGN(RecodeReport report, Recode(*input_, out_path_, options));
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> output, FileReader::Open(out_path_));
      ExpectSameContent(*input_, *output);
      EXPECT_EQ(report.num_row_groups, 2);
      EXPECT_EQ(report.output_bytes, static_cast<int64_t>(ReadAll(out_path_).size()));
      EXPECT_EQ(report.input_bytes, static_cast<int64_t>(ReadAll(in_path_).size()));
      ASSERT_EQ(report.columns.size(), 5u);
      for (size_t c = 0; c < report.columns.size(); ++c) {
        EXPECT_EQ(report.columns[c].encodings, ValueEncodings(*output, static_cast<int>(c)))
            << report.columns[c].path;
        EXPECT_GT(report.columns[c].output_bytes, 0);
        EXPECT_GT(report.columns[c].input_bytes, 0);
      }
    }
  }
}

TEST_F(RecodeTest, OutputDoesNotDependOnTheThreadCount) {
  RecodeOptions options;
  options.threads = 1;
  PQPAGE_ASSERT_OK(Recode(*input_, out_path_, options));
  const std::string one_thread = ReadAll(out_path_);
  options.threads = 4;
  PQPAGE_ASSERT_OK(Recode(*input_, out_path_, options));
  EXPECT_TRUE(one_thread == ReadAll(out_path_));
  EXPECT_FALSE(one_thread.empty());
}

TEST_F(RecodeTest, ColumnOverridesApply) {
  RecodeOptions options;
  options.writer.encoding = EncodingPolicy::kPlain;
  options.writer.column_overrides["id"].encoding = EncodingPolicy::kDelta;
  options.writer.column_overrides["tags.list.element"].encoding =
      EncodingPolicy::kDeltaLengthByteArray;
  options.writer.column_overrides["price"].compression = Compression::kGzip;
  PQPAGE_ASSERT_OK_AND_ASSIGN(RecodeReport report, Recode(*input_, out_path_, options));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> output, FileReader::Open(out_path_));
  ExpectSameContent(*input_, *output);
  EXPECT_EQ(ValueEncodings(*output, 0), std::vector<Encoding>{Encoding::kDeltaBinaryPacked});
  EXPECT_EQ(ValueEncodings(*output, 1), std::vector<Encoding>{Encoding::kPlain});
  EXPECT_EQ(ValueEncodings(*output, 4), std::vector<Encoding>{Encoding::kDeltaLengthByteArray});
  EXPECT_EQ(report.columns[4].encodings, ValueEncodings(*output, 4));
  for (int rg = 0; rg < 2; ++rg) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation price, output->LocateColumnChunk(rg, 2));
    EXPECT_EQ(price.codec, Compression::kGzip);
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation id, output->LocateColumnChunk(rg, 0));
    EXPECT_EQ(id.codec, Compression::kSnappy);
  }
}

TEST_F(RecodeTest, VerifiesAndReportsProgress) {
  RecodeOptions options;
  options.verify = true;
  options.threads = 3;
  std::vector<FileProgress> seen;
  options.on_progress = [&](const FileProgress& at) { seen.push_back(at); };
  PQPAGE_ASSERT_OK_AND_ASSIGN(RecodeReport report, Recode(*input_, out_path_, options));
  EXPECT_TRUE(report.verified);
  ASSERT_FALSE(seen.empty());
  std::map<std::pair<int, int>, int> chunks_seen;
  for (const FileProgress& at : seen) {
    EXPECT_EQ(at.num_row_groups, 2);
    EXPECT_EQ(at.num_columns, 5);
    EXPECT_GE(at.bytes_done, 0);
    EXPECT_LE(at.bytes_done, at.total_bytes);
    ++chunks_seen[{at.row_group, at.column}];
  }
  EXPECT_EQ(chunks_seen.size(), 10u);  // every chunk has a page
}

TEST_F(RecodeTest, RefusesBadRequestsBeforeWritingAnything) {
  RecodeOptions options;
  options.writer.column_overrides["no.such.column"].encoding = EncodingPolicy::kPlain;
  absl::StatusOr<RecodeReport> unknown = Recode(*input_, out_path_, options);
  PQPAGE_EXPECT_ERROR(unknown, absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("no.such.column"), std::string::npos);
  EXPECT_TRUE(IsUnknownColumnError(unknown.status()));
  EXPECT_EQ(unknown.status().GetPayload(kUnknownColumnPayload), absl::Cord("no.such.column"));
  EXPECT_FALSE(Exists(out_path_));

  absl::StatusOr<RecodeReport> onto_input = Recode(*input_, in_path_, RecodeOptions{});
  PQPAGE_EXPECT_ERROR(onto_input, absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(IsUnknownColumnError(onto_input.status()));
  EXPECT_FALSE(ReadAll(in_path_).empty());  // the input was not truncated

  RecodeOptions no_threads;
  no_threads.threads = 0;
  absl::StatusOr<RecodeReport> refused = Recode(*input_, out_path_, no_threads);
  PQPAGE_EXPECT_ERROR(refused, absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(IsUnknownColumnError(refused.status()));
  EXPECT_FALSE(IsUnknownColumnError(absl::OkStatus()));

  absl::StatusOr<RecodeReport> unwritable =
      Recode(*input_, testing::TestTempPath("no_such_dir/out.parquet"), RecodeOptions{});
  EXPECT_FALSE(unwritable.ok());
}

TEST_F(RecodeTest, DamagedInputFailsTheSameWayOnAnyThreadCountAndLeavesNoOutput) {
  // The second row group's price chunk overwritten: its pages no longer decode.
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation price, input_->LocateColumnChunk(1, 2));
  const std::string damaged_path = testing::TestTempPath("damaged.parquet");
  PQPAGE_ASSERT_OK(testing::WriteDamagedCopy(in_path_, price, damaged_path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> damaged, FileReader::Open(damaged_path));
  std::vector<std::string> messages;
  for (const int threads : {1, 4}) {
    RecodeOptions options;
    options.threads = threads;
    absl::StatusOr<RecodeReport> report = Recode(*damaged, out_path_, options);
    ASSERT_FALSE(report.ok());
    messages.push_back(std::string(report.status().message()));
    EXPECT_FALSE(Exists(out_path_)) << "a failed recode must remove its output";
  }
  EXPECT_EQ(messages[0], messages[1]);
  std::remove(damaged_path.c_str());
}

// A column the ARROW:schema makes a dictionary type gets the dictionary or PLAIN under auto; the
// same data in a plain string column goes where its size takes it (DELTA_BYTE_ARRAY here).
TEST(RecodeArrowTest, ArrowDictionaryColumnsStayDictionaryOrPlain) {
  const std::string in_path = testing::TestTempPath("arrow_in.parquet");
  const std::string out_path = testing::TestTempPath("arrow_out.parquet");
  PQPAGE_ASSERT_OK(testing::WriteArrowSampleFile(in_path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> input, FileReader::Open(in_path));
  RecodeOptions options;
  options.writer.auto_encodings = AutoEncodings::kAll;
  PQPAGE_ASSERT_OK_AND_ASSIGN(RecodeReport report, Recode(*input, out_path, options));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> output, FileReader::Open(out_path));
  ExpectSameContent(*input, *output);
  int dictionary_columns = 0;
  for (size_t c = 0; c < report.columns.size(); ++c) {
    const RecodedColumn& column = report.columns[c];
    for (const Encoding encoding : column.encodings) {
      if (column.arrow_dictionary) {
        EXPECT_TRUE(encoding == Encoding::kRleDictionary || encoding == Encoding::kPlain)
            << column.path << ": " << EncodingName(encoding);
      }
    }
    if (column.arrow_dictionary) ++dictionary_columns;
    if (column.path == "s") {
      EXPECT_EQ(column.encodings, std::vector<Encoding>{Encoding::kDeltaByteArray});
    }
  }
  EXPECT_EQ(dictionary_columns, 4);  // cat, l.list.element, st.a, the map's value
  // An explicit auto_encodings override is the caller's choice and wins.
  options.writer.column_overrides["cat"].auto_encodings = AutoEncodings::kAll;
  PQPAGE_ASSERT_OK_AND_ASSIGN(report, Recode(*input, out_path, options));
  EXPECT_EQ(report.columns[0].encodings, std::vector<Encoding>{Encoding::kDeltaByteArray});
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
}

}  // namespace
}  // namespace pqpage
