#include "page/read/page_walker.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/byte_io.h"
#include "crypto/chunk_cipher.h"
#include "metadata/page_header.h"
#include "metadata/thrift_compact.h"
#include "pqpage/compression.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {
namespace {

// Reads land at addresses congruent to their file offsets modulo this; see ReadPad.
constexpr size_t kReadAlignment = 64;

// The shift into a buffer at `buffer` that puts the byte read from `file_offset` at an address
// congruent to it modulo kReadAlignment. pread copies out of the page cache with `rep movsb`,
// which on AMD Zen runs about 8x slower when the destination lies a few bytes past the source
// modulo 4 KiB (a 380 KB read: 120 us instead of 14 us); glibc's large allocations start 16
// bytes into a page, so a read from a chunk at file offset 4 landed exactly there.
size_t ReadPad(const uint8_t* buffer, int64_t file_offset) {
  return static_cast<size_t>(static_cast<uint64_t>(file_offset) -
                             reinterpret_cast<uintptr_t>(buffer)) &
         (kReadAlignment - 1);
}

// A header's size is only known once it is parsed, so it is read through growing windows: almost
// every header fits the first; one carrying large statistics needs a later one.
constexpr int64_t kHeaderWindows[] = {16 << 10, 1 << 20, 64 << 20};
// How much of the chunk one read fetches ahead.
constexpr int64_t kReadAhead = 1 << 20;

}  // namespace

absl::StatusOr<absl::Span<const uint8_t>> PageWalker::Window(int64_t begin, int64_t length) {
  // A source in memory is used in place. A range outside it goes on to ReadAt, which reports it.
  const absl::Span<const uint8_t> in_memory = source_->InMemory();
  const int64_t file_begin = location_.offset + begin;
  if (!in_memory.empty() && file_begin >= 0 && length >= 0 &&
      file_begin <= static_cast<int64_t>(in_memory.size()) - length) {
    return in_memory.subspan(static_cast<size_t>(file_begin), static_cast<size_t>(length));
  }
  // Bytes decrypted in place no longer hold what the file does: a range that reaches them (a walk
  // restarted before them) is read again.
  const bool decrypted = begin < decrypted_end_ && begin + length > decrypted_begin_;
  if (begin < window_begin_ || begin + length > window_begin_ + window_size_ || decrypted) {
    const int64_t end =
        read_ahead_end_ >= 0 ? std::min(read_ahead_end_, location_.length) : location_.length;
    // A walk of headers alone reads no further than the header window it asks for.
    const int64_t size = std::max(length, std::min(end - begin, skip_bodies_ ? 0 : kReadAhead));
    // The part of the old window the new one starts with (a page that ran past the old one) is
    // moved to the front rather than read again, when the buffer already holds the new size
    // (growing it may discard what it held).
    const size_t room = static_cast<size_t>(size) + kReadAlignment;
    int64_t kept = 0;
    if (begin >= window_begin_ && begin < window_begin_ + window_size_ && begin >= decrypted_end_ &&
        window_.bytes().size() >= room) {
      kept = window_begin_ + window_size_ - begin;
    }
    const absl::Span<uint8_t> buffer = window_.Grow(room);
    const size_t pad = ReadPad(buffer.data(), location_.offset + begin);
    if (kept > 0) {
      std::memmove(buffer.data() + pad, buffer.data() + window_pad_ + (begin - window_begin_),
                   static_cast<size_t>(kept));
    }
    window_begin_ = begin;
    window_size_ = 0;
    decrypted_begin_ = decrypted_end_ = 0;
    window_pad_ = pad;
    PQPAGE_RETURN_IF_ERROR(source_->ReadAt(
        location_.offset + begin + kept,
        buffer.subspan(pad + static_cast<size_t>(kept), static_cast<size_t>(size - kept))));
    window_size_ = size;
  }
  return absl::MakeConstSpan(window_.bytes())
      .subspan(window_pad_ + static_cast<size_t>(begin - window_begin_),
               static_cast<size_t>(length));
}

PageWalker::PageWalker(const ByteSource* source, ColumnChunkLocation location,
                       std::string column_path, ReaderOptions options)
    : source_(source),
      location_(std::move(location)),
      column_path_(std::move(column_path)),
      options_(std::move(options)) {}

std::string PageWalker::Where() const {
  std::string where = absl::StrCat("column '", column_path_, "'");
  if (!location_.context.empty()) absl::StrAppend(&where, " (", location_.context, ")");
  if (page_index_ >= 0) {
    absl::StrAppend(&where, ", page ", page_index_, " at offset ", info_.offset);
  }
  return where;
}

absl::Status PageWalker::Annotate(const absl::Status& status) const {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(Where(), ": ", status.message()));
}

void PageWalker::Restart(int64_t offset, int64_t page_index, int64_t data_values) {
  next_offset_ = offset;
  page_index_ = page_index - 1;
  data_values_ = data_values;
}

absl::StatusOr<bool> PageWalker::Next() {
  if (next_offset_ >= location_.length) return false;
  // Once the data pages hold every value the metadata counts, what follows is not this chunk's:
  // old parquet-mr undercounted chunk lengths, so readers pad them and may see the next chunk.
  if (location_.num_values > 0 && data_values_ >= location_.num_values) return false;
  if (next_offset_ < 0) return Annotate(absl::DataLossError("a page before the column chunk"));
  ++page_index_;
  info_ = PageInfo();
  info_.offset = location_.offset + next_offset_;
  const int64_t remaining = location_.length - next_offset_;

  absl::StatusOr<size_t> parsed = absl::DataLossError("empty");
  if (location_.cipher != nullptr) {
    parsed = ReadEncryptedHeader(remaining);
  } else {
    // With a read-ahead limit (where the page index says the page ends) the header is first looked
    // for before it, so that a small page costs no read past it; a header that does not fit there
    // is looked for in the usual windows (and its page then found to run past where it should).
    const int64_t limited = read_ahead_end_ - next_offset_;
    int64_t windows[1 + std::size(kHeaderWindows)] = {0};
    size_t num_windows = 0;
    if (read_ahead_end_ >= 0 && limited > 0 && limited < kHeaderWindows[0]) {
      windows[num_windows++] = limited;
    }
    for (int64_t window : kHeaderWindows) windows[num_windows++] = window;
    for (size_t w = 0; w < num_windows; ++w) {
      const int64_t size = std::min(windows[w], remaining);
      absl::StatusOr<absl::Span<const uint8_t>> bytes = Window(next_offset_, size);
      if (!bytes.ok()) return Annotate(bytes.status());
      header_ = format::PageHeader();
      parsed = DeserializeCompact(*bytes, &header_);
      if (parsed.ok() || size == remaining) break;
    }
  }
  if (!parsed.ok()) {
    return Annotate(
        absl::DataLossError(absl::StrCat("cannot read page header: ", parsed.status().message())));
  }
  info_.header_size = static_cast<int32_t>(*parsed);
  absl::StatusOr<PageInfo> described =
      PageInfoFromHeader(header_, location_.codec != Compression::kUncompressed);
  if (!described.ok()) return Annotate(described.status());
  const int64_t offset = info_.offset;
  const int32_t header_size = info_.header_size;
  info_ = *std::move(described);
  info_.offset = offset;
  info_.header_size = header_size;

  const int64_t body = info_.compressed_page_size;
  if (body > remaining - header_size) {
    return Annotate(
        absl::DataLossError(absl::StrCat("page of ", body, " bytes runs past the column chunk (",
                                         remaining - header_size, " bytes left)")));
  }
  if (body > options_.max_page_bytes || info_.uncompressed_page_size > options_.max_page_bytes) {
    return Annotate(absl::ResourceExhaustedError(
        absl::StrCat("page of ", std::max<int64_t>(body, info_.uncompressed_page_size),
                     " bytes is larger than the reader's limit of ", options_.max_page_bytes)));
  }
  if (skip_bodies_) {
    stored_view_ = {};
  } else if (body <= kReadAhead || stored_bytes_live_with_source()) {
    absl::StatusOr<absl::Span<const uint8_t>> bytes = Window(next_offset_ + header_size, body);
    if (!bytes.ok()) return Annotate(bytes.status());
    stored_view_ = *bytes;
  } else {
    // A page larger than the read-ahead: what the window read of its start is copied, the rest
    // read.
    const absl::Span<uint8_t> room = stored_.Grow(static_cast<size_t>(body) + kReadAlignment);
    const absl::Span<uint8_t> page =
        room.subspan(ReadPad(room.data(), offset + header_size), static_cast<size_t>(body));
    const int64_t page_begin = next_offset_ + header_size;
    const int64_t window_end = window_begin_ + window_size_;
    int64_t copied = 0;
    if (page_begin >= window_begin_ && page_begin < window_end) {
      copied = std::min(body, window_end - page_begin);
      std::memcpy(page.data(), window_.bytes().data() + window_pad_ + (page_begin - window_begin_),
                  static_cast<size_t>(copied));
    }
    absl::Status read =
        source_->ReadAt(offset + header_size + copied, page.subspan(static_cast<size_t>(copied)));
    if (!read.ok()) return Annotate(read);
    stored_view_ = page;
  }
  const absl::Span<const uint8_t> as_stored = stored_view_;
  uint32_t stored_crc = 0;
  if (location_.cipher != nullptr && !skip_bodies_) {
    // Decryption may overwrite the stored bytes: their CRC is taken first.
    if (info_.has_crc) stored_crc = PageCrc32(as_stored);
    absl::Status decrypted = DecryptPage(next_offset_ + header_size);
    if (!decrypted.ok()) return Annotate(decrypted);
  }
  if (info_.has_crc && !skip_bodies_) {
    info_.crc_checked = true;
    // The format's CRC covers the page as stored; writers of encrypted files differ on whether
    // that means before or after encryption, so either matches.
    const uint32_t crc = static_cast<uint32_t>(header_.crc);
    info_.crc_valid = location_.cipher != nullptr
                          ? stored_crc == crc || PageCrc32(stored_view_) == crc
                          : PageCrc32(stored_view_) == crc;
    if (!info_.crc_valid && options_.verify_checksums) {
      return Annotate(absl::DataLossError("page CRC does not match the page bytes"));
    }
  }
  next_offset_ += header_size + body;
  if (data_values_ >= 0 &&
      (info_.type == PageType::kDataPage || info_.type == PageType::kDataPageV2)) {
    data_values_ += info_.num_values;
  }
  return true;
}

absl::StatusOr<size_t> PageWalker::ReadEncryptedHeader(int64_t remaining) {
  const ColumnChunkCipher& cipher = *location_.cipher;
  const ModuleType type = page_index_ == 0 && cipher.starts_with_dictionary()
                              ? ModuleType::kDictionaryPageHeader
                              : ModuleType::kDataPageHeader;
  if (remaining < int64_t{kModuleLengthBytes}) {
    return absl::DataLossError("the chunk ends inside an encrypted page header's length");
  }
  PQPAGE_ASSIGN_OR_RETURN(const absl::Span<const uint8_t> prefix,
                          Window(next_offset_, kModuleLengthBytes));
  const int64_t length = LoadLittleEndian<uint32_t>(prefix.data());
  constexpr int64_t kMostHeaderBytes = std::end(kHeaderWindows)[-1];
  if (length > remaining - int64_t{kModuleLengthBytes} || length > kMostHeaderBytes) {
    return absl::DataLossError(
        absl::StrCat("an encrypted page header of ", length, " bytes runs past the column chunk"));
  }
  PQPAGE_ASSIGN_OR_RETURN(const absl::Span<const uint8_t> module,
                          Window(next_offset_, kModuleLengthBytes + length));
  PQPAGE_ASSIGN_OR_RETURN(const size_t size, cipher.ModuleSize(type, module));
  header_plaintext_.resize(size - cipher.Overhead(type));
  PQPAGE_RETURN_IF_ERROR(cipher.Decrypt(type, cipher.DataPageOrdinal(page_index_), module,
                                        absl::MakeSpan(header_plaintext_)));
  header_ = format::PageHeader();
  PQPAGE_RETURN_IF_ERROR(DeserializeCompact(header_plaintext_, &header_).status());
  return size;
}

absl::Status PageWalker::DecryptPage(int64_t page_begin) {
  const ColumnChunkCipher& cipher = *location_.cipher;
  const ModuleType type =
      info_.type == PageType::kDictionaryPage ? ModuleType::kDictionaryPage : ModuleType::kDataPage;
  PQPAGE_ASSIGN_OR_RETURN(const size_t size, cipher.ModuleSize(type, stored_view_));
  if (size != stored_view_.size()) {
    return absl::DataLossError(absl::StrCat("the page's encrypted module takes ", size, " of its ",
                                            stored_view_.size(), " bytes"));
  }
  const size_t plaintext_size = size - cipher.Overhead(type);
  absl::Span<uint8_t> plaintext;
  if (source_->InMemory().empty()) {
    // The module lies in this walker's own buffers (the window or the large-page buffer): it is
    // decrypted where it is (the ciphertext starts after the length and nonce; OpenSSL decrypts in
    // place), which keeps a page's bytes in one buffer, in cache, from read to decode.
    plaintext =
        absl::MakeSpan(const_cast<uint8_t*>(stored_view_.data()) + kModuleLengthBytes + kNonceBytes,
                       plaintext_size);
    const int64_t page_end = page_begin + static_cast<int64_t>(size);
    if (page_begin >= window_begin_ && page_end <= window_begin_ + window_size_) {
      decrypted_begin_ =
          decrypted_end_ > decrypted_begin_ ? std::min(decrypted_begin_, page_begin) : page_begin;
      decrypted_end_ = std::max(decrypted_end_, page_end);
    }
  } else {
    std::vector<uint8_t>& buffer = decrypted_.Get(plaintext_size);
    buffer.resize(plaintext_size);
    plaintext = absl::MakeSpan(buffer);
  }
  PQPAGE_RETURN_IF_ERROR(
      cipher.Decrypt(type, cipher.DataPageOrdinal(page_index_), stored_view_, plaintext));
  // The header's sizes were checked against the module; a v2 page's level sections must also fit
  // what it decrypts to (the plaintext is the module less its overhead).
  if (info_.type == PageType::kDataPageV2 &&
      int64_t{info_.definition_levels_byte_length} + info_.repetition_levels_byte_length >
          static_cast<int64_t>(plaintext.size())) {
    return absl::DataLossError(
        absl::StrCat("v2 level byte lengths (repetition ", info_.repetition_levels_byte_length,
                     ", definition ", info_.definition_levels_byte_length,
                     ") do not fit the page's ", plaintext.size(), " decrypted bytes"));
  }
  stored_view_ = plaintext;
  return absl::OkStatus();
}

}  // namespace pqpage::internal
