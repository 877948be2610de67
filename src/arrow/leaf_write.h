// A leaf column's values, found by shredding (arrow/shred.h), converted to the page builder's
// value types and written with their levels: straight from the Arrow buffers where the types
// agree, byte arrays as views into them; a dictionary array as indices into its converted
// dictionary, through the page builder's dictionary-indexed path.
#ifndef PQPAGE_SRC_ARROW_LEAF_WRITE_H_
#define PQPAGE_SRC_ARROW_LEAF_WRITE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "arrow/shred.h"
#include "arrow/write_field.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/types.h"

namespace pqpage::arrow_internal {

// One leaf column's conversion buffers, kept from batch to batch.
class LeafWriter {
 public:
  explicit LeafWriter(const WriteNode& node);
  ~LeafWriter();
  LeafWriter(LeafWriter&&) noexcept;
  LeafWriter& operator=(LeafWriter&&) noexcept;

  // Writes `shredded` (this leaf's share of a batch) to `writer`.
  // @return OK; InvalidArgument naming the field for values the Arrow format does not allow
  // (string offsets that decrease, a view into a buffer that is not there, a dictionary index
  // outside the dictionary) or that have no Parquet value (seconds that overflow as
  // milliseconds); the writer's errors.
  absl::Status Write(const ShreddedLeaf& shredded, ColumnChunkWriter& writer);

 private:
  struct Buffers;
  const WriteNode* node_;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_LEAF_WRITE_H_
