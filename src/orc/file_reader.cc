// OrcFileReader: the checked tail (file_tail.cc) kept for the file's life, stripe footers read
// and checked on demand, and streams read and decompressed into the caller's buffers.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/checked_math.h"
#include "orc/file_tail.h"
#include "orc/metadata_proto.h"
#include "pqpage/orc/file.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {

struct OrcFileReader::State {
  std::unique_ptr<ByteSource> source;
  internal::FileTail tail;
  std::vector<uint32_t> version;
  std::vector<UserMetadataItem> user_metadata;
  std::optional<EncryptionInfo> encryption;
};

OrcFileReader::OrcFileReader() = default;
OrcFileReader::~OrcFileReader() = default;

absl::StatusOr<std::unique_ptr<OrcFileReader>> OrcFileReader::Open(
    std::unique_ptr<ByteSource> source) {
  if (source == nullptr) return absl::InvalidArgumentError("ORC: no source to read");
  PQPAGE_ASSIGN_OR_RETURN(internal::FileTail tail, internal::ReadFileTail(*source));
  PQPAGE_ASSIGN_OR_RETURN(std::optional<EncryptionInfo> encryption,
                          internal::EncryptionFromFooter(tail.footer, tail.types.size()));
  std::unique_ptr<OrcFileReader> reader(new OrcFileReader());
  reader->state_ = std::make_unique<State>();
  State& state = *reader->state_;
  state.source = std::move(source);
  state.version.assign(tail.postscript.version().begin(), tail.postscript.version().end());
  for (const proto::UserMetadataItem& item : tail.footer.metadata()) {
    state.user_metadata.push_back({item.name(), item.value()});
  }
  state.encryption = std::move(encryption);
  state.tail = std::move(tail);
  return reader;
}

absl::StatusOr<std::unique_ptr<OrcFileReader>> OrcFileReader::Open(const std::string& path) {
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<ByteSource> source, OpenFileByteSource(path));
  absl::StatusOr<std::unique_ptr<OrcFileReader>> reader = Open(std::move(source));
  if (!reader.ok()) {
    return absl::Status(reader.status().code(),
                        absl::StrCat(path, ": ", reader.status().message()));
  }
  return reader;
}

const std::vector<uint32_t>& OrcFileReader::version() const { return state_->version; }
uint32_t OrcFileReader::writer_version() const { return state_->tail.postscript.writerversion(); }
CompressionKind OrcFileReader::compression() const { return state_->tail.compression; }
uint64_t OrcFileReader::compression_block_size() const { return state_->tail.block_size; }
const std::vector<OrcType>& OrcFileReader::types() const { return state_->tail.types; }
const std::vector<StripeInfo>& OrcFileReader::stripes() const { return state_->tail.stripes; }
int OrcFileReader::num_stripes() const { return static_cast<int>(state_->tail.stripes.size()); }
uint64_t OrcFileReader::num_rows() const { return state_->tail.num_rows; }
uint32_t OrcFileReader::row_index_stride() const { return state_->tail.footer.rowindexstride(); }
std::optional<uint32_t> OrcFileReader::writer_id() const {
  if (!state_->tail.footer.has_writer()) return std::nullopt;
  return state_->tail.footer.writer();
}
const std::vector<UserMetadataItem>& OrcFileReader::user_metadata() const {
  return state_->user_metadata;
}
const std::optional<EncryptionInfo>& OrcFileReader::encryption() const {
  return state_->encryption;
}
const ByteSource& OrcFileReader::source() const { return *state_->source; }

std::vector<std::string> OrcFileReader::FileStatistics() const {
  std::vector<std::string> statistics;
  for (const proto::ColumnStatistics& column : state_->tail.footer.statistics()) {
    statistics.push_back(column.SerializeAsString());
  }
  return statistics;
}

int OrcFileReader::num_stripe_statistics() const {
  return state_->tail.metadata.stripestats_size();
}

std::vector<std::string> OrcFileReader::StripeStatistics(int stripe) const {
  std::vector<std::string> statistics;
  if (stripe < 0 || stripe >= state_->tail.metadata.stripestats_size()) return statistics;
  for (const proto::ColumnStatistics& column :
       state_->tail.metadata.stripestats(stripe).colstats()) {
    statistics.push_back(column.SerializeAsString());
  }
  return statistics;
}

absl::StatusOr<StripeFooterInfo> OrcFileReader::ReadStripeFooter(int stripe) const {
  if (stripe < 0 || stripe >= num_stripes()) {
    return absl::OutOfRangeError(
        absl::StrCat("ORC: stripe ", stripe, " of a file with ", num_stripes(), " stripes"));
  }
  // The tail reader checked that the whole stripe lies in the body, so these sums cannot overflow.
  const StripeInfo& info = state_->tail.stripes[static_cast<size_t>(stripe)];
  const uint64_t streams_length = info.index_length + info.data_length;
  std::vector<uint8_t> stored;
  PQPAGE_ASSIGN_OR_RETURN(absl::Span<const uint8_t> footer_bytes,
                          internal::ReadRange(*state_->source, info.offset + streams_length,
                                              info.footer_length, &stored));
  std::vector<uint8_t> inflated;
  absl::StatusOr<absl::Span<const uint8_t>> footer =
      DecompressStream(state_->tail.compression, state_->tail.block_size, footer_bytes, &inflated);
  if (!footer.ok()) {
    return absl::Status(
        footer.status().code(),
        absl::StrCat("ORC stripe ", stripe, " footer: ", footer.status().message()));
  }
  proto::StripeFooter message;
  PQPAGE_RETURN_IF_ERROR(
      internal::ParseMessage(*footer, absl::StrCat("footer of stripe ", stripe), &message));
  absl::StatusOr<StripeFooterInfo> parsed =
      internal::StripeFooterFromProto(message, info.offset, streams_length, state_->tail.types);
  if (!parsed.ok()) {
    return absl::Status(
        parsed.status().code(),
        absl::StrCat("ORC stripe ", stripe, " footer: ", parsed.status().message()));
  }
  return parsed;
}

absl::StatusOr<absl::Span<const uint8_t>> OrcFileReader::ReadStream(const StreamInfo& stream,
                                                                    StreamBuffers* buffers) const {
  const uint64_t file_size = static_cast<uint64_t>(state_->source->size());
  const std::optional<uint64_t> end =
      ::pqpage::internal::CheckedAdd(stream.file_offset, stream.length);
  if (!end || *end > file_size) {
    return absl::DataLossError(absl::StrCat("ORC: ", StreamKindName(stream.kind).data(),
                                            " stream of column ", stream.column, " (",
                                            stream.length, " bytes at byte ", stream.file_offset,
                                            ") runs past the ", file_size, "-byte file"));
  }
  if (state_->tail.compression == CompressionKind::kNone) {
    return internal::ReadRange(*state_->source, stream.file_offset, stream.length,
                               &buffers->stream);
  }
  PQPAGE_ASSIGN_OR_RETURN(
      absl::Span<const uint8_t> stored,
      internal::ReadRange(*state_->source, stream.file_offset, stream.length, &buffers->stored));
  absl::StatusOr<absl::Span<const uint8_t>> inflated =
      DecompressStream(state_->tail.compression, state_->tail.block_size, stored, &buffers->stream);
  if (!inflated.ok()) {
    return absl::Status(inflated.status().code(),
                        absl::StrCat(StreamKindName(stream.kind).data(), " stream of column ",
                                     stream.column, ": ", inflated.status().message()));
  }
  return inflated;
}

}  // namespace pqpage::orc
