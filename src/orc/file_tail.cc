// The file tail, read backwards from the last byte, every length checked against the file
// before it is used: an ORC file is untrusted input, and its tail says where everything else is.
#include "orc/file_tail.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/checked_math.h"
#include "common/large_buffer.h"
#include "orc/metadata_proto.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc::internal {
namespace {

using ::pqpage::internal::CheckedAdd;

// The postscript field that holds the compression kind.
constexpr int kCompressionField = 2;

// proto2 puts an enum value it does not know among the unknown fields, where has_compression()
// cannot see it: a file compressed with a codec newer than this proto must not read as NONE.
// @return the value of field `field` when it sits among `unknown`'s varint fields.
std::optional<uint64_t> UnknownVarintField(const std::string& unknown, int field) {
  namespace wire = google::protobuf::internal;
  google::protobuf::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(unknown.data()),
                                               static_cast<int>(unknown.size()));
  while (const uint32_t tag = input.ReadTag()) {
    if (wire::WireFormatLite::GetTagFieldNumber(tag) == field &&
        wire::WireFormatLite::GetTagWireType(tag) == wire::WireFormatLite::WIRETYPE_VARINT) {
      uint64_t value = 0;
      if (input.ReadVarint64(&value)) return value;
      return std::nullopt;
    }
    if (!wire::WireFormatLite::SkipField(&input, tag)) return std::nullopt;
  }
  return std::nullopt;
}

absl::StatusOr<CompressionKind> CompressionOf(const proto::PostScript& postscript) {
  // Checked first: a kind this proto does not know, written after a known one, is the one that
  // counts.
  if (const std::optional<uint64_t> unknown =
          UnknownVarintField(postscript.unknown_fields(), kCompressionField)) {
    return absl::UnimplementedError(
        absl::StrCat("ORC: unknown compression kind ", *unknown, " in the postscript"));
  }
  if (postscript.has_compression()) {
    return static_cast<CompressionKind>(postscript.compression());
  }
  return CompressionKind::kNone;
}

// The stripes, each checked to lie in the body, [header end, tail start), after the one before,
// and their rows, checked against the footer's count.
absl::StatusOr<std::vector<StripeInfo>> CheckedStripes(const proto::Footer& footer,
                                                       uint64_t body_end, uint64_t* num_rows) {
  std::vector<StripeInfo> stripes;
  stripes.reserve(static_cast<size_t>(footer.stripes_size()));
  uint64_t previous_end = kMagicSize;
  uint64_t rows = 0;
  for (int i = 0; i < footer.stripes_size(); ++i) {
    const StripeInfo stripe = StripeFromProto(footer.stripes(i));
    std::optional<uint64_t> end = CheckedAdd(stripe.offset, stripe.index_length);
    if (end) end = CheckedAdd(*end, stripe.data_length);
    if (end) end = CheckedAdd(*end, stripe.footer_length);
    if (stripe.offset < previous_end || !end || *end > body_end) {
      return absl::DataLossError(absl::StrCat(
          "ORC footer: stripe ", i, " at byte ", stripe.offset, " (index ", stripe.index_length,
          ", data ", stripe.data_length, ", footer ", stripe.footer_length,
          " bytes) does not lie between byte ", previous_end, " and the tail at byte ", body_end));
    }
    const std::optional<uint64_t> total_rows = CheckedAdd(rows, stripe.num_rows);
    if (!total_rows) return absl::DataLossError("ORC footer: the stripes' row counts overflow");
    rows = *total_rows;
    previous_end = *end;
    stripes.push_back(stripe);
  }
  if (footer.has_numberofrows() && footer.numberofrows() != rows) {
    return absl::DataLossError(absl::StrCat("ORC footer: the file has ", footer.numberofrows(),
                                            " rows but its stripes add up to ", rows));
  }
  *num_rows = rows;
  return stripes;
}

}  // namespace

absl::StatusOr<absl::Span<const uint8_t>> ReadRange(const ByteSource& source, uint64_t offset,
                                                    uint64_t length,
                                                    std::vector<uint8_t>* scratch) {
  const absl::Span<const uint8_t> in_memory = source.InMemory();
  if (!in_memory.empty()) return in_memory.subspan(offset, length);
  const absl::Span<uint8_t> out = ::pqpage::internal::GrowDiscarding(scratch, length);
  PQPAGE_RETURN_IF_ERROR(source.ReadAt(static_cast<int64_t>(offset), out.first(length)));
  return absl::MakeConstSpan(out.first(length));
}

absl::StatusOr<FileTail> ReadFileTail(const ByteSource& source) {
  const uint64_t file_size = static_cast<uint64_t>(source.size());
  // The header, a postscript length byte and a postscript of at least one byte.
  if (file_size < kMagicSize + 2) {
    return absl::DataLossError(
        absl::StrCat("ORC: a file of ", file_size, " bytes is too short to be ORC"));
  }
  std::vector<uint8_t> scratch;
  PQPAGE_ASSIGN_OR_RETURN(absl::Span<const uint8_t> last,
                          ReadRange(source, file_size - 1, 1, &scratch));
  const uint64_t postscript_length = last[0];
  if (postscript_length == 0 || postscript_length + 1 + kMagicSize > file_size) {
    return absl::DataLossError(absl::StrCat("ORC: postscript length ", postscript_length,
                                            " does not fit a file of ", file_size, " bytes"));
  }
  const uint64_t postscript_offset = file_size - 1 - postscript_length;
  FileTail tail;
  PQPAGE_ASSIGN_OR_RETURN(absl::Span<const uint8_t> postscript_bytes,
                          ReadRange(source, postscript_offset, postscript_length, &scratch));
  PQPAGE_RETURN_IF_ERROR(ParseMessage(postscript_bytes, "postscript", &tail.postscript));
  const proto::PostScript& postscript = tail.postscript;
  if (postscript.has_magic()) {
    if (postscript.magic() != kMagic) {
      return absl::DataLossError("ORC: the postscript's magic is not \"ORC\": not an ORC file");
    }
  } else {
    // Files of Hive 0.11 have no magic in the postscript; the header then says it.
    PQPAGE_ASSIGN_OR_RETURN(absl::Span<const uint8_t> header,
                            ReadRange(source, 0, kMagicSize, &scratch));
    if (std::string_view(reinterpret_cast<const char*>(header.data()), kMagicSize) != kMagic) {
      return absl::DataLossError("ORC: no \"ORC\" magic in the postscript or the header");
    }
  }
  PQPAGE_ASSIGN_OR_RETURN(tail.compression, CompressionOf(postscript));
  if (static_cast<int>(tail.compression) > static_cast<int>(CompressionKind::kZstd)) {
    return absl::UnimplementedError(
        absl::StrCat("ORC: unknown compression kind ", static_cast<int>(tail.compression)));
  }
  if (postscript.has_compressionblocksize()) tail.block_size = postscript.compressionblocksize();
  if (tail.compression != CompressionKind::kNone && tail.block_size == 0) {
    return absl::DataLossError("ORC: the postscript's compression block size is 0");
  }

  // Before the postscript: the encrypted stripe statistics, the metadata, then the footer.
  const uint64_t footer_length = postscript.footerlength();
  const uint64_t metadata_length = postscript.metadatalength();
  std::optional<uint64_t> tail_size = CheckedAdd(postscript_length + 1, footer_length);
  if (tail_size) tail_size = CheckedAdd(*tail_size, metadata_length);
  if (tail_size) tail_size = CheckedAdd(*tail_size, postscript.stripestatisticslength());
  if (!tail_size || *tail_size > file_size - kMagicSize) {
    return absl::DataLossError(
        absl::StrCat("ORC: the tail (footer ", footer_length, ", metadata ", metadata_length,
                     ", encrypted stripe statistics ", postscript.stripestatisticslength(),
                     " bytes) does not fit a file of ", file_size, " bytes"));
  }
  const uint64_t metadata_offset = postscript_offset - footer_length - metadata_length;
  PQPAGE_ASSIGN_OR_RETURN(
      absl::Span<const uint8_t> sections,
      ReadRange(source, metadata_offset, metadata_length + footer_length, &scratch));
  std::vector<uint8_t> inflated;
  absl::StatusOr<absl::Span<const uint8_t>> footer_bytes = DecompressStream(
      tail.compression, tail.block_size, sections.subspan(metadata_length), &inflated);
  if (!footer_bytes.ok()) {
    return absl::Status(footer_bytes.status().code(),
                        absl::StrCat("ORC footer: ", footer_bytes.status().message()));
  }
  PQPAGE_RETURN_IF_ERROR(ParseMessage(*footer_bytes, "footer", &tail.footer));
  if (metadata_length > 0) {
    absl::StatusOr<absl::Span<const uint8_t>> metadata_bytes = DecompressStream(
        tail.compression, tail.block_size, sections.first(metadata_length), &inflated);
    if (!metadata_bytes.ok()) {
      return absl::Status(metadata_bytes.status().code(),
                          absl::StrCat("ORC metadata: ", metadata_bytes.status().message()));
    }
    PQPAGE_RETURN_IF_ERROR(ParseMessage(*metadata_bytes, "metadata", &tail.metadata));
  }
  PQPAGE_ASSIGN_OR_RETURN(tail.types, TypesFromFooter(tail.footer));
  PQPAGE_ASSIGN_OR_RETURN(tail.stripes,
                          CheckedStripes(tail.footer, file_size - *tail_size, &tail.num_rows));
  return tail;
}

}  // namespace pqpage::orc::internal
