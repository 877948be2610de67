// The reading options the commands that read a file share (dump, inspect, scan, recode, lookup,
// advise): --no-verify-checksums, --max-page-size, --mmap and the keys of an encrypted file
// (cli_keys.h), parsed the same way everywhere and documented by one usage text.
#ifndef PQPAGE_CLI_CLI_READER_OPTIONS_H_
#define PQPAGE_CLI_CLI_READER_OPTIONS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "cli/cli_args.h"
#include "cli/cli_keys.h"
#include "pqpage/column_chunk_reader.h"

namespace pqpage::cli {

// A command's own option specs plus the reading ones: both, or only --max-page-size without the
// checksum flag (inspect reports CRCs instead of stopping at them).
std::vector<OptionSpec> WithReaderOptions(std::vector<OptionSpec> specs,
                                          bool with_checksum_flag = true);

// The usage line of --max-page-size, aligned like every command's own; a literal so that each
// command's usage text, a compile-time constant, can include it.
#define PQPAGE_CLI_MAX_PAGE_SIZE_USAGE                                                        \
  "  --max-page-size BYTES   refuse any page larger than BYTES, compressed or decompressed\n" \
  "                          (K, M, G suffixes; default 2G-1, the format's limit), which\n"   \
  "                          bounds the memory one page of an untrusted file can claim\n"     \
  "  --mmap                  map the file into memory instead of reading it: uncompressed\n"  \
  "                          pages are decoded in place (the file must not shrink "           \
  "meanwhile)\n" PQPAGE_CLI_KEY_USAGE

// ReaderOptions from the parsed arguments, decryption keys included (for the file named by the
// first positional argument). --max-page-size takes bytes with an optional K, M or G
// suffix (powers of 1024), from 1 KiB up to the format's own limit (2 GiB - 1, the default).
// InvalidArgument, naming the option, for anything else.
absl::StatusOr<ReaderOptions> ReaderOptionsFrom(const ParsedArgs& parsed);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_READER_OPTIONS_H_
