// What the ORC file-layer tests share: sample schemas and stripes, a writer of pqpage's own sample
// file, and a source that owns its bytes. Used by orc_file_test.cc, orc_hostile_file_test.cc and
// orc_peer_file_test.cc.
#ifndef PQPAGE_TESTS_ORC_FILE_FIXTURES_H_
#define PQPAGE_TESTS_ORC_FILE_FIXTURES_H_

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "orc_metadata.pb.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/file_writer.h"
#include "pqpage/orc/metadata.h"
#include "pqpage/status_macros.h"
#include "status_matchers.h"

namespace pqpage::orc::fixtures {

inline constexpr CompressionKind kWritableKinds[] = {CompressionKind::kNone, CompressionKind::kZlib,
                                                     CompressionKind::kSnappy,
                                                     CompressionKind::kLz4, CompressionKind::kZstd};

inline std::vector<uint8_t> Bytes(size_t n, uint32_t seed, bool compressible = true) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) {
    bytes[i] =
        compressible ? static_cast<uint8_t>('a' + (i / 7 + seed) % 5) : static_cast<uint8_t>(rng());
  }
  return bytes;
}

inline absl::Span<const uint8_t> AsBytes(const std::string& s) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// struct<id: bigint, name: string, tags: list<string>, attrs: map<string, double>,
//        price: decimal(10,2), code: varchar(8), choice: uniontype<int, string>>
inline OrcTypeNode SampleTree() {
  auto scalar = [](TypeKind kind) { return OrcTypeNode{.kind = kind}; };
  OrcTypeNode tags{.kind = TypeKind::kList, .children = {scalar(TypeKind::kString)}};
  OrcTypeNode attrs{.kind = TypeKind::kMap,
                    .children = {scalar(TypeKind::kString), scalar(TypeKind::kDouble)}};
  OrcTypeNode price{.kind = TypeKind::kDecimal, .precision = 10, .scale = 2};
  OrcTypeNode code{.kind = TypeKind::kVarchar, .maximum_length = 8};
  OrcTypeNode choice{.kind = TypeKind::kUnion,
                     .children = {scalar(TypeKind::kInt), scalar(TypeKind::kString)}};
  return OrcTypeNode{.kind = TypeKind::kStruct,
                     .children = {scalar(TypeKind::kLong), scalar(TypeKind::kString), tags, attrs,
                                  price, code, choice},
                     .field_names = {"id", "name", "tags", "attrs", "price", "code", "choice"}};
}

inline std::string ColumnStatisticsBytes(uint64_t values, int64_t minimum) {
  proto::ColumnStatistics statistics;
  statistics.set_numberofvalues(values);
  statistics.set_hasnull(values % 2 == 0);
  statistics.mutable_intstatistics()->set_minimum(minimum);
  statistics.mutable_intstatistics()->set_maximum(minimum + 100);
  return statistics.SerializeAsString();
}

// What the sample file's stripes hold, so that the reader's result can be compared with it.
struct SampleStripe {
  std::vector<std::vector<uint8_t>> stream_bytes;
  OrcStripeInput input;
};

inline std::vector<SampleStripe> SampleStripes(size_t num_columns, bool with_statistics) {
  std::vector<SampleStripe> stripes(3);
  for (size_t s = 0; s < stripes.size(); ++s) {
    SampleStripe& stripe = stripes[s];
    // Per column a PRESENT and a DATA stream, some empty, some larger than a block, some
    // incompressible; the string columns a LENGTH too.
    for (uint32_t column = 0; column < num_columns; ++column) {
      const uint32_t seed = static_cast<uint32_t>(s * 100 + column);
      stripe.stream_bytes.push_back(Bytes(column % 3 == 0 ? 0 : 10 + column, seed));
      stripe.input.streams.push_back({StreamKind::kPresent, column, {}});
      stripe.stream_bytes.push_back(Bytes(column == 2 ? 70000 : 300 * column, seed + 1,
                                          /*compressible=*/column % 2 == 0));
      stripe.input.streams.push_back({StreamKind::kData, column, {}});
      if (column == 2) {
        stripe.stream_bytes.push_back(Bytes(40, seed + 2));
        stripe.input.streams.push_back({StreamKind::kLength, column, {}});
      }
    }
    for (size_t i = 0; i < stripe.stream_bytes.size(); ++i) {
      stripe.input.streams[i].bytes = stripe.stream_bytes[i];
    }
    stripe.input.num_rows = 1000 + s;
    for (uint32_t column = 0; column < num_columns; ++column) {
      stripe.input.encodings.push_back(
          column == 2 ? ColumnEncodingInfo{ColumnEncodingKind::kDictionaryV2, 17 + column}
                      : ColumnEncodingInfo{ColumnEncodingKind::kDirectV2, 0});
      if (with_statistics) {
        stripe.input.statistics.push_back(ColumnStatisticsBytes(s + column, -int64_t(column)));
      }
    }
    if (s == 1) stripe.input.writer_timezone = "Europe/Paris";
  }
  return stripes;
}

inline absl::StatusOr<std::vector<uint8_t>> WriteSample(const OrcWriterOptions& options,
                                                        bool with_statistics = true) {
  PQPAGE_ASSIGN_OR_RETURN(std::vector<OrcType> types, FlattenTypeTree(SampleTree()));
  const size_t num_columns = types.size();
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<OrcFileWriter> writer,
                          OrcFileWriter::Create(std::move(types), options));
  for (const SampleStripe& stripe : SampleStripes(num_columns, with_statistics)) {
    PQPAGE_RETURN_IF_ERROR(writer->WriteStripe(stripe.input));
  }
  if (with_statistics) {
    std::vector<std::string> file_statistics;
    for (size_t column = 0; column < num_columns; ++column) {
      file_statistics.push_back(ColumnStatisticsBytes(7 * column, int64_t(column)));
    }
    PQPAGE_RETURN_IF_ERROR(writer->SetFileStatistics(file_statistics));
  }
  PQPAGE_RETURN_IF_ERROR(writer->Close());
  return writer->ReleaseBytes();
}

// A source in memory that owns its bytes, so that a reader opened on a temporary file outlives it.
class OwningMemorySource final : public ByteSource {
 public:
  explicit OwningMemorySource(std::vector<uint8_t> bytes)
      : bytes_(std::move(bytes)), view_(MakeMemoryByteSource(bytes_)) {}
  int64_t size() const override { return view_->size(); }
  absl::Status ReadAt(int64_t offset, absl::Span<uint8_t> out) const override {
    return view_->ReadAt(offset, out);
  }
  absl::Span<const uint8_t> InMemory() const override { return view_->InMemory(); }

 private:
  std::vector<uint8_t> bytes_;
  std::unique_ptr<ByteSource> view_;
};

inline absl::StatusOr<std::unique_ptr<OrcFileReader>> OpenBytes(std::vector<uint8_t> bytes) {
  return OrcFileReader::Open(std::make_unique<OwningMemorySource>(std::move(bytes)));
}

}  // namespace pqpage::orc::fixtures

#endif  // PQPAGE_TESTS_ORC_FILE_FIXTURES_H_
