// pqpage inspect FILE.orc [--json]: what an ORC file says about its layout. The tail gives the
// file facts and the schema; each stripe's footer gives its stream directory and column
// encodings. A stream's compression chunks are counted by walking their 3-byte headers in the
// stored bytes (read through the file's ByteSource, three bytes a chunk), so that inspecting
// decompresses nothing and a damaged chunk list shows up on its stream.
//
// Like the Parquet inspect, a stripe whose footer or chunk list cannot be read is shown with its
// error and makes the exit status 1, after everything else has been printed.
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "cli/cli_args.h"
#include "cli/cli_orc.h"
#include "cli/cli_str.h"
#include "cli/cli_text_table.h"
#include "pqpage/json_writer.h"
#include "pqpage/orc/compression.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/metadata.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_text.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "inspect";

struct ChunkCount {
  int64_t chunks = 0;
  int64_t original = 0;  // stored as they are: compressing did not make them smaller
};

struct StreamReport {
  orc::StreamInfo info;
  std::optional<ChunkCount> chunks;  // none for an uncompressed file, or on error
  std::string error;
};

struct StripeReport {
  orc::StripeInfo info;
  std::vector<StreamReport> streams;
  std::vector<orc::ColumnEncodingInfo> encodings;
  std::optional<std::string> writer_timezone;
  std::vector<std::vector<orc::EncryptedStreamInfo>> encrypted_streams;  // per variant
  std::string error;  // the footer could not be read
};

// The mask applied to column `root`, if any.
const orc::DataMaskInfo* MaskOf(const orc::EncryptionInfo& encryption, uint32_t root) {
  for (const orc::DataMaskInfo& mask : encryption.masks) {
    for (const uint32_t column : mask.columns) {
      if (column == root) return &mask;
    }
  }
  return nullptr;
}

std::string MaskText(const orc::DataMaskInfo* mask) {
  if (mask == nullptr) return "none";
  if (mask->parameters.empty()) return Printable(mask->name);
  std::vector<std::string> parameters;
  for (const std::string& parameter : mask->parameters) parameters.push_back(Printable(parameter));
  return absl::StrCat(Printable(mask->name), "(", absl::StrJoin(parameters, ", "), ")");
}

void WriteEncryptionJson(const orc::OrcFileReader& reader, const std::vector<std::string>& paths,
                         JsonWriter& json) {
  json.Key("encryption");
  if (!reader.encryption()) {
    json.Null();
    return;
  }
  const orc::EncryptionInfo& encryption = *reader.encryption();
  json.BeginObject();
  json.Key("key_provider");
  json.String(orc::KeyProviderName(encryption.key_provider));
  json.Key("variants");
  json.BeginArray();
  for (const orc::EncryptionVariantInfo& variant : encryption.variants) {
    const orc::EncryptionKeyInfo& key = encryption.keys[variant.key];
    const orc::DataMaskInfo* mask = MaskOf(encryption, variant.root);
    json.BeginObject(/*single_line=*/true);
    json.Key("root");
    json.Int(variant.root);
    json.Key("path");
    json.String(paths[variant.root]);
    json.Key("key");
    json.String(key.name);
    json.Key("key_version");
    json.Int(key.version);
    json.Key("algorithm");
    json.String(orc::EncryptionAlgorithmName(key.algorithm));
    json.Key("mask");
    if (mask == nullptr) {
      json.Null();
    } else {
      json.String(mask->name);
      json.Key("mask_parameters");
      json.BeginArray();
      for (const std::string& parameter : mask->parameters) json.String(parameter);
      json.EndArray();
    }
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

void PrintEncryption(const orc::OrcFileReader& reader, const std::vector<std::string>& paths,
                     FILE* out) {
  if (!reader.encryption()) return;
  const orc::EncryptionInfo& encryption = *reader.encryption();
  std::fprintf(out,
               "encryption:       %zu encrypted column%s (key provider %s); without the "
               "keys they read as masked\n",
               encryption.variants.size(), encryption.variants.size() == 1 ? "" : "s",
               Str(orc::KeyProviderName(encryption.key_provider)).c_str());
  Table table({"column", "path", "key", "algorithm", "mask"});
  for (const orc::EncryptionVariantInfo& variant : encryption.variants) {
    const orc::EncryptionKeyInfo& key = encryption.keys[variant.key];
    table.AddRow({absl::StrCat(variant.root), Printable(paths[variant.root]),
                  absl::StrCat(Printable(key.name), " v", key.version),
                  Str(orc::EncryptionAlgorithmName(key.algorithm)),
                  MaskText(MaskOf(encryption, variant.root))});
  }
  table.Print(out, 2);
}

// Walks the chunk headers of a stored stream of a compressed file without inflating anything.
absl::StatusOr<ChunkCount> CountChunks(const orc::OrcFileReader& reader,
                                       const orc::StreamInfo& stream) {
  ChunkCount count;
  uint64_t position = 0;
  while (position < stream.length) {
    if (stream.length - position < orc::kChunkHeaderSize) {
      return absl::DataLossError(absl::StrCat("chunk ", count.chunks, " header cut short at byte ",
                                              position, " of ", stream.length));
    }
    std::array<uint8_t, orc::kChunkHeaderSize> bytes;
    PQPAGE_RETURN_IF_ERROR(reader.source().ReadAt(
        static_cast<int64_t>(stream.file_offset + position), absl::MakeSpan(bytes)));
    const orc::ChunkHeader header = orc::DecodeChunkHeader(bytes);
    position += orc::kChunkHeaderSize;
    if (header.length > stream.length - position) {
      return absl::DataLossError(absl::StrCat("chunk ", count.chunks, " of ", header.length,
                                              " bytes runs past the stream's ", stream.length));
    }
    position += header.length;
    ++count.chunks;
    if (header.is_original) ++count.original;
  }
  return count;
}

StripeReport GatherStripe(const orc::OrcFileReader& reader, int stripe) {
  StripeReport report;
  report.info = reader.stripes()[static_cast<size_t>(stripe)];
  absl::StatusOr<orc::StripeFooterInfo> footer = reader.ReadStripeFooter(stripe);
  if (!footer.ok()) {
    report.error = std::string(footer.status().message());
    return report;
  }
  report.encodings = footer->encodings;
  report.writer_timezone = footer->writer_timezone;
  report.encrypted_streams = footer->encrypted_streams;
  for (const orc::StreamInfo& info : footer->streams) {
    StreamReport stream;
    stream.info = info;
    // The virtual ENCRYPTED_INDEX and ENCRYPTED_DATA streams hold the encryption variants'
    // streams, chunk headers included, encrypted: there are no chunks to walk without the key.
    const bool encrypted = info.kind == orc::StreamKind::kEncryptedIndex ||
                           info.kind == orc::StreamKind::kEncryptedData;
    if (reader.compression() != orc::CompressionKind::kNone && !encrypted) {
      absl::StatusOr<ChunkCount> count = CountChunks(reader, info);
      if (count.ok()) {
        stream.chunks = *count;
      } else {
        stream.error = std::string(count.status().message());
      }
    }
    report.streams.push_back(std::move(stream));
  }
  return report;
}

int64_t Problems(const StripeReport& report) {
  int64_t problems = report.error.empty() ? 0 : 1;
  for (const StreamReport& stream : report.streams) problems += stream.error.empty() ? 0 : 1;
  return problems;
}

// Writers may set precision, scale and maximum length on every type (ORC's C++ writer sets them to
// 0): they are shown for the kinds they mean something for only.
bool HasLength(orc::TypeKind kind) {
  return kind == orc::TypeKind::kVarchar || kind == orc::TypeKind::kChar;
}

std::string TypeDetail(const orc::OrcType& type) {
  if (type.kind == orc::TypeKind::kDecimal) {
    return absl::StrCat("(", type.precision ? absl::StrCat(*type.precision) : "?", ",",
                        type.scale ? absl::StrCat(*type.scale) : "?", ")");
  }
  if (HasLength(type.kind) && type.maximum_length) {
    return absl::StrCat("(", *type.maximum_length, ")");
  }
  return "";
}

std::string VersionText(const std::vector<uint32_t>& version) {
  return version.empty() ? "(none)" : absl::StrJoin(version, ".");
}

void WriteJson(const orc::OrcFileReader& reader, const std::string& path,
               const std::vector<std::string>& paths, int64_t* problems, FILE* out,
               bool* write_ok) {
  JsonWriter json;
  json.BeginObject();
  json.Key("file");
  json.String(path);
  json.Key("format");
  json.String("ORC");
  json.Key("file_size");
  json.Int(reader.source().size());
  json.Key("file_version");
  json.BeginArray(/*single_line=*/true);
  for (uint32_t part : reader.version()) json.Int(part);
  json.EndArray();
  json.Key("writer_id");
  if (reader.writer_id()) {
    json.Int(*reader.writer_id());
  } else {
    json.Null();
  }
  json.Key("writer");
  json.String(reader.writer_id() ? OrcWriterName(*reader.writer_id()) : "ORC Java (not given)");
  json.Key("writer_version");
  json.Int(reader.writer_version());
  json.Key("compression");
  json.String(orc::CompressionKindName(reader.compression()));
  json.Key("compression_block_size");
  json.Int(static_cast<int64_t>(reader.compression_block_size()));
  json.Key("num_rows");
  json.Int(static_cast<int64_t>(reader.num_rows()));
  json.Key("num_stripes");
  json.Int(reader.num_stripes());
  json.Key("row_index_stride");
  json.Int(reader.row_index_stride());
  json.Key("user_metadata");
  json.BeginArray(/*single_line=*/true);
  for (const orc::UserMetadataItem& item : reader.user_metadata()) json.String(item.name);
  json.EndArray();
  json.Key("file_statistics");
  json.Int(static_cast<int64_t>(reader.FileStatistics().size()));
  json.Key("stripe_statistics");
  json.Int(reader.num_stripe_statistics());
  WriteEncryptionJson(reader, paths, json);
  const std::vector<orc::OrcType>& types = reader.types();
  json.Key("columns");
  json.BeginArray();
  for (size_t c = 0; c < types.size(); ++c) {
    json.BeginObject(/*single_line=*/true);
    json.Key("id");
    json.Int(static_cast<int64_t>(c));
    json.Key("path");
    json.String(paths[c]);
    json.Key("kind");
    json.String(orc::TypeKindName(types[c].kind));
    if (!types[c].subtypes.empty()) {
      json.Key("subtypes");
      json.BeginArray();
      for (uint32_t child : types[c].subtypes) json.Int(child);
      json.EndArray();
    }
    const bool decimal = types[c].kind == orc::TypeKind::kDecimal;
    if (decimal && types[c].precision) {
      json.Key("precision");
      json.Int(*types[c].precision);
    }
    if (decimal && types[c].scale) {
      json.Key("scale");
      json.Int(*types[c].scale);
    }
    if (HasLength(types[c].kind) && types[c].maximum_length) {
      json.Key("maximum_length");
      json.Int(*types[c].maximum_length);
    }
    if (!types[c].attributes.empty()) {
      // Pairs, not an object: the footer may repeat a key.
      json.Key("attributes");
      json.BeginArray();
      for (const orc::TypeAttribute& attribute : types[c].attributes) {
        json.BeginObject(/*single_line=*/true);
        json.Key("key");
        json.String(attribute.key);
        json.Key("value");
        json.String(attribute.value);
        json.EndObject();
      }
      json.EndArray();
    }
    json.EndObject();
  }
  json.EndArray();
  json.Key("stripes");
  json.BeginArray();
  for (int s = 0; s < reader.num_stripes(); ++s) {
    const StripeReport report = GatherStripe(reader, s);
    *problems += Problems(report);
    json.BeginObject();
    json.Key("index");
    json.Int(s);
    json.Key("num_rows");
    json.Int(static_cast<int64_t>(report.info.num_rows));
    json.Key("offset");
    json.Int(static_cast<int64_t>(report.info.offset));
    json.Key("index_length");
    json.Int(static_cast<int64_t>(report.info.index_length));
    json.Key("data_length");
    json.Int(static_cast<int64_t>(report.info.data_length));
    json.Key("footer_length");
    json.Int(static_cast<int64_t>(report.info.footer_length));
    if (!report.error.empty()) {
      json.Key("error");
      json.String(report.error);
    }
    json.Key("writer_timezone");
    if (report.writer_timezone) {
      json.String(*report.writer_timezone);
    } else {
      json.Null();
    }
    json.Key("streams");
    json.BeginArray();
    for (const StreamReport& stream : report.streams) {
      json.BeginObject(/*single_line=*/true);
      json.Key("kind");
      json.String(orc::StreamKindName(stream.info.kind));
      json.Key("column");
      json.Int(stream.info.column);
      json.Key("offset");
      json.Int(static_cast<int64_t>(stream.info.file_offset));
      json.Key("length");
      json.Int(static_cast<int64_t>(stream.info.length));
      json.Key("chunks");
      if (stream.chunks) {
        json.Int(stream.chunks->chunks);
        json.Key("original_chunks");
        json.Int(stream.chunks->original);
      } else {
        json.Null();
      }
      if (!stream.error.empty()) {
        json.Key("error");
        json.String(stream.error);
      }
      json.EndObject();
    }
    json.EndArray();
    if (!report.encrypted_streams.empty()) {
      json.Key("encrypted_streams");
      json.BeginArray();
      for (size_t v = 0; v < report.encrypted_streams.size(); ++v) {
        for (const orc::EncryptedStreamInfo& stream : report.encrypted_streams[v]) {
          json.BeginObject(/*single_line=*/true);
          json.Key("variant");
          json.Int(static_cast<int64_t>(v));
          json.Key("kind");
          json.String(orc::StreamKindName(stream.kind));
          json.Key("column");
          json.Int(stream.column);
          json.Key("length");
          json.Int(static_cast<int64_t>(stream.length));
          json.EndObject();
        }
      }
      json.EndArray();
    }
    json.Key("encodings");
    json.BeginArray();
    for (size_t c = 0; c < report.encodings.size(); ++c) {
      json.BeginObject(/*single_line=*/true);
      json.Key("column");
      json.Int(static_cast<int64_t>(c));
      json.Key("kind");
      json.String(orc::ColumnEncodingKindName(report.encodings[c].kind));
      json.Key("dictionary_size");
      json.Int(report.encodings[c].dictionary_size);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    // One stripe at a time: a file with many stripes is not held as text.
    *write_ok = json.FlushTo(out) && *write_ok;
  }
  json.EndArray();
  json.Key("problems");
  json.Int(*problems);
  json.EndObject();
  json.Newline();
  *write_ok = json.FlushTo(out) && *write_ok;
}

void PrintText(const orc::OrcFileReader& reader, const std::string& path,
               const std::vector<std::string>& paths, int64_t* problems, FILE* out) {
  std::fprintf(out, "file:             %s\n", Printable(path).c_str());
  std::fprintf(out, "size:             %lld bytes\n",
               static_cast<long long>(reader.source().size()));
  std::fprintf(out, "format:           ORC, file version %s\n",
               VersionText(reader.version()).c_str());
  const std::string writer =
      reader.writer_id()
          ? absl::StrCat(Str(OrcWriterName(*reader.writer_id())), " (id ", *reader.writer_id(), ")")
          : "not given (readers take ORC Java)";
  std::fprintf(out, "writer:           %s, writer version %u\n", writer.c_str(),
               reader.writer_version());
  if (reader.compression() == orc::CompressionKind::kNone) {
    std::fprintf(out, "compression:      NONE\n");
  } else {
    std::fprintf(out, "compression:      %s, block size %llu bytes\n",
                 Str(orc::CompressionKindName(reader.compression())).c_str(),
                 static_cast<unsigned long long>(reader.compression_block_size()));
  }
  std::fprintf(out, "rows:             %llu\n", static_cast<unsigned long long>(reader.num_rows()));
  std::fprintf(out, "stripes:          %d\n", reader.num_stripes());
  std::fprintf(out, "row index stride: %u\n", reader.row_index_stride());
  std::string keys;
  for (const orc::UserMetadataItem& item : reader.user_metadata()) {
    if (!keys.empty()) keys += ", ";
    keys += Printable(item.name);
  }
  std::fprintf(out, "user metadata:    %s\n", keys.empty() ? "(none)" : keys.c_str());
  std::fprintf(out, "statistics:       file %s, stripes %d\n",
               reader.FileStatistics().empty() ? "no" : "yes", reader.num_stripe_statistics());
  PrintEncryption(reader, paths, out);

  const std::vector<orc::OrcType>& types = reader.types();
  std::fprintf(out, "\ncolumns: %zu\n", types.size());
  Table schema({"id", "kind", "path", "children", "attributes"});
  for (size_t c = 0; c < types.size(); ++c) {
    std::string attributes;
    for (const orc::TypeAttribute& attribute : types[c].attributes) {
      if (!attributes.empty()) attributes += ", ";
      absl::StrAppend(&attributes, Printable(attribute.key), "=", Printable(attribute.value));
    }
    schema.AddRow(
        {absl::StrCat(c), absl::StrCat(Str(orc::TypeKindName(types[c].kind)), TypeDetail(types[c])),
         c == 0 ? "(root)" : Printable(paths[c]),
         types[c].subtypes.empty() ? ""
                                   : absl::StrCat("[", absl::StrJoin(types[c].subtypes, " "), "]"),
         attributes});
  }
  schema.Print(out, 2);

  for (int s = 0; s < reader.num_stripes(); ++s) {
    const StripeReport report = GatherStripe(reader, s);
    *problems += Problems(report);
    std::fprintf(out,
                 "\nstripe %d: %llu rows at offset %llu: index %llu + data %llu + footer %llu "
                 "bytes",
                 s, static_cast<unsigned long long>(report.info.num_rows),
                 static_cast<unsigned long long>(report.info.offset),
                 static_cast<unsigned long long>(report.info.index_length),
                 static_cast<unsigned long long>(report.info.data_length),
                 static_cast<unsigned long long>(report.info.footer_length));
    if (report.writer_timezone) {
      std::fprintf(out, ", writer timezone %s", Printable(*report.writer_timezone).c_str());
    }
    std::fprintf(out, "\n");
    if (!report.error.empty()) {
      std::fprintf(out, "  error: %s\n", Printable(report.error).c_str());
      continue;
    }
    Table streams({"column", "path", "stream", "offset", "bytes", "chunks", "original"});
    for (const StreamReport& stream : report.streams) {
      const uint32_t c = stream.info.column;
      streams.AddRow({absl::StrCat(c), c < paths.size() ? Printable(paths[c]) : "?",
                      Str(orc::StreamKindName(stream.info.kind)),
                      absl::StrCat(stream.info.file_offset), absl::StrCat(stream.info.length),
                      stream.chunks ? absl::StrCat(stream.chunks->chunks) : "-",
                      stream.chunks ? absl::StrCat(stream.chunks->original) : "-"});
      if (!stream.error.empty()) streams.AddNote("error: " + Printable(stream.error));
    }
    std::fprintf(out, "  streams: %zu\n", report.streams.size());
    streams.Print(out, 4);
    for (size_t v = 0; v < report.encrypted_streams.size(); ++v) {
      std::fprintf(out, "  encryption variant %zu: %zu streams, encrypted\n", v,
                   report.encrypted_streams[v].size());
      Table encrypted({"column", "path", "stream", "bytes"});
      for (const orc::EncryptedStreamInfo& stream : report.encrypted_streams[v]) {
        const uint32_t c = stream.column;
        encrypted.AddRow({absl::StrCat(c), c < paths.size() ? Printable(paths[c]) : "?",
                          Str(orc::StreamKindName(stream.kind)), absl::StrCat(stream.length)});
      }
      encrypted.Print(out, 4);
    }
    Table encodings({"column", "path", "encoding", "dictionary"});
    for (size_t c = 0; c < report.encodings.size(); ++c) {
      const orc::ColumnEncodingInfo& encoding = report.encodings[c];
      const bool dictionary = encoding.kind == orc::ColumnEncodingKind::kDictionary ||
                              encoding.kind == orc::ColumnEncodingKind::kDictionaryV2;
      encodings.AddRow({absl::StrCat(c), c < paths.size() ? Printable(paths[c]) : "?",
                        Str(orc::ColumnEncodingKindName(encoding.kind)),
                        dictionary ? absl::StrCat(encoding.dictionary_size) : "-"});
    }
    std::fprintf(out, "  encodings:\n");
    encodings.Print(out, 4);
  }
  if (*problems > 0) {
    std::fprintf(out, "\n%lld problems found\n", static_cast<long long>(*problems));
  }
}

}  // namespace

int InspectOrc(const std::string& path, bool json, bool mmap) {
  absl::StatusOr<std::unique_ptr<orc::OrcFileReader>> opened = OpenOrc(path, mmap);
  if (!opened.ok()) return FailureExit(kCommand, opened.status());
  const orc::OrcFileReader& reader = **opened;
  const std::vector<std::string> paths = OrcColumnPaths(reader.types());
  FILE* out = stdout;
  int64_t problems = 0;
  bool write_ok = true;
  if (json) {
    WriteJson(reader, path, paths, &problems, out, &write_ok);
  } else {
    PrintText(reader, path, paths, &problems, out);
  }
  if (std::fflush(out) != 0 || !write_ok || std::ferror(out)) {
    return FailureExit(kCommand, "cannot write to standard output");
  }
  if (problems > 0) {
    const char* what = problems == 1 ? " stripe footer or stream" : " stripe footers or streams";
    return FailureExit(kCommand, absl::StrCat(path, ": ", problems, what,
                                              " could not be read (shown in the output)"));
  }
  return 0;
}

}  // namespace pqpage::cli
