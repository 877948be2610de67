// Known bugs of other Parquet writers that a reader has to work around, recognised from the
// footer's created_by ("<application> version <x.y.z> (build <hash>)").
#ifndef PQPAGE_FILE_WRITER_QUIRKS_H_
#define PQPAGE_FILE_WRITER_QUIRKS_H_

#include <string_view>

namespace pqpage::internal {

// parquet-mr up to 1.2.8 left the dictionary page's header out of a column chunk's
// total_compressed_size (PARQUET-816), so a chunk's byte range has to be padded to reach its last
// page. True for those versions and for a parquet-mr created_by without a version.
bool UndercountsDictionaryHeader(std::string_view created_by);

// parquet-mr before 1.8.0 did not reset DELTA_BYTE_ARRAY's previous value between pages
// (PARQUET-246): a page's first prefix may refer to the last value of the page before. True only
// for an explicit parquet-mr version below 1.8.0.
bool CarriesDeltaByteArrayPrefixAcrossPages(std::string_view created_by);

// Impala, parquet-cpp (so Arrow C++ and pyarrow) and parquet-rs packed BIT_PACKED levels least
// significant bit first, as their own readers read them, where the format (and parquet-mr) packs
// them most significant bit first. True for those writers, whatever their version.
bool PacksBitPackedLevelsLsbFirst(std::string_view created_by);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_WRITER_QUIRKS_H_
