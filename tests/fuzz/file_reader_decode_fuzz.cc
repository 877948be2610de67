// Fuzz target: a whole file. The footer is parsed, the schema's leaves derived, and every column
// chunk of every row group is walked page by page (headers and CRCs), has its page index and bloom
// filter read, is looked up for a value (statistics, filter, index, then the rows left) and is read
// through the page decoder, whole and by rows (selected ranges, seeks and skips, with the page
// index and without). Then the whole file is read as Arrow record batches (OpenArrowStream)
// to its end or its first error, every structure released. A file is arbitrary bytes here: only
// crashes, sanitizer reports, leaks and allocations sized by unchecked numbers are bugs.
//
// The reader holds the keys of the encrypted seeds (FuzzKeys), so that mutations of an encrypted
// file reach the decryption of its footer, column metadata, page headers, pages, indexes and
// filters, and what a module that authenticates holds.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/column_chunk_read_loop.h"
#include "fuzz/fuzz_seeds.h"
#include "fuzz/read_at_only_source.h"
#include "page/read/page_walker.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/arrow_reader.h"
#include "pqpage/file.h"
#include "pqpage/lookup.h"

namespace {

// Keeps the filter probes from being optimised away.
volatile int fuzz_sink = 0;

// Reads `file` through the Arrow stream until its end or first error, releasing each batch and
// the schema; errors are expected here, only what the sanitizers see counts. Small batches and a
// row range taken from the input reach the batch and row selection paths.
void ReadAsArrow(std::shared_ptr<const pqpage::FileReader> file, uint8_t pattern) {
  pqpage::ArrowReadOptions options;
  options.batch_rows = 1 + pattern % 64;
  if (pattern % 3 == 0) options.rows = pqpage::RowRange{pattern % 5, 5 + pattern % 50};
  ArrowArrayStream stream{};
  if (!pqpage::OpenArrowStream(std::move(file), options, &stream).ok()) return;
  ArrowSchema schema{};
  if (stream.get_schema(&stream, &schema) == 0 && schema.release != nullptr) {
    schema.release(&schema);
  }
  // Bounded: a footer may claim more rows than its pages hold (the batches then fail), or many
  // rows in tiny batches.
  for (int i = 0; i < 4096; ++i) {
    ArrowArray batch{};
    if (stream.get_next(&stream, &batch) != 0) {
      (void)stream.get_last_error(&stream);
      break;
    }
    if (batch.release == nullptr) break;
    batch.release(&batch);
  }
  stream.release(&stream);
}

const std::string kFooterKey = "fuzz-footer-key!";
const std::string kNameKey = "fuzz-name-key-16";

std::shared_ptr<pqpage::FileDecryptionProperties> FuzzKeys() {
  auto keys = std::make_shared<pqpage::FileDecryptionProperties>();
  keys->footer_key = kFooterKey;
  keys->column_keys["name"] = kNameKey;
  keys->aad_prefix = "fuzz";
  return keys;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::shared_ptr<const pqpage::FileDecryptionProperties> keys = FuzzKeys();
  pqpage::ReaderOptions options;
  options.max_page_bytes = 1 << 20;
  options.decryption = keys;
  auto file = pqpage::FileReader::Open(
      pqpage::MakeMemoryByteSource(absl::MakeConstSpan(data, size)), "fuzz.parquet", options);
  if (!file.ok()) return 0;
  const int columns = static_cast<int>((*file)->schema().columns().size());
  const uint8_t pattern = size > 0 ? data[size / 2] : 0;
  // The walk reads through ReadAt and the walker's window; the decoder below uses the bytes in
  // place.
  const pqpage::fuzz::ReadAtOnlySource read_at_only(absl::MakeConstSpan(data, size));
  for (int group = 0; group < (*file)->num_row_groups() && group < 16; ++group) {
    for (int column = 0; column < columns && column < 64; ++column) {
      absl::StatusOr<pqpage::ColumnChunkLocation> location =
          (*file)->LocateColumnChunk(group, column);
      if (!location.ok()) continue;
      pqpage::internal::PageWalker walker(&read_at_only, *location, "fuzz", options);
      for (int page = 0; page < 1000; ++page) {
        absl::StatusOr<bool> more = walker.Next();
        if (!more.ok() || !*more) break;
      }
      // The page index, which pqpage's own seeds carry: any bytes where it points must give an
      // index or an error.
      absl::StatusOr<std::optional<pqpage::ChunkPageIndex>> index =
          (*file)->ReadPageIndex(group, column);
      absl::StatusOr<std::optional<pqpage::BloomFilter>> filter =
          (*file)->ReadBloomFilter(group, column);
      if (filter.ok() && *filter) {
        fuzz_sink =
            fuzz_sink + ((*filter)->MayContainHash(pattern * 0x9E3779B97F4A7C15ULL) ? 1 : 0);
      }
      absl::StatusOr<pqpage::ColumnChunkReader> reader = (*file)->OpenColumnChunk(group, column);
      if (reader.ok()) pqpage::fuzz::ReadChunk(*reader, pattern, 1 << 16);
      // Row addressing, with the index when it could be read and without: selected ranges, then
      // a seek forward and one back, each followed by reading on.
      for (const bool use_index : {false, true}) {
        absl::StatusOr<pqpage::ColumnChunkReader> rows = (*file)->OpenColumnChunk(group, column);
        if (!rows.ok()) break;
        if (use_index) {
          if (!index.ok() || !*index) break;
          if (!rows->UseOffsetIndex(**index).ok()) break;
        }
        const int64_t a = pattern % 7;
        if (!rows->SelectRows({{a, a + 3}, {a + 5 + pattern % 11, a + 40}}).ok()) continue;
        pqpage::fuzz::ReadChunk(*rows, pattern, 1 << 12);
        if (!rows->SeekToRow(a + 9).ok()) continue;
        pqpage::fuzz::ReadChunk(*rows, static_cast<uint8_t>(pattern + 1), 64);
        if (!rows->SeekToRow(a / 2).ok()) continue;
        if (!rows->SkipRows(pattern % 5).ok()) continue;
        pqpage::fuzz::ReadChunk(*rows, static_cast<uint8_t>(pattern + 2), 1 << 12);
      }
    }
  }
  // A lookup in the first columns: a value of the type's size made of `pattern`, then its rows.
  for (int column = 0; column < columns && column < 4; ++column) {
    const pqpage::ColumnDescriptor& descriptor = (*file)->schema().columns()[column];
    size_t width = pqpage::IndexBoundSize(descriptor.type);
    if (descriptor.type == pqpage::PhysicalType::kFixedLenByteArray) {
      width = static_cast<size_t>(std::max(descriptor.type_length, 0));
    }
    if (width == 0 && descriptor.type != pqpage::PhysicalType::kByteArray) continue;
    if (width > 64) continue;
    const std::string value(width == 0 ? 3 : width, static_cast<char>(pattern));
    absl::StatusOr<pqpage::ValueLookup> lookup = pqpage::LookupValue(**file, column, value, {});
    if (lookup.ok()) (void)pqpage::FindRows(**file, *lookup, {});
  }
  ReadAsArrow(std::shared_ptr<const pqpage::FileReader>(*std::move(file)), pattern);
  return 0;
}

namespace {

// A small file written by pqpage's own writer: a required INT64, an optional dictionary string,
// and a list of doubles, in two row groups, with v2 pages, snappy and CRCs; encrypted when
// `encryption` is given.
std::vector<uint8_t> WrittenFile(
    int page_version, pqpage::Compression codec,
    std::shared_ptr<const pqpage::FileEncryptionProperties> encryption = nullptr) {
  pqpage::Schema::Builder builder;
  builder.AddPrimitive("id", pqpage::Repetition::kRequired, pqpage::PhysicalType::kInt64)
      .AddPrimitive("name", pqpage::Repetition::kOptional, pqpage::PhysicalType::kByteArray, 0,
                    "STRING")
      .BeginGroup("scores", pqpage::Repetition::kOptional, "LIST")
      .BeginGroup("list", pqpage::Repetition::kRepeated)
      .AddPrimitive("element", pqpage::Repetition::kRequired, pqpage::PhysicalType::kDouble)
      .EndGroup()
      .EndGroup();
  auto schema = builder.Build();
  if (!schema.ok()) std::abort();
  char path[] = "/tmp/pqpage_fuzz_seed_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) std::abort();
  close(fd);
  pqpage::FileWriterOptions file_options;
  file_options.encryption = std::move(encryption);
  auto writer = pqpage::FileWriter::Open(path, *schema, file_options);
  if (!writer.ok()) std::abort();
  pqpage::WriterOptions options;
  options.data_page_version = page_version;
  options.compression = codec;
  options.write_checksums = true;
  options.data_page_size = 48;
  options.bloom_filter.enabled = true;
  const std::vector<std::string> names = {"ann", "bob", "", "cyd"};
  for (int group = 0; group < 2; ++group) {
    if (!(*writer)->BeginRowGroup().ok()) std::abort();
    std::vector<int64_t> ids;
    std::vector<pqpage::ByteArray> name_values;
    std::vector<int16_t> name_levels;
    std::vector<double> scores;
    std::vector<int16_t> score_definition, score_repetition;
    for (int row = 0; row < 12; ++row) {
      ids.push_back(group * 100 + row);
      name_levels.push_back(row % 4 == 3 ? 0 : 1);
      if (row % 4 != 3) name_values.emplace_back(names[static_cast<size_t>(row) % names.size()]);
      const int count = row % 3;  // 0: an empty list
      if (count == 0) {
        score_definition.push_back(row % 2 ? 0 : 1);  // null list, empty list
        score_repetition.push_back(0);
      }
      for (int k = 0; k < count; ++k) {
        score_definition.push_back(2);
        score_repetition.push_back(k == 0 ? 0 : 1);
        scores.push_back(row + k * 0.5);
      }
    }
    pqpage::ColumnChunkWriter id_writer((*schema).columns()[0], options);
    pqpage::ColumnChunkWriter name_writer((*schema).columns()[1], options);
    pqpage::ColumnChunkWriter score_writer((*schema).columns()[2], options);
    if (!id_writer.WriteBatch<int64_t>({}, {}, ids).ok() ||
        !name_writer.WriteBatch<pqpage::ByteArray>(name_levels, {}, name_values).ok() ||
        !score_writer.WriteBatch<double>(score_definition, score_repetition, scores).ok() ||
        !(*writer)->WriteColumnChunk(std::move(id_writer)).ok() ||
        !(*writer)->WriteColumnChunk(std::move(name_writer)).ok() ||
        !(*writer)->WriteColumnChunk(std::move(score_writer)).ok() ||
        !(*writer)->EndRowGroup().ok()) {
      std::abort();
    }
  }
  if (!(*writer)->Close().ok()) std::abort();
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  std::remove(path);
  return bytes;
}

// Encrypted as FuzzKeys can read it: GCM with an encrypted footer, every column with the footer
// key; or CTR pages under a plaintext (signed) footer, `name` with its own key and the other
// columns in the clear.
std::shared_ptr<const pqpage::FileEncryptionProperties> SeedEncryption(bool ctr) {
  auto encryption = std::make_shared<pqpage::FileEncryptionProperties>();
  encryption->algorithm =
      ctr ? pqpage::EncryptionAlgorithm::kAesGcmCtrV1 : pqpage::EncryptionAlgorithm::kAesGcmV1;
  encryption->footer_key = kFooterKey;
  encryption->encrypted_footer = !ctr;
  if (ctr) encryption->column_keys["name"] = {kNameKey, "name"};
  encryption->aad_prefix = "fuzz";
  return encryption;
}

}  // namespace

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  return {WrittenFile(1, pqpage::Compression::kSnappy), WrittenFile(2, pqpage::Compression::kZstd),
          WrittenFile(1, pqpage::Compression::kSnappy, SeedEncryption(false)),
          WrittenFile(2, pqpage::Compression::kUncompressed, SeedEncryption(true))};
}
