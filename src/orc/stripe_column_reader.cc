// ReadStripeColumns: every stream of a stripe through pqpage's ORC decoders, column by column in
// pre-order, each parent telling its children how many slots they have.
#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/checked_math.h"
#include "pqpage/orc/boolean_rle.h"
#include "pqpage/orc/byte_rle.h"
#include "pqpage/orc/integer_rle_v1.h"
#include "pqpage/orc/integer_rle_v2.h"
#include "pqpage/orc/stripe_columns.h"
#include "pqpage/orc/varint.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {
namespace {

// The most values a stream of one byte can stand for, per stream codec: what bounds every
// allocation below by bytes the stream really has, whatever counts the footer claims. Boolean RLE:
// a 2-byte run of 130 bytes of 8 values; byte RLE: 130 values in 2 bytes; integer RLE v1: 130 in
// 3; v2: a DELTA run of 512 equal steps in 4.
constexpr int64_t kMaxBooleansPerByte = 520;
constexpr int64_t kMaxBytesPerByte = 65;
constexpr int64_t kMaxIntegersPerByte = 128;

// The file version ORC's writers give files of the ORCv2 draft ("UNSTABLE-PRE-2.0"): 1.9999.
constexpr uint32_t kOrcV2DraftMinor = 9999;
// The most digits a DECIMAL_V2 column stores as a 64-bit integer.
constexpr uint32_t kMaxLongDecimalPrecision = 18;

bool UsesRleV1(ColumnEncodingKind encoding) {
  return encoding == ColumnEncodingKind::kDirect || encoding == ColumnEncodingKind::kDictionary;
}
bool IsDictionary(ColumnEncodingKind encoding) {
  return encoding == ColumnEncodingKind::kDictionary ||
         encoding == ColumnEncodingKind::kDictionaryV2;
}

// What one stripe's decoding shares: the reader, the stream directory and read buffers.
class StripeDecoding {
 public:
  StripeDecoding(const OrcFileReader& reader, const StripeFooterInfo& footer)
      : reader_(reader),
        footer_(footer),
        decimals_as_long_(reader.version() == std::vector<uint32_t>{1, kOrcV2DraftMinor}) {}

  // Whether decimals of up to 18 digits are stored as integers (ORCv2's draft, version 1.9999),
  // as ORC's readers decide it from the file version.
  bool decimals_as_long() const { return decimals_as_long_; }

  absl::Status IndexStreams() {
    for (const StreamInfo& stream : footer_.streams) {
      if (stream.kind > StreamKind::kSecondary) continue;  // indexes, bloom filters, encryption
      if (!streams_.emplace(std::make_pair(stream.column, stream.kind), &stream).second) {
        return absl::DataLossError(absl::StrCat("two ", std::string(StreamKindName(stream.kind)),
                                                " streams for column ", stream.column));
      }
    }
    return absl::OkStatus();
  }

  // The decompressed bytes of `column`'s stream of `kind` in buffer `slot` (0..2); empty when the
  // stripe has no such stream, `present` false then.
  absl::StatusOr<absl::Span<const uint8_t>> Stream(uint32_t column, StreamKind kind, int slot,
                                                   bool* present = nullptr) {
    const auto found = streams_.find(std::make_pair(column, kind));
    if (present != nullptr) *present = found != streams_.end();
    if (found == streams_.end()) return absl::Span<const uint8_t>();
    absl::StatusOr<absl::Span<const uint8_t>> bytes =
        reader_.ReadStream(*found->second, &buffers_[slot]);
    if (!bytes.ok()) {
      // The caller names the column: the stream's kind is enough here.
      const std::string kind_name(StreamKindName(kind));
      const std::string named = absl::StrCat(kind_name, " stream of column ", column, ": ");
      absl::string_view message = bytes.status().message();
      if (absl::StartsWith(message, named)) message.remove_prefix(named.size());
      return absl::Status(bytes.status().code(), absl::StrCat(kind_name, " stream: ", message));
    }
    return bytes;
  }

  // A stream that must be there when `values` > 0.
  absl::StatusOr<absl::Span<const uint8_t>> Required(uint32_t column, StreamKind kind, int slot,
                                                     int64_t values) {
    bool present = false;
    PQPAGE_ASSIGN_OR_RETURN(absl::Span<const uint8_t> bytes, Stream(column, kind, slot, &present));
    if (!present && values > 0) {
      return absl::DataLossError(absl::StrCat("has no ", std::string(StreamKindName(kind)),
                                              " stream for its ", values, " values"));
    }
    return bytes;
  }

 private:
  const OrcFileReader& reader_;
  const StripeFooterInfo& footer_;
  std::map<std::pair<uint32_t, StreamKind>, const StreamInfo*> streams_;
  bool decimals_as_long_;
  StreamBuffers buffers_[3];
};

// DataLoss unless `bytes` could hold `values` values of a codec that stores at most `per_byte`
// values a byte: checked before anything is allocated for them.
absl::Status CheckCapacity(absl::Span<const uint8_t> bytes, int64_t values, int64_t per_byte,
                           const char* what) {
  if (values < 0 || values / per_byte > static_cast<int64_t>(bytes.size())) {
    return absl::DataLossError(
        absl::StrCat("needs ", values, " ", what, " from a stream of ", bytes.size(), " bytes"));
  }
  return absl::OkStatus();
}

// `count` integers of an integer RLE stream of `encoding`'s version.
absl::Status DecodeIntegers(absl::Span<const uint8_t> bytes, int64_t count,
                            ColumnEncodingKind encoding, Signedness signedness,
                            std::vector<int64_t>* out) {
  PQPAGE_RETURN_IF_ERROR(CheckCapacity(bytes, count, kMaxIntegersPerByte, "integers"));
  out->resize(static_cast<size_t>(count));
  std::unique_ptr<Decoder<int64_t>> decoder;
  if (UsesRleV1(encoding)) {
    decoder = std::make_unique<IntegerRleV1Decoder>(signedness);
  } else {
    decoder = std::make_unique<IntegerRleV2Decoder>(signedness);
  }
  PQPAGE_RETURN_IF_ERROR(decoder->Reset(bytes, count));
  return decoder->Decode(absl::MakeSpan(*out));
}

absl::Status DecodeByteRle(absl::Span<const uint8_t> bytes, int64_t count,
                           std::vector<int64_t>* out) {
  PQPAGE_RETURN_IF_ERROR(CheckCapacity(bytes, count, kMaxBytesPerByte, "bytes"));
  std::vector<int8_t> values(static_cast<size_t>(count));
  ByteRleDecoder decoder;
  PQPAGE_RETURN_IF_ERROR(decoder.Reset(bytes, count));
  PQPAGE_RETURN_IF_ERROR(decoder.Decode(absl::MakeSpan(values)));
  out->assign(values.begin(), values.end());
  return absl::OkStatus();
}

// Lengths (of strings, lists, maps) must be non-negative and their sum must fit.
absl::StatusOr<uint64_t> SumLengths(absl::Span<const int64_t> lengths) {
  uint64_t total = 0;
  for (const int64_t length : lengths) {
    if (length < 0 || static_cast<uint64_t>(length) > std::numeric_limits<int64_t>::max() - total) {
      return absl::DataLossError(
          absl::StrCat("a length of ", length, " (or lengths summing past 2^63)"));
    }
    total += static_cast<uint64_t>(length);
  }
  return total;
}

// The present values of a STRING, VARCHAR, CHAR or BINARY column into bytes/offsets.
absl::Status ReadStrings(StripeDecoding& stripe, uint32_t column, ColumnEncodingInfo encoding,
                         ColumnValues* out) {
  const int64_t count = out->num_present;
  std::vector<int64_t> lengths;
  out->offsets.assign(1, 0);
  if (!IsDictionary(encoding.kind)) {
    PQPAGE_ASSIGN_OR_RETURN(auto length_bytes,
                            stripe.Required(column, StreamKind::kLength, 0, count));
    PQPAGE_RETURN_IF_ERROR(
        DecodeIntegers(length_bytes, count, encoding.kind, Signedness::kUnsigned, &lengths));
    PQPAGE_ASSIGN_OR_RETURN(const uint64_t total, SumLengths(lengths));
    PQPAGE_ASSIGN_OR_RETURN(auto data, stripe.Required(column, StreamKind::kData, 1, total));
    if (total > data.size()) {
      return absl::DataLossError(
          absl::StrCat("lengths sum to ", total, " bytes, the DATA stream holds ", data.size()));
    }
    out->bytes.assign(data.begin(), data.begin() + static_cast<ptrdiff_t>(total));
    out->offsets.reserve(lengths.size() + 1);
    for (const int64_t length : lengths) out->offsets.push_back(out->offsets.back() + length);
    return absl::OkStatus();
  }
  // Dictionary: LENGTH holds the entries' lengths, DATA the entry of each value.
  const int64_t entries = encoding.dictionary_size;
  PQPAGE_ASSIGN_OR_RETURN(auto length_bytes,
                          stripe.Required(column, StreamKind::kLength, 0, entries));
  PQPAGE_RETURN_IF_ERROR(
      DecodeIntegers(length_bytes, entries, encoding.kind, Signedness::kUnsigned, &lengths));
  PQPAGE_ASSIGN_OR_RETURN(const uint64_t dictionary_total, SumLengths(lengths));
  PQPAGE_ASSIGN_OR_RETURN(
      auto dictionary, stripe.Required(column, StreamKind::kDictionaryData, 1, dictionary_total));
  if (dictionary_total > dictionary.size()) {
    return absl::DataLossError(absl::StrCat("dictionary lengths sum to ", dictionary_total,
                                            " bytes, DICTIONARY_DATA holds ", dictionary.size()));
  }
  std::vector<uint64_t> starts(lengths.size() + 1, 0);
  for (size_t i = 0; i < lengths.size(); ++i) starts[i + 1] = starts[i] + lengths[i];
  std::vector<int64_t> indices;
  PQPAGE_ASSIGN_OR_RETURN(auto index_bytes, stripe.Required(column, StreamKind::kData, 2, count));
  PQPAGE_RETURN_IF_ERROR(
      DecodeIntegers(index_bytes, count, encoding.kind, Signedness::kUnsigned, &indices));
  uint64_t total = 0;
  for (const int64_t index : indices) {
    if (index < 0 || index >= entries) {
      return absl::DataLossError(absl::StrCat("dictionary entry ", index, " of ", entries));
    }
    total += lengths[static_cast<size_t>(index)];
  }
  out->bytes.resize(total);
  out->offsets.reserve(indices.size() + 1);
  uint8_t* next = out->bytes.data();
  for (const int64_t index : indices) {
    const uint64_t length = lengths[static_cast<size_t>(index)];
    if (length > 0) std::memcpy(next, dictionary.data() + starts[index], length);
    next += length;
    out->offsets.push_back(out->offsets.back() + length);
  }
  return absl::OkStatus();
}

// The nanoseconds of a timestamp's SECONDARY value: the low 3 bits z say that z + 1 decimal zeros
// were taken off the end (none when z is 0). The stream is unsigned, but ORC's C++ writer stores
// a time before 1970 with negative nanoseconds, and its reader takes the value's 64 bits as
// signed: so does this one, so that such files read as they do there.
absl::StatusOr<int64_t> DecodeNanos(int64_t stored) {
  int64_t nanos = stored >> 3;
  const int zeros = static_cast<int>(stored & 7);
  const bool in_range = nanos >= -999'999'999 && nanos <= 999'999'999;
  if (in_range && zeros != 0) {
    for (int i = 0; i <= zeros; ++i) nanos *= 10;  // at most 10^8 * 10^8: no overflow
  }
  if (!in_range || nanos < -999'999'999 || nanos > 999'999'999) {
    return absl::DataLossError(
        absl::StrCat("a timestamp's nanoseconds (", stored, ") exceed a second"));
  }
  return nanos;
}

// The present values of one column, by kind.
absl::Status ReadValues(StripeDecoding& stripe, uint32_t column, const OrcType& type,
                        ColumnEncodingInfo encoding, ColumnValues* out) {
  const int64_t count = out->num_present;
  switch (type.kind) {
    case TypeKind::kStruct:
      return absl::OkStatus();
    case TypeKind::kBoolean: {
      PQPAGE_ASSIGN_OR_RETURN(auto bytes, stripe.Required(column, StreamKind::kData, 0, count));
      PQPAGE_RETURN_IF_ERROR(CheckCapacity(bytes, count, kMaxBooleansPerByte, "booleans"));
      const std::unique_ptr<bool[]> values(new bool[static_cast<size_t>(count) + 1]);
      BooleanRleDecoder decoder;
      PQPAGE_RETURN_IF_ERROR(decoder.Reset(bytes, count));
      PQPAGE_RETURN_IF_ERROR(decoder.Decode(absl::MakeSpan(values.get(), count)));
      out->integers.assign(values.get(), values.get() + count);
      return absl::OkStatus();
    }
    case TypeKind::kByte:
    case TypeKind::kUnion: {
      PQPAGE_ASSIGN_OR_RETURN(auto bytes, stripe.Required(column, StreamKind::kData, 0, count));
      PQPAGE_RETURN_IF_ERROR(DecodeByteRle(bytes, count, &out->integers));
      if (type.kind == TypeKind::kUnion) {
        for (int64_t& tag : out->integers) {
          tag &= 0xFF;  // tags are unsigned bytes
          if (tag >= static_cast<int64_t>(type.subtypes.size())) {
            return absl::DataLossError(
                absl::StrCat("union tag ", tag, " of ", type.subtypes.size(), " variants"));
          }
        }
      }
      return absl::OkStatus();
    }
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
    case TypeKind::kDate: {
      PQPAGE_ASSIGN_OR_RETURN(auto bytes, stripe.Required(column, StreamKind::kData, 0, count));
      return DecodeIntegers(bytes, count, encoding.kind, Signedness::kSigned, &out->integers);
    }
    case TypeKind::kList:
    case TypeKind::kMap: {
      PQPAGE_ASSIGN_OR_RETURN(auto bytes, stripe.Required(column, StreamKind::kLength, 0, count));
      PQPAGE_RETURN_IF_ERROR(
          DecodeIntegers(bytes, count, encoding.kind, Signedness::kUnsigned, &out->integers));
      return SumLengths(out->integers).status();
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      const size_t width = type.kind == TypeKind::kFloat ? 4 : 8;
      PQPAGE_ASSIGN_OR_RETURN(auto bytes, stripe.Required(column, StreamKind::kData, 0, count));
      if (static_cast<uint64_t>(count) > bytes.size() / width) {
        return absl::DataLossError(
            absl::StrCat(count, " values of ", width, " bytes in a stream of ", bytes.size()));
      }
      out->reals.resize(static_cast<size_t>(count));
      for (size_t i = 0; i < out->reals.size(); ++i) {
        if (width == 4) {
          float value;
          std::memcpy(&value, bytes.data() + 4 * i, 4);
          out->reals[i] = value;
        } else {
          std::memcpy(&out->reals[i], bytes.data() + 8 * i, 8);
        }
      }
      return absl::OkStatus();
    }
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
    case TypeKind::kBinary:
      return ReadStrings(stripe, column, encoding, out);
    case TypeKind::kDecimal: {
      if (stripe.decimals_as_long() && type.precision && *type.precision >= 1 &&
          *type.precision <= kMaxLongDecimalPrecision) {
        // ORCv2's DECIMAL_V2 (files of version 1.9999): the unscaled values as signed integer
        // RLE v2 in DATA, the scale the type's, no SECONDARY stream. ORC's Java writer marks the
        // column DIRECT all the same; its readers take RLE v2 whatever the encoding says.
        PQPAGE_ASSIGN_OR_RETURN(auto bytes, stripe.Required(column, StreamKind::kData, 0, count));
        std::vector<int64_t> unscaled;
        PQPAGE_RETURN_IF_ERROR(DecodeIntegers(bytes, count, ColumnEncodingKind::kDirectV2,
                                              Signedness::kSigned, &unscaled));
        out->decimals.assign(unscaled.begin(), unscaled.end());
        out->scales.assign(unscaled.size(), type.scale.value_or(0));
        return absl::OkStatus();
      }
      PQPAGE_ASSIGN_OR_RETURN(auto bytes, stripe.Required(column, StreamKind::kData, 1, count));
      PQPAGE_RETURN_IF_ERROR(CheckCapacity(bytes, count, 1, "decimals"));
      out->decimals.resize(static_cast<size_t>(count));
      size_t position = 0;
      for (absl::int128& value : out->decimals) {
        PQPAGE_ASSIGN_OR_RETURN(value, ReadSignedVarint128(bytes, &position));
      }
      PQPAGE_ASSIGN_OR_RETURN(auto scales,
                              stripe.Required(column, StreamKind::kSecondary, 0, count));
      return DecodeIntegers(scales, count, encoding.kind, Signedness::kSigned, &out->scales);
    }
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant: {
      PQPAGE_ASSIGN_OR_RETURN(auto seconds, stripe.Required(column, StreamKind::kData, 0, count));
      PQPAGE_RETURN_IF_ERROR(
          DecodeIntegers(seconds, count, encoding.kind, Signedness::kSigned, &out->seconds));
      PQPAGE_ASSIGN_OR_RETURN(auto nanos,
                              stripe.Required(column, StreamKind::kSecondary, 1, count));
      PQPAGE_RETURN_IF_ERROR(
          DecodeIntegers(nanos, count, encoding.kind, Signedness::kUnsigned, &out->nanos));
      for (int64_t& value : out->nanos) {
        PQPAGE_ASSIGN_OR_RETURN(value, DecodeNanos(value));
      }
      return absl::OkStatus();
    }
  }
  return absl::UnimplementedError(absl::StrCat("kind ", static_cast<int>(type.kind)));
}

}  // namespace

absl::StatusOr<int64_t> TimestampNanos(int64_t stored_seconds, int64_t nanos) {
  using ::pqpage::internal::CheckedAdd;
  using ::pqpage::internal::CheckedMultiply;
  std::optional<int64_t> seconds = CheckedAdd(stored_seconds, kOrcTimestampEpochSeconds);
  // ORC's writers store a time before 1970 with its seconds rounded towards zero; readers take
  // the second back when the nanoseconds show a fraction past the millisecond.
  if (seconds && *seconds < 0 && nanos > 999'999) seconds = CheckedAdd(*seconds, int64_t{-1});
  std::optional<int64_t> total;
  if (seconds) total = CheckedMultiply(*seconds, int64_t{1'000'000'000});
  if (total) total = CheckedAdd(*total, nanos);
  if (!total) {
    // The value is valid ORC (pyarrow refuses such files too); only this form cannot hold it.
    return absl::OutOfRangeError(
        seconds ? absl::StrCat("ORC timestamp of ", *seconds, " s from 1970 (", nanos,
                               " ns) is out of the range of int64 nanoseconds")
                : absl::StrCat("ORC timestamp of ", stored_seconds,
                               " s from 2015 is out of the range of int64 seconds from 1970"));
  }
  return *total;
}

namespace {

// Column `column`'s PRESENT bits and values; its errors name no stripe or column (the caller's do).
absl::Status ReadColumn(StripeDecoding& stripe, uint32_t column, const OrcType& type,
                        ColumnEncodingInfo encoding, ColumnValues& values) {
  values.kind = type.kind;
  values.encoding = encoding.kind;
  bool has_present = false;
  PQPAGE_ASSIGN_OR_RETURN(auto present,
                          stripe.Stream(column, StreamKind::kPresent, 0, &has_present));
  values.num_present = values.slots;
  if (has_present) {
    PQPAGE_RETURN_IF_ERROR(
        CheckCapacity(present, values.slots, kMaxBooleansPerByte, "PRESENT bits"));
    values.present.resize(static_cast<size_t>(values.slots));
    BooleanRleDecoder decoder;
    PQPAGE_RETURN_IF_ERROR(decoder.Reset(present, values.slots));
    const absl::Status status = decoder.Decode(
        absl::MakeSpan(reinterpret_cast<bool*>(values.present.data()), values.present.size()));
    if (!status.ok()) {
      return absl::DataLossError(absl::StrCat("PRESENT: ", status.message()));
    }
    values.num_present = std::count(values.present.begin(), values.present.end(), 1);
  }
  return ReadValues(stripe, column, type, encoding, &values);
}

absl::StatusOr<std::vector<ColumnValues>> ReadColumns(const OrcFileReader& reader,
                                                      const StripeFooterInfo& footer,
                                                      int stripe_index) {
  const std::vector<OrcType>& types = reader.types();
  if (footer.encodings.size() < types.size()) {
    return absl::DataLossError(
        absl::StrCat(footer.encodings.size(), " column encodings for ", types.size(), " columns"));
  }
  StripeDecoding stripe(reader, footer);
  PQPAGE_RETURN_IF_ERROR(stripe.IndexStreams());
  const uint64_t rows = reader.stripes()[static_cast<size_t>(stripe_index)].num_rows;
  if (rows > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return absl::DataLossError(absl::StrCat(rows, " rows"));
  }
  std::vector<ColumnValues> columns(types.size());
  columns[0].slots = static_cast<int64_t>(rows);
  for (uint32_t column = 0; column < types.size(); ++column) {
    const OrcType& type = types[column];
    ColumnValues& values = columns[column];
    const absl::Status status = ReadColumn(stripe, column, type, footer.encodings[column], values);
    if (!status.ok()) {
      return absl::Status(
          status.code(), absl::StrCat("column ", column, " (", std::string(TypeKindName(type.kind)),
                                      "): ", status.message()));
    }
    // The children's slots.
    switch (type.kind) {
      case TypeKind::kStruct:
        for (const uint32_t child : type.subtypes) columns[child].slots = values.num_present;
        break;
      case TypeKind::kList:
      case TypeKind::kMap: {
        PQPAGE_ASSIGN_OR_RETURN(const uint64_t items, SumLengths(values.integers));
        for (const uint32_t child : type.subtypes)
          columns[child].slots = static_cast<int64_t>(items);
        break;
      }
      case TypeKind::kUnion:
        for (const int64_t tag : values.integers) ++columns[type.subtypes[tag]].slots;
        break;
      default:
        break;
    }
  }
  return columns;
}

}  // namespace

absl::StatusOr<std::vector<ColumnValues>> ReadStripeColumns(const OrcFileReader& reader,
                                                            int stripe_index) {
  // Its errors already say "ORC stripe N footer".
  PQPAGE_ASSIGN_OR_RETURN(const StripeFooterInfo footer, reader.ReadStripeFooter(stripe_index));
  absl::StatusOr<std::vector<ColumnValues>> columns = ReadColumns(reader, footer, stripe_index);
  if (!columns.ok()) {
    return absl::Status(columns.status().code(), absl::StrCat("ORC stripe ", stripe_index, ": ",
                                                              columns.status().message()));
  }
  return columns;
}

}  // namespace pqpage::orc
