// advise --json: the advice Advise gave, column by column, as one JSON document, with the recode
// command that applies it.
#include "pqpage/advise_json.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pqpage/advise.h"
#include "pqpage/compression.h"
#include "pqpage/json_writer.h"
#include "pqpage/peer_readers.h"
#include "pqpage/types.h"
#include "pqpage/writer_options.h"

namespace pqpage {
namespace {

// `text` as one shell word.
std::string ShellWord(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ||
           c == '/' || c == '=' || c == ':';
  });
  if (plain) return text;
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void WritePeersJson(JsonWriter& json, std::vector<PeerReader> peers) {
  std::sort(peers.begin(), peers.end());
  json.BeginArray(/*single_line=*/true);
  for (const PeerReader peer : peers) json.String(PeerReaderName(peer));
  json.EndArray();
}

void WriteCandidateJson(JsonWriter& json, const PolicyTotal& total, int64_t current_bytes) {
  json.BeginObject(/*single_line=*/true);
  json.Key("policy");
  json.String(EncodingPolicyName(total.policy));
  json.Key("bytes");
  json.Int(total.stored_bytes);
  json.Key("ratio");
  json.Float(SizeRatio(total.stored_bytes, current_bytes));
  json.Key("decode_mb_per_s");
  json.Float(total.DecodeMegabytesPerSecond());
  json.Key("encodings");
  json.BeginArray(/*single_line=*/true);
  for (const std::string& encodings : total.encodings) json.String(encodings);
  json.EndArray();
  json.Key("refused_by");
  WritePeersJson(json, total.refused_by);
  if (total.same_as) {
    json.Key("same_as");
    json.String(EncodingPolicyName(*total.same_as));
  }
  json.EndObject();
}

}  // namespace

double SizeRatio(int64_t bytes, int64_t current_bytes) {
  return current_bytes > 0 ? static_cast<double>(bytes) / static_cast<double>(current_bytes) : 0.0;
}

std::string AdvisedRecodeCommand(std::string_view file_name, const FileAdvice& advice) {
  const WriterOptions options = AdvisedOptions(advice);
  std::string command = absl::StrCat(
      "pqpage recode ", ShellWord(std::string(file_name)), " OUT.parquet", " --page-version ",
      options.data_page_version, " --compression ", WritableCompressionName(options.compression),
      " --encoding ", std::string(EncodingPolicyName(options.encoding)));
  for (const ColumnAdvice& column : advice.columns) {
    const auto found = options.column_overrides.find(column.path);
    if (found == options.column_overrides.end()) continue;
    if (found->second.encoding) {
      absl::StrAppend(
          &command, " --column-encoding ",
          ShellWord(absl::StrCat(column.path, "=",
                                 std::string(EncodingPolicyName(*found->second.encoding)))));
    }
    if (found->second.compression) {
      absl::StrAppend(&command, " --column-compression ",
                      ShellWord(absl::StrCat(column.path, "=",
                                             WritableCompressionName(*found->second.compression))));
    }
  }
  return command;
}

std::string AdviceJson(const FileAdvice& advice, const AdviceJsonOptions& options) {
  JsonWriter json;
  json.BeginObject();
  json.Key("file");
  json.String(options.file_name);
  json.Key("page_version");
  json.Int(advice.data_page_version);
  json.Key("columns");
  json.BeginArray();
  for (const ColumnAdvice& column : advice.columns) {
    const PolicyTotal& best = column.advised();
    json.BeginObject();
    json.Key("column");
    json.Int(column.column);
    json.Key("path");
    json.String(column.path);
    json.Key("type");
    json.String(PhysicalTypeName(column.type));
    json.Key("logical_type");
    json.String(column.logical_type);
    json.Key("peers_refusing");
    json.BeginObject();
    for (const auto& [encoding, peers] : column.peers_refusing) {
      json.Key(EncodingName(encoding));
      WritePeersJson(json, peers);
    }
    json.EndObject();
    json.Key("interoperable");
    json.BeginArray(/*single_line=*/true);
    for (const Encoding encoding : column.interoperable) json.String(EncodingName(encoding));
    json.EndArray();
    json.Key("codec");
    json.String(WritableCompressionName(column.codec));
    json.Key("current_bytes");
    json.Int(column.current_bytes);
    json.Key("arrow_dictionary");
    json.Bool(column.arrow_dictionary);
    json.Key("current_encodings");
    json.BeginArray(/*single_line=*/true);
    for (const std::string& encodings : column.current_encodings) json.String(encodings);
    json.EndArray();
    json.Key("candidates");
    json.BeginArray();
    for (const PolicyTotal& total : column.totals) {
      WriteCandidateJson(json, total, column.current_bytes);
    }
    json.EndArray();
    if (options.chunks) {
      json.Key("chunks");
      json.BeginArray();
      for (const ChunkMeasurement& chunk : column.chunks) {
        json.BeginObject(/*single_line=*/true);
        json.Key("current_bytes");
        json.Int(chunk.stored_bytes);
        for (const PolicyMeasurement& result : chunk.candidates) {
          json.Key(EncodingPolicyName(result.policy));
          json.Int(result.stored_bytes);
        }
        json.EndObject();
      }
      json.EndArray();
    }
    json.Key("advised");
    json.String(EncodingPolicyName(best.policy));
    json.Key("advised_bytes");
    json.Int(best.stored_bytes);
    json.EndObject();
  }
  json.EndArray();
  json.Key("current_bytes");
  json.Int(advice.current_bytes());
  json.Key("advised_bytes");
  json.Int(advice.advised_bytes());
  json.Key("command");
  if (advice.columns.empty()) {
    json.Null();
  } else {
    json.String(AdvisedRecodeCommand(options.file_name, advice));
  }
  json.EndObject();
  json.Newline();
  return json.TakeOutput();
}

}  // namespace pqpage
