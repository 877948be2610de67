// Between the generated ORC messages and pqpage's plain metadata types: every field the footer
// or a stripe footer holds is checked here before a public struct carries it.
#include "orc/metadata_proto.h"

#include <limits>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/checked_math.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc::internal {

absl::Status ParseMessage(absl::Span<const uint8_t> bytes, std::string_view what,
                          google::protobuf::MessageLite* message) {
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return absl::DataLossError(absl::StrCat("ORC: the ", std::string(what), " is over 2 GiB"));
  }
  if (!message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::DataLossError(absl::StrCat("ORC: the ", std::string(what), " (", bytes.size(),
                                            " bytes) is not a valid message"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<OrcType>> TypesFromFooter(const proto::Footer& footer) {
  std::vector<OrcType> types;
  types.reserve(static_cast<size_t>(footer.types_size()));
  for (int i = 0; i < footer.types_size(); ++i) {
    const proto::Type& message = footer.types(i);
    // proto2 keeps a kind it does not know among the unknown fields, so has_kind() is false.
    if (!message.has_kind()) {
      return absl::DataLossError(absl::StrCat("ORC type tree: column ", i, " has no known kind"));
    }
    OrcType type;
    type.kind = static_cast<TypeKind>(message.kind());
    type.subtypes.assign(message.subtypes().begin(), message.subtypes().end());
    type.field_names.assign(message.fieldnames().begin(), message.fieldnames().end());
    if (message.has_maximumlength()) type.maximum_length = message.maximumlength();
    if (message.has_precision()) type.precision = message.precision();
    if (message.has_scale()) type.scale = message.scale();
    type.attributes.reserve(static_cast<size_t>(message.attributes_size()));
    for (const proto::StringPair& pair : message.attributes()) {
      type.attributes.push_back({pair.key(), pair.value()});
    }
    types.push_back(std::move(type));
  }
  PQPAGE_RETURN_IF_ERROR(ValidateTypeTree(types));
  return types;
}

void TypeToProto(const OrcType& type, proto::Type* message) {
  message->set_kind(static_cast<proto::Type::Kind>(type.kind));
  for (const uint32_t subtype : type.subtypes) message->add_subtypes(subtype);
  for (const std::string& name : type.field_names) message->add_fieldnames(name);
  if (type.maximum_length) message->set_maximumlength(*type.maximum_length);
  if (type.precision) message->set_precision(*type.precision);
  if (type.scale) message->set_scale(*type.scale);
  for (const TypeAttribute& attribute : type.attributes) {
    proto::StringPair* pair = message->add_attributes();
    pair->set_key(attribute.key);
    pair->set_value(attribute.value);
  }
}

StripeInfo StripeFromProto(const proto::StripeInformation& stripe) {
  return {.offset = stripe.offset(),
          .index_length = stripe.indexlength(),
          .data_length = stripe.datalength(),
          .footer_length = stripe.footerlength(),
          .num_rows = stripe.numberofrows()};
}

void StripeToProto(const StripeInfo& stripe, proto::StripeInformation* message) {
  message->set_offset(stripe.offset);
  message->set_indexlength(stripe.index_length);
  message->set_datalength(stripe.data_length);
  message->set_footerlength(stripe.footer_length);
  message->set_numberofrows(stripe.num_rows);
}

namespace {

// Whether a column of `kind` has streams whose layout its encoding decides. The others (STRUCT,
// whose slots come from its PRESENT stream alone, and the kinds with one fixed layout) are read
// whatever their encoding says, as ORC's readers do: some writers leave it unset (cuDF's tests
// hold a struct from ORC Java whose encoding has no kind).
bool EncodingMatters(TypeKind kind) {
  switch (kind) {
    case TypeKind::kStruct:
    case TypeKind::kBoolean:
    case TypeKind::kByte:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kUnion:
      return false;
    default:
      return true;
  }
}

}  // namespace

absl::StatusOr<StripeFooterInfo> StripeFooterFromProto(const proto::StripeFooter& footer,
                                                       uint64_t stripe_offset,
                                                       uint64_t streams_length,
                                                       absl::Span<const OrcType> types) {
  const size_t num_columns = types.size();
  StripeFooterInfo info;
  info.streams.reserve(static_cast<size_t>(footer.streams_size()));
  // The stripe footer stores lengths only: each stream starts where the one before it ends.
  uint64_t position = 0;
  for (int i = 0; i < footer.streams_size(); ++i) {
    const proto::Stream& stream = footer.streams(i);
    if (!stream.has_kind()) {
      return absl::DataLossError(absl::StrCat("stream ", i, " has no known kind"));
    }
    if (stream.column() >= num_columns) {
      return absl::DataLossError(absl::StrCat("stream ", i, " is of column ", stream.column(),
                                              ", past the ", num_columns, " columns"));
    }
    const std::optional<uint64_t> end = ::pqpage::internal::CheckedAdd(position, stream.length());
    if (!end || *end > streams_length) {
      return absl::DataLossError(
          absl::StrCat("stream ", i, " (", stream.length(), " bytes at stripe byte ", position,
                       ") runs past the stripe's ", streams_length, " bytes of index and data"));
    }
    info.streams.push_back({.kind = static_cast<StreamKind>(stream.kind()),
                            .column = stream.column(),
                            .file_offset = stripe_offset + position,
                            .length = stream.length()});
    position = *end;
  }
  info.encodings.reserve(static_cast<size_t>(footer.columns_size()));
  for (int i = 0; i < footer.columns_size(); ++i) {
    const proto::ColumnEncoding& encoding = footer.columns(i);
    if (!encoding.has_kind()) {
      // An encoding past the schema's columns describes nothing; only one that a column's
      // streams depend on must be known.
      if (static_cast<size_t>(i) >= num_columns ||
          !EncodingMatters(types[static_cast<size_t>(i)].kind)) {
        info.encodings.push_back(
            {.kind = ColumnEncodingKind::kDirect, .dictionary_size = encoding.dictionarysize()});
        continue;
      }
      return absl::DataLossError(absl::StrCat("the encoding of column ", i, " has no known kind"));
    }
    info.encodings.push_back({.kind = static_cast<ColumnEncodingKind>(encoding.kind()),
                              .dictionary_size = encoding.dictionarysize()});
  }
  if (footer.has_writertimezone()) info.writer_timezone = footer.writertimezone();
  info.encrypted_streams.reserve(static_cast<size_t>(footer.encryption_size()));
  for (int v = 0; v < footer.encryption_size(); ++v) {
    std::vector<EncryptedStreamInfo>& streams = info.encrypted_streams.emplace_back();
    for (const proto::Stream& stream : footer.encryption(v).streams()) {
      // Only listed: their bytes are encrypted, so a kind this proto does not know is shown as
      // such instead of failing the stripe.
      streams.push_back({.kind = stream.has_kind() ? static_cast<StreamKind>(stream.kind())
                                                   : static_cast<StreamKind>(
                                                         std::numeric_limits<uint32_t>::max()),
                         .column = stream.column(),
                         .length = stream.length()});
    }
  }
  return info;
}

absl::StatusOr<std::optional<EncryptionInfo>> EncryptionFromFooter(const proto::Footer& footer,
                                                                   size_t num_columns) {
  if (!footer.has_encryption()) return std::optional<EncryptionInfo>();
  const proto::Encryption& message = footer.encryption();
  EncryptionInfo info;
  info.key_provider = message.keyprovider();
  for (const proto::EncryptionKey& key : message.key()) {
    info.keys.push_back({key.keyname(), key.keyversion(), key.algorithm()});
  }
  for (int i = 0; i < message.mask_size(); ++i) {
    const proto::DataMask& mask = message.mask(i);
    DataMaskInfo& out = info.masks.emplace_back();
    out.name = mask.name();
    out.parameters.assign(mask.maskparameters().begin(), mask.maskparameters().end());
    for (const uint32_t column : mask.columns()) {
      if (column >= num_columns) {
        return absl::DataLossError(absl::StrCat("ORC footer: encryption mask ", i, " names column ",
                                                column, " of ", num_columns));
      }
      out.columns.push_back(column);
    }
  }
  for (int i = 0; i < message.variants_size(); ++i) {
    const proto::EncryptionVariant& variant = message.variants(i);
    if (variant.root() >= num_columns || variant.key() >= info.keys.size()) {
      return absl::DataLossError(
          absl::StrCat("ORC footer: encryption variant ", i, " has root column ", variant.root(),
                       " of ", num_columns, " and key ", variant.key(), " of ", info.keys.size()));
    }
    info.variants.push_back({variant.root(), variant.key()});
  }
  return std::optional<EncryptionInfo>(std::move(info));
}

}  // namespace pqpage::orc::internal
