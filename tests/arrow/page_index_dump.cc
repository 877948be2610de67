// Prints every page index of a file (ColumnIndex and OffsetIndex of each column chunk) in one
// canonical text form, as Arrow C++ reads it (PQPAGE_DUMP_SIDE_ARROW: pyarrow's libparquet) or as
// pqpage reads it (PQPAGE_DUMP_SIDE_PQPAGE: FileReader::ReadPageIndex). Two binaries, because
// pyarrow's libparquet exports the symbols of the Thrift it bundles, which must not meet
// Debian's inside pqpage. tests/arrow/page_index_arrow_test.py diffs the two outputs.
//
// Usage: page_index_dump_{arrow,pqpage} FILE. Exit 1 (with the reason on stderr) when the file
// or an index cannot be read.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#ifdef PQPAGE_DUMP_SIDE_ARROW
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/page_index.h>
#endif
#ifdef PQPAGE_DUMP_SIDE_PQPAGE
#include "pqpage/file.h"
#endif

namespace {

std::string Hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out.empty() ? "''" : out;
}

std::string Counts(const std::vector<int64_t>& counts) {
  if (counts.empty()) return "-";
  std::string out;
  for (const int64_t count : counts) out += (out.empty() ? "" : ",") + std::to_string(count);
  return out;
}

// One chunk's index, filled by either side and printed the same way.
struct Dumped {
  bool offset_index = false;
  std::vector<int64_t> offsets, sizes, first_rows, byte_array_bytes;
  bool column_index = false;
  int boundary_order = 0;
  std::vector<bool> null_pages;
  std::vector<std::string> mins, maxes;
  bool has_null_counts = false;
  std::vector<int64_t> null_counts, definition_histograms, repetition_histograms;

  void Print(int row_group, int column) const {
    std::printf("row group %d column %d\n", row_group, column);
    if (offset_index) {
      std::printf("  offset index: %zu pages, byte array bytes %s\n", offsets.size(),
                  Counts(byte_array_bytes).c_str());
      for (size_t i = 0; i < offsets.size(); ++i) {
        std::printf("    page %zu at %lld, %lld bytes, first row %lld\n", i,
                    static_cast<long long>(offsets[i]), static_cast<long long>(sizes[i]),
                    static_cast<long long>(first_rows[i]));
      }
    }
    if (column_index) {
      std::printf("  column index: %zu pages, boundary order %d, null counts %s\n",
                  null_pages.size(), boundary_order,
                  has_null_counts ? Counts(null_counts).c_str() : "absent");
      std::printf("    definition level histograms %s\n", Counts(definition_histograms).c_str());
      std::printf("    repetition level histograms %s\n", Counts(repetition_histograms).c_str());
      for (size_t i = 0; i < null_pages.size(); ++i) {
        if (null_pages[i]) {
          std::printf("    page %zu null\n", i);
        } else {
          std::printf("    page %zu min %s max %s\n", i, Hex(mins[i]).c_str(),
                      Hex(maxes[i]).c_str());
        }
      }
    }
  }
};

#ifdef PQPAGE_DUMP_SIDE_ARROW
int Dump(const char* path) {
  try {
    std::unique_ptr<parquet::ParquetFileReader> file = parquet::ParquetFileReader::OpenFile(path);
    std::shared_ptr<parquet::FileMetaData> metadata = file->metadata();
    std::shared_ptr<parquet::PageIndexReader> index = file->GetPageIndexReader();
    for (int rg = 0; rg < metadata->num_row_groups(); ++rg) {
      std::shared_ptr<parquet::RowGroupPageIndexReader> group =
          index == nullptr ? nullptr : index->RowGroup(rg);
      for (int c = 0; c < metadata->num_columns(); ++c) {
        Dumped out;
        if (group != nullptr) {
          if (std::shared_ptr<parquet::OffsetIndex> offsets = group->GetOffsetIndex(c)) {
            out.offset_index = true;
            for (const parquet::PageLocation& page : offsets->page_locations()) {
              out.offsets.push_back(page.offset);
              out.sizes.push_back(page.compressed_page_size);
              out.first_rows.push_back(page.first_row_index);
            }
            out.byte_array_bytes = offsets->unencoded_byte_array_data_bytes();
          }
          if (std::shared_ptr<parquet::ColumnIndex> bounds = group->GetColumnIndex(c)) {
            out.column_index = true;
            out.boundary_order = static_cast<int>(bounds->boundary_order());
            out.null_pages = bounds->null_pages();
            out.mins = bounds->encoded_min_values();
            out.maxes = bounds->encoded_max_values();
            out.has_null_counts = bounds->has_null_counts();
            if (out.has_null_counts) out.null_counts = bounds->null_counts();
            if (bounds->has_definition_level_histograms()) {
              out.definition_histograms = bounds->definition_level_histograms();
            }
            if (bounds->has_repetition_level_histograms()) {
              out.repetition_histograms = bounds->repetition_level_histograms();
            }
          }
        }
        out.Print(rg, c);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "page_index_dump_arrow: %s: %s\n", path, e.what());
    return 1;
  }
  return 0;
}
#endif

#ifdef PQPAGE_DUMP_SIDE_PQPAGE
int Dump(const char* path) {
  auto file = pqpage::FileReader::Open(path);
  if (!file.ok()) {
    std::fprintf(stderr, "page_index_dump_pqpage: %s\n", file.status().ToString().c_str());
    return 1;
  }
  const int columns = static_cast<int>((*file)->schema().columns().size());
  for (int rg = 0; rg < (*file)->num_row_groups(); ++rg) {
    for (int c = 0; c < columns; ++c) {
      auto index = (*file)->ReadPageIndex(rg, c);
      if (!index.ok()) {
        std::fprintf(stderr, "page_index_dump_pqpage: %s\n", index.status().ToString().c_str());
        return 1;
      }
      Dumped out;
      if (*index) {
        const pqpage::ChunkPageIndex& chunk = **index;
        out.offset_index = chunk.has_offset_index;
        out.column_index = chunk.has_column_index;
        out.boundary_order = static_cast<int>(chunk.boundary_order);
        out.has_null_counts = chunk.has_column_index;
        for (const pqpage::IndexedPage& page : chunk.pages) {
          if (chunk.has_offset_index) {
            out.offsets.push_back(page.offset);
            out.sizes.push_back(page.compressed_page_size);
            out.first_rows.push_back(page.first_row_index);
            if (page.unencoded_byte_array_data_bytes) {
              out.byte_array_bytes.push_back(*page.unencoded_byte_array_data_bytes);
            }
          }
          if (chunk.has_column_index) {
            out.null_pages.push_back(page.null_page);
            out.mins.push_back(page.min_value);
            out.maxes.push_back(page.max_value);
            if (page.null_count) {
              out.null_counts.push_back(*page.null_count);
            } else {
              out.has_null_counts = false;
            }
            out.definition_histograms.insert(out.definition_histograms.end(),
                                             page.definition_level_histogram.begin(),
                                             page.definition_level_histogram.end());
            out.repetition_histograms.insert(out.repetition_histograms.end(),
                                             page.repetition_level_histogram.begin(),
                                             page.repetition_level_histogram.end());
          }
        }
        if (!out.has_null_counts) out.null_counts.clear();
      }
      out.Print(rg, c);
    }
  }
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  return Dump(argv[1]);
}
