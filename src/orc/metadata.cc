// pqpage/orc/metadata.h: the rules of ORC's flattened type tree, and the names of the metadata
// enums. The tree comes from the file's footer, so nothing may index by a subtype id before
// ValidateTypeTree passed.
#include "pqpage/orc/metadata.h"

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {
namespace {

// The most variants a UNION may have: its tag is one byte.
constexpr size_t kMaxUnionVariants = 256;

absl::Status BadType(uint32_t column, std::string_view what) {
  return absl::DataLossError(
      absl::StrCat("ORC type tree: column ", column, " ", std::string(what)));
}

// The rules of one column that do not depend on the others.
absl::Status CheckColumnShape(const OrcType& type, uint32_t column) {
  if (static_cast<int>(type.kind) >= kNumTypeKinds) {
    return BadType(column, absl::StrCat("has unknown kind ", static_cast<int>(type.kind)));
  }
  const size_t children = type.subtypes.size();
  switch (type.kind) {
    case TypeKind::kList:
      if (children != 1)
        return BadType(column, absl::StrCat("(LIST) has ", children, " subtypes, not 1"));
      break;
    case TypeKind::kMap:
      if (children != 2)
        return BadType(column, absl::StrCat("(MAP) has ", children, " subtypes, not 2"));
      break;
    case TypeKind::kUnion:
      if (children == 0 || children > kMaxUnionVariants) {
        return BadType(column, absl::StrCat("(UNION) has ", children, " variants, not 1 to ",
                                            kMaxUnionVariants));
      }
      break;
    case TypeKind::kStruct:
      if (type.field_names.size() != children) {
        return BadType(column, absl::StrCat("(STRUCT) has ", children, " subtypes but ",
                                            type.field_names.size(), " field names"));
      }
      break;
    default:
      if (children != 0) {
        return BadType(column, absl::StrCat("(", TypeKindName(type.kind).data(), ") has ", children,
                                            " subtypes, a scalar has none"));
      }
  }
  for (size_t i = 1; i < children; ++i) {
    if (type.subtypes[i] <= type.subtypes[i - 1]) {
      return BadType(column, "lists its subtypes out of increasing order");
    }
  }
  return absl::OkStatus();
}

void Flatten(const OrcTypeNode& node, std::vector<OrcType>* types) {
  const size_t id = types->size();
  types->push_back({.kind = node.kind,
                    .subtypes = {},
                    .field_names = node.field_names,
                    .maximum_length = node.maximum_length,
                    .precision = node.precision,
                    .scale = node.scale,
                    .attributes = node.attributes});
  for (const OrcTypeNode& child : node.children) {
    const uint32_t child_id = static_cast<uint32_t>(types->size());
    (*types)[id].subtypes.push_back(child_id);
    Flatten(child, types);
  }
}

}  // namespace

absl::Status ValidateTypeTree(absl::Span<const OrcType> types) {
  if (types.empty()) return absl::DataLossError("ORC type tree: the footer has no types");
  if (types.size() > std::numeric_limits<uint32_t>::max()) {
    return absl::DataLossError("ORC type tree: more columns than 32-bit ids can name");
  }
  const uint32_t count = static_cast<uint32_t>(types.size());
  // A pre-order walk from the root, which must meet the columns exactly in id order: that one
  // condition rules out cycles, shared children, subtrees out of order and unreachable types.
  // Every column is visited at most once, so the stack never holds more entries than the
  // footer lists subtypes.
  std::vector<uint32_t> to_visit = {0};
  uint32_t next_id = 0;
  while (!to_visit.empty()) {
    const uint32_t column = to_visit.back();
    to_visit.pop_back();
    if (column != next_id) {
      return BadType(column,
                     absl::StrCat("is reached where a pre-order walk expects column ", next_id));
    }
    ++next_id;
    const OrcType& type = types[column];
    PQPAGE_RETURN_IF_ERROR(CheckColumnShape(type, column));
    for (auto child = type.subtypes.rbegin(); child != type.subtypes.rend(); ++child) {
      if (*child >= count) {
        return BadType(column,
                       absl::StrCat("names subtype ", *child, ", past the ", count, " columns"));
      }
      to_visit.push_back(*child);
    }
  }
  if (next_id != count) {
    return BadType(next_id, "is not reachable from the root");
  }
  return absl::OkStatus();
}

uint32_t SubtreeEnd(absl::Span<const OrcType> types, uint32_t column) {
  // In pre-order the subtree ends where its last child's subtree does.
  while (!types[column].subtypes.empty()) column = types[column].subtypes.back();
  return column + 1;
}

absl::StatusOr<std::vector<OrcType>> FlattenTypeTree(const OrcTypeNode& root) {
  std::vector<OrcType> types;
  Flatten(root, &types);
  absl::Status valid = ValidateTypeTree(types);
  if (!valid.ok()) return absl::InvalidArgumentError(valid.message());
  return types;
}

std::string_view TypeKindName(TypeKind kind) {
  static constexpr std::string_view kNames[kNumTypeKinds] = {
      "BOOLEAN",          "BYTE",   "SHORT",   "INT",       "LONG",    "FLOAT",
      "DOUBLE",           "STRING", "BINARY",  "TIMESTAMP", "LIST",    "MAP",
      "STRUCT",           "UNION",  "DECIMAL", "DATE",      "VARCHAR", "CHAR",
      "TIMESTAMP_INSTANT"};
  const int index = static_cast<int>(kind);
  return index < kNumTypeKinds ? kNames[index] : "UNKNOWN";
}

std::string_view StreamKindName(StreamKind kind) {
  switch (kind) {
    case StreamKind::kPresent:
      return "PRESENT";
    case StreamKind::kData:
      return "DATA";
    case StreamKind::kLength:
      return "LENGTH";
    case StreamKind::kDictionaryData:
      return "DICTIONARY_DATA";
    case StreamKind::kDictionaryCount:
      return "DICTIONARY_COUNT";
    case StreamKind::kSecondary:
      return "SECONDARY";
    case StreamKind::kRowIndex:
      return "ROW_INDEX";
    case StreamKind::kBloomFilter:
      return "BLOOM_FILTER";
    case StreamKind::kBloomFilterUtf8:
      return "BLOOM_FILTER_UTF8";
    case StreamKind::kEncryptedIndex:
      return "ENCRYPTED_INDEX";
    case StreamKind::kEncryptedData:
      return "ENCRYPTED_DATA";
    case StreamKind::kStripeStatistics:
      return "STRIPE_STATISTICS";
    case StreamKind::kFileStatistics:
      return "FILE_STATISTICS";
  }
  return "UNKNOWN";
}

std::string_view ColumnEncodingKindName(ColumnEncodingKind kind) {
  switch (kind) {
    case ColumnEncodingKind::kDirect:
      return "DIRECT";
    case ColumnEncodingKind::kDictionary:
      return "DICTIONARY";
    case ColumnEncodingKind::kDirectV2:
      return "DIRECT_V2";
    case ColumnEncodingKind::kDictionaryV2:
      return "DICTIONARY_V2";
  }
  return "UNKNOWN";
}

std::string_view EncryptionAlgorithmName(uint32_t algorithm) {
  switch (algorithm) {
    case 1:
      return "AES_CTR_128";
    case 2:
      return "AES_CTR_256";
    default:
      return "UNKNOWN";
  }
}

std::string_view KeyProviderName(uint32_t provider) {
  static constexpr std::string_view kNames[] = {"UNKNOWN", "HADOOP", "AWS", "GCP", "AZURE"};
  return provider < std::size(kNames) ? kNames[provider] : "UNKNOWN";
}

}  // namespace pqpage::orc
