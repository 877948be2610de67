// SplitIntoPageRuns and OpenPageRun: a chunk split into runs of pages, each decoded by its own
// reader, gives exactly the chunk's levels and values, whether the page starts come from the
// offset index or from the page headers, for pages v1 and v2, required, optional and repeated
// columns; and Scan, which splits large chunks, reports the same for every thread count.
#include "pqpage/page_runs.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "column_data_helpers.h"
#include "pqpage/file.h"
#include "pqpage/scan.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_batch.h"
#include "pqpage/value_type.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using testing::ColumnData;

constexpr int64_t kRowsPerGroup = 5000;

// Two row groups of `id` (required INT64), `name` (optional strings) and `tags` (a repeated
// INT32: 0 to 3 values a row), pages of at most 150 rows.
std::string WriteFile(int page_version, bool page_index) {
  const std::string path = testing::TestTempPath(
      absl::StrCat("v", page_version, page_index ? "_index" : "", ".parquet"));
  auto schema = Schema::Builder()
                    .AddPrimitive("id", Repetition::kRequired, PhysicalType::kInt64)
                    .AddPrimitive("name", Repetition::kOptional, PhysicalType::kByteArray)
                    .AddPrimitive("tags", Repetition::kRepeated, PhysicalType::kInt32)
                    .Build();
  EXPECT_TRUE(schema.ok());
  FileWriterOptions file_options;
  file_options.write_page_index = page_index;
  auto file = FileWriter::Open(path, *schema, file_options);
  EXPECT_TRUE(file.ok());
  WriterOptions options;
  options.data_page_version = page_version;
  options.data_page_row_limit = 150;
  options.compression = Compression::kSnappy;
  for (int group = 0; group < 2; ++group) {
    ColumnData<int64_t> id;
    ColumnData<ByteArray> name;
    ColumnData<int32_t> tags;
    for (int64_t row = 0; row < kRowsPerGroup; ++row) {
      const int64_t key = group * kRowsPerGroup + row;
      id.values.push_back(key * 3);
      if (key % 5 == 0) {
        name.def.push_back(0);
      } else {
        name.def.push_back(1);
        name.values.push_back(name.AddBytes(absl::StrCat("name-", key % 97)));
      }
      const int count = static_cast<int>(key % 4);
      if (count == 0) {
        tags.def.push_back(0);
        tags.rep.push_back(0);
      }
      for (int k = 0; k < count; ++k) {
        tags.def.push_back(1);
        tags.rep.push_back(k == 0 ? 0 : 1);
        tags.values.push_back(static_cast<int32_t>(key * 10 + k));
      }
    }
    PQPAGE_EXPECT_OK(testing::WriteRowGroup(**file, *schema, options, id, name, tags));
  }
  EXPECT_TRUE((*file)->Close().ok());
  return path;
}

// Everything a reader gives, values as text.
struct Drained {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<std::string> values;
};

absl::Status Drain(ColumnChunkReader& reader, Drained* out) {
  return VisitValueType(reader.column().type, [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::Type;
    ValueBatch<T> batch;
    while (true) {
      PQPAGE_ASSIGN_OR_RETURN(const BatchCounts counts, ReadNextBatch(reader, batch));
      if (counts.levels == 0) return absl::OkStatus();
      for (int64_t i = 0; i < counts.levels; ++i) {
        if (reader.column().max_definition_level > 0)
          out->def.push_back(batch.definition_levels[i]);
        if (reader.column().max_repetition_level > 0)
          out->rep.push_back(batch.repetition_levels[i]);
      }
      for (int64_t i = 0; i < counts.values; ++i) {
        if constexpr (std::is_same_v<T, ByteArray>) {
          out->values.emplace_back(reinterpret_cast<const char*>(batch.values[i].data),
                                   batch.values[i].size);
        } else if constexpr (std::is_arithmetic_v<T>) {
          out->values.push_back(absl::StrCat(batch.values[i]));
        } else {
          return absl::InternalError("a type this test does not write");
        }
      }
    }
  });
}

TEST(PageRunsTest, RunsTogetherAreTheChunk) {
  for (int version : {1, 2}) {
    for (bool page_index : {true, false}) {
      const std::string path = WriteFile(version, page_index);
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> file, FileReader::Open(path));
      for (int rg = 0; rg < 2; ++rg) {
        for (int c = 0; c < 3; ++c) {
          const std::string where = absl::StrCat(path, " row group ", rg, " column ", c);
          PQPAGE_ASSERT_OK_AND_ASSIGN(ChunkRuns split, SplitIntoPageRuns(*file, rg, c, 4));
          // A v1 page of a repeated column does not say where its rows start.
          const bool splittable = page_index || version == 2 || c != 2;
          if (!splittable) {
            ASSERT_EQ(split.runs.size(), 1u) << where;
            EXPECT_FALSE(split.page_locations.has_value()) << where;
            continue;
          }
          ASSERT_EQ(split.runs.size(), 4u) << where;
          ASSERT_TRUE(split.page_locations.has_value()) << where;
          int64_t next_row = 0;
          int64_t pages = 0;
          for (const PageRun& run : split.runs) {
            EXPECT_EQ(run.rows.begin, next_row) << where;
            EXPECT_LT(run.rows.begin, run.rows.end) << where;
            next_row = run.rows.end;
            pages += run.pages;
          }
          EXPECT_EQ(next_row, kRowsPerGroup) << where;
          EXPECT_EQ(pages, static_cast<int64_t>(split.page_locations->pages.size())) << where;

          PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkReader whole, file->OpenColumnChunk(rg, c));
          Drained expected;
          PQPAGE_ASSERT_OK(Drain(whole, &expected));
          Drained joined;
          for (const PageRun& run : split.runs) {
            PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkReader reader,
                                        OpenPageRun(*file, rg, c, split, run.rows));
            PQPAGE_ASSERT_OK(Drain(reader, &joined));
          }
          EXPECT_EQ(joined.def, expected.def) << where;
          EXPECT_EQ(joined.rep, expected.rep) << where;
          EXPECT_EQ(joined.values, expected.values) << where;
        }
      }
      // One run asked for: the chunk whole, nothing to jump through.
      PQPAGE_ASSERT_OK_AND_ASSIGN(ChunkRuns one, SplitIntoPageRuns(*file, 0, 0, 1));
      ASSERT_EQ(one.runs.size(), 1u);
      EXPECT_EQ(one.runs[0].rows, (RowRange{0, kRowsPerGroup}));
      EXPECT_FALSE(one.page_locations.has_value());
    }
  }
}

TEST(PageRunsTest, ScanReportsTheSameForEveryThreadCount) {
  for (int version : {1, 2}) {
    for (bool page_index : {true, false}) {
      const std::string path = WriteFile(version, page_index);
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> file, FileReader::Open(path));
      for (const std::optional<RowRange>& rows :
           {std::optional<RowRange>(), std::optional<RowRange>(RowRange{1234, 8765})}) {
        ScanOptions options;
        options.rows = rows;
        options.min_run_bytes = 1;  // split the small test chunks as large ones are
        PQPAGE_ASSERT_OK_AND_ASSIGN(const ScanReport one, Scan(*file, options));
        EXPECT_EQ(one.file.rows, rows ? 8765 - 1234 : 2 * kRowsPerGroup);
        for (int threads : {2, 3, 8}) {
          options.threads = threads;
          PQPAGE_ASSERT_OK_AND_ASSIGN(const ScanReport many, Scan(*file, options));
          const std::string where = absl::StrCat(path, " threads ", threads);
          for (size_t c = 0; c < one.columns.size(); ++c) {
            EXPECT_EQ(many.columns[c].rows, one.columns[c].rows) << where << " column " << c;
            EXPECT_EQ(many.columns[c].levels, one.columns[c].levels) << where;
            EXPECT_EQ(many.columns[c].values, one.columns[c].values) << where;
            EXPECT_EQ(many.columns[c].value_bytes, one.columns[c].value_bytes) << where;
            EXPECT_EQ(many.columns[c].data_pages, one.columns[c].data_pages) << where;
            EXPECT_EQ(many.columns[c].compressed_bytes, one.columns[c].compressed_bytes) << where;
          }
        }
      }
    }
  }
}

TEST(PageRunsTest, ScanRefusesRunsOfNoBytes) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> file,
                              FileReader::Open(WriteFile(2, true)));
  ScanOptions options;
  options.min_run_bytes = 0;
  PQPAGE_EXPECT_ERROR(Scan(*file, options).status(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqpage
