// Writing ORC files from streams the caller has already encoded (with the ORC codecs, or copied
// from another file): the writer compresses each stream in chunks, lays out the "ORC" header, the
// stripes (streams, then each stripe's footer), the footer, the metadata (stripe statistics) and
// the postscript. Files carry no row indexes (each stripe's index area is empty and the row index
// stride is 0), which every reader accepts. Statistics are taken as serialized ColumnStatistics
// messages (OrcFileReader hands them out so), so a recode copies them without pqpage computing
// any.
//
// Errors: InvalidArgument for a schema that breaks the type-tree rules, options out of range, a
// stream of a column the schema does not have, statistics that are not ColumnStatistics
// messages, calls after Close; the I/O errors of the file (Unavailable,
// PermissionDenied, NotFound).
#ifndef PQPAGE_ORC_FILE_WRITER_H_
#define PQPAGE_ORC_FILE_WRITER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/compression.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/metadata.h"

namespace pqpage::orc {

struct OrcWriterOptions {
  CompressionKind compression = CompressionKind::kZlib;
  // The most input bytes per chunk, and so the most any chunk inflates to: 1 to kMaxChunkLength.
  uint64_t compression_block_size = kDefaultCompressionBlockSize;
  int compression_level = kDefaultCompressionLevel;
  // The postscript's file version: the lowest Hive version that reads the file. 0.12 is the
  // version of RLE v2 (DIRECT_V2 / DICTIONARY_V2); streams in RLE v1 only may say {0, 11}.
  std::vector<uint32_t> file_version = {0, 12};
  // The footer's writer implementation. Unset by default: pqpage has no registered code, and a
  // code of another implementation would make readers apply that writer's bug workarounds.
  std::optional<uint32_t> writer_id;
  // The postscript's writerVersion: which writer fixes the file has. 6 (ORC-135: timestamp
  // statistics in UTC) is what ORC's C++ writer records and the newest state statistics
  // copied from any current writer are in; a recode may carry over its source's value instead.
  uint32_t writer_version = 6;
  std::vector<UserMetadataItem> user_metadata;
};

// One stream of a stripe: its bytes as encoded, before compression.
struct OrcStreamInput {
  StreamKind kind = StreamKind::kData;
  uint32_t column = 0;
  absl::Span<const uint8_t> bytes;
};

struct OrcStripeInput {
  uint64_t num_rows = 0;
  // In the order they are to lie in the stripe.
  std::vector<OrcStreamInput> streams;
  // One per column, in column-id order.
  std::vector<ColumnEncodingInfo> encodings;
  std::optional<std::string> writer_timezone;
  // The stripe's statistics, one serialized ColumnStatistics per column; empty for none. Either
  // every stripe of a file has them or none does.
  std::vector<std::string> statistics;
};

class OrcFileWriter {
 public:
  // A writer that builds the file in memory; ReleaseBytes() hands it over after Close().
  // `types` is the flattened schema (FlattenTypeTree makes one from a tree).
  // Errors: InvalidArgument for a schema that breaks ValidateTypeTree's rules, a block size
  // outside 1..kMaxChunkLength, a file version that is not two numbers, or an unknown compression
  // kind.
  static absl::StatusOr<std::unique_ptr<OrcFileWriter>> Create(std::vector<OrcType> types,
                                                               OrcWriterOptions options = {});
  // A writer that writes the file at `path` as it goes (created or truncated).
  // Errors: as Create, and the errors of opening the file.
  static absl::StatusOr<std::unique_ptr<OrcFileWriter>> Create(const std::string& path,
                                                               std::vector<OrcType> types,
                                                               OrcWriterOptions options = {});
  ~OrcFileWriter();

  const std::vector<OrcType>& types() const;
  // Bytes written so far (the header and the stripes).
  uint64_t position() const;

  // Compresses and writes one stripe: its streams, then its footer.
  // Errors: InvalidArgument for a stream of a column past the schema or of an unknown kind, more
  // or fewer encodings than columns, statistics present for some stripes and not others or not
  // one per column or not ColumnStatistics messages, a call after Close; the errors of
  // CompressStream; I/O errors.
  absl::Status WriteStripe(const OrcStripeInput& stripe);

  // The file's column statistics, one serialized ColumnStatistics per column, written into the
  // footer by Close. Errors: InvalidArgument for a count other than the columns' or bytes that
  // are not ColumnStatistics messages.
  absl::Status SetFileStatistics(const std::vector<std::string>& statistics);

  // Writes the metadata, footer, postscript and its length byte, and closes the file.
  // Errors: InvalidArgument when called twice; compression and I/O errors.
  absl::Status Close();

  // The finished file of a writer made by the in-memory Create, after Close; empty otherwise.
  std::vector<uint8_t> ReleaseBytes();

 private:
  OrcFileWriter();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_FILE_WRITER_H_
