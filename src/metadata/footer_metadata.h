// The footer's Thrift structures converted to pqpage's public plain types (pqpage/metadata.h), in
// one place, so FileReader::metadata() and every tool see the same copy of what the file said.
#ifndef PQPAGE_METADATA_FOOTER_METADATA_H_
#define PQPAGE_METADATA_FOOTER_METADATA_H_

#include "parquet_types.h"
#include "pqpage/metadata.h"

namespace pqpage::internal {

// A field-for-field copy; optional Thrift fields that are not set stay std::nullopt. It cannot
// fail: ids are copied as they are, known or not.
FileMetadata FileMetadataFromThrift(const format::FileMetaData& footer);
SchemaNode SchemaNodeFromThrift(const format::SchemaElement& element);

// The logical type as SchemaNode::logical_type spells it.
std::string LogicalTypeText(const format::LogicalType& logical);

}  // namespace pqpage::internal

#endif  // PQPAGE_METADATA_FOOTER_METADATA_H_
