// The one shape of every value codec, per direction: the codec layer, below both families (the
// Parquet encodings and ORC's codecs). The factory that makes the Parquet codec of an encoding for
// a column is pqpage/codec_factory.h.
//
// Decoder<T> and Encoder<T> are typed by the value type of the column (pqpage/value_type.h), and
// the library instantiates them, and the factory, for exactly these: bool, int32_t, int64_t,
// Int96, float, double, and ByteArray for both BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (a
// FIXED_LEN_BYTE_ARRAY value is a ByteArray view of exactly type_length bytes), and int8_t for
// ORC's byte RLE (pqpage/orc/), which no factory makes. Every
// value codec class of pqpage/ (PlainDecoder, DeltaBinaryPackedEncoder, ...) derives from them and
// is `final`: code that names the concrete class calls it directly (the compiler devirtualizes),
// code that does not pays one virtual call per batch, never one per value. (The level codecs,
// RleBitPackedHybrid* and BitPackedLevel*, take a bit width and are not value codecs.)
//
// FIXED_LEN_BYTE_ARRAY has one mechanism everywhere: every codec that can hold it takes the byte
// length of its values as its constructor's first argument, named type_length, with kVariableLength
// (the default where BYTE_ARRAY is possible) meaning BYTE_ARRAY. The factory takes it from the
// column (CodecTypeLength).
#ifndef PQPAGE_CODEC_H_
#define PQPAGE_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/types.h"

namespace pqpage {

// The type_length of a byte-array codec for BYTE_ARRAY values (each value carries its own length).
// Any type_length >= 0 means FIXED_LEN_BYTE_ARRAY values of that many bytes (PLAIN,
// BYTE_STREAM_SPLIT and dictionaries, whose entries are PLAIN, need it positive; DELTA_BYTE_ARRAY
// also takes 0).
inline constexpr int kVariableLength = -1;

// The type_length a codec for `column` takes: column.type_length for FIXED_LEN_BYTE_ARRAY,
// kVariableLength for every other type.
int CodecTypeLength(const ColumnDescriptor& column);

// Reads one page's values section in one encoding. Decoders are per page: Reset starts a page,
// then Decode and Skip move through it in batches of any size. A decoder keeps a view of the bytes
// given to Reset, which must outlive the decoding of that page; ByteArray values are views whose
// lifetime each concrete decoder states (into the page's bytes, or into the decoder's own buffer
// until the next Reset).
//
// Errors follow pqpage/types.h: DataLoss for corrupt or truncated input, InvalidArgument for a
// request the caller should not make (a negative count, more values than are left).
template <typename T>
class Decoder {
 public:
  virtual ~Decoder() = default;

  // Starts a page of which the caller will read `num_values` values (the values present: nulls
  // are not stored in a values section). InvalidArgument if num_values is negative; DataLoss if
  // `data` cannot hold them (found here, or by the Decode that runs out, for the encodings whose
  // values cannot be counted without decoding them). A failed Reset leaves no values to read.
  virtual absl::Status Reset(absl::Span<const uint8_t> data, int64_t num_values) = 0;

  // Values of the page not yet decoded or skipped.
  virtual int64_t values_left() const = 0;

  // Decodes exactly out.size() values. InvalidArgument if more than values_left(), with nothing
  // consumed.
  virtual absl::Status Decode(absl::Span<T> out) = 0;

  // Moves past `count` values. InvalidArgument if count is negative or more than values_left().
  virtual absl::Status Skip(int64_t count) = 0;

  // Decodes into slots: `out` has one slot per value, null or not, and bit
  // validity_bit_offset + i of `validity` (LSB first, Arrow's validity layout) says whether slot i
  // holds a value. As many values as there are set bits are decoded, each into its slot; a null
  // slot is set to T{} (0, false, an empty ByteArray), so no slot is left holding stale data.
  // Implemented once, here, on top of Decode: one Decode call per DecodeSpaced call.
  // InvalidArgument, with nothing consumed, if validity_bit_offset is negative, `validity` holds
  // fewer than validity_bit_offset + out.size() bits, or more bits are set than values_left().
  absl::Status DecodeSpaced(absl::Span<T> out, absl::Span<const uint8_t> validity,
                            int64_t validity_bit_offset = 0);

 protected:
  Decoder() = default;
  Decoder(const Decoder&) = default;
  Decoder& operator=(const Decoder&) = default;
};

// Writes one page's values section in one encoding. Encoders stream: Put any number of times,
// then FinishInto (or Finish), which also resets the encoder for the next page.
template <typename T>
class Encoder {
 public:
  virtual ~Encoder() = default;

  // Appends values. Encoders of the fixed-width numbers never fail; the byte-array ones return
  // InvalidArgument for a value they cannot store (longer than 2^31 - 1 bytes, or of the wrong
  // length for FIXED_LEN_BYTE_ARRAY), with nothing of that call appended. A dictionary encoder
  // returns ResourceExhausted when its dictionary is full (see pqpage/dictionary.h).
  virtual absl::Status Put(absl::Span<const T> values) = 0;

  // Appends the values of the slots whose bit validity_bit_offset + i of `validity` (LSB first) is
  // set, in order; null slots are not stored. Implemented once, here, on top of Put: a batch with
  // nulls goes to Put in chunks of present values (one call per chunk, never per value).
  // InvalidArgument, with nothing appended, if validity_bit_offset is negative or `validity`
  // holds fewer than validity_bit_offset + values.size() bits; otherwise Put's errors (an error
  // from a later chunk leaves the earlier chunks appended).
  absl::Status PutSpaced(absl::Span<const T> values, absl::Span<const uint8_t> validity,
                         int64_t validity_bit_offset = 0);

  // Bytes the values section would take if finished now: exact for PLAIN and BYTE_STREAM_SPLIT,
  // an upper bound or estimate for the others (for page sizing).
  virtual size_t EstimatedSize() const = 0;

  // Appends the finished values section to `out` and resets the encoder for the next page.
  virtual void FinishInto(std::vector<uint8_t>* out) = 0;

  // FinishInto a new buffer.
  std::vector<uint8_t> Finish();

 protected:
  Encoder() = default;
  Encoder(const Encoder&) = default;
  Encoder& operator=(const Encoder&) = default;
};

}  // namespace pqpage

#endif  // PQPAGE_CODEC_H_
