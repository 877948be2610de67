// Conversions between the ORC protocol buffer messages (orc_metadata.proto) and pqpage's plain
// metadata types (pqpage/orc/metadata.h), shared by the file reader and writer, so that the
// generated types stay inside src/orc. Also the one way the library parses a message from bytes.
#ifndef PQPAGE_ORC_METADATA_PROTO_H_
#define PQPAGE_ORC_METADATA_PROTO_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "orc_metadata.pb.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/metadata.h"

namespace pqpage::orc::internal {

// Parses `bytes` as `message`; `what` names it in the error.
// Errors: DataLoss when the bytes are not a valid encoding of the message.
absl::Status ParseMessage(absl::Span<const uint8_t> bytes, std::string_view what,
                          google::protobuf::MessageLite* message);

// The footer's types; DataLoss when one has no kind (or one this proto does not know) or the
// tree breaks ValidateTypeTree.
absl::StatusOr<std::vector<OrcType>> TypesFromFooter(const proto::Footer& footer);
void TypeToProto(const OrcType& type, proto::Type* message);

StripeInfo StripeFromProto(const proto::StripeInformation& stripe);
void StripeToProto(const StripeInfo& stripe, proto::StripeInformation* message);

// The stripe footer of a stripe starting at `stripe_offset` whose index and data areas hold
// `streams_length` bytes: each stream's file offset is computed from the lengths before it.
// `types` is the file's (validated) schema. An encoding with no known kind reads as DIRECT for a
// column whose streams do not depend on it (STRUCT, BOOLEAN, BYTE, FLOAT, DOUBLE, UNION).
// Errors: DataLoss for a stream with no known kind, a column past the schema's, streams that
// run past the index and data areas, or an encoding with no known kind that a column needs.
absl::StatusOr<StripeFooterInfo> StripeFooterFromProto(const proto::StripeFooter& footer,
                                                       uint64_t stripe_offset,
                                                       uint64_t streams_length,
                                                       absl::Span<const OrcType> types);

// The footer's column encryption, none when it has none; `num_columns` is the schema's.
// Errors: DataLoss for a mask or variant naming a column past the schema, or a variant naming a
// key the footer does not list.
absl::StatusOr<std::optional<EncryptionInfo>> EncryptionFromFooter(const proto::Footer& footer,
                                                                   size_t num_columns);

}  // namespace pqpage::orc::internal

#endif  // PQPAGE_ORC_METADATA_PROTO_H_
