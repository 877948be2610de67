// pqpage_demo: encodes every column of a CSV sample with every encoding Parquet allows for its
// type, checks that each decodes back bit for bit, and prints the encoded sizes and the encode and
// decode speeds. With --write-parquet it writes the CSV as a Parquet file through the page builder
// (that is how testfiles/sample_trips.parquet is made).
//
// The CSV header names each column as name:TYPE with TYPE one of INT32, INT64, FLOAT, DOUBLE,
// BYTE_ARRAY; fields hold no commas.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"
#include "pqpage/dictionary.h"
#include "pqpage/file.h"
#include "pqpage/group_var_int.h"

namespace pqpage {
namespace {

struct Column {
  std::string name;
  PhysicalType type;
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<std::string> strings;
  size_t size() const {
    return std::max({int32s.size(), int64s.size(), floats.size(), doubles.size(), strings.size()});
  }
};

absl::StatusOr<std::vector<Column>> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::string line;
  if (!std::getline(in, line)) return absl::DataLossError(absl::StrCat(path, ": empty file"));
  std::vector<Column> columns;
  for (absl::string_view field : absl::StrSplit(line, ',')) {
    std::vector<std::string> parts = absl::StrSplit(field, ':');
    if (parts.size() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": header field '", field, "' is not name:TYPE"));
    }
    Column column;
    column.name = parts[0];
    const std::string& type = parts[1];
    if (type == "INT32")
      column.type = PhysicalType::kInt32;
    else if (type == "INT64")
      column.type = PhysicalType::kInt64;
    else if (type == "FLOAT")
      column.type = PhysicalType::kFloat;
    else if (type == "DOUBLE")
      column.type = PhysicalType::kDouble;
    else if (type == "BYTE_ARRAY")
      column.type = PhysicalType::kByteArray;
    else
      return absl::InvalidArgumentError(absl::StrCat(path, ": unknown type ", type));
    columns.push_back(std::move(column));
  }
  for (int row = 2; std::getline(in, line); ++row) {
    std::vector<absl::string_view> fields = absl::StrSplit(line, ',');
    if (fields.size() != columns.size()) {
      return absl::DataLossError(absl::StrCat(path, ":", row, ": ", fields.size(),
                                              " fields, the header has ", columns.size()));
    }
    for (size_t c = 0; c < columns.size(); ++c) {
      Column& column = columns[c];
      bool ok = true;
      switch (column.type) {
        case PhysicalType::kInt32:
          ok = absl::SimpleAtoi(fields[c], &column.int32s.emplace_back());
          break;
        case PhysicalType::kInt64:
          ok = absl::SimpleAtoi(fields[c], &column.int64s.emplace_back());
          break;
        case PhysicalType::kFloat:
          ok = absl::SimpleAtof(fields[c], &column.floats.emplace_back());
          break;
        case PhysicalType::kDouble:
          ok = absl::SimpleAtod(fields[c], &column.doubles.emplace_back());
          break;
        default:
          column.strings.emplace_back(fields[c]);
      }
      if (!ok) {
        return absl::DataLossError(absl::StrCat(path, ":", row, ": '", fields[c], "' is not a ",
                                                std::string(PhysicalTypeName(column.type))));
      }
    }
  }
  return columns;
}

// One way of encoding a column: `encode` produces the bytes (for dictionary encoding, the
// dictionary page and the data page together), `decode` reads them back and compares.
struct Trial {
  std::string encoding;
  std::function<std::vector<uint8_t>()> encode;
  std::function<absl::Status(const std::vector<uint8_t>&)> decode;
};

template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return a == b;
  } else {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
  }
}

template <typename T>
absl::Status DecodeAndCompare(Decoder<T>& decoder, absl::Span<const uint8_t> bytes,
                              const std::vector<T>& expected) {
  absl::Status status = decoder.Reset(bytes, static_cast<int64_t>(expected.size()));
  if (!status.ok()) return status;
  std::vector<T> out(expected.size());
  status = decoder.Decode(absl::MakeSpan(out));
  if (!status.ok()) return status;
  if (!SameBits(out, expected)) return absl::InternalError("decoded values differ");
  return absl::OkStatus();
}

// A Parquet encoding through the codec factory. A dictionary encoding is stored as a writer
// stores it: the dictionary page, then one data page.
template <typename T>
Trial CodecTrial(const std::vector<T>& values, Encoding encoding, const ColumnDescriptor& column) {
  auto dictionary_size = std::make_shared<size_t>(0);
  auto entries = std::make_shared<int64_t>(0);
  return {std::string(EncodingName(encoding)),
          [&values, encoding, column, dictionary_size, entries] {
            std::vector<uint8_t> bytes;
            absl::StatusOr<std::unique_ptr<Encoder<T>>> encoder = MakeEncoder<T>(encoding, column);
            // The default dictionary limits hold the sample's dictionaries; a failure shows as a
            // failed decode.
            if (!encoder.ok() || !(*encoder)->Put(values).ok()) return bytes;
            if (auto* dictionary = dynamic_cast<DictionaryEncoder<T>*>(encoder->get())) {
              bytes = dictionary->DictionaryPage();
              *dictionary_size = bytes.size();
              *entries = dictionary->num_entries();
            }
            (*encoder)->FinishInto(&bytes);
            return bytes;
          },
          [&values, encoding, column, dictionary_size,
           entries](const std::vector<uint8_t>& bytes) -> absl::Status {
            absl::StatusOr<std::unique_ptr<Decoder<T>>> decoder = MakeDecoder<T>(encoding, column);
            if (!decoder.ok()) return decoder.status();
            absl::Span<const uint8_t> data(bytes);
            if (auto* dictionary = dynamic_cast<DictionaryDecoder<T>*>(decoder->get())) {
              absl::Status status =
                  dictionary->SetDictionary(data.first(*dictionary_size), *entries);
              if (!status.ok()) return status;
              data.remove_prefix(*dictionary_size);
            }
            return DecodeAndCompare(**decoder, data, values);
          }};
}

// Every encoding Parquet allows for the column's type, then GroupVarInt for integers.
template <typename T>
std::vector<Trial> Trials(const std::vector<T>& values, PhysicalType type) {
  ColumnDescriptor column;
  column.type = type;
  std::vector<Trial> trials;
  for (Encoding encoding :
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaBinaryPacked,
        Encoding::kDeltaLengthByteArray, Encoding::kDeltaByteArray, Encoding::kByteStreamSplit}) {
    if (EncodingAllowed(encoding, type)) trials.push_back(CodecTrial(values, encoding, column));
  }
  if constexpr (std::is_integral_v<T>) {
    trials.push_back({"GroupVarInt (not Parquet)",
                      [&values] {
                        GroupVarIntEncoder<T> encoder;
                        (void)encoder.Put(values);  // never fails
                        return encoder.Finish();
                      },
                      [&values](const std::vector<uint8_t>& bytes) {
                        GroupVarIntDecoder<T> decoder;
                        return DecodeAndCompare<T>(decoder, bytes, values);
                      }});
  }
  return trials;
}

// Runs `work` repeatedly for at least 20 ms and returns the best time of one run, in seconds.
double BestSeconds(const std::function<void()>& work) {
  using Clock = std::chrono::steady_clock;
  double best = 1e30;
  const auto start = Clock::now();
  int runs = 0;
  while (runs < 3 || Clock::now() - start < std::chrono::milliseconds(20)) {
    const auto t0 = Clock::now();
    work();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    ++runs;
  }
  return best;
}

int RunDemo(const std::string& path) {
  absl::StatusOr<std::vector<Column>> columns = ReadCsv(path);
  if (!columns.ok()) {
    std::cerr << "pqpage_demo: " << columns.status().message() << "\n";
    return 1;
  }
  std::cout << absl::StrFormat("%s: %d columns, %d rows\n\n", path, columns->size(),
                               columns->empty() ? 0 : columns->front().size());
  std::cout << absl::StrFormat("%-14s %-10s %-26s %10s %8s %12s %12s\n", "column", "type",
                               "encoding", "bytes", "vs PLAIN", "encode M/s", "decode M/s");
  bool all_ok = true;
  for (Column& column : *columns) {
    std::vector<ByteArray> views;
    for (const std::string& s : column.strings) views.emplace_back(s);
    std::vector<Trial> trials;
    switch (column.type) {
      case PhysicalType::kInt32:
        trials = Trials(column.int32s, column.type);
        break;
      case PhysicalType::kInt64:
        trials = Trials(column.int64s, column.type);
        break;
      case PhysicalType::kFloat:
        trials = Trials(column.floats, column.type);
        break;
      case PhysicalType::kDouble:
        trials = Trials(column.doubles, column.type);
        break;
      default:
        trials = Trials(views, column.type);
    }
    const double values = static_cast<double>(column.size());
    size_t plain_bytes = 0;
    size_t smallest = SIZE_MAX;
    std::string smallest_name;
    for (const Trial& trial : trials) {
      const std::vector<uint8_t> bytes = trial.encode();
      absl::Status status = trial.decode(bytes);
      if (!status.ok()) {
        std::cout << absl::StrFormat("%-14s %-10s %-26s FAILED: %s\n", column.name,
                                     std::string(PhysicalTypeName(column.type)), trial.encoding,
                                     status.message());
        all_ok = false;
        continue;
      }
      if (trial.encoding == "PLAIN") plain_bytes = bytes.size();
      if (bytes.size() < smallest && trial.encoding.find("not Parquet") == std::string::npos) {
        smallest = bytes.size();
        smallest_name = trial.encoding;
      }
      const double encode_s = BestSeconds([&] { (void)trial.encode(); });
      const double decode_s = BestSeconds([&] { (void)trial.decode(bytes); });
      std::cout << absl::StrFormat("%-14s %-10s %-26s %10d %7.1f%% %12.0f %12.0f\n", column.name,
                                   std::string(PhysicalTypeName(column.type)), trial.encoding,
                                   bytes.size(),
                                   plain_bytes == 0 ? 100.0 : 100.0 * bytes.size() / plain_bytes,
                                   values / encode_s / 1e6, values / decode_s / 1e6);
    }
    std::cout << absl::StrFormat("%-14s smallest Parquet encoding: %s\n\n", "", smallest_name);
  }
  std::cout << "Every encoding above decoded back to the original values bit for bit"
            << (all_ok ? ".\n" : ", except those marked FAILED.\n")
            << "Speeds include checking the round trip; decode speed counts values per second.\n";
  return all_ok ? 0 : 1;
}

// Writes the CSV as a Parquet file with pqpage's own page builder and file writer: the sample
// the README's main job inspects and re-encodes. Small pages and a small dictionary limit make
// the sample show what real files show at scale: many pages per chunk and a dictionary fallback.
template <typename T>
absl::Status WriteColumn(const std::vector<T>& values, size_t begin, size_t end,
                         ColumnChunkWriter* writer) {
  return writer->WriteBatch<T>({}, {}, absl::MakeConstSpan(values).subspan(begin, end - begin));
}

int WriteParquet(const std::string& csv, const std::string& out) {
  absl::StatusOr<std::vector<Column>> columns = ReadCsv(csv);
  if (!columns.ok()) {
    std::cerr << "pqpage_demo: " << columns.status().message() << "\n";
    return 1;
  }
  Schema::Builder builder;
  for (const Column& column : *columns) {
    builder.AddPrimitive(column.name, Repetition::kRequired, column.type, 0,
                         column.type == PhysicalType::kByteArray ? "STRING" : "");
  }
  absl::StatusOr<Schema> schema = builder.Build();
  absl::Status status = schema.status();
  std::unique_ptr<FileWriter> file;
  if (status.ok()) {
    FileWriterOptions file_options;
    file_options.key_value_metadata.push_back({"generated_by", "pqpage_demo --write-parquet"});
    absl::StatusOr<std::unique_ptr<FileWriter>> opened =
        FileWriter::Open(out, *schema, file_options);
    status = opened.status();
    if (opened.ok()) file = *std::move(opened);
  }
  WriterOptions options;
  options.data_page_size = 8 << 10;
  options.dictionary_page_size_limit = 16 << 10;
  options.write_checksums = true;
  const size_t rows = columns->empty() ? 0 : columns->front().size();
  const size_t rows_per_group = (rows + 1) / 2;
  for (size_t begin = 0; status.ok() && begin < rows; begin += rows_per_group) {
    const size_t end = std::min(rows, begin + rows_per_group);
    status = file->BeginRowGroup();
    for (size_t c = 0; status.ok() && c < columns->size(); ++c) {
      const Column& column = (*columns)[c];
      ColumnChunkWriter writer(schema->columns()[c], options);
      std::vector<ByteArray> views;
      for (const std::string& text : column.strings) views.emplace_back(text);
      switch (column.type) {
        case PhysicalType::kInt32:
          status = WriteColumn(column.int32s, begin, end, &writer);
          break;
        case PhysicalType::kInt64:
          status = WriteColumn(column.int64s, begin, end, &writer);
          break;
        case PhysicalType::kFloat:
          status = WriteColumn(column.floats, begin, end, &writer);
          break;
        case PhysicalType::kDouble:
          status = WriteColumn(column.doubles, begin, end, &writer);
          break;
        default:
          status = WriteColumn(views, begin, end, &writer);
      }
      if (status.ok()) status = file->WriteColumnChunk(std::move(writer));
    }
    if (status.ok()) status = file->EndRowGroup();
  }
  if (status.ok()) status = file->Close();
  if (!status.ok()) {
    std::cerr << "pqpage_demo: " << out << ": " << status.message() << "\n";
    return 1;
  }
  std::cout << absl::StrFormat("wrote %s: %d rows in 2 row groups\n", out, rows);
  return 0;
}

}  // namespace
}  // namespace pqpage

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[2], "--write-parquet") == 0) {
    return pqpage::WriteParquet(argv[1], argv[3]);
  }
  if (argc != 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::cerr << "usage: pqpage_demo FILE.csv [--write-parquet OUT.parquet]\n"
                 "Encodes each column of FILE.csv (header: name:TYPE,...) with every Parquet\n"
                 "encoding its type allows, verifies the round trip, and prints sizes and speeds.\n"
                 "With --write-parquet, writes the CSV as a Parquet file instead.\n";
    return argc == 2 ? 0 : 2;
  }
  return pqpage::RunDemo(argv[1]);
}
