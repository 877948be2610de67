// Recoding a whole ORC file: every stripe's columns decoded with pqpage's ORC codecs and encoded
// again with its encoders (integer RLE version 1 or 2, the chosen compression), written as a new
// ORC file with the same schema (type attributes included), stripes (same rows each), user
// metadata, writer timezone and statistics (copied as they are: the values do not change). An
// encrypted column is written as readers without keys see it: its masked values, unencrypted.
// This is what `pqpage recode IN.orc OUT.orc` does.
#ifndef PQPAGE_ORC_RECODE_H_
#define PQPAGE_ORC_RECODE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "pqpage/compression.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/file.h"

namespace pqpage::orc {

struct OrcRecodeOptions {
  int rle_version = 2;  // 1: file version 0.11; 2: 0.12
  CompressionKind compression = CompressionKind::kNone;
  uint64_t block_size = kDefaultCompressionBlockSize;
  int compression_level = kDefaultCompressionLevel;
  // Copy the input's statistics (stripe statistics only when it has them for every stripe and
  // column: the writer takes all or none).
  bool statistics = true;
  // Read the output back and compare every stripe's decoded columns with the input's.
  bool verify = false;
};

// The options that keep `input`'s compression and block size, with RLE version 2.
// @return those options.
OrcRecodeOptions RecodeOptionsLike(const OrcFileReader& input);

// Writes `input` (read from `in_name`, which names it in errors) recoded to a new ORC file at
// `out_path`. On any error the output, if it was created, is removed: a half-written or unverified
// file must not pass for a recoded one.
// @return OK; InvalidArgument, before anything is written, when `out_path` is the file `in_name`
// (IsSameFile: writing it would truncate the input); the input's errors prefixed with `in_name`;
// the output's with `out_path` (and the stripe); DataLoss from verification when the output reads
// back otherwise than the input.
absl::Status RecodeOrcFile(const OrcFileReader& input, const std::string& in_name,
                           const std::string& out_path, const OrcRecodeOptions& options);

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_RECODE_H_
