// EncodeStripeColumns: a stripe's column values back into streams with pqpage's ORC encoders.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "pqpage/orc/boolean_rle.h"
#include "pqpage/orc/byte_rle.h"
#include "pqpage/orc/integer_rle_v1.h"
#include "pqpage/orc/integer_rle_v2.h"
#include "pqpage/orc/stripe_columns.h"
#include "pqpage/orc/varint.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {
namespace {

// Whether a column kind's streams hold integer RLE, so that its encoding names the RLE version.
bool EncodingFollowsRle(TypeKind kind) {
  switch (kind) {
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
    case TypeKind::kDate:
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
    case TypeKind::kBinary:
    case TypeKind::kDecimal:
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant:
    case TypeKind::kList:
    case TypeKind::kMap:
      return true;
    default:
      return false;
  }
}

// The values of `kind` a column must carry one of per present slot (0 for STRUCT).
size_t ValueCount(const ColumnValues& column) {
  switch (column.kind) {
    case TypeKind::kStruct:
      return static_cast<size_t>(column.num_present);
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return column.reals.size();
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
    case TypeKind::kBinary:
      return column.offsets.empty() ? 0 : column.offsets.size() - 1;
    case TypeKind::kDecimal:
      return column.decimals.size() == column.scales.size() ? column.decimals.size() : SIZE_MAX;
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant:
      return column.seconds.size() == column.nanos.size() ? column.seconds.size() : SIZE_MAX;
    default:
      return column.integers.size();
  }
}

// The SECONDARY form of a timestamp's nanoseconds: trailing decimal zeros beyond two are taken
// off, their count less one in the low 3 bits (at most 7 of them, as ORC's writers do). Negative
// nanoseconds keep their sign in the upper bits, as ORC's C++ writer stores them.
int64_t EncodeNanos(int64_t nanos) {
  if (nanos == 0 || nanos % 100 != 0) return nanos * 8;
  nanos /= 100;
  int zeros = 1;
  while (nanos % 10 == 0 && zeros < 7) {
    nanos /= 10;
    ++zeros;
  }
  return nanos * 8 + zeros;
}

class StreamSink {
 public:
  StreamSink(EncodedStripe* stripe, int rle_version) : stripe_(stripe), rle_version_(rle_version) {}

  std::vector<uint8_t>* Add(StreamKind kind, uint32_t column) {
    stripe_->buffers.emplace_back();
    kinds_.emplace_back(kind, column);
    return &stripe_->buffers.back();
  }

  void Integers(StreamKind kind, uint32_t column, absl::Span<const int64_t> values,
                Signedness signedness) {
    std::unique_ptr<Encoder<int64_t>> encoder;
    if (rle_version_ == 1) {
      encoder = std::make_unique<IntegerRleV1Encoder>(signedness);
    } else {
      encoder = std::make_unique<IntegerRleV2Encoder>(signedness);
    }
    (void)encoder->Put(values);  // integer encoders never fail
    encoder->FinishInto(Add(kind, column));
  }

  // The streams' views, once every buffer is in place (the buffers vector no longer moves).
  void Finish() {
    for (size_t i = 0; i < kinds_.size(); ++i) {
      stripe_->streams.push_back(
          OrcStreamInput{kinds_[i].first, kinds_[i].second, stripe_->buffers[i]});
    }
  }

 private:
  EncodedStripe* stripe_;
  int rle_version_;
  std::vector<std::pair<StreamKind, uint32_t>> kinds_;
};

void EncodeStrings(const ColumnValues& values, uint32_t column, bool dictionary, StreamSink& sink,
                   ColumnEncodingInfo* encoding) {
  const size_t count = ValueCount(values);
  std::vector<int64_t> lengths;
  if (!dictionary) {
    lengths.reserve(count);
    for (size_t i = 0; i < count; ++i) lengths.push_back(values.offsets[i + 1] - values.offsets[i]);
    std::vector<uint8_t>* data = sink.Add(StreamKind::kData, column);
    data->assign(values.bytes.begin(), values.bytes.begin() + values.offsets[count]);
    sink.Integers(StreamKind::kLength, column, lengths, Signedness::kUnsigned);
    return;
  }
  // A sorted dictionary of the distinct values, as the spec describes and ORC's writers make.
  std::vector<std::string_view> distinct;
  {
    absl::flat_hash_map<std::string_view, int64_t> seen;
    for (size_t i = 0; i < count; ++i) {
      if (seen.emplace(values.Bytes(static_cast<int64_t>(i)), 0).second) {
        distinct.push_back(values.Bytes(static_cast<int64_t>(i)));
      }
    }
  }
  std::sort(distinct.begin(), distinct.end());
  absl::flat_hash_map<std::string_view, int64_t> entry;
  entry.reserve(distinct.size());
  std::vector<uint8_t>* dictionary_data = sink.Add(StreamKind::kDictionaryData, column);
  for (size_t i = 0; i < distinct.size(); ++i) {
    entry.emplace(distinct[i], static_cast<int64_t>(i));
    dictionary_data->insert(dictionary_data->end(), distinct[i].begin(), distinct[i].end());
    lengths.push_back(static_cast<int64_t>(distinct[i].size()));
  }
  std::vector<int64_t> indices(count);
  for (size_t i = 0; i < count; ++i) indices[i] = entry.at(values.Bytes(static_cast<int64_t>(i)));
  sink.Integers(StreamKind::kData, column, indices, Signedness::kUnsigned);
  sink.Integers(StreamKind::kLength, column, lengths, Signedness::kUnsigned);
  encoding->dictionary_size = static_cast<uint32_t>(distinct.size());
}

void EncodeValues(const ColumnValues& values, uint32_t column, StreamSink& sink,
                  ColumnEncodingInfo* encoding) {
  switch (values.kind) {
    case TypeKind::kStruct:
      return;
    case TypeKind::kBoolean: {
      BooleanRleEncoder encoder;
      const std::unique_ptr<bool[]> bits(new bool[values.integers.size() + 1]);
      for (size_t i = 0; i < values.integers.size(); ++i) bits[i] = values.integers[i] != 0;
      (void)encoder.Put(absl::MakeConstSpan(bits.get(), values.integers.size()));
      encoder.FinishInto(sink.Add(StreamKind::kData, column));
      return;
    }
    case TypeKind::kByte:
    case TypeKind::kUnion: {
      ByteRleEncoder encoder;
      const std::vector<int8_t> bytes(values.integers.begin(), values.integers.end());
      (void)encoder.Put(bytes);
      encoder.FinishInto(sink.Add(StreamKind::kData, column));
      return;
    }
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
    case TypeKind::kDate:
      sink.Integers(StreamKind::kData, column, values.integers, Signedness::kSigned);
      return;
    case TypeKind::kList:
    case TypeKind::kMap:
      sink.Integers(StreamKind::kLength, column, values.integers, Signedness::kUnsigned);
      return;
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      std::vector<uint8_t>* data = sink.Add(StreamKind::kData, column);
      const size_t width = values.kind == TypeKind::kFloat ? 4 : 8;
      data->resize(values.reals.size() * width);
      for (size_t i = 0; i < values.reals.size(); ++i) {
        if (width == 4) {
          const auto narrow = static_cast<float>(values.reals[i]);
          std::memcpy(data->data() + 4 * i, &narrow, 4);
        } else {
          std::memcpy(data->data() + 8 * i, &values.reals[i], 8);
        }
      }
      return;
    }
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
    case TypeKind::kBinary: {
      const bool dictionary = values.kind != TypeKind::kBinary &&
                              (values.encoding == ColumnEncodingKind::kDictionary ||
                               values.encoding == ColumnEncodingKind::kDictionaryV2);
      EncodeStrings(values, column, dictionary, sink, encoding);
      if (dictionary) {
        encoding->kind = encoding->kind == ColumnEncodingKind::kDirect
                             ? ColumnEncodingKind::kDictionary
                             : ColumnEncodingKind::kDictionaryV2;
      }
      return;
    }
    case TypeKind::kDecimal: {
      std::vector<uint8_t>* data = sink.Add(StreamKind::kData, column);
      for (const absl::int128 value : values.decimals) AppendSignedVarint128(value, data);
      sink.Integers(StreamKind::kSecondary, column, values.scales, Signedness::kSigned);
      return;
    }
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant: {
      sink.Integers(StreamKind::kData, column, values.seconds, Signedness::kSigned);
      std::vector<int64_t> nanos(values.nanos.size());
      std::transform(values.nanos.begin(), values.nanos.end(), nanos.begin(), EncodeNanos);
      sink.Integers(StreamKind::kSecondary, column, nanos, Signedness::kUnsigned);
      return;
    }
  }
}

}  // namespace

absl::StatusOr<EncodedStripe> EncodeStripeColumns(absl::Span<const OrcType> types,
                                                  absl::Span<const ColumnValues> columns,
                                                  int rle_version) {
  if (rle_version != 1 && rle_version != 2) {
    return absl::InvalidArgumentError(absl::StrCat("ORC integer RLE version ", rle_version));
  }
  if (columns.size() != types.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(columns.size(), " columns of values for ", types.size(), " columns"));
  }
  EncodedStripe stripe;
  StreamSink sink(&stripe, rle_version);
  for (uint32_t column = 0; column < columns.size(); ++column) {
    const ColumnValues& values = columns[column];
    const int64_t present = values.present.empty()
                                ? values.slots
                                : std::count(values.present.begin(), values.present.end(), 1);
    if (values.kind != types[column].kind || present != values.num_present ||
        (!values.present.empty() && static_cast<int64_t>(values.present.size()) != values.slots) ||
        ValueCount(values) != static_cast<size_t>(values.num_present)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "ORC column ", column, ": values that do not match its kind, slots or present count"));
    }
    ColumnEncodingInfo encoding;
    encoding.kind = EncodingFollowsRle(values.kind) && rle_version == 2
                        ? ColumnEncodingKind::kDirectV2
                        : ColumnEncodingKind::kDirect;
    if (present < values.slots) {
      BooleanRleEncoder encoder;
      (void)encoder.Put(absl::MakeConstSpan(reinterpret_cast<const bool*>(values.present.data()),
                                            values.present.size()));
      encoder.FinishInto(sink.Add(StreamKind::kPresent, column));
    }
    EncodeValues(values, column, sink, &encoding);
    stripe.encodings.push_back(encoding);
  }
  sink.Finish();
  return stripe;
}

}  // namespace pqpage::orc
