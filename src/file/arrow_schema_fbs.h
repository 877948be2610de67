// The numbers of Arrow's Message.fbs and Schema.fbs that the ARROW:schema parser
// (stored_arrow_schema.cc) and serializer (stored_arrow_schema_write.cc) share: the field ids of
// the tables they read and write (a union takes two: its type and its value) and the ordinals of
// the Type union's members.
#ifndef PQPAGE_FILE_ARROW_SCHEMA_FBS_H_
#define PQPAGE_FILE_ARROW_SCHEMA_FBS_H_

#include <cstdint>

namespace pqpage::arrow_fbs {

constexpr int kMessageVersion = 0;
constexpr int kMessageHeaderType = 1;
constexpr int kMessageHeader = 2;
constexpr int kMessageBodyLength = 3;
constexpr uint8_t kHeaderIsSchema = 1;
constexpr int kSchemaEndianness = 0;
constexpr int kSchemaFields = 1;
constexpr int kSchemaCustomMetadata = 2;
constexpr int kFieldName = 0;
constexpr int kFieldNullable = 1;
constexpr int kFieldTypeType = 2;
constexpr int kFieldType = 3;
constexpr int kFieldDictionary = 4;
constexpr int kFieldChildren = 5;
constexpr int kFieldCustomMetadata = 6;
constexpr int kKeyValueKey = 0;
constexpr int kKeyValueValue = 1;
constexpr int kDictionaryId = 0;
constexpr int kDictionaryIndexType = 1;
constexpr int kDictionaryIsOrdered = 2;
constexpr int kTimestampTimezone = 1;
constexpr int kUnionTypeIds = 1;
// Nesting either side accepts.
constexpr int kMaxDepth = 64;

// The members of Schema.fbs's Type union, by their ordinals (0 is NONE).
enum class TypeId : uint8_t {
  kNull = 1,
  kInt = 2,
  kFloatingPoint = 3,
  kBinary = 4,
  kUtf8 = 5,
  kBool = 6,
  kDecimal = 7,
  kDate = 8,
  kTime = 9,
  kTimestamp = 10,
  kInterval = 11,
  kList = 12,
  kStruct = 13,
  kUnion = 14,
  kFixedSizeBinary = 15,
  kFixedSizeList = 16,
  kMap = 17,
  kDuration = 18,
  kLargeBinary = 19,
  kLargeUtf8 = 20,
  kLargeList = 21,
  kRunEndEncoded = 22,
  kBinaryView = 23,
  kUtf8View = 24,
  kListView = 25,
  kLargeListView = 26,
};

}  // namespace pqpage::arrow_fbs

#endif  // PQPAGE_FILE_ARROW_SCHEMA_FBS_H_
