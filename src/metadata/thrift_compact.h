// Reading and writing Parquet's Thrift structures (page headers, the footer) in the compact
// protocol, with the exceptions of Thrift's C++ library turned into absl::Status and every
// length in the input bounded, so that a hostile header is an error and never a large allocation.
#ifndef PQPAGE_METADATA_THRIFT_COMPACT_H_
#define PQPAGE_METADATA_THRIFT_COMPACT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pqpage::internal {

struct ThriftLimits {
  // The longest string or binary field accepted (statistics, key-value metadata). It is further
  // bounded by the bytes actually present.
  int32_t max_string_bytes = 64 << 20;
  // The most entries of one list (columns, row groups, schema elements).
  int32_t max_container_entries = 1 << 20;
};

// Reads one `T` from the front of `bytes` and returns how many bytes it took. DataLoss when the
// bytes are empty, truncated, malformed, nest deeper than Thrift's recursion limit, or a required
// field is missing; unknown fields are skipped. T is a generated class in namespace pqpage::format.
template <typename T>
absl::StatusOr<size_t> DeserializeCompact(absl::Span<const uint8_t> bytes, T* out,
                                          const ThriftLimits& limits = {});

// Appends the compact serialisation of `value` to `out`. Internal for a structure missing a
// required field (a caller's bug).
template <typename T>
absl::Status SerializeCompact(const T& value, std::vector<uint8_t>* out);

}  // namespace pqpage::internal

#endif  // PQPAGE_METADATA_THRIFT_COMPACT_H_
