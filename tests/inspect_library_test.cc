// Inspect and ReadChunks through the library: the reports of a generated file (pages, encodings,
// nulls, rows, page index) on any thread count, column selection and callback order, a damaged
// chunk reported in its report, and every value of the selected chunks and rows read in order.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pqpage/file.h"
#include "pqpage/inspect.h"
#include "pqpage/read_chunks.h"
#include "recode_sample_file.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using InspectTest = testing::SampleFileTest;
using testing::kSampleRowsPerGroup;

constexpr int kColumns = 5;  // id, city, price, flag, tags.element

int64_t DataPageSum(const InspectedChunk& chunk,
                    std::optional<int64_t> (InspectedPage::*count)() const) {
  int64_t sum = 0;
  for (const InspectedPage& page : chunk.pages) {
    if (!page.is_data_page()) continue;
    const std::optional<int64_t> value = (page.*count)();
    EXPECT_TRUE(value.has_value()) << "page at " << page.info.offset;
    sum += value.value_or(0);
  }
  return sum;
}

TEST_F(InspectTest, ReportsEveryChunksPagesEncodingsNullsAndRows) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<InspectedChunk> chunks, InspectFile(*input_));
  ASSERT_EQ(chunks.size(), size_t{2} * kColumns);
  for (size_t i = 0; i < chunks.size(); ++i) {
    const InspectedChunk& chunk = chunks[i];
    SCOPED_TRACE(absl::StrCat("row group ", chunk.row_group, " column ", chunk.column));
    EXPECT_EQ(chunk.row_group, static_cast<int>(i) / kColumns);
    EXPECT_EQ(chunk.column, static_cast<int>(i) % kColumns);
    ASSERT_NE(chunk.descriptor, nullptr);
    EXPECT_EQ(chunk.descriptor, &input_->schema().columns()[static_cast<size_t>(chunk.column)]);
    ASSERT_NE(chunk.footer, nullptr);
    ASSERT_TRUE(chunk.location.has_value());
    EXPECT_EQ(chunk.problems(), 0);
    EXPECT_TRUE(chunk.errors.empty());
    ASSERT_FALSE(chunk.pages.empty());
    EXPECT_EQ(chunk.pages.front().info.offset, chunk.location->offset);
    for (const InspectedPage& page : chunk.pages) {
      EXPECT_TRUE(page.error.empty()) << page.error;
      if (page.is_data_page()) EXPECT_TRUE(page.decoded);
    }
    // Every row of the group is in the chunk's pages, and every level in their value counts.
    EXPECT_EQ(DataPageSum(chunk, &InspectedPage::rows), kSampleRowsPerGroup);
    int64_t levels = 0;
    for (const InspectedPage& page : chunk.pages) {
      if (page.is_data_page()) levels += page.info.num_values;
    }
    EXPECT_EQ(levels, chunk.footer->meta_data->num_values);
    EXPECT_FALSE(chunk.DictionaryFallback());
    // FileWriter writes a page index by default, and it agrees with the pages.
    EXPECT_TRUE(chunk.page_index.has_value());
    EXPECT_TRUE(chunk.page_index_error.empty());
    EXPECT_TRUE(chunk.page_index_problems.empty()) << chunk.page_index_problems.front();
    EXPECT_EQ(chunk.page_index->pages.size(), chunk.DataPageNumbers().size());

    const std::vector<PageEncodingCount> mix = chunk.EncodingMix();
    ASSERT_FALSE(mix.empty());
    if (chunk.column == 1) {  // city: written as a dictionary
      EXPECT_EQ(mix.front().page_type_id, static_cast<int>(PageType::kDictionaryPage));
      ASSERT_EQ(mix.size(), 2u);
      EXPECT_EQ(mix[1].encoding, Encoding::kRleDictionary);
    } else {
      ASSERT_EQ(mix.size(), 1u);
      EXPECT_EQ(mix[0].encoding, Encoding::kPlain);
    }
    int64_t pages = 0;
    for (const PageEncodingCount& entry : mix) pages += entry.count;
    EXPECT_EQ(pages, static_cast<int64_t>(chunk.pages.size()));
  }
  // id: every seventh row of the file is null.
  int64_t id_nulls = 0;
  for (int64_t row = 0; row < kSampleRowsPerGroup; ++row) id_nulls += row % 7 == 0 ? 1 : 0;
  EXPECT_EQ(DataPageSum(chunks[0], &InspectedPage::nulls), id_nulls);
  EXPECT_EQ(DataPageSum(chunks[2], &InspectedPage::nulls), 0);  // price is required
  // tags.element: a null list (row % 5 == 0), an empty list (1) and null elements are nulls.
  int64_t tag_nulls = 0;
  for (int64_t row = 0; row < kSampleRowsPerGroup; ++row) {
    if (row % 5 <= 1) ++tag_nulls;
    for (int64_t e = 0; row % 5 > 1 && e < row % 5 - 1; ++e) tag_nulls += (row + e) % 11 == 0;
  }
  EXPECT_EQ(DataPageSum(chunks[4], &InspectedPage::nulls), tag_nulls);
}

// Everything a report holds that can be compared, as text.
std::string Summary(const InspectedChunk& chunk) {
  std::string text = absl::StrCat(chunk.row_group, "/", chunk.column, ":");
  for (const InspectedPage& page : chunk.pages) {
    absl::StrAppend(&text, " ", page.info.offset, ",", page.nulls().value_or(-1), ",",
                    page.rows().value_or(-1), ",", page.error);
  }
  for (const std::string& error : chunk.errors) absl::StrAppend(&text, " error ", error);
  return text;
}

TEST_F(InspectTest, SelectedColumnsComeInFileOrderOnAnyThreadCount) {
  std::vector<std::string> first;
  for (const int threads : {1, 2, 7}) {
    InspectOptions options;
    options.threads = threads;
    options.columns = {4, 1};
    std::vector<std::string> seen;
    InspectCallbacks callbacks;
    callbacks.on_row_group = [&](int row_group) {
      seen.push_back(absl::StrCat("row group ", row_group));
      return absl::OkStatus();
    };
    callbacks.on_chunk = [&](InspectedChunk chunk) {
      seen.push_back(Summary(chunk));
      return absl::OkStatus();
    };
    PQPAGE_ASSERT_OK(InspectFile(*input_, options, callbacks));
    ASSERT_EQ(seen.size(), 6u);
    EXPECT_EQ(seen[0], "row group 0");
    EXPECT_EQ(seen[1].substr(0, 4), "0/4:");
    EXPECT_EQ(seen[2].substr(0, 4), "0/1:");
    EXPECT_EQ(seen[3], "row group 1");
    EXPECT_EQ(seen[4].substr(0, 4), "1/4:");
    EXPECT_EQ(seen[5].substr(0, 4), "1/1:");
    if (first.empty()) first = seen;
    EXPECT_EQ(seen, first) << threads << " threads";
  }
  PQPAGE_ASSERT_OK_AND_ASSIGN(InspectedChunk one, InspectChunk(*input_, 1, 4));
  EXPECT_EQ(Summary(one), first[4]);
}

TEST_F(InspectTest, RefusesBadRequestsAndStopsAtACallbacksError) {
  InspectOptions options;
  options.threads = 0;
  EXPECT_EQ(InspectFile(*input_, options).status().code(), absl::StatusCode::kInvalidArgument);
  options.threads = 1;
  options.columns = {kColumns};
  EXPECT_EQ(InspectFile(*input_, options).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(InspectChunk(*input_, 2, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(InspectChunk(*input_, 0, -1).status().code(), absl::StatusCode::kInvalidArgument);

  int calls = 0;
  InspectCallbacks callbacks;
  callbacks.on_chunk = [&](const InspectedChunk& /*chunk*/) {
    return ++calls == 2 ? absl::CancelledError("enough") : absl::OkStatus();
  };
  const absl::Status stopped = InspectFile(*input_, InspectOptions{}, callbacks);
  EXPECT_EQ(stopped.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(calls, 2);
}

TEST_F(InspectTest, ADamagedChunkIsReportedNotReturned) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation price, input_->LocateColumnChunk(0, 2));
  const std::string damaged_path = testing::TestTempPath("damaged.parquet");
  PQPAGE_ASSERT_OK(testing::WriteDamagedCopy(in_path_, price, damaged_path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> damaged, FileReader::Open(damaged_path));
  InspectOptions options;
  options.threads = 3;
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<InspectedChunk> chunks, InspectFile(*damaged, options));
  ASSERT_EQ(chunks.size(), size_t{2} * kColumns);
  for (const InspectedChunk& chunk : chunks) {
    if (chunk.row_group == 0 && chunk.column == 2) {
      EXPECT_GT(chunk.problems(), 0);
      EXPECT_TRUE(chunk.location.has_value());  // the footer still places it
    } else {
      EXPECT_EQ(chunk.problems(), 0) << chunk.row_group << "/" << chunk.column;
    }
  }
  std::remove(damaged_path.c_str());
}

TEST(InspectedChunkTest, EncodingMixAndDictionaryFallback) {
  InspectedChunk chunk;
  const auto add = [&](PageType type, Encoding encoding) {
    InspectedPage page;
    page.info.type = type;
    page.info.type_id = static_cast<int>(type);
    page.info.encoding = encoding;
    chunk.pages.push_back(page);
  };
  add(PageType::kDictionaryPage, Encoding::kPlain);
  add(PageType::kDataPage, Encoding::kRleDictionary);
  add(PageType::kIndexPage, Encoding::kPlain);
  add(PageType::kDataPage, Encoding::kRleDictionary);
  EXPECT_FALSE(chunk.DictionaryFallback());
  add(PageType::kDataPageV2, Encoding::kPlain);
  EXPECT_TRUE(chunk.DictionaryFallback());
  EXPECT_EQ(chunk.DataPageNumbers(), (std::vector<size_t>{1, 3, 4}));
  const std::vector<PageEncodingCount> mix = chunk.EncodingMix();
  ASSERT_EQ(mix.size(), 4u);
  EXPECT_EQ(mix[1].page_type_id, static_cast<int>(PageType::kDataPage));
  EXPECT_EQ(mix[1].count, 2);
  EXPECT_FALSE(mix[2].encoding.has_value());  // an index page has no encoding
  EXPECT_EQ(mix[3].page_type_id, static_cast<int>(PageType::kDataPageV2));
}

// A value as text (byte arrays as their bytes, the rest as their bit pattern), as
// testing::ChunkLevels writes it.
template <typename T>
std::string ValueText(const T& value) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return std::string(value.AsStringView());
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else {
    return std::string(reinterpret_cast<const char*>(&value), sizeof(T));
  }
}

// ReadChunks over `selection`: the chunks in the order they started, and each chunk's levels in
// testing::ChunkLevels' form.
struct ReadResult {
  std::vector<std::pair<int, int>> chunks;
  std::vector<std::vector<std::string>> levels;
};
absl::StatusOr<ReadResult> ReadAll(const FileReader& file, const ChunkSelection& selection) {
  ReadResult result;
  PQPAGE_RETURN_IF_ERROR(ReadChunks(
      file, selection,
      [&](const SelectedChunk& chunk, const ColumnChunkReader& reader) {
        EXPECT_EQ(reader.column().PathString(),
                  file.schema().columns()[static_cast<size_t>(chunk.column)].PathString());
        result.chunks.emplace_back(chunk.row_group, chunk.column);
        result.levels.emplace_back();
        return absl::OkStatus();
      },
      [&](const SelectedChunk& chunk, const auto& batch, const BatchCounts& counts) {
        const ColumnDescriptor& column = file.schema().columns()[static_cast<size_t>(chunk.column)];
        int64_t next_value = 0;
        for (int64_t i = 0; i < counts.levels; ++i) {
          const int16_t d = column.max_definition_level > 0 ? batch.definition_levels[i] : 0;
          const int16_t r = column.max_repetition_level > 0 ? batch.repetition_levels[i] : 0;
          const std::string value =
              d == column.max_definition_level ? ValueText(batch.values[next_value++]) : "-";
          result.levels.back().push_back(absl::StrCat(d, "/", r, "/", value));
        }
        EXPECT_EQ(next_value, counts.values);
        return absl::OkStatus();
      }));
  return result;
}

TEST_F(InspectTest, ReadChunksDeliversEveryValueInFileOrder) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(ReadResult all, ReadAll(*input_, ChunkSelection{}));
  ASSERT_EQ(all.chunks.size(), size_t{2} * kColumns);
  for (size_t i = 0; i < all.chunks.size(); ++i) {
    const auto [row_group, column] = all.chunks[i];
    EXPECT_EQ(row_group, static_cast<int>(i) / kColumns);
    EXPECT_EQ(column, static_cast<int>(i) % kColumns);
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> expected,
                                testing::ChunkLevels(*input_, row_group, column));
    EXPECT_EQ(all.levels[i], expected) << "row group " << row_group << " column " << column;
  }
  ChunkSelection two;
  two.columns = {3, 0};
  PQPAGE_ASSERT_OK_AND_ASSIGN(ReadResult some, ReadAll(*input_, two));
  EXPECT_EQ(some.chunks, (std::vector<std::pair<int, int>>{{0, 3}, {0, 0}, {1, 3}, {1, 0}}));
  EXPECT_EQ(some.levels[2], all.levels[kColumns + 3]);
}

TEST_F(InspectTest, ReadChunksReadsOnlyTheRowsAsked) {
  ChunkSelection selection;
  selection.columns = {2, 4};  // price: required; tags.element: repeated
  selection.rows = RowRange{kSampleRowsPerGroup - 7, kSampleRowsPerGroup + 5};
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<SelectedChunk> chunks, SelectChunks(*input_, selection));
  ASSERT_EQ(chunks.size(), 4u);
  EXPECT_EQ(chunks[0].rows, (RowRange{kSampleRowsPerGroup - 7, kSampleRowsPerGroup}));
  EXPECT_EQ(chunks[3].rows, (RowRange{0, 5}));
  PQPAGE_ASSERT_OK_AND_ASSIGN(ReadResult read, ReadAll(*input_, selection));
  ASSERT_EQ(read.levels.size(), 4u);
  std::vector<std::string> prices = read.levels[0];
  prices.insert(prices.end(), read.levels[2].begin(), read.levels[2].end());
  ASSERT_EQ(prices.size(), 12u);
  for (size_t i = 0; i < prices.size(); ++i) {
    const int64_t row = kSampleRowsPerGroup - 7 + static_cast<int64_t>(i);
    EXPECT_EQ(prices[i], absl::StrCat("0/0/", ValueText(static_cast<double>(row % 1000) * 0.25)));
  }
  int64_t tag_rows = 0;
  for (const size_t chunk : {size_t{1}, size_t{3}}) {
    for (const std::string& level : read.levels[chunk]) tag_rows += level[2] == '0' ? 1 : 0;
  }
  EXPECT_EQ(tag_rows, 12);

  selection.rows = RowRange{10, 20};  // the first row group only
  PQPAGE_ASSERT_OK_AND_ASSIGN(ReadResult first, ReadAll(*input_, selection));
  EXPECT_EQ(first.chunks, (std::vector<std::pair<int, int>>{{0, 2}, {0, 4}}));
  EXPECT_EQ(first.levels[0].size(), 10u);
}

TEST_F(InspectTest, ReadChunksReturnsErrorsItDoesNotCrash) {
  ChunkSelection bad;
  bad.columns = {-1};
  EXPECT_EQ(ReadAll(*input_, bad).status().code(), absl::StatusCode::kInvalidArgument);

  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation tags, input_->LocateColumnChunk(1, 4));
  const std::string damaged_path = testing::TestTempPath("damaged.parquet");
  PQPAGE_ASSERT_OK(testing::WriteDamagedCopy(in_path_, tags, damaged_path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> damaged, FileReader::Open(damaged_path));
  EXPECT_FALSE(ReadAll(*damaged, ChunkSelection{}).ok());
  ChunkSelection others;
  others.columns = {0, 1, 2, 3};
  PQPAGE_EXPECT_OK(ReadAll(*damaged, others).status());
  std::remove(damaged_path.c_str());

  int batches = 0;
  const absl::Status stopped = ReadChunks(
      *input_, ChunkSelection{},
      [](const SelectedChunk&, const ColumnChunkReader&) { return absl::OkStatus(); },
      [&](const SelectedChunk&, const auto&, const BatchCounts&) {
        return ++batches == 3 ? absl::CancelledError("enough") : absl::OkStatus();
      });
  EXPECT_EQ(stopped.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(batches, 3);
}

}  // namespace
}  // namespace pqpage
