// Scan through the library: totals that agree with reading the file directly, the same report on
// any thread count, row selection, progress, and the errors a damaged file or a bad request give.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pqpage/file.h"
#include "pqpage/scan.h"
#include "pqpage/value_type.h"
#include "recode_sample_file.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using ScanTest = testing::SampleFileTest;

bool SameTotals(const ScanTotals& a, const ScanTotals& b) {
  return a.rows == b.rows && a.levels == b.levels && a.values == b.values &&
         a.compressed_bytes == b.compressed_bytes && a.value_bytes == b.value_bytes &&
         a.data_pages == b.data_pages;
}

// Levels and present values of every chunk of `column`, read with ColumnChunkReader directly.
void CountDirectly(const FileReader& file, int column, int64_t* levels, int64_t* values) {
  *levels = 0;
  *values = 0;
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkReader reader, file.OpenColumnChunk(rg, column));
    PQPAGE_ASSERT_OK(VisitValueType(reader.column().type, [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::Type;
      std::vector<int16_t> def(100), rep(100);
      std::unique_ptr<T[]> out = std::make_unique<T[]>(100);
      for (;;) {
        PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts,
                                reader.ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep),
                                                    absl::MakeSpan(out.get(), 100)));
        if (counts.levels == 0) return absl::OkStatus();
        *levels += counts.levels;
        *values += counts.values;
      }
    }));
  }
}

TEST_F(ScanTest, TotalsAgreeWithReadingTheFileAndWithEveryThreadCount) {
  std::vector<ScanReport> reports;
  for (const int threads : {1, 2, 5}) {
    ScanOptions options;
    options.threads = threads;
    PQPAGE_ASSERT_OK_AND_ASSIGN(ScanReport report, Scan(*input_, options));
    reports.push_back(report);
  }
  const ScanReport& report = reports[0];
  EXPECT_EQ(report.file.rows, input_->num_rows());
  ASSERT_EQ(report.columns.size(), input_->schema().columns().size());
  int64_t all_levels = 0;
  int64_t all_bytes = 0;
  for (int c = 0; c < static_cast<int>(report.columns.size()); ++c) {
    int64_t levels = 0;
    int64_t values = 0;
    CountDirectly(*input_, c, &levels, &values);
    EXPECT_EQ(report.columns[static_cast<size_t>(c)].levels, levels) << "column " << c;
    EXPECT_EQ(report.columns[static_cast<size_t>(c)].values, values) << "column " << c;
    EXPECT_EQ(report.columns[static_cast<size_t>(c)].rows, input_->num_rows()) << "column " << c;
    EXPECT_GE(report.columns[static_cast<size_t>(c)].data_pages, input_->num_row_groups());
    all_levels += levels;
    for (int rg = 0; rg < input_->num_row_groups(); ++rg) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation chunk, input_->LocateColumnChunk(rg, c));
      all_bytes += chunk.length;
    }
  }
  EXPECT_EQ(report.file.levels, all_levels);
  EXPECT_EQ(report.file.compressed_bytes, all_bytes);
  for (const ScanReport& other : reports) {
    EXPECT_TRUE(SameTotals(other.file, report.file));
    for (size_t c = 0; c < report.columns.size(); ++c) {
      EXPECT_TRUE(SameTotals(other.columns[c], report.columns[c])) << "column " << c;
    }
  }
}

TEST_F(ScanTest, RowsAcrossRowGroupsAreCountedOnce) {
  const int64_t rows_per_group = input_->row_group_num_rows(0);
  ScanOptions options;
  options.threads = 3;
  options.rows = RowRange{rows_per_group - 7, rows_per_group + 5};  // both row groups
  PQPAGE_ASSERT_OK_AND_ASSIGN(ScanReport report, Scan(*input_, options));
  EXPECT_EQ(report.file.rows, 12);
  for (const ScanTotals& column : report.columns) EXPECT_EQ(column.rows, 12);
  options.rows = RowRange{5, 5};
  PQPAGE_ASSERT_OK_AND_ASSIGN(ScanReport none, Scan(*input_, options));
  EXPECT_EQ(none.file.rows, 0);
  EXPECT_EQ(none.file.levels, 0);
}

TEST_F(ScanTest, ProgressRisesToTheTotal) {
  ScanOptions options;
  int64_t last = -1;
  int64_t total = 0;
  int calls = 0;
  options.on_progress = [&](const FileProgress& at) {
    ++calls;
    EXPECT_GE(at.bytes_done, last);
    EXPECT_LE(at.bytes_done, at.total_bytes);
    last = at.bytes_done;
    total = at.total_bytes;
  };
  PQPAGE_ASSERT_OK_AND_ASSIGN(ScanReport report, Scan(*input_, options));
  EXPECT_GT(calls, 0);
  EXPECT_EQ(total, report.file.compressed_bytes);
}

TEST_F(ScanTest, RefusesNoThreadsAndReportsADamagedChunkAlikeOnAnyThreadCount) {
  ScanOptions none;
  none.threads = 0;
  EXPECT_EQ(Scan(*input_, none).status().code(), absl::StatusCode::kInvalidArgument);

  // The second row group's price chunk overwritten: its pages no longer decode.
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation price, input_->LocateColumnChunk(1, 2));
  const std::string damaged_path = testing::TestTempPath("damaged.parquet");
  PQPAGE_ASSERT_OK(testing::WriteDamagedCopy(in_path_, price, damaged_path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> damaged, FileReader::Open(damaged_path));
  std::vector<std::string> messages;
  for (const int threads : {1, 4}) {
    ScanOptions options;
    options.threads = threads;
    absl::StatusOr<ScanReport> report = Scan(*damaged, options);
    ASSERT_FALSE(report.ok());
    messages.push_back(std::string(report.status().message()));
  }
  EXPECT_EQ(messages[0], messages[1]);
  std::remove(damaged_path.c_str());
}

}  // namespace
}  // namespace pqpage
