// Content-defined chunking of data pages (WriterOptions::content_defined_chunking): the chunker's
// plan and cuts on their own, the page builder's pages (cut where the chunker says, at row
// starts, for every type and shape, read back intact), and what it is for: after rows are
// inserted, deleted or appended, most data pages come out byte for byte as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "column_data_helpers.h"
#include "page/write/content_defined_chunker.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/value_type.h"
#include "status_matchers.h"
#include "type_and_encoding_lists.h"

namespace pqpage {
namespace {

using internal::ChunkingPlan;
using internal::ContentDefinedChunker;
using internal::PlanChunking;
using testing::ColumnData;
using testing::Generate;
using testing::MakeColumn;
using testing::ReadChunk;
using testing::SameValue;
using testing::Shape;
using testing::WriteInBatches;

constexpr int kFlbaLength = 6;

ContentDefinedChunking Chunking(int64_t min_bytes, int64_t max_bytes) {
  ContentDefinedChunking chunking;
  chunking.enabled = true;
  chunking.min_page_bytes = min_bytes;
  chunking.max_page_bytes = max_bytes;
  return chunking;
}

// The bytes the chunker is fed for level `level` of `data` (an independent count: a byte per
// level array, a value's PLAIN bytes, one byte per BOOLEAN).
template <typename T>
int64_t FedBytes(const ColumnDescriptor& column, const ColumnData<T>& data, int64_t level,
                 size_t* value) {
  int64_t bytes =
      (column.max_definition_level > 0 ? 1 : 0) + (column.max_repetition_level > 0 ? 1 : 0);
  if (column.max_definition_level == 0 || data.def[level] == column.max_definition_level) {
    const T& v = data.values[(*value)++];
    if constexpr (std::is_same_v<T, ByteArray>) {
      bytes += v.size;
    } else if constexpr (std::is_same_v<T, bool>) {
      bytes += 1;
    } else {
      bytes += static_cast<int64_t>(sizeof(T));
    }
  }
  return bytes;
}

bool RowStart(const ColumnDescriptor& column, const std::vector<int16_t>& rep, int64_t level) {
  return column.max_repetition_level == 0 || rep[level] == 0;
}

// The chunker's cuts for `data` fed in batches of at most `max_batch` levels, as chunk levels.
template <typename T>
std::vector<int64_t> Cuts(const ColumnDescriptor& column, const ChunkingPlan& plan,
                          const ColumnData<T>& data, int64_t max_batch, uint64_t seed) {
  ContentDefinedChunker chunker(column, plan);
  std::vector<int64_t> cuts;
  const absl::Status fed = testing::ForEachRandomBatch(
      column, data, seed, max_batch,
      [&](int64_t level, absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
          absl::Span<const T> values, int64_t n) {
        std::vector<int64_t> batch_cuts;
        chunker.Feed(def, rep, values, n, &batch_cuts);
        for (const int64_t cut : batch_cuts) cuts.push_back(level + cut);
        return absl::OkStatus();
      });
  EXPECT_TRUE(fed.ok()) << fed;
  return cuts;
}

// The bytes fed between consecutive cuts (the last, unfinished page left out).
template <typename T>
std::vector<int64_t> SegmentBytes(const ColumnDescriptor& column, const ColumnData<T>& data,
                                  const std::vector<int64_t>& cuts) {
  std::vector<int64_t> sizes;
  size_t value = 0;
  int64_t bytes = 0;
  size_t next = 0;
  for (int64_t level = 0; level < data.num_levels(); ++level) {
    if (next < cuts.size() && cuts[next] == level) {
      sizes.push_back(bytes);
      bytes = 0;
      ++next;
    }
    bytes += FedBytes(column, data, level, &value);
  }
  return sizes;
}

// Rows [0, at) of `base`, then `insert`'s rows, then base's rows from at + removed on.
template <typename T>
ColumnData<T> Splice(const ColumnDescriptor& column, const ColumnData<T>& base, int64_t at,
                     int64_t removed, const ColumnData<T>& insert) {
  ColumnData<T> out;
  auto copy_rows = [&](const ColumnData<T>& from, int64_t first, int64_t last) {
    int64_t row = -1;
    size_t value = 0;
    for (int64_t level = 0; level < from.num_levels(); ++level) {
      if (RowStart(column, from.rep, level)) ++row;
      const bool present =
          column.max_definition_level == 0 || from.def[level] == column.max_definition_level;
      if (row >= first && row < last) {
        if (column.max_definition_level > 0) out.def.push_back(from.def[level]);
        if (column.max_repetition_level > 0) out.rep.push_back(from.rep[level]);
        if (present) out.values.push_back(from.values[value]);
      }
      value += present ? 1 : 0;
    }
  };
  const int64_t last = std::numeric_limits<int64_t>::max();
  copy_rows(base, 0, at);
  copy_rows(insert, 0, last);
  copy_rows(base, at + removed, last);
  return out;
}

ColumnChunkData WriteChunk(const ColumnDescriptor& column, const WriterOptions& options,
                           const auto& data) {
  using T = typename std::decay_t<decltype(data.values)>::value_type;
  ColumnChunkWriter writer(column, options);
  EXPECT_TRUE(WriteInBatches<T>(&writer, data, 7, 500).ok());
  absl::StatusOr<ColumnChunkData> chunk = writer.Finish(0);
  EXPECT_TRUE(chunk.ok()) << chunk.status();
  return chunk.ok() ? *std::move(chunk) : ColumnChunkData{};
}

// Each data page's bytes, header included, in file order.
std::vector<std::string> DataPages(const ColumnChunkData& chunk) {
  std::vector<std::string> pages;
  for (const IndexedPage& page : chunk.page_index.pages) {
    pages.emplace_back(reinterpret_cast<const char*>(chunk.bytes.data()) + page.offset,
                       static_cast<size_t>(page.compressed_page_size));
  }
  return pages;
}

// The share of `after`'s data pages found, byte for byte, among `before`'s.
double UnchangedShare(const ColumnChunkData& before, const ColumnChunkData& after) {
  std::map<std::string, int> old_pages;
  for (std::string& page : DataPages(before)) ++old_pages[std::move(page)];
  const std::vector<std::string> pages = DataPages(after);
  int64_t same = 0;
  for (const std::string& page : pages) {
    auto found = old_pages.find(page);
    if (found != old_pages.end() && found->second > 0) {
      --found->second;
      ++same;
    }
  }
  return pages.empty() ? 0.0 : static_cast<double>(same) / static_cast<double>(pages.size());
}

// ---------------------------------------------------------------- the plan

TEST(ContentDefinedChunkerTest, PlanDefaultsFollowThePageSize) {
  ContentDefinedChunking chunking;
  chunking.enabled = true;
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan, PlanChunking(chunking, 1 << 20));
  EXPECT_EQ(plan.min_bytes, 256 << 10);
  EXPECT_EQ(plan.max_bytes, 2 << 20);
  EXPECT_EQ(plan.average_bytes, 1 << 20);
  EXPECT_LT(plan.early_threshold, plan.late_threshold);  // norm_level 1
  // A page size outside the range: the midpoint.
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan midpoint,
                              PlanChunking(Chunking(1000, 3000), 1 << 20));
  EXPECT_EQ(midpoint.average_bytes, 2000);
}

TEST(ContentDefinedChunkerTest, PlanExpectsTheAverageAtEveryNormLevel) {
  for (int norm_level = 0; norm_level <= 3; ++norm_level) {
    for (int64_t page_size : {int64_t{4096}, int64_t{1} << 20, int64_t{100} << 20}) {
      ContentDefinedChunking chunking;
      chunking.enabled = true;
      chunking.norm_level = norm_level;
      PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan, PlanChunking(chunking, page_size));
      EXPECT_NEAR(internal::ExpectedPageBytes(plan), static_cast<double>(page_size),
                  static_cast<double>(page_size) * 1e-3)
          << norm_level << " " << page_size;
      if (norm_level == 0) EXPECT_EQ(plan.early_threshold, plan.late_threshold);
    }
  }
}

TEST(ContentDefinedChunkerTest, PlanRefusesOptionsOutOfRange) {
  PQPAGE_EXPECT_ERROR(PlanChunking(Chunking(0, 100), 50), absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(PlanChunking(Chunking(100, 100), 50), absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(PlanChunking(Chunking(100, (int64_t{1} << 30) + 1), 50),
                      absl::StatusCode::kInvalidArgument);
  ContentDefinedChunking chunking = Chunking(100, 1000);
  chunking.norm_level = 4;
  PQPAGE_EXPECT_ERROR(PlanChunking(chunking, 500), absl::StatusCode::kInvalidArgument);
  // The writer refuses them at its first batch.
  WriterOptions options;
  options.content_defined_chunking = Chunking(100, 50);
  ColumnChunkWriter writer(MakeColumn(PhysicalType::kInt32, Shape::kRequired), options);
  const std::vector<int32_t> values = {1, 2, 3};
  PQPAGE_EXPECT_ERROR(writer.WriteBatch<int32_t>({}, {}, absl::MakeConstSpan(values)),
                      absl::StatusCode::kInvalidArgument);
}

TEST(ContentDefinedChunkerTest, PerColumnOverrideApplies) {
  WriterOptions options;
  options.column_overrides["c"].content_defined_chunking = Chunking(10, 20);
  EXPECT_EQ(options.ForColumn("c").content_defined_chunking, Chunking(10, 20));
  EXPECT_FALSE(options.ForColumn("d").content_defined_chunking.enabled);
}

// ---------------------------------------------------------------- the cuts

TEST(ContentDefinedChunkerTest, CutsFallBetweenMinAndMaxAroundTheAverage) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kRequired);
  const ColumnData<int64_t> data = Generate<int64_t>(column, Shape::kRequired, 400000, 1u << 30, 3);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan, PlanChunking(Chunking(1024, 16384), 4096));
  const std::vector<int64_t> cuts = Cuts(column, plan, data, 1000, 1);
  const std::vector<int64_t> sizes = SegmentBytes(column, data, cuts);
  ASSERT_GT(sizes.size(), 500u);
  double total = 0;
  int at_max = 0;
  for (int64_t size : sizes) {
    // A match needs min bytes fed before the value; the maximum is checked after each value.
    EXPECT_GE(size, 1024 + 8);
    EXPECT_LE(size, 16384 + 7);
    at_max += size >= 16384 ? 1 : 0;
    total += static_cast<double>(size);
  }
  const double average = total / static_cast<double>(sizes.size());
  EXPECT_NEAR(average, 4096, 4096 * 0.1);
  EXPECT_LT(at_max, static_cast<int>(sizes.size()) / 20);
}

TEST(ContentDefinedChunkerTest, CutsDoNotDependOnBatches) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kByteArray, Shape::kList);
  const ColumnData<ByteArray> data = Generate<ByteArray>(column, Shape::kList, 100000, 1u << 30, 4);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan, PlanChunking(Chunking(256, 4096), 1024));
  const std::vector<int64_t> whole = Cuts(column, plan, data, data.num_levels(), 1);
  EXPECT_GT(whole.size(), 100u);
  EXPECT_EQ(Cuts(column, plan, data, 7, 2), whole);
  EXPECT_EQ(Cuts(column, plan, data, 300, 3), whole);
}

TEST(ContentDefinedChunkerTest, RepeatedColumnsAreCutAtRowStarts) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kList);
  const ColumnData<int32_t> data = Generate<int32_t>(column, Shape::kList, 100000, 1u << 30, 5);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan, PlanChunking(Chunking(64, 512), 256));
  const std::vector<int64_t> cuts = Cuts(column, plan, data, 50, 1);
  ASSERT_GT(cuts.size(), 200u);
  for (int64_t cut : cuts) EXPECT_EQ(data.rep[cut], 0) << cut;
}

TEST(ContentDefinedChunkerTest, CutsFallInStepAgainAfterAnInsertion) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt64, Shape::kOptional);
  const ColumnData<int64_t> base = Generate<int64_t>(column, Shape::kOptional, 200000, 1u << 30, 6);
  const ColumnData<int64_t> insert = Generate<int64_t>(column, Shape::kOptional, 2000, 1u << 30, 7);
  const int64_t at = 100000;
  const ColumnData<int64_t> edited = Splice(column, base, at, 0, insert);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan, PlanChunking(Chunking(512, 8192), 2048));
  const std::vector<int64_t> before = Cuts(column, plan, base, 1000, 1);
  const std::vector<int64_t> after = Cuts(column, plan, edited, 1000, 2);
  // Before the edit: the same cuts.
  std::vector<int64_t> before_edit;
  std::vector<int64_t> after_edit_old;
  for (int64_t cut : before) (cut <= at ? before_edit : after_edit_old).push_back(cut);
  ASSERT_GE(after.size(), before_edit.size());
  EXPECT_TRUE(std::equal(before_edit.begin(), before_edit.end(), after.begin()));
  // After it, shifted by the rows inserted: all but the first few.
  std::vector<int64_t> after_edit_new;
  for (int64_t cut : after) {
    if (cut > at + 2000) after_edit_new.push_back(cut - 2000);
  }
  size_t missing = 0;
  for (int64_t cut : after_edit_old) {
    missing += std::binary_search(after_edit_new.begin(), after_edit_new.end(), cut) ? 0 : 1;
  }
  EXPECT_GT(after_edit_old.size(), 100u);
  EXPECT_LE(missing, 3u);
  // Once in step, they stay in step.
  ASSERT_FALSE(after_edit_old.empty());
  EXPECT_EQ(after_edit_new.back(), after_edit_old.back());
}

TEST(ContentDefinedChunkerTest, AValuePastTheMaximumIsCutAfterIt) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kByteArray, Shape::kRequired);
  ColumnData<ByteArray> data;
  for (int i = 0; i < 10; ++i) data.values.push_back(data.AddBytes(std::string(5000, 'a' + i)));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan, PlanChunking(Chunking(100, 1000), 500));
  EXPECT_EQ(Cuts(column, plan, data, 3, 1), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

// ---------------------------------------------------------------- the page builder

// Pages start exactly where the chunker cuts (the row limit set out of the way), hold whole rows,
// and read back as written; for every type and shape, with kAuto (whose held-back sample is cut
// when it is written) and with PLAIN, data page v1 and v2.
TEST(ContentDefinedChunkingTest, PagesStartAtTheChunkersCutsForEveryTypeAndShape) {
  for (PhysicalType type : testing::kAllPhysicalTypes) {
    for (Shape shape : {Shape::kRequired, Shape::kOptional, Shape::kList}) {
      for (EncodingPolicy policy : {EncodingPolicy::kAuto, EncodingPolicy::kPlain}) {
        const ColumnDescriptor column = MakeColumn(type, shape, kFlbaLength);
        WriterOptions options;
        options.encoding = policy;
        options.data_page_version = policy == EncodingPolicy::kAuto ? 2 : 1;
        options.data_page_size = 2048;
        options.data_page_row_limit = 1000000;
        options.auto_sample_bytes = 3000;  // the sample ends between cuts
        options.verify_pages = true;
        options.content_defined_chunking = Chunking(512, 8192);
        const std::string where = std::string(PhysicalTypeName(type)) + "/" +
                                  testing::ShapeName(shape) + "/" +
                                  std::string(EncodingPolicyName(policy));
        VisitValueType(type, [&](auto tag) {
          using T = typename decltype(tag)::Type;
          const ColumnData<T> data = Generate<T>(column, shape, 30000, 1u << 30, 11);
          const ColumnChunkData chunk = WriteChunk(column, options, data);
          absl::StatusOr<testing::ReadBack<T>> back = ReadChunk<T>(column, chunk, 0);
          ASSERT_TRUE(back.ok()) << where << ": " << back.status();
          ASSERT_EQ(back->data.def, data.def) << where;
          ASSERT_EQ(back->data.rep, data.rep) << where;
          ASSERT_EQ(back->data.values.size(), data.values.size()) << where;
          for (size_t i = 0; i < data.values.size(); ++i) {
            ASSERT_TRUE(SameValue(back->data.values[i], data.values[i])) << where << " " << i;
          }
          PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan,
                                      PlanChunking(options.content_defined_chunking, 2048));
          const std::vector<int64_t> cuts = Cuts(column, plan, data, 100, 1);
          std::vector<int64_t> starts;
          for (size_t p = 1; p < back->pages.size(); ++p) {
            starts.push_back(back->pages[p].first_level);
            EXPECT_TRUE(RowStart(column, data.rep, back->pages[p].first_level)) << where;
          }
          EXPECT_GT(starts.size(), 3u) << where;
          EXPECT_EQ(starts, cuts) << where;
        });
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(ContentDefinedChunkingTest, RowLimitStillEndsPages) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kInt32, Shape::kRequired);
  WriterOptions options;
  options.encoding = EncodingPolicy::kPlain;
  options.data_page_size = 4096;
  options.data_page_row_limit = 100;
  options.content_defined_chunking = Chunking(1024, 16384);
  const ColumnData<int32_t> data = Generate<int32_t>(column, Shape::kRequired, 50000, 1u << 30, 12);
  const ColumnChunkData chunk = WriteChunk(column, options, data);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ChunkingPlan plan,
                              PlanChunking(options.content_defined_chunking, 4096));
  const std::vector<int64_t> cuts = Cuts(column, plan, data, 100, 1);
  ASSERT_GT(cuts.size(), 10u);
  std::vector<int64_t> firsts;
  for (const IndexedPage& page : chunk.page_index.pages) firsts.push_back(page.first_row_index);
  // Every cut starts a page, and no page holds more than 100 rows.
  for (int64_t cut : cuts) {
    EXPECT_TRUE(std::binary_search(firsts.begin(), firsts.end(), cut)) << cut;
  }
  for (size_t p = 1; p < firsts.size(); ++p) EXPECT_LE(firsts[p] - firsts[p - 1], 100);
}

TEST(ContentDefinedChunkingTest, IndexedInputGivesTheSameChunk) {
  const ColumnDescriptor column = MakeColumn(PhysicalType::kByteArray, Shape::kOptional);
  WriterOptions options;
  options.encoding = EncodingPolicy::kDictionary;
  options.content_defined_chunking = Chunking(256, 4096);
  ColumnData<ByteArray> entries;
  for (int i = 0; i < 50; ++i)
    entries.values.push_back(entries.AddBytes("entry" + std::to_string(i)));
  std::mt19937_64 rng(13);
  std::vector<int16_t> def;
  std::vector<uint32_t> indices;
  std::vector<ByteArray> values;
  for (int i = 0; i < 20000; ++i) {
    def.push_back(rng() % 4 == 0 ? 0 : 1);
    if (def.back() == 1) {
      indices.push_back(static_cast<uint32_t>(rng() % 50));
      values.push_back(entries.values[indices.back()]);
    }
  }
  ColumnChunkWriter plain(column, options);
  PQPAGE_ASSERT_OK(plain.WriteBatch<ByteArray>(def, {}, absl::MakeConstSpan(values)));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ColumnChunkData expected, plain.Finish(0));
  ColumnChunkWriter indexed(column, options);
  PQPAGE_ASSERT_OK(
      indexed.WriteIndexedBatch<ByteArray>(def, {}, indices, absl::MakeConstSpan(entries.values)));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const ColumnChunkData got, indexed.Finish(0));
  EXPECT_GT(expected.page_index.pages.size(), 5u);
  EXPECT_EQ(got.bytes, expected.bytes);
}

// ---------------------------------------------------------------- what it is for

enum class Edit { kInsert, kDelete, kAppend };

const char* EditName(Edit edit) {
  return edit == Edit::kInsert ? "insert" : edit == Edit::kDelete ? "delete" : "append";
}

// The share of data pages unchanged after 1% of `rows` rows are inserted in the middle, deleted
// from it or appended, with and without content-defined chunking.
template <typename T>
void ExpectPagesSurviveEdits(PhysicalType type, Shape shape, EncodingPolicy policy,
                             uint64_t cardinality) {
  const ColumnDescriptor column = MakeColumn(type, shape, kFlbaLength);
  constexpr int64_t kRows = 100000;
  const ColumnData<T> base = Generate<T>(column, shape, kRows, cardinality, 21, true);
  const ColumnData<T> extra = Generate<T>(column, shape, kRows / 100, cardinality, 22, true);
  const ColumnData<T> none;
  for (Edit edit : {Edit::kInsert, Edit::kDelete, Edit::kAppend}) {
    const ColumnData<T> edited = edit == Edit::kInsert ? Splice(column, base, kRows / 2, 0, extra)
                                 : edit == Edit::kDelete
                                     ? Splice(column, base, kRows / 2, kRows / 100, none)
                                     : Splice(column, base, kRows, 0, extra);
    WriterOptions options;
    options.encoding = policy;
    options.data_page_size = 4096;
    double share[2] = {0, 0};
    for (bool cdc : {false, true}) {
      options.content_defined_chunking.enabled = cdc;
      const ColumnChunkData before = WriteChunk(column, options, base);
      const ColumnChunkData after = WriteChunk(column, options, edited);
      if (cdc) EXPECT_GT(after.page_index.pages.size(), 40u);
      share[cdc ? 1 : 0] = UnchangedShare(before, after);
    }
    const std::string where = std::string(PhysicalTypeName(type)) + "/" +
                              testing::ShapeName(shape) + "/" +
                              std::string(EncodingPolicyName(policy)) + "/" + EditName(edit);
    std::printf("%-40s unchanged pages: %5.1f%% by size, %5.1f%% by content\n", where.c_str(),
                100 * share[0], 100 * share[1]);
    EXPECT_GE(share[1], 0.9) << where;
    // By size, every page after an insertion or a deletion moves (the test can tell).
    if (edit != Edit::kAppend) EXPECT_LT(share[0], 0.7) << where;
  }
}

TEST(ContentDefinedChunkingTest, EditsLeaveMostPagesUnchangedPlain) {
  ExpectPagesSurviveEdits<int64_t>(PhysicalType::kInt64, Shape::kRequired, EncodingPolicy::kPlain,
                                   1u << 30);
  ExpectPagesSurviveEdits<ByteArray>(PhysicalType::kByteArray, Shape::kOptional,
                                     EncodingPolicy::kPlain, 1u << 30);
  ExpectPagesSurviveEdits<int32_t>(PhysicalType::kInt32, Shape::kList, EncodingPolicy::kPlain,
                                   1u << 30);
  ExpectPagesSurviveEdits<double>(PhysicalType::kDouble, Shape::kOptional,
                                  EncodingPolicy::kByteStreamSplit, 1u << 30);
}

TEST(ContentDefinedChunkingTest, EditsLeaveMostPagesUnchangedDelta) {
  ExpectPagesSurviveEdits<int64_t>(PhysicalType::kInt64, Shape::kOptional, EncodingPolicy::kDelta,
                                   1u << 30);
  ExpectPagesSurviveEdits<ByteArray>(PhysicalType::kByteArray, Shape::kList,
                                     EncodingPolicy::kDeltaLengthByteArray, 1u << 30);
}

// With a dictionary, pages keep their bytes when the edit adds no entries: values from a small
// set, which the chunk's start holds all of.
TEST(ContentDefinedChunkingTest, EditsLeaveMostPagesUnchangedDictionary) {
  ExpectPagesSurviveEdits<ByteArray>(PhysicalType::kByteArray, Shape::kOptional,
                                     EncodingPolicy::kDictionary, 200);
  ExpectPagesSurviveEdits<int32_t>(PhysicalType::kInt32, Shape::kRequired,
                                   EncodingPolicy::kDictionary, 1000);
}

}  // namespace
}  // namespace pqpage
