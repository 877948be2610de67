// Reading an ORC file's tail from its end: the 1-byte postscript length, the postscript (never
// compressed), then the footer and the metadata (stripe statistics), both decompressed through
// the chunks. Every length is checked against the file before anything is read or allocated for
// it, and the footer's schema and stripes are checked before they are handed on.
#ifndef PQPAGE_ORC_FILE_TAIL_H_
#define PQPAGE_ORC_FILE_TAIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "orc_metadata.pb.h"
#include "pqpage/byte_source.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/metadata.h"

namespace pqpage::orc::internal {

// "ORC", which opens every file and closes its postscript.
inline constexpr char kMagic[] = "ORC";
inline constexpr uint64_t kMagicSize = 3;

struct FileTail {
  proto::PostScript postscript;
  proto::Footer footer;
  proto::Metadata metadata;
  CompressionKind compression = CompressionKind::kNone;
  uint64_t block_size = kDefaultCompressionBlockSize;
  std::vector<OrcType> types;
  std::vector<StripeInfo> stripes;
  // The footer's row count, which the stripes' add up to (their sum when the footer omits it).
  uint64_t num_rows = 0;
};

// Reads and checks the tail of `source`. Errors: DataLoss for a file that is not ORC or whose
// tail cannot be trusted; Unimplemented for an unknown compression kind; the errors of ByteSource.
absl::StatusOr<FileTail> ReadFileTail(const ByteSource& source);

// The bytes [offset, offset + length) of `source`: in place when the source is in memory, else
// read into *scratch. The caller has checked that the range lies inside the source.
absl::StatusOr<absl::Span<const uint8_t>> ReadRange(const ByteSource& source, uint64_t offset,
                                                    uint64_t length, std::vector<uint8_t>* scratch);

}  // namespace pqpage::orc::internal

#endif  // PQPAGE_ORC_FILE_TAIL_H_
