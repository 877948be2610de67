// The footer's Thrift structures converted to pqpage's public plain types (pqpage/metadata.h) and
// back, in one place, so FileReader::metadata() and every tool see the same copy of what the file
// said, and FileWriter stores what ColumnChunkWriter described in the same terms.
#ifndef PQPAGE_METADATA_FOOTER_METADATA_H_
#define PQPAGE_METADATA_FOOTER_METADATA_H_

#include <string>
#include <vector>

#include "parquet_types.h"
#include "pqpage/metadata.h"

namespace pqpage::internal {

// A field-for-field copy; optional Thrift fields that are not set stay std::nullopt. It cannot
// fail: ids are copied as they are, known or not.
FileMetaData FileMetaDataFromThrift(const format::FileMetaData& footer);
SchemaElement SchemaElementFromThrift(const format::SchemaElement& element);
ColumnMetaData ColumnMetaDataFromThrift(const format::ColumnMetaData& meta);
// How a file is encrypted, from its algorithm and the footer key's metadata.
FileMetaData::Encryption EncryptionFromThrift(const format::EncryptionAlgorithm& algorithm,
                                              const std::string& footer_key_metadata,
                                              bool encrypted_footer);

// The way back, for a writer: fields that are std::nullopt (or empty lists of optional fields)
// are left unset.
format::ColumnMetaData ColumnMetaDataToThrift(const ColumnMetaData& meta);
std::vector<format::KeyValue> KeyValuesToThrift(const std::vector<KeyValue>& pairs);

// The logical type as SchemaElement::logical_type spells it.
std::string LogicalTypeText(const format::LogicalType& logical);

}  // namespace pqpage::internal

#endif  // PQPAGE_METADATA_FOOTER_METADATA_H_
