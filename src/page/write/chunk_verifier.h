// WriterOptions::verify_pages: the page builder keeps a copy of every level and value it was given
// (in this debug mode only, which is why the "never the chunk's raw values" rule does not hold
// then) and, once the chunk is finished, reads it back with pqpage's own ColumnChunkReader and
// compares. A difference is a pqpage bug and is reported as Internal.
#ifndef PQPAGE_PAGE_WRITE_CHUNK_VERIFIER_H_
#define PQPAGE_PAGE_WRITE_CHUNK_VERIFIER_H_

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/column_chunk_writer.h"

namespace pqpage::internal {

template <typename T>
class ChunkVerifier {
 public:
  explicit ChunkVerifier(const ColumnDescriptor& column) : column_(column) {}

  // Records a batch exactly as WriteBatch accepted it.
  void Record(absl::Span<const int16_t> definition_levels,
              absl::Span<const int16_t> repetition_levels, absl::Span<const T> values);

  // Decodes `chunk` and compares it with what was recorded.
  absl::Status Verify(const ColumnChunkData& chunk) const;

 private:
  // Booleans as bytes (std::vector<bool> has no data()); byte arrays as owned strings.
  using Stored =
      std::conditional_t<std::is_same_v<T, bool>, uint8_t,
                         std::conditional_t<std::is_same_v<T, ByteArray>, std::string, T>>;

  ColumnDescriptor column_;
  std::vector<int16_t> definition_levels_;
  std::vector<int16_t> repetition_levels_;
  int64_t num_levels_ = 0;
  std::vector<Stored> values_;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_CHUNK_VERIFIER_H_
