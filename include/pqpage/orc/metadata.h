// An ORC file's metadata in pqpage's own plain types: the schema (the footer's flattened type
// tree, with each type's attributes), the stripes, each stripe footer's stream directory and
// column encodings, and the column encryption the footer describes. The protocol buffer messages
// they are read from stay inside the library; readers and writers of ORC files (pqpage/orc/file.h,
// pqpage/orc/file_writer.h) speak these structs. Also the checks and helpers of the type tree,
// which a reader cannot trust since it comes from the file.
//
// Errors: DataLoss for a type tree that breaks the spec's rules (ValidateTypeTree lists them);
// InvalidArgument for a schema tree a writer was given that cannot be flattened.
#ifndef PQPAGE_ORC_METADATA_H_
#define PQPAGE_ORC_METADATA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pqpage::orc {

// Type.Kind; the values are the spec's.
enum class TypeKind : uint8_t {
  kBoolean = 0,
  kByte = 1,
  kShort = 2,
  kInt = 3,
  kLong = 4,
  kFloat = 5,
  kDouble = 6,
  kString = 7,
  kBinary = 8,
  kTimestamp = 9,
  kList = 10,
  kMap = 11,
  kStruct = 12,
  kUnion = 13,
  kDecimal = 14,
  kDate = 15,
  kVarchar = 16,
  kChar = 17,
  kTimestampInstant = 18,
};
inline constexpr int kNumTypeKinds = 19;

// The spec's name ("BOOLEAN", "TIMESTAMP_INSTANT"); "UNKNOWN" outside the list.
std::string_view TypeKindName(TypeKind kind);

// A key/value pair of a type's attributes (Type.attributes): what other systems annotate a column
// with, e.g. Iceberg's "iceberg.id" and "iceberg.required", Spark's "spark.sql.catalyst.type" or
// column encryption's "encrypt" and "mask". ORC itself gives them no meaning.
struct TypeAttribute {
  std::string key;
  std::string value;

  friend bool operator==(const TypeAttribute&, const TypeAttribute&) = default;
};

// One column of the flattened type tree: the tree in pre-order, the root at id 0, each compound
// type naming its children's ids in `subtypes`.
struct OrcType {
  TypeKind kind = TypeKind::kStruct;
  std::vector<uint32_t> subtypes;          // LIST: 1, MAP: 2 (key, value), STRUCT, UNION: any
  std::vector<std::string> field_names;    // STRUCT: one per subtype
  std::optional<uint32_t> maximum_length;  // VARCHAR, CHAR
  std::optional<uint32_t> precision;       // DECIMAL
  std::optional<uint32_t> scale;           // DECIMAL
  std::vector<TypeAttribute> attributes;   // in the footer's order

  friend bool operator==(const OrcType&, const OrcType&) = default;
};

// Checks the rules a footer's type list must keep before anything is indexed by it: at least
// one type; every kind one of the spec's; subtype ids increasing, in range and each naming the
// next column of a pre-order walk (so every column but the root has exactly one parent and the
// list holds no cycle and no unreachable type); LIST with 1 subtype, MAP with 2, UNION with 1 to
// 256, STRUCT with as many field names as subtypes, other kinds with none.
// Errors: DataLoss naming the first column that breaks a rule.
absl::Status ValidateTypeTree(absl::Span<const OrcType> types);

// One past the last column id of `column`'s subtree: the subtree is [column, SubtreeEnd), since
// the tree is flattened in pre-order. `types` must have passed ValidateTypeTree and `column` be
// one of its ids.
uint32_t SubtreeEnd(absl::Span<const OrcType> types, uint32_t column);

// A schema as a tree, the form a writer's caller thinks in; FlattenTypeTree gives the column list.
struct OrcTypeNode {
  TypeKind kind = TypeKind::kStruct;
  // STRUCT: the fields; LIST: the element; MAP: key then value; UNION: the variants.
  std::vector<OrcTypeNode> children;
  std::vector<std::string> field_names;  // STRUCT: one per child
  std::optional<uint32_t> maximum_length;
  std::optional<uint32_t> precision;
  std::optional<uint32_t> scale;
  std::vector<TypeAttribute> attributes;
};

// The flattened pre-order column list of `root` (the root is column 0).
// Errors: InvalidArgument when the result breaks a ValidateTypeTree rule (a MAP without exactly
// two children, a scalar with children...).
absl::StatusOr<std::vector<OrcType>> FlattenTypeTree(const OrcTypeNode& root);

// StripeInformation: where a stripe lies. The stripe is [offset, offset + index_length +
// data_length + footer_length): its index streams, its data streams, then its footer.
struct StripeInfo {
  uint64_t offset = 0;
  uint64_t index_length = 0;
  uint64_t data_length = 0;
  uint64_t footer_length = 0;
  uint64_t num_rows = 0;

  friend bool operator==(const StripeInfo&, const StripeInfo&) = default;
};

// Stream.Kind; the values are the spec's.
enum class StreamKind : uint32_t {
  kPresent = 0,
  kData = 1,
  kLength = 2,
  kDictionaryData = 3,
  kDictionaryCount = 4,  // deprecated before Hive 0.11
  kSecondary = 5,
  kRowIndex = 6,
  kBloomFilter = 7,
  kBloomFilterUtf8 = 8,
  kEncryptedIndex = 9,  // virtual: the space of the encrypted index streams
  kEncryptedData = 10,  // virtual: the space of the encrypted data streams
  kStripeStatistics = 100,
  kFileStatistics = 101,
};

// The spec's name ("PRESENT", "DICTIONARY_DATA"); "UNKNOWN" outside the list.
std::string_view StreamKindName(StreamKind kind);

// One entry of a stripe footer's stream directory.
struct StreamInfo {
  StreamKind kind = StreamKind::kData;
  uint32_t column = 0;
  // Where the stream's stored bytes lie in the file: the stripe's offset plus the lengths of the
  // streams listed before it (the stripe footer stores no offsets).
  uint64_t file_offset = 0;
  uint64_t length = 0;  // stored (compressed) bytes

  friend bool operator==(const StreamInfo&, const StreamInfo&) = default;
};

// ColumnEncoding.Kind; the values are the spec's.
enum class ColumnEncodingKind : uint8_t {
  kDirect = 0,        // integers in RLE v1
  kDictionary = 1,    // RLE v1
  kDirectV2 = 2,      // integers in RLE v2
  kDictionaryV2 = 3,  // RLE v2
};

// The spec's name ("DIRECT_V2"); "UNKNOWN" outside the list.
std::string_view ColumnEncodingKindName(ColumnEncodingKind kind);

struct ColumnEncodingInfo {
  ColumnEncodingKind kind = ColumnEncodingKind::kDirect;
  uint32_t dictionary_size = 0;  // the dictionary encodings' entry count

  friend bool operator==(const ColumnEncodingInfo&, const ColumnEncodingInfo&) = default;
};

// A stream of an encryption variant in a stripe: it lies, encrypted (its chunk headers too), in
// the space of the stripe's virtual ENCRYPTED_INDEX or ENCRYPTED_DATA stream.
struct EncryptedStreamInfo {
  StreamKind kind = StreamKind::kData;
  uint32_t column = 0;
  uint64_t length = 0;
};

// A stripe footer: the streams in file order and one encoding per column. In a file with column
// encryption, `streams` holds the unencrypted columns and the masked values of the encrypted
// ones (what readers without keys read), and each variant's own streams are listed apart.
struct StripeFooterInfo {
  std::vector<StreamInfo> streams;
  std::vector<ColumnEncodingInfo> encodings;
  std::optional<std::string> writer_timezone;
  std::vector<std::vector<EncryptedStreamInfo>> encrypted_streams;  // one list per variant
};

// Column encryption, from the footer (the ORC spec's Encryption message). pqpage holds no keys:
// these say which columns are encrypted and how readers without keys see them.
struct DataMaskInfo {
  std::string name;  // "nullify", "redact", "sha256" or a third party's
  std::vector<std::string> parameters;
  std::vector<uint32_t> columns;  // the unencrypted column roots it was applied to
};
struct EncryptionKeyInfo {
  std::string name;
  uint32_t version = 0;
  uint32_t algorithm = 0;  // 1 AES_CTR_128, 2 AES_CTR_256, 0 unknown
};
struct EncryptionVariantInfo {
  uint32_t root = 0;  // the column whose subtree is encrypted
  uint32_t key = 0;   // an index into EncryptionInfo::keys
};
struct EncryptionInfo {
  std::vector<DataMaskInfo> masks;
  std::vector<EncryptionKeyInfo> keys;
  std::vector<EncryptionVariantInfo> variants;
  uint32_t key_provider = 0;  // 1 Hadoop, 2 AWS, 3 GCP, 4 Azure, 0 unknown
};

// The spec's names ("AES_CTR_128"; "HADOOP"); "UNKNOWN" outside the lists.
std::string_view EncryptionAlgorithmName(uint32_t algorithm);
std::string_view KeyProviderName(uint32_t provider);

// UserMetadataItem: the user's key (a string) and value (any bytes).
struct UserMetadataItem {
  std::string name;
  std::string value;

  friend bool operator==(const UserMetadataItem&, const UserMetadataItem&) = default;
};

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_METADATA_H_
