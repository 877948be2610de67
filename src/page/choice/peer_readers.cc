#include "pqpage/peer_readers.h"

#include <vector>

#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"

namespace pqpage {

std::string_view PeerReaderName(PeerReader peer) {
  switch (peer) {
    case PeerReader::kPyarrow:
      return "pyarrow";
    case PeerReader::kDuckdb:
      return "duckdb";
    case PeerReader::kPolars:
      return "polars";
  }
  return "unknown";
}

std::vector<PeerReader> PeersRefusing(Encoding encoding, const ColumnDescriptor& column,
                                      int data_page_version) {
  (void)data_page_version;  // the matrix shows no peer telling v1 and v2 pages apart
  std::vector<PeerReader> everyone = {PeerReader::kPyarrow, PeerReader::kDuckdb,
                                      PeerReader::kPolars};
  if (!EncodingAllowed(encoding, column.type)) return everyone;
  const LogicalKind kind = column.logical_type.kind;
  std::vector<PeerReader> refusing;
  switch (encoding) {
    case Encoding::kPlain:
    case Encoding::kRleDictionary:
    case Encoding::kDeltaBinaryPacked:
    case Encoding::kRle:
      break;
    case Encoding::kDeltaLengthByteArray:
      // DuckDB reads BYTE_ARRAY decimals with its decimal reader, which takes PLAIN, the
      // dictionary and DELTA_BYTE_ARRAY but not this ("only supported for string/blob data").
      if (kind == LogicalKind::kDecimal) refusing.push_back(PeerReader::kDuckdb);
      break;
    case Encoding::kDeltaByteArray:
      // polars decodes DELTA_BYTE_ARRAY only into variable-length binary (an INTERVAL it reads
      // in no encoding at all, so it is not counted as refusing one).
      if (column.type == PhysicalType::kFixedLenByteArray && kind != LogicalKind::kInterval) {
        refusing.push_back(PeerReader::kPolars);
      }
      break;
    case Encoding::kByteStreamSplit:
      // DuckDB splits only FLOAT, DOUBLE, INT32 and INT64; polars, of fixed-length values, only
      // FLOAT16's.
      if (column.type == PhysicalType::kFixedLenByteArray) {
        refusing.push_back(PeerReader::kDuckdb);
        if (kind != LogicalKind::kFloat16 && kind != LogicalKind::kInterval) {
          refusing.push_back(PeerReader::kPolars);
        }
      }
      break;
    default:
      return everyone;  // encodings pqpage does not write
  }
  return refusing;
}

std::vector<Encoding> WrittenValueEncodings(PhysicalType type) {
  std::vector<Encoding> out;
  for (Encoding encoding :
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaBinaryPacked,
        Encoding::kDeltaLengthByteArray, Encoding::kDeltaByteArray, Encoding::kByteStreamSplit,
        Encoding::kRle}) {
    if (EncodingAllowed(encoding, type)) out.push_back(encoding);
  }
  return out;
}

bool InteroperableEncoding(Encoding encoding, const ColumnDescriptor& column,
                           int data_page_version) {
  if (encoding == Encoding::kRle && data_page_version == 1) return false;
  return PeersRefusing(encoding, column, data_page_version).empty();
}

}  // namespace pqpage
