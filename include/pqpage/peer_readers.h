// What the other Parquet readers pqpage promises files to (pyarrow, DuckDB, polars) refuse of the
// encodings pqpage writes, by column: physical type, logical type and data page version. The
// knowledge comes from the interop suite's logical type matrix (tests/interop/
// logical_type_matrix.json: a file per physical type x logical type x nesting x page version x
// encoding, read by each peer), which logical_type_matrix_test checks against the peers and
// against this function. AutoEncodings::kInteroperable offers only what no peer refuses, and
// `pqpage advise` shows who refuses each candidate.
#ifndef PQPAGE_PEER_READERS_H_
#define PQPAGE_PEER_READERS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "pqpage/column_descriptor.h"
#include "pqpage/types.h"

namespace pqpage {

enum class PeerReader : int8_t { kPyarrow, kDuckdb, kPolars };

// "pyarrow", "duckdb", "polars".
std::string_view PeerReaderName(PeerReader peer);

// The peers that fail on (or misread) `column`'s values stored in `encoding` in data pages of
// `data_page_version` (1 or 2), in PeerReader order; empty when they all read them. A peer that
// reads the column's type in no encoding at all (DuckDB: BSON; polars: INTERVAL) is not listed:
// no choice of encoding would help it. An encoding the format does not allow for the physical
// type (pqpage/codec.h EncodingAllowed), or one pqpage does not write, is refused by every peer.
std::vector<PeerReader> PeersRefusing(Encoding encoding, const ColumnDescriptor& column,
                                      int data_page_version);

// The value encodings pqpage writes for `type`, in the order auto weighs them: PLAIN,
// RLE_DICTIONARY (not for BOOLEAN), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
// DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and RLE, each where the format allows it for the type.
std::vector<Encoding> WrittenValueEncodings(PhysicalType type);

// Whether AutoEncodings::kInteroperable offers `encoding` for `column`: no peer refuses it, and it
// is not RLE for BOOLEAN in data page v1. The three peers read those too, but other readers do
// not (fastparquet 2026.9 decodes them into other values), so auto keeps RLE booleans to v2 pages
// as it always has.
bool InteroperableEncoding(Encoding encoding, const ColumnDescriptor& column,
                           int data_page_version);

}  // namespace pqpage

#endif  // PQPAGE_PEER_READERS_H_
