// One leaf column as every codec and page routine sees it: its physical type (with the byte
// length of FIXED_LEN_BYTE_ARRAY values), its logical type (readers pick their decoder by it, so
// it decides which encodings they accept), the maximum definition and repetition levels its pages
// are decoded against, and its path for messages. It depends on nothing above the type
// vocabulary, so the codec factory (pqpage/codec.h) can take it without knowing about schemas.
#ifndef PQPAGE_COLUMN_DESCRIPTOR_H_
#define PQPAGE_COLUMN_DESCRIPTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "pqpage/logical_type.h"
#include "pqpage/types.h"

namespace pqpage {

struct ColumnDescriptor {
  std::vector<std::string> path;  // names from the root's child down to the leaf
  PhysicalType type = PhysicalType::kInt32;
  int type_length = 0;  // FIXED_LEN_BYTE_ARRAY only: bytes per value
  // From the schema (Schema::columns() fills it); kNone where a caller builds a descriptor alone.
  LogicalType logical_type;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;

  // The path joined with '.', as shared/DUMP_FORMAT.md and most tools print it ("a.list.element").
  std::string PathString() const;
};

}  // namespace pqpage

#endif  // PQPAGE_COLUMN_DESCRIPTOR_H_
