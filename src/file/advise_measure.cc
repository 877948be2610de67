#include "file/advise_measure.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include "common/add_if_absent.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_batch.h"
#include "pqpage/value_type.h"

namespace pqpage::internal {
namespace {

// A growable array with data() for every T (std::vector<bool> has none, and ColumnChunkWriter
// takes a span).
template <typename T>
class ValueArray {
 public:
  void Append(absl::Span<const T> values) {
    if (size_ + values.size() > capacity_) {
      const size_t capacity = std::max(size_ + values.size(), 2 * capacity_ + 1024);
      auto grown = std::make_unique<T[]>(capacity);
      std::copy(data_.get(), data_.get() + size_, grown.get());
      data_ = std::move(grown);
      capacity_ = capacity;
    }
    std::copy(values.begin(), values.end(), data_.get() + size_);
    size_ += values.size();
  }
  absl::Span<T> span() { return absl::MakeSpan(data_.get(), size_); }

 private:
  std::unique_ptr<T[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// A column chunk's levels and values, held so that it can be written many times.
template <typename T>
struct ChunkValues {
  std::vector<int16_t> definitions;
  std::vector<int16_t> repetitions;
  ValueArray<T> values;
  // Byte arrays: their bytes, copied out of the pages the reader moves past. Views are made once
  // every value is in (the buffer moves while it grows).
  std::vector<uint8_t> bytes;
  std::vector<uint32_t> sizes;
};

// Reads the chunk's levels and values into `chunk`, and the value encodings of the data pages the
// values came from into `encodings` (a batch never spans two pages, so each batch has one).
template <typename T>
absl::Status ReadChunk(ColumnChunkReader& reader, ChunkValues<T>* chunk,
                       std::vector<Encoding>* encodings) {
  const ColumnDescriptor& column = reader.column();
  const bool has_def = column.max_definition_level > 0;
  const bool has_rep = column.max_repetition_level > 0;
  ValueBatch<T> batch;
  while (true) {
    PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts, ReadNextBatch(reader, batch));
    if (counts.levels == 0) break;
    internal::AddIfAbsent(reader.page().encoding, encodings);
    const auto levels = static_cast<size_t>(counts.levels);
    if (has_def) {
      chunk->definitions.insert(chunk->definitions.end(), batch.definition_levels.get(),
                                batch.definition_levels.get() + levels);
    }
    if (has_rep) {
      chunk->repetitions.insert(chunk->repetitions.end(), batch.repetition_levels.get(),
                                batch.repetition_levels.get() + levels);
    }
    const auto present = batch.value_span().first(static_cast<size_t>(counts.values));
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (const ByteArray& value : present) {
        chunk->bytes.insert(chunk->bytes.end(), value.data, value.data + value.size);
        chunk->sizes.push_back(value.size);
      }
    } else {
      chunk->values.Append(present);
    }
  }
  if constexpr (std::is_same_v<T, ByteArray>) {
    std::vector<ByteArray> views;
    views.reserve(chunk->sizes.size());
    size_t offset = 0;
    for (const uint32_t size : chunk->sizes) {
      views.emplace_back(chunk->bytes.data() + offset, size);
      offset += size;
    }
    chunk->values.Append(views);
  }
  return absl::OkStatus();
}

// "RLE_DICTIONARY+PLAIN": the value encodings of the data pages, in order of first use.
std::string JoinEncodings(const std::vector<Encoding>& encodings) {
  std::string out;
  for (const Encoding encoding : encodings) {
    if (!out.empty()) out += "+";
    out += std::string(EncodingName(encoding));
  }
  return out.empty() ? "-" : out;
}

// Decodes `chunk` completely, twice at least and until 20 ms have passed, and
// keeps the fastest run: the figure is the decoder's speed, not the machine's noise.
template <typename T>
absl::Status TimeDecode(const ColumnDescriptor& column, const ColumnChunkData& chunk,
                        Compression codec, PolicyMeasurement* result) {
  constexpr int kMinRuns = 2;
  constexpr double kMinSeconds = 0.02;
  std::unique_ptr<ByteSource> source = MakeMemoryByteSource(chunk.bytes);
  ColumnChunkLocation location;
  location.length = static_cast<int64_t>(chunk.bytes.size());
  location.codec = codec;
  location.num_values = chunk.metadata.num_values;
  ValueBatch<T> batch;
  double best = 0;
  double spent = 0;
  for (int run = 0; run < kMinRuns || spent < kMinSeconds; ++run) {
    const auto start = std::chrono::steady_clock::now();
    ColumnChunkReader reader(column, source.get(), location);
    int64_t value_bytes = 0;
    while (true) {
      PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts, ReadNextBatch(reader, batch));
      if (counts.levels == 0) break;
      for (int64_t i = 0; i < counts.values; ++i) value_bytes += DecodedValueBytes(batch.values[i]);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    spent += seconds;
    best = run == 0 ? seconds : std::min(best, seconds);
    result->decoded_value_bytes = value_bytes;
  }
  result->decode_seconds = best;
  return absl::OkStatus();
}

template <typename T>
absl::Status MeasureCandidates(ColumnChunkReader& reader, const WriterOptions& options,
                               ChunkMeasurement* measurement) {
  const ColumnDescriptor column = reader.column();
  ChunkValues<T> chunk;
  std::vector<Encoding> stored_encodings;
  PQPAGE_RETURN_IF_ERROR(ReadChunk(reader, &chunk, &stored_encodings));
  measurement->encodings = JoinEncodings(stored_encodings);
  for (const EncodingPolicy policy : AdvisedPolicies()) {
    WriterOptions candidate_options = options;
    candidate_options.encoding = policy;
    ColumnChunkWriter writer(column, candidate_options);
    PQPAGE_RETURN_IF_ERROR(
        writer.WriteBatch<T>(chunk.definitions, chunk.repetitions, chunk.values.span()));
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkData written, writer.Finish(0));
    PolicyMeasurement result;
    result.policy = policy;
    result.stored_bytes = static_cast<int64_t>(written.bytes.size());
    AddDataPageEncodings(written.metadata, &result.value_encodings);
    result.encodings = JoinEncodings(result.value_encodings);
    PQPAGE_RETURN_IF_ERROR(TimeDecode<T>(
        column, written, static_cast<Compression>(written.metadata.codec_id), &result));
    measurement->candidates.push_back(std::move(result));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ChunkMeasurement> MeasureChunk(const FileReader& file, int row_group, int column,
                                              const WriterOptions& options) {
  ChunkMeasurement measurement;
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkLocation location, file.LocateColumnChunk(row_group, column));
  const ColumnDescriptor& descriptor = file.schema().columns()[static_cast<size_t>(column)];
  measurement.stored_bytes = location.length;
  measurement.codec = location.codec;
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader, file.OpenColumnChunk(row_group, column));
  PQPAGE_RETURN_IF_ERROR(VisitValueType(descriptor.type, [&](auto tag) {
    return MeasureCandidates<typename decltype(tag)::Type>(reader, options, &measurement);
  }));
  return measurement;
}

}  // namespace pqpage::internal

namespace pqpage {

const std::vector<EncodingPolicy>& AdvisedPolicies() {
  static const std::vector<EncodingPolicy> kPolicies = {
      EncodingPolicy::kPlain,           EncodingPolicy::kDictionary,
      EncodingPolicy::kDelta,           EncodingPolicy::kDeltaLengthByteArray,
      EncodingPolicy::kByteStreamSplit, EncodingPolicy::kAuto,
  };
  return kPolicies;
}

}  // namespace pqpage
