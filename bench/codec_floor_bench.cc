// The floor for decompression in a scan (issue 12): how long the codec library alone takes to
// inflate every compressed page of a file, next to pqpage's own DecompressIntoBuffer (what the page
// reader calls) on the same pages. Issue 12's goal is that `pqpage scan` of a compressed file takes
// at most 1.1x this floor longer than the scan of the same data uncompressed;
// bench/tables/codec_floor.py puts the three numbers together.
//
// It also times the other half of a recode's floor: the library compressing every page's
// inflated bytes again with the page's codec at its usual level (library_compress_seconds). Run
// on a file and on its recode, the inflation of the first plus the compression of the second is
// what any re-encoder of those pages must spend in the codec, whatever else it does.
//
// Usage: codec_floor_bench FILE [--repeat N]
//
// Every page's compressed bytes are read into memory first, outside the timings, so only
// inflation is timed. Output: `key: value` lines, for scripts.
#include <lz4.h>
#include <snappy.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "pqpage/compression.h"
#include "pqpage/file.h"
#include "pqpage/page.h"
#include "pqpage/page_header_iterator.h"

namespace {

using pqpage::Compression;

struct Page {
  Compression codec;
  std::vector<uint8_t> input;  // the compressed part of the page, as stored
  size_t expected;             // what it inflates to
};

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "codec_floor_bench: %s\n", message.c_str());
  std::exit(1);
}

void Check(const absl::Status& status, const std::string& what) {
  if (!status.ok()) Die(what + ": " + status.ToString());
}

// Codecs called directly here; the others go through pqpage::Decompress (the output says so):
// the Hadoop LZ4 framing is pqpage's own loop over LZ4 blocks, and gzip and brotli are rare in
// the files issue 12 is judged on.
bool CalledDirectly(Compression codec) {
  return codec == Compression::kSnappy || codec == Compression::kLz4Raw ||
         codec == Compression::kZstd;
}

// The codec library alone, into `out` (at least page.expected bytes). Dies unless the page
// inflates to exactly page.expected bytes.
void LibraryInflate(const Page& page, uint8_t* out, ZSTD_DCtx* zstd) {
  const char* in = reinterpret_cast<const char*>(page.input.data());
  size_t produced = 0;
  switch (page.codec) {
    case Compression::kSnappy:
      // RawUncompress writes as many bytes as the stream states: check that first, as a reader
      // must (an overrun of `out` would go unnoticed).
      if (!snappy::GetUncompressedLength(in, page.input.size(), &produced)) Die("snappy: bad page");
      if (produced != page.expected) break;  // reported below
      if (!snappy::RawUncompress(in, page.input.size(), reinterpret_cast<char*>(out))) {
        Die("snappy: bad page");
      }
      break;
    case Compression::kLz4Raw: {
      const int written =
          LZ4_decompress_safe(in, reinterpret_cast<char*>(out), static_cast<int>(page.input.size()),
                              static_cast<int>(page.expected));
      if (written < 0) Die("lz4: bad page");
      produced = static_cast<size_t>(written);
      break;
    }
    case Compression::kZstd:
      produced =
          ZSTD_decompressDCtx(zstd, out, page.expected, page.input.data(), page.input.size());
      if (ZSTD_isError(produced)) Die(std::string("zstd: ") + ZSTD_getErrorName(produced));
      break;
    default:
      Check(pqpage::Decompress(page.codec, page.input, absl::MakeSpan(out, page.expected)),
            "Decompress");
      produced = page.expected;
  }
  if (produced != page.expected) {
    Die("a page inflated to " + std::to_string(produced) + " bytes, not " +
        std::to_string(page.expected));
  }
}

// Every compressed part of every page of the file, read through the public API.
std::vector<Page> CollectPages(const std::string& path) {
  auto reader = pqpage::FileReader::Open(path);
  Check(reader.status(), path);
  std::vector<Page> pages;
  const auto& columns = (*reader)->schema().columns();
  for (int rg = 0; rg < (*reader)->num_row_groups(); ++rg) {
    for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
      auto location = (*reader)->LocateColumnChunk(rg, c);
      Check(location.status(), path);
      if (location->codec == Compression::kUncompressed) continue;
      pqpage::PageHeaderIterator pages_of_chunk(&(*reader)->source(), *location,
                                                columns[c].PathString());
      for (;;) {
        absl::StatusOr<bool> more = pages_of_chunk.Next();
        Check(more.status(), path);
        if (!*more) break;
        const pqpage::PageInfo& info = pages_of_chunk.page();
        // Dictionary pages and v1 data pages are compressed whole; a v2 data page only after its
        // level sections, and only when its header says so.
        int64_t skip = 0;
        if (info.type == pqpage::PageType::kDataPageV2) {
          if (!info.is_compressed) continue;
          skip = int64_t{info.repetition_levels_byte_length} + info.definition_levels_byte_length;
        } else if (info.type != pqpage::PageType::kDataPage &&
                   info.type != pqpage::PageType::kDictionaryPage) {
          continue;
        }
        if (skip > info.compressed_page_size || skip > info.uncompressed_page_size) {
          Die("level sections longer than the page");
        }
        // An empty compressed part is not decompressed by the page reader either.
        if (info.compressed_page_size == skip) continue;
        std::vector<uint8_t> stored(static_cast<size_t>(info.compressed_page_size));
        Check((*reader)->source().ReadAt(info.offset + info.header_size, absl::MakeSpan(stored)),
              path);
        stored.erase(stored.begin(), stored.begin() + skip);
        pages.push_back(Page{location->codec, std::move(stored),
                             static_cast<size_t>(info.uncompressed_page_size - skip)});
      }
    }
  }
  return pages;
}

// The codec library alone compressing `in` into `out` (at least the codec's bound), at the level
// pqpage writes by default; returns the compressed size.
size_t LibraryDeflate(Compression codec, absl::Span<const uint8_t> in, uint8_t* out,
                      size_t out_size, ZSTD_CCtx* zstd) {
  const char* bytes = reinterpret_cast<const char*>(in.data());
  switch (codec) {
    case Compression::kSnappy: {
      size_t written = 0;
      snappy::RawCompress(bytes, in.size(), reinterpret_cast<char*>(out), &written);
      return written;
    }
    case Compression::kLz4Raw:
      return static_cast<size_t>(LZ4_compress_default(bytes, reinterpret_cast<char*>(out),
                                                      static_cast<int>(in.size()),
                                                      static_cast<int>(out_size)));
    case Compression::kZstd: {
      const size_t written =
          ZSTD_compressCCtx(zstd, out, out_size, in.data(), in.size(), ZSTD_CLEVEL_DEFAULT);
      if (ZSTD_isError(written)) Die(std::string("zstd: ") + ZSTD_getErrorName(written));
      return written;
    }
    default: {
      std::vector<uint8_t> compressed;
      Check(pqpage::Compress(codec, in, &compressed), "Compress");
      return compressed.size();
    }
  }
}

template <typename Body>
double BestSeconds(int repeat, Body body) {
  double best = 1e300;
  for (int run = 0; run < repeat; ++run) {
    const auto start = std::chrono::steady_clock::now();
    body();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  int repeat = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
      if (repeat < 1) Die("--repeat must be at least 1");
    } else if (path.empty() && arg.rfind("--", 0) != 0) {
      path = arg;
    } else {
      Die("usage: codec_floor_bench FILE [--repeat N]");
    }
  }
  if (path.empty()) Die("usage: codec_floor_bench FILE [--repeat N]");

  const std::vector<Page> pages = CollectPages(path);
  size_t compressed = 0, decompressed = 0, largest = 0;
  std::set<Compression> codecs;
  for (const Page& page : pages) {
    compressed += page.input.size();
    decompressed += page.expected;
    largest = std::max(largest, page.expected);
    codecs.insert(page.codec);
  }

  // One output buffer for the library, touched once so that no run pays for page faults.
  std::unique_ptr<uint8_t[]> library_out(new uint8_t[std::max<size_t>(largest, 1)]);
  std::memset(library_out.get(), 0, std::max<size_t>(largest, 1));
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> zstd(ZSTD_createDCtx(), ZSTD_freeDCtx);
  // Reused across pages, as the page reader reuses its own.
  std::vector<uint8_t> pqpage_out;

  // pqpage's way: the page reader's call, into a buffer reused from page to page.
  auto pqpage_inflate = [&](const Page& page) {
    absl::StatusOr<absl::Span<const uint8_t>> inflated = pqpage::DecompressIntoBuffer(
        page.codec, page.input, static_cast<int64_t>(page.expected), &pqpage_out);
    Check(inflated.status(), "DecompressIntoBuffer");
    return *inflated;
  };

  // Untimed: both paths must produce the same bytes.
  for (const Page& page : pages) {
    LibraryInflate(page, library_out.get(), zstd.get());
    const absl::Span<const uint8_t> inflated = pqpage_inflate(page);
    if (inflated.size() != page.expected ||
        std::memcmp(inflated.data(), library_out.get(), page.expected) != 0) {
      Die("the library and DecompressIntoBuffer disagree on a page");
    }
  }

  const double library_seconds = BestSeconds(repeat, [&] {
    for (const Page& page : pages) LibraryInflate(page, library_out.get(), zstd.get());
  });
  const double pqpage_seconds = BestSeconds(repeat, [&] {
    for (const Page& page : pages) pqpage_inflate(page);
  });

  // The pages inflated (untimed), then compressed again by the library alone.
  std::vector<std::vector<uint8_t>> inflated_pages;
  size_t largest_bound = 1;
  for (const Page& page : pages) {
    const absl::Span<const uint8_t> inflated = pqpage_inflate(page);
    inflated_pages.emplace_back(inflated.begin(), inflated.end());
    largest_bound = std::max(largest_bound, 2 * page.expected + 1024);  // above every codec's bound
  }
  std::unique_ptr<uint8_t[]> deflate_out(new uint8_t[largest_bound]);
  std::memset(deflate_out.get(), 0, largest_bound);
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> zstd_compress(ZSTD_createCCtx(),
                                                                   ZSTD_freeCCtx);
  const double compress_seconds = BestSeconds(repeat, [&] {
    for (size_t i = 0; i < pages.size(); ++i) {
      LibraryDeflate(pages[i].codec, inflated_pages[i], deflate_out.get(), largest_bound,
                     zstd_compress.get());
    }
  });

  std::string codec_names, fallback;
  for (Compression codec : codecs) {
    const std::string name(pqpage::CompressionName(codec));
    codec_names += (codec_names.empty() ? "" : ",") + name;
    if (!CalledDirectly(codec)) fallback += (fallback.empty() ? "" : ",") + name;
  }
  auto gbps = [&](double seconds) { return seconds > 0 ? decompressed / seconds / 1e9 : 0.0; };
  std::printf("file: %s\n", path.c_str());
  std::printf("codecs: %s\n", codec_names.empty() ? "none" : codec_names.c_str());
  // Codecs whose "library alone" figure is pqpage::Decompress into the preallocated buffer.
  std::printf("library_via_pqpage_decompress: %s\n", fallback.empty() ? "none" : fallback.c_str());
  std::printf("pages: %zu\n", pages.size());
  std::printf("compressed_bytes: %zu\n", compressed);
  std::printf("decompressed_bytes: %zu\n", decompressed);
  std::printf("repeat: %d\n", repeat);
  std::printf("library_seconds: %.6f\n", pages.empty() ? 0.0 : library_seconds);
  std::printf("pqpage_decompress_seconds: %.6f\n", pages.empty() ? 0.0 : pqpage_seconds);
  std::printf("library_gb_per_s: %.3f\n", pages.empty() ? 0.0 : gbps(library_seconds));
  std::printf("pqpage_decompress_gb_per_s: %.3f\n", pages.empty() ? 0.0 : gbps(pqpage_seconds));
  std::printf("library_compress_seconds: %.6f\n", pages.empty() ? 0.0 : compress_seconds);
  return 0;
}
