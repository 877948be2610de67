// What modular encryption costs: writing a file (values encoded into pages, pages written) and
// scanning it (every column read and decoded), in the clear and encrypted with AES_GCM_V1 and
// AES_GCM_CTR_V1, every column with its own key. The table has the shapes real files have: ids,
// timestamps, clock times with nulls, money, sensor floats, categories, URLs and free text. Scans
// read the file with pread (FileReader's default) and mapped (OpenMappedFileByteSource), where a
// scan in the clear copies nothing and decryption is the only pass over the stored bytes besides
// decompression. BM_Module times the cipher alone on 1 MiB modules, under each engine (ipsec-mb and
// OpenSSL). Bytes/s count the file's bytes. The target: an encrypted path takes at
// most 1.3x the time of the same path in the clear (AES-NI).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench_data.h"
#include "crypto/aes_cipher.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/encryption.h"
#include "pqpage/file.h"
#include "pqpage/read_chunks.h"

namespace pqpage::bench {
namespace {

constexpr size_t kRows = 512 * 1024;

struct Table {
  Schema schema;
  std::vector<int64_t> ids;
  std::vector<int64_t> timestamps;
  std::vector<int32_t> clock_times;  // present values only
  std::vector<int16_t> clock_levels;
  std::vector<int64_t> cents;
  std::vector<float> sensor;
  std::vector<std::string> category_text;
  std::vector<ByteArray> categories;
  std::vector<std::string> url_text;
  std::vector<ByteArray> urls;
  std::vector<std::string> note_text;
  std::vector<ByteArray> notes;
};

const Table& TheTable() {
  static const Table* table = [] {
    auto* t = new Table();
    auto schema = Schema::Builder()
                      .AddPrimitive("id", Repetition::kRequired, PhysicalType::kInt64)
                      .AddPrimitive("at", Repetition::kRequired, PhysicalType::kInt64)
                      .AddPrimitive("clock", Repetition::kOptional, PhysicalType::kInt32)
                      .AddPrimitive("cents", Repetition::kRequired, PhysicalType::kInt64)
                      .AddPrimitive("sensor", Repetition::kRequired, PhysicalType::kFloat)
                      .AddPrimitive("category", Repetition::kRequired, PhysicalType::kByteArray)
                      .AddPrimitive("url", Repetition::kRequired, PhysicalType::kByteArray)
                      .AddPrimitive("note", Repetition::kRequired, PhysicalType::kByteArray)
                      .Build();
    if (!schema.ok()) std::abort();
    t->schema = *schema;
    for (size_t i = 0; i < kRows; ++i) t->ids.push_back(static_cast<int64_t>(1000000 + i));
    t->timestamps = SortedTimestamps(kRows);
    const std::vector<int32_t> clocks = BoundedInts<int32_t>(kRows, 86400000);
    for (size_t i = 0; i < kRows; ++i) {
      const bool present = i % 7 != 2;
      t->clock_levels.push_back(present ? 1 : 0);
      if (present) t->clock_times.push_back(clocks[i]);
    }
    t->cents = BoundedInts<int64_t>(kRows, 500000, 11);
    t->sensor = Floats(kRows);
    for (const int32_t id : LowCardinalityIds<int32_t>(kRows, 60)) {
      t->category_text.push_back("category-" + std::to_string(id));
    }
    t->categories = MakeByteArrays(t->category_text);
    t->url_text = UrlLikeStrings(kRows);
    t->urls = MakeByteArrays(t->url_text);
    t->note_text = ShortStrings(kRows, 8, 40);
    t->notes = MakeByteArrays(t->note_text);
    return t;
  }();
  return *table;
}

// 0: in the clear; 1: AES_GCM_V1; 2: AES_GCM_CTR_V1. Each column has its own key.
std::shared_ptr<const FileEncryptionProperties> Encryption(int64_t mode) {
  if (mode == 0) return nullptr;
  auto encryption = std::make_shared<FileEncryptionProperties>();
  encryption->algorithm =
      mode == 2 ? EncryptionAlgorithm::kAesGcmCtrV1 : EncryptionAlgorithm::kAesGcmV1;
  encryption->footer_key = std::string(16, 'f');
  for (const ColumnDescriptor& column : TheTable().schema.columns()) {
    encryption->column_keys[column.PathString()] = {std::string(16, column.path[0][0]),
                                                    column.PathString()};
  }
  return encryption;
}

std::string PathFor(int64_t mode) {
  return "/tmp/pqpage_encryption_bench_" + std::to_string(mode) + ".parquet";
}

template <typename T>
absl::Status WriteColumn(FileWriter& file, int column, absl::Span<const int16_t> levels,
                         const std::vector<T>& values) {
  ColumnChunkWriter writer(TheTable().schema.columns()[static_cast<size_t>(column)]);
  if (absl::Status status = writer.WriteBatch<T>(levels, {}, values); !status.ok()) return status;
  return file.WriteColumnChunk(std::move(writer));
}

absl::Status WriteTable(int64_t mode) {
  const Table& t = TheTable();
  FileWriterOptions options;
  options.encryption = Encryption(mode);
  auto file = FileWriter::Open(PathFor(mode), t.schema, options);
  if (!file.ok()) return file.status();
  FileWriter& out = **file;
  absl::Status status = out.BeginRowGroup();
  if (status.ok()) status = WriteColumn(out, 0, {}, t.ids);
  if (status.ok()) status = WriteColumn(out, 1, {}, t.timestamps);
  if (status.ok()) status = WriteColumn(out, 2, t.clock_levels, t.clock_times);
  if (status.ok()) status = WriteColumn(out, 3, {}, t.cents);
  if (status.ok()) status = WriteColumn(out, 4, {}, t.sensor);
  if (status.ok()) status = WriteColumn(out, 5, {}, t.categories);
  if (status.ok()) status = WriteColumn(out, 6, {}, t.urls);
  if (status.ok()) status = WriteColumn(out, 7, {}, t.notes);
  if (status.ok()) status = out.EndRowGroup();
  if (status.ok()) status = out.Close();
  return status;
}

int64_t FileBytes(int64_t mode) {
  FILE* file = std::fopen(PathFor(mode).c_str(), "rb");
  if (file == nullptr) return 0;
  std::fseek(file, 0, SEEK_END);
  const int64_t size = std::ftell(file);
  std::fclose(file);
  return size;
}

void BM_Write(benchmark::State& state) {
  const int64_t mode = state.range(0);
  TheTable();
  for (auto _ : state) {
    if (absl::Status status = WriteTable(mode); !status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
  }
  state.SetBytesProcessed(state.iterations() * FileBytes(mode));
}

void BM_Scan(benchmark::State& state) {
  const int64_t mode = state.range(0);
  if (absl::Status status = WriteTable(mode); !status.ok()) {
    state.SkipWithError(std::string(status.message()).c_str());
    return;
  }
  ReaderOptions options;
  if (const auto encryption = Encryption(mode)) {
    options.decryption =
        std::make_shared<const FileDecryptionProperties>(DecryptionPropertiesFor(*encryption));
  }
  const bool mapped = state.range(1) != 0;
  int64_t values = 0;
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<FileReader>> file;
    if (mapped) {
      auto source = OpenMappedFileByteSource(PathFor(mode));
      if (!source.ok()) {
        state.SkipWithError(std::string(source.status().message()).c_str());
        return;
      }
      file = FileReader::Open(std::move(*source), PathFor(mode), options);
    } else {
      file = FileReader::Open(PathFor(mode), options);
    }
    if (!file.ok()) {
      state.SkipWithError(std::string(file.status().message()).c_str());
      return;
    }
    absl::Status status = ReadChunks(
        **file, ChunkSelection(),
        [](const SelectedChunk&, const ColumnChunkReader&) { return absl::OkStatus(); },
        [&](const SelectedChunk&, const auto&, const BatchCounts& counts) {
          values += counts.values;
          return absl::OkStatus();
        });
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
  }
  benchmark::DoNotOptimize(values);
  state.SetBytesProcessed(state.iterations() * FileBytes(mode));
}

// One 1 MiB module sealed or opened by each engine: the cipher alone, without a file around it.
// Args: 0 GCM, 1 CTR; 0 the fastest engine (ipsec-mb where it runs), 1 OpenSSL; 0 seal, 1 open.
void BM_Module(benchmark::State& state) {
  const bool gcm = state.range(0) == 0;
  const internal::AesEngine engine =
      state.range(1) == 0 ? internal::AesEngine::kFastest : internal::AesEngine::kOpenSsl;
  const bool open = state.range(2) != 0;
  auto cipher = internal::AesCipher::Make(std::string(16, 'k'), engine);
  if (!cipher.ok()) {
    state.SkipWithError(std::string(cipher.status().message()).c_str());
    return;
  }
  if (engine == internal::AesEngine::kFastest && !cipher->accelerated()) {
    state.SkipWithError("ipsec-mb is not built in or cannot run on this CPU");
    return;
  }
  const std::vector<uint8_t> plaintext(1 << 20, 0x5a);
  std::vector<uint8_t> module;
  absl::Status status =
      gcm ? cipher->EncryptGcm(plaintext, "aad", &module) : cipher->EncryptCtr(plaintext, &module);
  std::vector<uint8_t> out(plaintext.size());
  for (auto _ : state) {
    if (open) {
      status = gcm ? cipher->DecryptGcm(module, "aad", absl::MakeSpan(out))
                   : cipher->DecryptCtr(module, absl::MakeSpan(out));
    } else {
      module.clear();
      status = gcm ? cipher->EncryptGcm(plaintext, "aad", &module)
                   : cipher->EncryptCtr(plaintext, &module);
    }
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(module.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(plaintext.size()));
}

// encryption: 0 in the clear, 1 AES_GCM_V1, 2 AES_GCM_CTR_V1; mapped: 0 pread, 1 mmap.
BENCHMARK(BM_Write)->ArgName("encryption")->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Module)->ArgNames({"ctr", "openssl", "open"})->ArgsProduct({{0, 1}, {0, 1}, {0, 1}});
BENCHMARK(BM_Scan)
    ->ArgNames({"encryption", "mapped"})
    ->ArgsProduct({{0, 1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace pqpage::bench
