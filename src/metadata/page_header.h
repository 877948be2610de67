// Conversions between the format's Thrift page structures and pqpage's public PageInfo and
// Statistics, shared by the page decoder (which reads headers), the page builder (which writes
// them) and the file writer (chunk statistics), so that all agree on every field.
#ifndef PQPAGE_METADATA_PAGE_HEADER_H_
#define PQPAGE_METADATA_PAGE_HEADER_H_

#include "absl/status/statusor.h"
#include "parquet_types.h"
#include "pqpage/page.h"

namespace pqpage::internal {

// Fills the header-derived fields of a PageInfo (offset, header size and CRC outcome are the
// caller's). `codec_compresses` says whether the chunk's codec is not UNCOMPRESSED. DataLoss for
// negative sizes or counts, a data or dictionary page without its sub-header, level byte lengths
// that do not fit the page, and an encoding id the format does not define.
absl::StatusOr<PageInfo> PageInfoFromHeader(const format::PageHeader& header,
                                            bool codec_compresses);

Statistics StatisticsFromThrift(const format::Statistics& statistics);
format::Statistics StatisticsToThrift(const Statistics& statistics);

}  // namespace pqpage::internal

#endif  // PQPAGE_METADATA_PAGE_HEADER_H_
