// Fuzz target: a whole ORC file. The tail is read and checked (postscript, footer, metadata, the
// type tree, the stripes), the statistics serialized, and every stripe footer and every stream of
// every stripe read and decompressed, through a source in memory (bytes used in place) and one
// read with ReadAt (the pread path). A file is arbitrary bytes here: only crashes, sanitizer
// reports and allocations sized by unchecked numbers are bugs. A tail that opens must also keep
// the promises made about it: types that pass ValidateTypeTree, stripes inside the file.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "fuzz/read_at_only_source.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/file_writer.h"
#include "pqpage/orc/metadata.h"

namespace {

// Bounds on the work one input may cause: the stripes and streams of a hostile footer can number
// in the millions.
constexpr int kMaxStripes = 64;
constexpr size_t kMaxStreamsPerStripe = 1024;

void ReadEverything(std::unique_ptr<pqpage::ByteSource> source, size_t size) {
  absl::StatusOr<std::unique_ptr<pqpage::orc::OrcFileReader>> opened =
      pqpage::orc::OrcFileReader::Open(std::move(source));
  if (!opened.ok()) return;
  const pqpage::orc::OrcFileReader& reader = **opened;
  if (!pqpage::orc::ValidateTypeTree(reader.types()).ok()) {
    pqpage::fuzz::AbortWithMessage("an opened file's type tree fails ValidateTypeTree");
  }
  (void)pqpage::orc::SubtreeEnd(reader.types(), 0);
  for (const pqpage::orc::StripeInfo& stripe : reader.stripes()) {
    const uint64_t end =
        stripe.offset + stripe.index_length + stripe.data_length + stripe.footer_length;
    if (stripe.offset < 3 || end > size) {
      pqpage::fuzz::AbortWithMessage("an opened file's stripe lies outside it");
    }
  }
  (void)reader.FileStatistics();
  pqpage::orc::StreamBuffers buffers;
  for (int s = 0; s < reader.num_stripes() && s < kMaxStripes; ++s) {
    (void)reader.StripeStatistics(s);
    absl::StatusOr<pqpage::orc::StripeFooterInfo> footer = reader.ReadStripeFooter(s);
    if (!footer.ok()) continue;
    const pqpage::orc::StripeInfo& stripe = reader.stripes()[static_cast<size_t>(s)];
    for (size_t i = 0; i < footer->streams.size() && i < kMaxStreamsPerStripe; ++i) {
      const pqpage::orc::StreamInfo& stream = footer->streams[i];
      if (stream.file_offset < stripe.offset ||
          stream.file_offset + stream.length >
              stripe.offset + stripe.index_length + stripe.data_length) {
        pqpage::fuzz::AbortWithMessage("stripe %d stream %zu lies outside its stripe", s, i);
      }
      (void)reader.ReadStream(stream, &buffers);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::Span<const uint8_t> bytes = absl::MakeConstSpan(data, size);
  ReadEverything(pqpage::MakeMemoryByteSource(bytes), size);
  ReadEverything(std::make_unique<pqpage::fuzz::ReadAtOnlySource>(bytes), size);
  return 0;
}

namespace {

// A small file written by pqpage's own writer: struct<a: bigint, b: list<string>> in two
// stripes, with statistics, with the given compression and a block size small enough that the
// longer streams take several chunks.
std::vector<uint8_t> WrittenFile(pqpage::orc::CompressionKind compression) {
  using pqpage::orc::TypeKind;
  pqpage::orc::OrcTypeNode root{
      .kind = TypeKind::kStruct,
      .children = {pqpage::orc::OrcTypeNode{.kind = TypeKind::kLong},
                   pqpage::orc::OrcTypeNode{
                       .kind = TypeKind::kList,
                       .children = {pqpage::orc::OrcTypeNode{.kind = TypeKind::kString}}}},
      .field_names = {"a", "b"}};
  auto types = pqpage::orc::FlattenTypeTree(root);
  if (!types.ok()) std::abort();
  pqpage::orc::OrcWriterOptions options;
  options.compression = compression;
  options.compression_block_size = 64;
  options.user_metadata = {{"k", "v"}};
  auto writer = pqpage::orc::OrcFileWriter::Create(*types, options);
  if (!writer.ok()) std::abort();
  // ColumnStatistics{numberOfValues: 5}: field 1, varint 5.
  const std::string statistics = std::string("\x08\x05", 2);
  for (int s = 0; s < 2; ++s) {
    std::vector<uint8_t> data(100 + 30 * s);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i % 9 + s);
    const std::vector<uint8_t> present = {0xff, 0x80};
    const std::vector<uint8_t> lengths = {0x03, 0x00, 0x05};
    pqpage::orc::OrcStripeInput stripe;
    stripe.num_rows = 10;
    stripe.streams = {{pqpage::orc::StreamKind::kPresent, 1, present},
                      {pqpage::orc::StreamKind::kData, 1, data},
                      {pqpage::orc::StreamKind::kLength, 2, lengths},
                      {pqpage::orc::StreamKind::kData, 3, data},
                      {pqpage::orc::StreamKind::kLength, 3, lengths}};
    stripe.encodings = {{pqpage::orc::ColumnEncodingKind::kDirect, 0},
                        {pqpage::orc::ColumnEncodingKind::kDirectV2, 0},
                        {pqpage::orc::ColumnEncodingKind::kDirectV2, 0},
                        {pqpage::orc::ColumnEncodingKind::kDictionaryV2, 4}};
    stripe.writer_timezone = "UTC";
    stripe.statistics = {statistics, statistics, statistics, statistics};
    if (!(*writer)->WriteStripe(stripe).ok()) std::abort();
  }
  if (!(*writer)->SetFileStatistics({statistics, statistics, statistics, statistics}).ok() ||
      !(*writer)->Close().ok()) {
    std::abort();
  }
  return (*writer)->ReleaseBytes();
}

}  // namespace

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  return {WrittenFile(pqpage::orc::CompressionKind::kNone),
          WrittenFile(pqpage::orc::CompressionKind::kZlib),
          WrittenFile(pqpage::orc::CompressionKind::kZstd)};
}
