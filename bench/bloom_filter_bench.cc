// What a bloom filter costs the page builder: a column chunk written without a filter, with one
// sized by the chunk's own distinct values (counted by hash while it is written), and with one
// sized for a given count. Values/s count the values written; the difference between the runs is
// the filter's cost per value. Ids (all distinct), URLs (mostly distinct) and categories (100).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.h"
#include "pqpage/column_chunk_writer.h"

namespace pqpage::bench {
namespace {

constexpr size_t kRows = 256 * 1024;

enum class Filter { kNone, kCounted, kGiven };

WriterOptions Options(Filter filter) {
  WriterOptions options;
  options.encoding = EncodingPolicy::kPlain;
  options.compression = Compression::kUncompressed;
  options.bloom_filter.enabled = filter != Filter::kNone;
  if (filter == Filter::kGiven) options.bloom_filter.distinct_values = kRows;
  return options;
}

template <typename T>
void WriteChunk(benchmark::State& state, PhysicalType type, const std::vector<T>& values,
                Filter filter) {
  ColumnDescriptor column;
  column.path = {"c"};
  column.type = type;
  const WriterOptions options = Options(filter);
  int64_t filter_bytes = 0;
  for (auto _ : state) {
    ColumnChunkWriter writer(column, options);
    if (!writer.WriteBatch<T>({}, {}, values).ok()) state.SkipWithError("write failed");
    absl::StatusOr<ColumnChunkData> chunk = writer.Finish(4);
    if (!chunk.ok()) state.SkipWithError("finish failed");
    filter_bytes = chunk->bloom_filter ? chunk->bloom_filter->num_bytes() : 0;
    benchmark::DoNotOptimize(chunk->bytes.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(values.size()));
  state.counters["filter_bytes"] = static_cast<double>(filter_bytes);
}

void Register() {
  static const std::vector<int64_t> ids = RandomInts<int64_t>(kRows);
  static const std::vector<std::string> urls = UrlLikeStrings(kRows);
  static const std::vector<ByteArray> url_values = MakeByteArrays(urls);
  static const std::vector<int64_t> categories = LowCardinalityIds<int64_t>(kRows, 100);
  const std::pair<const char*, Filter> filters[] = {
      {"none", Filter::kNone}, {"counted", Filter::kCounted}, {"given", Filter::kGiven}};
  for (const auto& [name, filter] : filters) {
    benchmark::RegisterBenchmark((std::string("write/int64_ids/") + name).c_str(),
                                 [filter = filter](benchmark::State& state) {
                                   WriteChunk(state, PhysicalType::kInt64, ids, filter);
                                 });
    benchmark::RegisterBenchmark((std::string("write/urls/") + name).c_str(),
                                 [filter = filter](benchmark::State& state) {
                                   WriteChunk(state, PhysicalType::kByteArray, url_values, filter);
                                 });
    benchmark::RegisterBenchmark((std::string("write/int64_categories/") + name).c_str(),
                                 [filter = filter](benchmark::State& state) {
                                   WriteChunk(state, PhysicalType::kInt64, categories, filter);
                                 });
  }
}

const bool registered = (Register(), true);

}  // namespace
}  // namespace pqpage::bench
