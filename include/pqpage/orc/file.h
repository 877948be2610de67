// Reading ORC files at the level of their streams: the file tail (postscript, footer, metadata),
// each stripe's footer (the stream directory and column encodings) and each stream's bytes,
// decompressed. It decodes no values (the ORC codecs do, stream by stream) and assembles no rows.
// Statistics are handed out as serialized ColumnStatistics messages, so that a tool can copy them
// into a file it writes without pqpage interpreting them.
//
// Everything read from the file is checked before it is used: the postscript length and every
// section length against the file size (with overflow-safe sums), the type tree's shape, each
// stripe lying between the header and the tail, each stripe footer's streams lying inside their
// stripe, and every compressed chunk against the compression block size.
//
// Errors: DataLoss for a file that is not ORC or is damaged (a missing "ORC" magic, a length past
// the file, a message that does not parse, a bad type tree, encryption that names an absent column
// or key, a stripe outside the body, stripe row counts that do not add up to the file's, streams
// past their stripe, a corrupt chunk);
// Unimplemented for an unknown compression kind; OutOfRange for a stripe index outside the file;
// the errors of ByteSource for I/O.
#ifndef PQPAGE_ORC_FILE_H_
#define PQPAGE_ORC_FILE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/byte_source.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/metadata.h"

namespace pqpage::orc {

// The buffers ReadStream reuses from stream to stream; they only grow.
struct StreamBuffers {
  // A compressed stream's stored bytes, when the source is not in memory.
  std::vector<uint8_t> stored;
  // The stream as ReadStream returns it.
  std::vector<uint8_t> stream;
};

// Thread safety: an OrcFileReader is immutable once open; its methods may be called from several
// threads at once, each with its own StreamBuffers.
class OrcFileReader {
 public:
  // Reads and checks the file tail of `source`.
  // Errors: as listed at the top of this header.
  static absl::StatusOr<std::unique_ptr<OrcFileReader>> Open(std::unique_ptr<ByteSource> source);
  // Open on the file at `path`, read with pread. Errors also as OpenFileByteSource.
  static absl::StatusOr<std::unique_ptr<OrcFileReader>> Open(const std::string& path);
  ~OrcFileReader();

  // The postscript.
  // The lowest ORC (Hive) version that can read the file, as [major, minor], e.g. {0, 12}.
  const std::vector<uint32_t>& version() const;
  // The writer's version number within its implementation (0 when absent: the original writer).
  uint32_t writer_version() const;
  CompressionKind compression() const;
  // The most any chunk inflates to (the spec's default, 256 KiB, when the postscript omits it).
  uint64_t compression_block_size() const;

  // The footer.
  // The schema, flattened in pre-order (checked by ValidateTypeTree): column ids index it.
  const std::vector<OrcType>& types() const;
  const std::vector<StripeInfo>& stripes() const;
  int num_stripes() const;
  // The footer's row count, which Open checked the stripes add up to.
  uint64_t num_rows() const;
  // Rows per row-index entry; 0 when the file has no row indexes.
  uint32_t row_index_stride() const;
  // The registered writer implementation (0 ORC Java, 1 ORC C++, ...); absent in files whose
  // writer did not say (readers then take it for ORC Java).
  std::optional<uint32_t> writer_id() const;
  const std::vector<UserMetadataItem>& user_metadata() const;
  // The footer's column encryption; none for a file without. The encrypted columns read as
  // their masked values, which is what the stripes hold for readers without keys.
  const std::optional<EncryptionInfo>& encryption() const;

  // Statistics, each a serialized ColumnStatistics message, one per column in column-id order.
  // The file's (the footer's); empty when the file has none.
  std::vector<std::string> FileStatistics() const;
  // How many stripes the metadata section has statistics for (0 when it is absent).
  int num_stripe_statistics() const;
  // Stripe `stripe`'s (the metadata section's); empty when it has none for that stripe.
  std::vector<std::string> StripeStatistics(int stripe) const;

  // Reads, decompresses and checks stripe `stripe`'s footer: every stream must lie inside the
  // stripe's index and data areas and name an existing column.
  // Errors: OutOfRange for a stripe index outside [0, num_stripes()); otherwise as at the top.
  absl::StatusOr<StripeFooterInfo> ReadStripeFooter(int stripe) const;

  // Reads stream `stream` (an entry of a stripe footer this reader read) and decompresses it
  // into buffers->stream. The stream must lie inside the file (DataLoss otherwise).
  // @return the stream's bytes: for an uncompressed file whose source is in memory the bytes in
  // place, otherwise the front of buffers->stream (valid until the buffers next change).
  absl::StatusOr<absl::Span<const uint8_t>> ReadStream(const StreamInfo& stream,
                                                       StreamBuffers* buffers) const;

  const ByteSource& source() const;

 private:
  OrcFileReader();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_FILE_H_
