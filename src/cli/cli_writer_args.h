// How the commands that write (recode) or advise on writing (advise) spell writer settings on the
// command line: codec and policy names, compression levels checked before any file is touched.
#ifndef PQPAGE_CLI_CLI_WRITER_ARGS_H_
#define PQPAGE_CLI_CLI_WRITER_ARGS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/compression.h"

namespace pqpage::cli {

// "zstd", "lz4_raw", ... (any case; "none" for uncompressed). InvalidArgument listing the codecs
// pqpage writes for anything else.
absl::StatusOr<Compression> CodecFromText(const std::string& name);
// The spelling CodecFromText reads back: the codec's name in lower case.
std::string CodecFlag(Compression codec);

// "auto", "delta", ... (any case). InvalidArgument listing the policies for anything else.
absl::StatusOr<EncodingPolicy> PolicyFromText(const std::string& name);

// An error unless `codec` accepts `level`: a level the codec rejects would otherwise surface only
// at the first page, as a write error; compressing a few bytes finds it first.
absl::Status CheckCompressionLevel(Compression codec, int level);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_WRITER_ARGS_H_
