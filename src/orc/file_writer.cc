// OrcFileWriter: "ORC", the stripes as they come (streams compressed in chunks, then the stripe
// footer), and at Close the metadata, footer and postscript. The footer's messages are built as
// stripes are written; only the current stripe's bytes are held in memory (all of the file for
// the in-memory writer).
#include "pqpage/orc/file_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/output_file.h"
#include "orc/file_tail.h"
#include "orc/metadata_proto.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {
namespace {

// The postscript's length is stored in one byte.
constexpr size_t kMaxPostscriptLength = 255;

// The stream kinds of a stripe's data area. This writer writes no index area, and the encryption
// kinds need keys it does not have.
bool IsDataStreamKind(StreamKind kind) {
  switch (kind) {
    case StreamKind::kPresent:
    case StreamKind::kData:
    case StreamKind::kLength:
    case StreamKind::kDictionaryData:
    case StreamKind::kDictionaryCount:
    case StreamKind::kSecondary:
      return true;
    default:
      return false;
  }
}

// Parses each of `serialized` as a ColumnStatistics message, one per column; `what` names them
// in the error.
absl::StatusOr<std::vector<proto::ColumnStatistics>> ParseStatistics(
    const std::vector<std::string>& serialized, size_t num_columns, std::string_view what) {
  if (serialized.size() != num_columns) {
    return absl::InvalidArgumentError(absl::StrCat("ORC writer: ", std::string(what), " has ",
                                                   serialized.size(), " entries for ", num_columns,
                                                   " columns"));
  }
  std::vector<proto::ColumnStatistics> parsed(serialized.size());
  for (size_t i = 0; i < serialized.size(); ++i) {
    if (!parsed[i].ParseFromString(serialized[i])) {
      return absl::InvalidArgumentError(absl::StrCat("ORC writer: ", std::string(what),
                                                     " of column ", i,
                                                     " is not a ColumnStatistics message"));
    }
  }
  return parsed;
}

}  // namespace

struct OrcFileWriter::State {
  std::vector<OrcType> types;
  OrcWriterOptions options;
  std::string path;  // empty for the in-memory writer
  int fd = -1;
  std::vector<uint8_t> bytes;  // the in-memory writer's file
  uint64_t position = 0;
  absl::Status io_status;
  bool closed = false;
  proto::Footer footer;
  proto::Metadata metadata;
  std::optional<bool> stripes_have_statistics;  // decided by the first stripe
  uint64_t num_rows = 0;
  std::vector<uint8_t> stripe_bytes;  // reused stripe after stripe

  absl::Status Write(absl::Span<const uint8_t> data) {
    PQPAGE_RETURN_IF_ERROR(io_status);
    if (fd < 0) {
      bytes.insert(bytes.end(), data.begin(), data.end());
    } else {
      io_status = pqpage::internal::WriteAll(fd, data, path);
      PQPAGE_RETURN_IF_ERROR(io_status);
    }
    position += data.size();
    return absl::OkStatus();
  }

  absl::Status Compress(absl::Span<const uint8_t> input, std::vector<uint8_t>* out) const {
    return CompressStream(options.compression, options.compression_block_size, input, out,
                          options.compression_level);
  }
};

OrcFileWriter::OrcFileWriter() : state_(std::make_unique<State>()) {}

OrcFileWriter::~OrcFileWriter() {
  // A writer destroyed without Close leaves an incomplete file; the descriptor is still released.
  if (state_ != nullptr && state_->fd >= 0) ::close(state_->fd);
}

absl::StatusOr<std::unique_ptr<OrcFileWriter>> OrcFileWriter::Create(std::vector<OrcType> types,
                                                                     OrcWriterOptions options) {
  absl::Status valid_tree = ValidateTypeTree(types);
  if (!valid_tree.ok()) return absl::InvalidArgumentError(valid_tree.message());
  const uint64_t block_size = options.compression_block_size;
  if (block_size == 0 || block_size > kMaxChunkLength) {
    return absl::InvalidArgumentError(absl::StrCat("ORC writer: compression block size ",
                                                   block_size, " is outside 1..", kMaxChunkLength));
  }
  if (options.file_version.size() != 2) {
    return absl::InvalidArgumentError(
        "ORC writer: the file version must be two numbers, [major, minor]");
  }
  // Compressing a few bytes checks the kind (LZO is Unimplemented) and the level before anything
  // is written.
  const uint8_t sample[] = "ORC stripes";
  std::vector<uint8_t> probe;
  PQPAGE_RETURN_IF_ERROR(
      CompressStream(options.compression, block_size, sample, &probe, options.compression_level));
  std::unique_ptr<OrcFileWriter> writer(new OrcFileWriter());
  State& state = *writer->state_;
  state.types = std::move(types);
  state.options = std::move(options);
  PQPAGE_RETURN_IF_ERROR(state.Write(absl::MakeConstSpan(
      reinterpret_cast<const uint8_t*>(internal::kMagic), internal::kMagicSize)));
  return writer;
}

absl::StatusOr<std::unique_ptr<OrcFileWriter>> OrcFileWriter::Create(const std::string& path,
                                                                     std::vector<OrcType> types,
                                                                     OrcWriterOptions options) {
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<OrcFileWriter> writer,
                          Create(std::move(types), std::move(options)));
  PQPAGE_ASSIGN_OR_RETURN(const int fd, pqpage::internal::CreateOutputFile(path));
  State& state = *writer->state_;
  state.fd = fd;
  state.path = path;
  // The in-memory Create wrote the header into memory; it moves to the file.
  std::vector<uint8_t> header = std::move(state.bytes);
  state.bytes.clear();
  state.position = 0;
  PQPAGE_RETURN_IF_ERROR(state.Write(header));
  return writer;
}

const std::vector<OrcType>& OrcFileWriter::types() const { return state_->types; }
uint64_t OrcFileWriter::position() const { return state_->position; }

absl::Status OrcFileWriter::WriteStripe(const OrcStripeInput& stripe) {
  State& state = *state_;
  if (state.closed) return absl::InvalidArgumentError("ORC writer: WriteStripe after Close");
  const size_t num_columns = state.types.size();
  if (stripe.encodings.size() != num_columns) {
    return absl::InvalidArgumentError(absl::StrCat("ORC writer: ", stripe.encodings.size(),
                                                   " column encodings for ", num_columns,
                                                   " columns"));
  }
  const bool has_statistics = !stripe.statistics.empty();
  if (state.stripes_have_statistics && *state.stripes_have_statistics != has_statistics) {
    return absl::InvalidArgumentError(
        "ORC writer: stripe statistics must be given for every stripe or for none");
  }
  std::vector<proto::ColumnStatistics> statistics;
  if (has_statistics) {
    PQPAGE_ASSIGN_OR_RETURN(statistics,
                            ParseStatistics(stripe.statistics, num_columns, "stripe statistics"));
  }

  proto::StripeFooter footer;
  state.stripe_bytes.clear();
  for (size_t i = 0; i < stripe.streams.size(); ++i) {
    const OrcStreamInput& stream = stripe.streams[i];
    if (!IsDataStreamKind(stream.kind)) {
      return absl::InvalidArgumentError(
          absl::StrCat("ORC writer: stream ", i, " is of kind ", StreamKindName(stream.kind).data(),
                       " (", static_cast<uint32_t>(stream.kind), "), not a data stream kind"));
    }
    if (stream.column >= num_columns) {
      return absl::InvalidArgumentError(absl::StrCat("ORC writer: stream ", i, " is of column ",
                                                     stream.column, ", past the ", num_columns,
                                                     " columns"));
    }
    const size_t before = state.stripe_bytes.size();
    PQPAGE_RETURN_IF_ERROR(state.Compress(stream.bytes, &state.stripe_bytes));
    proto::Stream* message = footer.add_streams();
    message->set_kind(static_cast<proto::Stream::Kind>(stream.kind));
    message->set_column(stream.column);
    message->set_length(state.stripe_bytes.size() - before);
  }
  const uint64_t data_length = state.stripe_bytes.size();
  for (size_t i = 0; i < num_columns; ++i) {
    const ColumnEncodingInfo& encoding = stripe.encodings[i];
    if (ColumnEncodingKindName(encoding.kind) == "UNKNOWN") {
      return absl::InvalidArgumentError(absl::StrCat("ORC writer: column ", i,
                                                     " has unknown encoding kind ",
                                                     static_cast<int>(encoding.kind)));
    }
    proto::ColumnEncoding* message = footer.add_columns();
    message->set_kind(static_cast<proto::ColumnEncoding::Kind>(encoding.kind));
    if (encoding.kind == ColumnEncodingKind::kDictionary ||
        encoding.kind == ColumnEncodingKind::kDictionaryV2) {
      message->set_dictionarysize(encoding.dictionary_size);
    }
  }
  if (stripe.writer_timezone) footer.set_writertimezone(*stripe.writer_timezone);
  const std::string footer_bytes = footer.SerializeAsString();
  PQPAGE_RETURN_IF_ERROR(
      state.Compress(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(footer_bytes.data()),
                                         footer_bytes.size()),
                     &state.stripe_bytes));

  StripeInfo info = {.offset = state.position,
                     .index_length = 0,
                     .data_length = data_length,
                     .footer_length = state.stripe_bytes.size() - data_length,
                     .num_rows = stripe.num_rows};
  PQPAGE_RETURN_IF_ERROR(state.Write(state.stripe_bytes));
  internal::StripeToProto(info, state.footer.add_stripes());
  state.num_rows += stripe.num_rows;
  state.stripes_have_statistics = has_statistics;
  if (has_statistics) {
    proto::StripeStatistics* stripe_statistics = state.metadata.add_stripestats();
    for (proto::ColumnStatistics& column : statistics) {
      *stripe_statistics->add_colstats() = std::move(column);
    }
  }
  return absl::OkStatus();
}

absl::Status OrcFileWriter::SetFileStatistics(const std::vector<std::string>& statistics) {
  State& state = *state_;
  if (state.closed) return absl::InvalidArgumentError("ORC writer: SetFileStatistics after Close");
  PQPAGE_ASSIGN_OR_RETURN(std::vector<proto::ColumnStatistics> parsed,
                          ParseStatistics(statistics, state.types.size(), "file statistics"));
  state.footer.clear_statistics();
  for (proto::ColumnStatistics& column : parsed) *state.footer.add_statistics() = std::move(column);
  return absl::OkStatus();
}

absl::Status OrcFileWriter::Close() {
  State& state = *state_;
  if (state.closed) return absl::InvalidArgumentError("ORC writer: Close called twice");
  state.closed = true;
  const OrcWriterOptions& options = state.options;

  std::vector<uint8_t> metadata;
  if (state.metadata.stripestats_size() > 0) {
    const std::string serialized = state.metadata.SerializeAsString();
    PQPAGE_RETURN_IF_ERROR(state.Compress(
        absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(serialized.data()), serialized.size()),
        &metadata));
  }

  proto::Footer& footer = state.footer;
  footer.set_headerlength(internal::kMagicSize);
  footer.set_contentlength(state.position);
  for (const OrcType& type : state.types) internal::TypeToProto(type, footer.add_types());
  for (const UserMetadataItem& item : options.user_metadata) {
    proto::UserMetadataItem* message = footer.add_metadata();
    message->set_name(item.name);
    message->set_value(item.value);
  }
  footer.set_numberofrows(state.num_rows);
  footer.set_rowindexstride(0);
  if (options.writer_id) footer.set_writer(*options.writer_id);
  const std::string footer_serialized = footer.SerializeAsString();
  std::vector<uint8_t> footer_bytes;
  PQPAGE_RETURN_IF_ERROR(
      state.Compress(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(footer_serialized.data()),
                                         footer_serialized.size()),
                     &footer_bytes));

  proto::PostScript postscript;
  postscript.set_footerlength(footer_bytes.size());
  postscript.set_compression(static_cast<proto::CompressionKind>(options.compression));
  postscript.set_compressionblocksize(options.compression_block_size);
  for (const uint32_t part : options.file_version) postscript.add_version(part);
  postscript.set_metadatalength(metadata.size());
  postscript.set_writerversion(options.writer_version);
  postscript.set_magic(internal::kMagic);
  std::string postscript_bytes = postscript.SerializeAsString();
  if (postscript_bytes.size() > kMaxPostscriptLength) {
    return absl::InternalError(absl::StrCat("ORC writer: the postscript takes ",
                                            postscript_bytes.size(), " bytes, over 255"));
  }
  postscript_bytes.push_back(static_cast<char>(postscript_bytes.size()));

  PQPAGE_RETURN_IF_ERROR(state.Write(metadata));
  PQPAGE_RETURN_IF_ERROR(state.Write(footer_bytes));
  PQPAGE_RETURN_IF_ERROR(state.Write(absl::MakeConstSpan(
      reinterpret_cast<const uint8_t*>(postscript_bytes.data()), postscript_bytes.size())));
  if (state.fd >= 0) {
    const int fd = std::exchange(state.fd, -1);
    if (::close(fd) != 0) {
      return absl::UnavailableError(
          absl::StrCat(state.path, ": cannot close: ", std::strerror(errno)));
    }
  }
  return absl::OkStatus();
}

std::vector<uint8_t> OrcFileWriter::ReleaseBytes() {
  if (!state_->closed || !state_->path.empty()) return {};
  return std::move(state_->bytes);
}

}  // namespace pqpage::orc
