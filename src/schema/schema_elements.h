// The bridge between a Schema and the footer's flat list of Thrift SchemaElements, for the file
// layer (which reads the list from footers and writes it back) and for tests. Installed users see
// the list as FileMetaData::schema instead (pqpage/metadata.h).
#ifndef PQPAGE_SCHEMA_SCHEMA_ELEMENTS_H_
#define PQPAGE_SCHEMA_SCHEMA_ELEMENTS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "parquet_types.h"
#include "pqpage/schema.h"

namespace pqpage::internal {

struct SchemaElements {
  // Builds the tree from a footer's element list (element 0 is the root) and derives the leaves.
  // DataLoss for the malformed lists schema.h describes.
  static absl::StatusOr<Schema> ToSchema(const std::vector<format::SchemaElement>& elements);
  // The element list a footer stores for `schema`.
  static const std::vector<format::SchemaElement>& Of(const Schema& schema);
};

}  // namespace pqpage::internal

#endif  // PQPAGE_SCHEMA_SCHEMA_ELEMENTS_H_
