// The columns of one ORC stripe as values, both ways: ReadStripeColumns decodes every stream of a
// stripe with pqpage's ORC codecs (PRESENT, DATA, LENGTH, DICTIONARY_DATA, SECONDARY, for every
// column kind and encoding the spec defines), and EncodeStripeColumns writes such values back as
// streams, in RLE version 1 or 2, for OrcFileWriter (pqpage/orc/file_writer.h). Together they are
// what `pqpage dump` prints from and what `pqpage recode` re-encodes with.
//
// Columns are in the schema's pre-order (column id order, the root struct first). A column has
// one slot per entry of its parent that holds a value: the root's slots are the stripe's rows; a
// struct field has one slot per present slot of its struct; a list element (a map key and value)
// one per item of the present lists (maps), the sum of their lengths; union variant k one per
// present slot of the union whose tag is k. Only present slots carry a value.
//
// Decimals of at most 18 digits in files of version 1.9999 (the ORCv2 draft's DECIMAL_V2) are read
// as ORC's readers read them: signed integer RLE v2 in DATA, the type's scale, no SECONDARY.
//
// Errors: DataLoss for a stripe whose streams are missing, truncated, corrupt, or hold fewer or
// more values than the column's slots need; Unimplemented for an encoding a column kind cannot
// have; the errors of OrcFileReader::ReadStream.
#ifndef PQPAGE_ORC_STRIPE_COLUMNS_H_
#define PQPAGE_ORC_STRIPE_COLUMNS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/file_writer.h"
#include "pqpage/orc/metadata.h"

namespace pqpage::orc {

// Seconds from the UNIX epoch to ORC's timestamp epoch, 2015-01-01 00:00:00.
inline constexpr int64_t kOrcTimestampEpochSeconds = 1420070400;

// One column of one stripe. Which value vectors are filled depends on `kind`; each holds one
// entry per present slot, in slot order.
struct ColumnValues {
  TypeKind kind = TypeKind::kStruct;
  // As read. EncodeStripeColumns keeps the dictionary/direct choice and takes the RLE version
  // from its argument.
  ColumnEncodingKind encoding = ColumnEncodingKind::kDirectV2;
  int64_t slots = 0;
  // One byte per slot, 1 present and 0 null; empty when every slot is present (no PRESENT
  // stream).
  std::vector<uint8_t> present;
  int64_t num_present = 0;

  // BOOLEAN (0 or 1), BYTE, SHORT, INT, LONG, DATE (days from the UNIX epoch), the lengths of LIST
  // and MAP, the tags of UNION; the dictionary indices of a dictionary-encoded string column are
  // resolved into `bytes` instead.
  std::vector<int64_t> integers;
  // FLOAT (widened exactly) and DOUBLE.
  std::vector<double> reals;
  // STRING, VARCHAR, CHAR and BINARY: value i is bytes[offsets[i], offsets[i + 1]); `offsets` has
  // num_present + 1 entries (just {0} for none).
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> offsets;
  // DECIMAL: the unscaled value and its scale (value = unscaled / 10^scale).
  std::vector<absl::int128> decimals;
  std::vector<int64_t> scales;
  // TIMESTAMP and TIMESTAMP_INSTANT as stored: seconds from kOrcTimestampEpochSeconds and the
  // nanoseconds of that second, -999,999,999..999,999,999 (ORC's C++ writer, and so pyarrow,
  // stores a time before 1970 with negative nanoseconds; ORC's Java writer with the seconds one
  // off instead, which readers undo: TimestampNanos does both).
  std::vector<int64_t> seconds;
  std::vector<int64_t> nanos;

  std::string_view Bytes(int64_t i) const {
    return std::string_view(reinterpret_cast<const char*>(bytes.data()) + offsets[i],
                            offsets[i + 1] - offsets[i]);
  }
};

// Nanoseconds from the UNIX epoch of a stored timestamp, as ORC's readers compute them. For a
// TIMESTAMP of a stripe whose writer timezone is not UTC, pass the stored seconds through
// WriterTimezone::ToUtcStoredSeconds (pqpage/orc/writer_timezone.h) first.
// Errors: OutOfRange, naming the seconds, for a time int64 nanoseconds cannot hold (before 1677
// or after 2262); the stored seconds and nanoseconds themselves hold it, and a recode copies them.
absl::StatusOr<int64_t> TimestampNanos(int64_t stored_seconds, int64_t nanos);

// Decodes every column of stripe `stripe` of `reader`.
// @return one ColumnValues per column of reader.types(); errors as at the top of this file, and
// OutOfRange for a stripe index outside [0, reader.num_stripes()).
absl::StatusOr<std::vector<ColumnValues>> ReadStripeColumns(const OrcFileReader& reader,
                                                            int stripe);

// One stripe's streams as EncodeStripeColumns writes them (uncompressed), with the column
// encodings. The streams' bytes live in `buffers`: moving an EncodedStripe keeps `streams`
// valid, copying one does not.
struct EncodedStripe {
  std::vector<OrcStreamInput> streams;
  std::vector<ColumnEncodingInfo> encodings;
  std::vector<std::vector<uint8_t>> buffers;
};

// Encodes `columns` (one per column of `types`, as ReadStripeColumns gives them) into streams,
// column by column: PRESENT (only when a slot is null), then the streams of the column's kind,
// with integer RLE `rle_version` (1: DIRECT and DICTIONARY; 2: DIRECT_V2 and DICTIONARY_V2).
// Dictionary-encoded string columns stay dictionary-encoded, with a sorted dictionary of their
// distinct values. Errors: InvalidArgument for an rle_version other than 1 or 2, or columns that
// do not match `types` (count, kinds, value counts).
absl::StatusOr<EncodedStripe> EncodeStripeColumns(absl::Span<const OrcType> types,
                                                  absl::Span<const ColumnValues> columns,
                                                  int rle_version);

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_STRIPE_COLUMNS_H_
