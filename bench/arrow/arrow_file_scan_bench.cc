// Side by side at the page level: every page of every column chunk of a file decoded by Arrow
// C++'s low-level column readers (parquet::TypedColumnReader::ReadBatch: levels and values into
// caller buffers, dictionaries resolved) and by pqpage's page decoder
// (ColumnChunkReader::ReadBatch, the same work). Both open the file per iteration and read it
// through the file system.
//
// Files: the larger ones of ../shared/parquet-testing, the project's sample, and any given in
// PQPAGE_SCAN_FILES (colon-separated; compare_with_arrow.sh passes files pyarrow writes).
// Benchmarks are named scan/<file>/<arrow|pqpage>; items are levels.
//
// The file is built twice, one side each (PQPAGE_SCAN_SIDE_ARROW or PQPAGE_SCAN_SIDE_PQPAGE):
// pyarrow's libparquet exports the symbols of the Thrift it bundles, which would replace Debian's
// Thrift inside pqpage in a shared process. ratios.py pairs the two runs' results by name.
#include <benchmark/benchmark.h>
#ifdef PQPAGE_SCAN_SIDE_ARROW
#include <parquet/column_reader.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#endif

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#ifdef PQPAGE_SCAN_SIDE_PQPAGE
#include "pqpage/file.h"
#endif

namespace {

constexpr int64_t kBatch = 4096;

#ifdef PQPAGE_SCAN_SIDE_ARROW

template <typename ReaderType, typename Value>
int64_t DrainArrow(parquet::ColumnReader* column, int16_t* definition, int16_t* repetition) {
  auto* reader = static_cast<ReaderType*>(column);
  std::unique_ptr<Value[]> values(new Value[kBatch]);  // not std::vector: bool has no data()
  int64_t levels = 0;
  while (reader->HasNext()) {
    int64_t values_read = 0;
    levels += reader->ReadBatch(kBatch, definition, repetition, values.get(), &values_read);
    benchmark::DoNotOptimize(values.get());
  }
  return levels;
}

int64_t ScanWithArrow(const std::string& path) {
  std::unique_ptr<parquet::ParquetFileReader> file =
      parquet::ParquetFileReader::OpenFile(path, /*memory_map=*/false);
  std::vector<int16_t> definition(kBatch), repetition(kBatch);
  int64_t levels = 0;
  const auto metadata = file->metadata();
  for (int group = 0; group < metadata->num_row_groups(); ++group) {
    auto row_group = file->RowGroup(group);
    for (int c = 0; c < metadata->num_columns(); ++c) {
      std::shared_ptr<parquet::ColumnReader> column = row_group->Column(c);
      int16_t* def = definition.data();
      int16_t* rep = repetition.data();
      switch (column->type()) {
        case parquet::Type::BOOLEAN:
          levels += DrainArrow<parquet::BoolReader, bool>(column.get(), def, rep);
          break;
        case parquet::Type::INT32:
          levels += DrainArrow<parquet::Int32Reader, int32_t>(column.get(), def, rep);
          break;
        case parquet::Type::INT64:
          levels += DrainArrow<parquet::Int64Reader, int64_t>(column.get(), def, rep);
          break;
        case parquet::Type::INT96:
          levels += DrainArrow<parquet::Int96Reader, parquet::Int96>(column.get(), def, rep);
          break;
        case parquet::Type::FLOAT:
          levels += DrainArrow<parquet::FloatReader, float>(column.get(), def, rep);
          break;
        case parquet::Type::DOUBLE:
          levels += DrainArrow<parquet::DoubleReader, double>(column.get(), def, rep);
          break;
        case parquet::Type::BYTE_ARRAY:
          levels +=
              DrainArrow<parquet::ByteArrayReader, parquet::ByteArray>(column.get(), def, rep);
          break;
        default:
          levels += DrainArrow<parquet::FixedLenByteArrayReader, parquet::FixedLenByteArray>(
              column.get(), def, rep);
      }
    }
  }
  return levels;
}

#endif  // PQPAGE_SCAN_SIDE_ARROW

#ifdef PQPAGE_SCAN_SIDE_PQPAGE
template <typename T>
absl::StatusOr<int64_t> DrainPqpage(pqpage::ColumnChunkReader& reader, int16_t* definition,
                                    int16_t* repetition) {
  std::unique_ptr<T[]> values(new T[kBatch]);
  int64_t levels = 0;
  for (;;) {
    absl::StatusOr<pqpage::BatchCounts> counts =
        reader.ReadBatch<T>(absl::MakeSpan(definition, kBatch), absl::MakeSpan(repetition, kBatch),
                            absl::MakeSpan(values.get(), kBatch));
    if (!counts.ok()) return counts.status();
    if (counts->levels == 0) return levels;
    levels += counts->levels;
    benchmark::DoNotOptimize(values.get());
  }
}

absl::StatusOr<int64_t> ScanWithPqpage(const std::string& path) {
  auto file = pqpage::FileReader::Open(path);
  if (!file.ok()) return file.status();
  std::vector<int16_t> definition(kBatch), repetition(kBatch);
  int64_t levels = 0;
  for (int group = 0; group < (*file)->num_row_groups(); ++group) {
    for (size_t c = 0; c < (*file)->schema().columns().size(); ++c) {
      auto reader = (*file)->OpenColumnChunk(group, static_cast<int>(c));
      if (!reader.ok()) return reader.status();
      absl::StatusOr<int64_t> read;
      int16_t* def = definition.data();
      int16_t* rep = repetition.data();
      switch (reader->column().type) {
        case pqpage::PhysicalType::kBoolean:
          read = DrainPqpage<bool>(*reader, def, rep);
          break;
        case pqpage::PhysicalType::kInt32:
          read = DrainPqpage<int32_t>(*reader, def, rep);
          break;
        case pqpage::PhysicalType::kInt64:
          read = DrainPqpage<int64_t>(*reader, def, rep);
          break;
        case pqpage::PhysicalType::kInt96:
          read = DrainPqpage<pqpage::Int96>(*reader, def, rep);
          break;
        case pqpage::PhysicalType::kFloat:
          read = DrainPqpage<float>(*reader, def, rep);
          break;
        case pqpage::PhysicalType::kDouble:
          read = DrainPqpage<double>(*reader, def, rep);
          break;
        default:
          read = DrainPqpage<pqpage::ByteArray>(*reader, def, rep);
      }
      if (!read.ok()) return read.status();
      levels += *read;
    }
  }
  return levels;
}

#endif  // PQPAGE_SCAN_SIDE_PQPAGE

void Register(const std::string& path) {
  if (!std::filesystem::exists(path)) return;
  const std::string name = std::filesystem::path(path).filename().string();
  const int64_t bytes = static_cast<int64_t>(std::filesystem::file_size(path));
#ifdef PQPAGE_SCAN_SIDE_ARROW
  benchmark::RegisterBenchmark(("scan/" + name + "/arrow").c_str(), [=](benchmark::State& state) {
    int64_t levels = 0;
    for (auto _ : state) levels = ScanWithArrow(path);
    state.SetItemsProcessed(state.iterations() * levels);
    state.SetBytesProcessed(state.iterations() * bytes);
  });
#else
  benchmark::RegisterBenchmark(("scan/" + name + "/pqpage").c_str(), [=](benchmark::State& state) {
    int64_t levels = 0;
    for (auto _ : state) {
      absl::StatusOr<int64_t> read = ScanWithPqpage(path);
      if (!read.ok()) {
        state.SkipWithError(std::string(read.status().message()).c_str());
        return;
      }
      levels = *read;
    }
    state.SetItemsProcessed(state.iterations() * levels);
    state.SetBytesProcessed(state.iterations() * bytes);
  });
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const std::string data = std::string(PQPAGE_SHARED_DIR) + "/parquet-testing/data/";
  for (const char* name : {"alltypes_tiny_pages_plain.parquet", "delta_binary_packed.parquet",
                           "delta_byte_array.parquet", "hadoop_lz4_compressed_larger.parquet",
                           "lz4_raw_compressed_larger.parquet", "nested_structs.rust.parquet",
                           "byte_stream_split.zstd.parquet"}) {
    Register(data + name);
  }
  Register(std::string(PQPAGE_SOURCE_DIR) + "/testfiles/sample_trips.parquet");
  if (const char* extra = std::getenv("PQPAGE_SCAN_FILES")) {
    std::string list = extra;
    for (size_t start = 0; start <= list.size();) {
      const size_t end = std::min(list.find(':', start), list.size());
      if (end > start) Register(list.substr(start, end - start));
      start = end + 1;
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
