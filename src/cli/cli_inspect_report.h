// What `pqpage inspect` learns about one column chunk: its footer entry, every page header the
// page walker finds (CRCs checked, a mismatch only noted), and what decoding the chunk adds (nulls
// and rows of v1 pages, the pages that do not decode). The JSON and table writers print it.
#ifndef PQPAGE_CLI_CLI_INSPECT_REPORT_H_
#define PQPAGE_CLI_CLI_INSPECT_REPORT_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/cli_value_text.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/file.h"
#include "pqpage/metadata.h"
#include "pqpage/page.h"
#include "pqpage/types.h"

namespace pqpage::cli {

struct PageRecord {
  PageInfo info;
  // Levels, nulls and rows counted by decoding (data pages whose levels decoded).
  bool decoded = false;
  int64_t decoded_levels = 0;
  int64_t decoded_nulls = 0;
  int64_t decoded_rows = 0;
  std::string error;  // why this page could not be decoded

  bool is_data_page() const {
    return info.type_id == static_cast<int>(PageType::kDataPage) ||
           info.type_id == static_cast<int>(PageType::kDataPageV2);
  }
  // What the page says or was found to hold; nullopt when neither is known.
  std::optional<int64_t> nulls() const {
    if (info.num_nulls) return *info.num_nulls;
    if (decoded) return decoded_nulls;
    return std::nullopt;
  }
  std::optional<int64_t> rows() const {
    if (info.num_rows) return *info.num_rows;
    if (decoded) return decoded_rows;
    return std::nullopt;
  }
};

struct EncodingCount {
  std::string label;  // "DATA_PAGE/PLAIN"
  std::string page_type;
  std::string encoding;  // empty for pages without one (index pages)
  int64_t count = 0;
};

struct ChunkReport {
  int row_group = 0;
  int column = 0;
  const ColumnDescriptor* descriptor = nullptr;
  const ColumnChunk* footer = nullptr;  // null when the footer has no entry
  std::optional<ColumnChunkLocation> location;
  std::vector<PageRecord> pages;
  std::vector<std::string> errors;  // problems not tied to one listed page
  // The chunk's page index, when its footer entry references one (cli_inspect_page_index.h):
  // as read, or why it could not be; and where it disagrees with `pages`.
  std::optional<ChunkPageIndex> page_index;
  std::string page_index_error;
  std::vector<std::string> page_index_problems;

  int64_t page_problems() const {
    int64_t n = 0;
    for (const PageRecord& page : pages) n += page.error.empty() ? 0 : 1;
    return n;
  }

  // The encoding mix over the chunk's pages, in order of first appearance.
  std::vector<EncodingCount> EncodingMix() const {
    std::vector<EncodingCount> mix;
    for (const PageRecord& page : pages) {
      EncodingCount key;
      key.page_type = PageTypeIdName(page.info.type_id);
      const bool has_encoding =
          page.is_data_page() || page.info.type_id == static_cast<int>(PageType::kDictionaryPage);
      if (has_encoding) key.encoding = Str(EncodingName(page.info.encoding));
      key.label = has_encoding ? absl::StrCat(key.page_type, "/", key.encoding) : key.page_type;
      auto it = std::find_if(mix.begin(), mix.end(),
                             [&](const EncodingCount& e) { return e.label == key.label; });
      if (it == mix.end()) {
        key.count = 1;
        mix.push_back(std::move(key));
      } else {
        ++it->count;
      }
    }
    return mix;
  }

  // A data page encoded with something other than the dictionary after one that used it: the
  // writer's dictionary filled up and the chunk fell back.
  bool DictionaryFallback() const {
    bool seen_dictionary_data = false;
    for (const PageRecord& page : pages) {
      if (!page.is_data_page()) continue;
      const bool dictionary = page.info.encoding == Encoding::kRleDictionary ||
                              page.info.encoding == Encoding::kPlainDictionary;
      if (dictionary) {
        seen_dictionary_data = true;
      } else if (seen_dictionary_data) {
        return true;
      }
    }
    return false;
  }

  std::string EncodingSummary() const {
    std::string out;
    for (const EncodingCount& entry : EncodingMix()) {
      if (!out.empty()) out += ", ";
      absl::StrAppend(&out, entry.label, " x", entry.count);
    }
    if (out.empty()) out = "(no pages)";
    if (DictionaryFallback()) out += " (dictionary fallback)";
    return out;
  }
};

// Everything inspect shows about the chunk (row_group, column) of `file`; problems are recorded
// in the report, never returned.
ChunkReport GatherChunk(const FileReader& file, int row_group, int column);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_INSPECT_REPORT_H_
