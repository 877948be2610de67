// The page level: building a column chunk (page builder) and reading it back (page decoder) for
// the shapes columns usually have, and decoding the real files of ../shared/parquet-testing.
// Values/s count levels (one per row for flat columns); bytes/s count the values' PLAIN size.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_data.h"
#include "bench_runner.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/value_type.h"

namespace pqpage::bench {
namespace {

constexpr size_t kRows = 256 * 1024;

ColumnDescriptor Column(PhysicalType type, int16_t max_def) {
  ColumnDescriptor column;
  column.path = {"c"};
  column.type = type;
  column.max_definition_level = max_def;
  return column;
}

// Every tenth value null, for the optional shapes.
std::vector<int16_t> SparseNulls(size_t n) {
  std::vector<int16_t> levels(n);
  for (size_t i = 0; i < n; ++i) levels[i] = i % 10 == 3 ? 0 : 1;
  return levels;
}

template <typename T>
std::vector<T> Present(const std::vector<T>& values, const std::vector<int16_t>& levels) {
  if (levels.empty()) return values;
  std::vector<T> out;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (levels[i] == 1) out.push_back(values[i]);
  }
  return out;
}

struct Shape {
  ColumnDescriptor column;
  WriterOptions options;
};

template <typename T>
absl::StatusOr<ColumnChunkData> Build(const Shape& shape, const std::vector<int16_t>& levels,
                                      absl::Span<const T> values) {
  ColumnChunkWriter writer(shape.column, shape.options);
  absl::Status status = writer.WriteBatch<T>(levels, {}, values);
  if (!status.ok()) return status;
  return writer.Finish(0);
}

template <typename T>
void RunWrite(benchmark::State& state, const Shape& shape, const std::vector<T>& all) {
  const std::vector<int16_t> levels =
      shape.column.max_definition_level > 0 ? SparseNulls(kRows) : std::vector<int16_t>();
  const std::vector<T> values = Present(all, levels);
  size_t bytes = 0;
  for (auto _ : state) {
    auto chunk = Build<T>(shape, levels, values);
    if (!chunk.ok()) {
      state.SkipWithError(std::string(chunk.status().message()).c_str());
      break;
    }
    bytes = chunk->bytes.size();
    benchmark::DoNotOptimize(chunk->bytes.data());
  }
  SetCounters(state, kRows, values.size() * sizeof(T));
  state.counters["chunk_bytes"] = static_cast<double>(bytes);
}

template <typename T>
void RunRead(benchmark::State& state, const Shape& shape, const std::vector<T>& all) {
  const std::vector<int16_t> levels =
      shape.column.max_definition_level > 0 ? SparseNulls(kRows) : std::vector<int16_t>();
  const std::vector<T> values = Present(all, levels);
  auto chunk = Build<T>(shape, levels, values);
  if (!chunk.ok()) {
    state.SkipWithError(std::string(chunk.status().message()).c_str());
    return;
  }
  auto source = MakeMemoryByteSource(chunk->bytes);
  ColumnChunkLocation location;
  location.length = static_cast<int64_t>(chunk->bytes.size());
  location.codec = shape.options.compression;
  location.num_values = static_cast<int64_t>(kRows);
  constexpr int64_t kBatch = 4096;
  std::vector<int16_t> definition(kBatch);
  std::unique_ptr<T[]> out(new T[kBatch]);
  for (auto _ : state) {
    ColumnChunkReader reader(shape.column, source.get(), location);
    for (;;) {
      auto counts =
          reader.ReadBatch<T>(absl::MakeSpan(definition), {}, absl::MakeSpan(out.get(), kBatch));
      if (!counts.ok()) {
        state.SkipWithError(std::string(counts.status().message()).c_str());
        return;
      }
      if (counts->levels == 0) break;
      benchmark::DoNotOptimize(out.get());
    }
  }
  SetCounters(state, kRows, values.size() * sizeof(T));
}

Shape MakeShape(PhysicalType type, int16_t max_def, int version, EncodingPolicy policy,
                Compression codec) {
  Shape shape;
  shape.column = Column(type, max_def);
  shape.options.data_page_version = version;
  shape.options.encoding = policy;
  shape.options.compression = codec;
  return shape;
}

const std::vector<int64_t>& Timestamps() {
  static const auto* values = new std::vector<int64_t>(SortedTimestamps(kRows));
  return *values;
}
const std::vector<int32_t>& Ids() {
  static const auto* values = new std::vector<int32_t>(LowCardinalityIds<int32_t>(kRows, 1000));
  return *values;
}
const std::vector<double>& Measurements() {
  static const auto* values = new std::vector<double>(Doubles(kRows));
  return *values;
}
const std::vector<ByteArray>& Urls() {
  static const auto* strings = new std::vector<std::string>(UrlLikeStrings(kRows));
  static const auto* values = new std::vector<ByteArray>(MakeByteArrays(*strings));
  return *values;
}

// name, shape, values: each registered for writing and for reading.
#define PQPAGE_CHUNK_BENCH(name, T, shape, values)                                       \
  void BM_Write_##name(benchmark::State& state) { RunWrite<T>(state, shape, values()); } \
  void BM_Read_##name(benchmark::State& state) { RunRead<T>(state, shape, values()); }   \
  BENCHMARK(BM_Write_##name);                                                            \
  BENCHMARK(BM_Read_##name)

PQPAGE_CHUNK_BENCH(OptionalIdsDictionaryV1Snappy, int32_t,
                   MakeShape(PhysicalType::kInt32, 1, 1, EncodingPolicy::kAuto,
                             Compression::kSnappy),
                   Ids);
PQPAGE_CHUNK_BENCH(TimestampsDeltaV2Zstd, int64_t,
                   MakeShape(PhysicalType::kInt64, 0, 2, EncodingPolicy::kDelta,
                             Compression::kZstd),
                   Timestamps);
PQPAGE_CHUNK_BENCH(OptionalDoublesPlainV1Uncompressed, double,
                   MakeShape(PhysicalType::kDouble, 1, 1, EncodingPolicy::kPlain,
                             Compression::kUncompressed),
                   Measurements);
PQPAGE_CHUNK_BENCH(DoublesByteStreamSplitV2Zstd, double,
                   MakeShape(PhysicalType::kDouble, 0, 2, EncodingPolicy::kByteStreamSplit,
                             Compression::kZstd),
                   Measurements);
PQPAGE_CHUNK_BENCH(UrlsAutoV2Snappy, ByteArray,
                   MakeShape(PhysicalType::kByteArray, 1, 2, EncodingPolicy::kAuto,
                             Compression::kSnappy),
                   Urls);

// Every page of every column of a reference file, as `pqpage scan` reads it.
void BM_ScanReferenceFile(benchmark::State& state, const std::string& path) {
  int64_t levels_per_run = 0;
  for (auto _ : state) {
    auto file = FileReader::Open(path);
    if (!file.ok()) {
      state.SkipWithError(std::string(file.status().message()).c_str());
      return;
    }
    levels_per_run = 0;
    constexpr int64_t kBatch = 4096;
    std::vector<int16_t> definition(kBatch), repetition(kBatch);
    std::vector<uint8_t> scratch(kBatch * 16);
    for (int group = 0; group < (*file)->num_row_groups(); ++group) {
      for (size_t c = 0; c < (*file)->schema().columns().size(); ++c) {
        auto reader = (*file)->OpenColumnChunk(group, static_cast<int>(c));
        if (!reader.ok()) continue;
        for (;;) {
          const absl::StatusOr<BatchCounts> counts =
              VisitValueType(reader->column().type, [&](auto tag) {
                using T = typename decltype(tag)::Type;
                return reader->ReadBatch<T>(
                    absl::MakeSpan(definition), absl::MakeSpan(repetition),
                    absl::MakeSpan(reinterpret_cast<T*>(scratch.data()), kBatch));
              });
          if (!counts.ok() || counts->levels == 0) break;
          levels_per_run += counts->levels;
        }
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * levels_per_run);
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(std::filesystem::file_size(path)));
}

// The larger reference files, when ../shared is beside the checkout.
const int kRegisterFiles = [] {
  const std::string data = std::string(PQPAGE_SHARED_DIR) + "/parquet-testing/data/";
  for (const char* name : {"alltypes_tiny_pages_plain.parquet", "delta_binary_packed.parquet",
                           "delta_byte_array.parquet", "hadoop_lz4_compressed_larger.parquet",
                           "lz4_raw_compressed_larger.parquet", "overflow_i16_page_cnt.parquet",
                           "nested_structs.rust.parquet"}) {
    const std::string path = data + name;
    if (std::filesystem::exists(path)) {
      benchmark::RegisterBenchmark((std::string("BM_ScanReferenceFile/") + name).c_str(),
                                   BM_ScanReferenceFile, path);
    }
  }
  return 0;
}();

}  // namespace
}  // namespace pqpage::bench
