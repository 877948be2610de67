// How a column chunk is to be written: its value encodings (a fixed policy, or kAuto's measured
// choice and its candidates), page sizes and versions, the dictionary's limits, compression,
// statistics and checks, for all columns and per column. ColumnChunkWriter (column_chunk_writer.h)
// takes them; the encoding choice (EncodingPolicy::kAuto) reads them.
#ifndef PQPAGE_WRITER_OPTIONS_H_
#define PQPAGE_WRITER_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/compression.h"
#include "pqpage/types.h"

namespace pqpage {

// Which value encodings the writer uses.
enum class EncodingPolicy : int8_t {
  // Chosen per column chunk by measuring its own data. The chunk's first values (up to
  // WriterOptions::auto_sample_bytes, counted as PLAIN would store them, ending at a row boundary)
  // are held back and encoded with every candidate (WriterOptions::auto_encodings: the dictionary
  // and every encoding valid for the type), each result compressed with the chunk's codec as its
  // page would store it, the dictionary's page counted with its data. The smallest wins; among
  // those within auto_tie_margin of it, the one that decodes fastest (a table of decode costs the
  // benchmarks produce). The held-back values are then written with the winner, so nothing is
  // encoded twice into the file. While the chunk goes on, the pages are watched, and the choice is
  // measured once more (on the next page, with every candidate but the dictionary) when it stops
  // winning: when the dictionary fills up, or when a page stores more than 1.25x the bytes per
  // value of the first full page. Cost: the sample is encoded and compressed once per candidate,
  // a bounded amount per chunk; the error: a chunk whose later data differs from its start without
  // raising the cost per value is not re-measured.
  kAuto,
  kPlain,
  // Dictionary, falling back to PLAIN when the dictionary is full. BOOLEAN: PLAIN.
  kDictionary,
  // DELTA_BINARY_PACKED (INT32, INT64), DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY);
  // PLAIN for the other types.
  kDelta,
  // DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY; PLAIN for the other types.
  kDeltaLengthByteArray,
  // BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY); PLAIN for the others.
  kByteStreamSplit,
};

// The encodings EncodingPolicy::kAuto may choose from.
enum class AutoEncodings : int8_t {
  // Only what pyarrow, DuckDB and polars all read for the column, by its physical and logical
  // type (InteroperableEncoding in pqpage/peer_readers.h; the interop suite's logical type matrix
  // proves it): the dictionary (not for BOOLEAN) and PLAIN for every type; DELTA_BINARY_PACKED and
  // BYTE_STREAM_SPLIT for INT32 and INT64; BYTE_STREAM_SPLIT for FLOAT and DOUBLE;
  // DELTA_LENGTH_BYTE_ARRAY (not for DECIMAL, which DuckDB refuses there) and DELTA_BYTE_ARRAY
  // for BYTE_ARRAY; RLE for BOOLEAN in data page v2. FIXED_LEN_BYTE_ARRAY and INT96: the
  // dictionary and PLAIN.
  kInteroperable,
  // Every encoding the format allows for the type (pqpage/codec_factory.h EncodingAllowed), in both
  // page
  // versions: adds DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT for FIXED_LEN_BYTE_ARRAY and RLE for
  // BOOLEAN in data page v1.
  kAll,
  // The dictionary and PLAIN only: what Arrow C++ reads into an Arrow dictionary type (`pqpage
  // recode` sets it for the columns a file's ARROW:schema makes dictionaries).
  kDictionaryOrPlain,
};

// "auto", "plain", "dictionary", "delta", "delta_length_byte_array", "byte_stream_split".
std::string_view EncodingPolicyName(EncodingPolicy policy);
std::optional<EncodingPolicy> ParseEncodingPolicy(std::string_view name);
// How a user names a policy (the tool's --encoding, the binding's arguments): ParseEncodingPolicy
// in any case, with an error a user can act on.
// @return the policy `name` names, in any case; InvalidArgument listing the policies otherwise.
absl::StatusOr<EncodingPolicy> EncodingPolicyFromName(std::string_view name);

// Whether and how the page builder makes a column chunk's bloom filter (pqpage/bloom_filter.h):
// every present value's hash goes in, and ColumnChunkData::bloom_filter holds the result, which
// FileWriter stores after the row group's chunks. BOOLEAN columns never get one (two values are
// better answered by the statistics).
struct BloomFilterOptions {
  bool enabled = false;
  // The most distinct values the filter is sized for: a chunk that holds fewer gets the smaller
  // filter its own count asks for (as pyarrow's does). Unset: the chunk's own distinct values.
  // They are counted (by their hashes) while the chunk is written, so a chunk gets the smallest
  // filter that holds its values at `fpp`; the count keeps up to 8,192 hashes, then counts in a
  // filter of the largest size (max_bytes, or the size for this count), folded down at the end.
  std::optional<int64_t> distinct_values;
  // The false-positive rate the filter is sized for, in (0, 1).
  double fpp = BloomFilter::kDefaultFpp;
  // The most bytes of one filter (a power of two is used at or below it), at most
  // BloomFilter::kMaxBytes. More distinct values than fit at `fpp` raise the false-positive rate
  // instead of the size (parquet-java's default limit).
  int64_t max_bytes = int64_t{1} << 20;

  bool operator==(const BloomFilterOptions&) const = default;
};

// Content-defined chunking of data pages (the idea of FastCDC and of pyarrow's
// use_content_defined_chunking): a page ends where a rolling hash of the latest values matches,
// rather than at a size, so that an edit (rows inserted, deleted or changed) rewrites the pages
// around it and leaves the others byte for byte as they were, which a store that deduplicates by
// content (Hugging Face's Xet, any chunking backup) then keeps once. The hash runs over what the
// page holds: each level and each present value as PLAIN stores it (byte arrays without their
// length, a byte per BOOLEAN); sizes below count those bytes, not the encoded page's. A page ends
// at the first row start (repetition level 0) after the hash matched past min_page_bytes, or
// after max_page_bytes. While it is on, data_page_size finishes no page: it is the average page
// (in those bytes) the hash is tuned to; data_page_row_limit still does (that page's successors
// follow the hash's cuts, which it does not move). An edit that adds dictionary entries changes
// the indices of the later pages that use them: pages keep their bytes best in encodings that
// depend on the page alone (PLAIN, DELTA_*, BYTE_STREAM_SPLIT) or with a dictionary its values
// fill early.
struct ContentDefinedChunking {
  bool enabled = false;
  // The fewest bytes a page takes before the hash may end it. Unset: data_page_size / 4 (at
  // least 1), pyarrow's ratio of its minimum to its page size.
  std::optional<int64_t> min_page_bytes;
  // The most: a page ends at the next row start once it took this many, wherever the hash is.
  // Unset: data_page_size * 2, which the hash reaches for about one page in 30 (norm_level 1);
  // such a cut is positional, and the pages after it take longer to fall back into step.
  std::optional<int64_t> max_page_bytes;
  // How the hash's match rate is shaped around the average page, which is data_page_size when it
  // lies strictly between the minimum and the maximum, else their midpoint. 0: one rate, so page
  // sizes past the minimum spread geometrically; n in 1..3: the rate is 2^n times lower before
  // the average and 2^n times higher after it (FastCDC's normalised chunking), so fewer pages are
  // very small or cut at the maximum. The rates are solved for so that the expected page is the
  // average whatever the level.
  int norm_level = 1;

  bool operator==(const ContentDefinedChunking&) const = default;
};

// What one column may set differently from the others (WriterOptions::column_overrides). A field
// left unset keeps the value WriterOptions gives every column.
struct ColumnWriterOverride {
  std::optional<EncodingPolicy> encoding;
  std::optional<Compression> compression;
  // The level of this column's codec; when the override changes the codec but not the level, the
  // new codec's usual level (kDefaultCompressionLevel) applies, not the other codec's level.
  std::optional<int> compression_level;
  std::optional<int64_t> dictionary_page_size_limit;
  std::optional<int64_t> data_page_size;
  std::optional<bool> dictionary;
  std::optional<AutoEncodings> auto_encodings;
  // Replaces WriterOptions::bloom_filter whole for this column (enabled = false turns it off).
  std::optional<BloomFilterOptions> bloom_filter;
  // Replaces WriterOptions::content_defined_chunking whole for this column.
  std::optional<ContentDefinedChunking> content_defined_chunking;
};

struct WriterOptions {
  int data_page_version = 1;  // 1 or 2
  EncodingPolicy encoding = EncodingPolicy::kAuto;
  Compression compression = Compression::kSnappy;
  int compression_level = kDefaultCompressionLevel;
  // A data page is finished at the first row boundary once its encoded (uncompressed) size
  // reaches data_page_size or it holds data_page_row_limit rows (with content_defined_chunking,
  // where the hash says, or at data_page_row_limit rows).
  int64_t data_page_size = int64_t{1} << 20;
  int64_t data_page_row_limit = 20000;
  // The dictionary's limits; past them the chunk falls back (see EncodingPolicy).
  int64_t dictionary_page_size_limit = int64_t{1} << 20;
  int64_t max_dictionary_entries = int64_t{1} << 24;
  // Whether a chunk starts with a dictionary. Unset: the policy decides (kDictionary yes, kAuto by
  // measurement, the others no). true: every policy starts with the dictionary and, once it is
  // full, goes on in its own encoding (kAuto: by measurement; kDictionary: PLAIN). false: no
  // dictionary (kDictionary writes PLAIN; kAuto does not consider it). A column whose readers
  // need dictionary pages (an Arrow dictionary type) sets it per column.
  std::optional<bool> dictionary;
  // kAuto's candidates, how close in stored size two of them must be for the faster one to decode
  // to win (0.02: within 2% of the smallest), and how much of each chunk it measures.
  AutoEncodings auto_encodings = AutoEncodings::kInteroperable;
  double auto_tie_margin = 0.02;
  int64_t auto_sample_bytes = int64_t{256} << 10;
  bool write_checksums = false;
  bool write_statistics = true;
  // Byte array bounds in the page index (IndexedPage) are cut to this many bytes; at least 1.
  int64_t page_index_truncate_length = 64;
  // The chunk's bloom filter; none unless enabled. InvalidArgument (CheckWriterSetup) for an fpp
  // outside (0, 1), a non-positive distinct_values or max_bytes, or max_bytes past the limit.
  BloomFilterOptions bloom_filter;
  // Pages cut by content rather than by size; off unless enabled. InvalidArgument
  // (CheckWriterSetup) for a minimum below 1, a maximum not above the minimum (once the unset ones
  // are derived from data_page_size) or past 2^30, or a norm_level outside 0..3.
  ContentDefinedChunking content_defined_chunking;
  // Decode every finished page with pqpage's own page decoder and compare (a debug option). The
  // check runs at Finish() over the whole chunk; to compare, the writer keeps a copy of every level
  // and value given, so in this mode only memory grows with the chunk.
  bool verify_pages = false;

  // Per-column settings, keyed by the column's path as ColumnDescriptor::PathString() spells it
  // ("tags.list.element"). Precedence: for the column it names, an override's set field wins over
  // the field of the same name above; everything else comes from above. ColumnChunkWriter applies
  // the entry of its own column (ForColumn) and ignores the others, so one WriterOptions can serve
  // a whole schema; UnknownOverrideColumns finds keys that name no column.
  std::map<std::string, ColumnWriterOverride, std::less<>> column_overrides;

  // These options as the column at `column_path` sees them: its override applied, and
  // column_overrides left empty.
  WriterOptions ForColumn(std::string_view column_path) const;
};

// The keys of options.column_overrides that name none of `columns` (for a writer to refuse a
// misspelt path rather than silently ignore it), in key order.
std::vector<std::string> UnknownOverrideColumns(const WriterOptions& options,
                                                const std::vector<ColumnDescriptor>& columns);

}  // namespace pqpage

#endif  // PQPAGE_WRITER_OPTIONS_H_
