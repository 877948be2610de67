// pqpage against Arrow C++ (the libparquet that pyarrow ships), side by side in one binary: the
// same values are encoded by both, and the same encoded bytes are decoded by both (each decoder's
// output is checked against the values once before timing, which doubles as an interop check).
// Benchmark names are <direction>/<encoding>/<shape>/<implementation>; bench/arrow/ratios.py turns
// a JSON run into pqpage/Arrow ratios. Built only with -DPQPAGE_ARROW_DIR=<pyarrow package
// directory>.
#include <arrow/buffer.h>
#include <benchmark/benchmark.h>
#include <parquet/column_reader.h>
#include <parquet/column_writer.h>
#include <parquet/encoding.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench_data.h"
#include "pqpage/byte_stream_split.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/delta_length_byte_array.h"
#include "pqpage/dictionary.h"
#include "pqpage/plain.h"
#include "pqpage/rle_bit_packed_hybrid.h"

namespace pqpage_bench {
// bloom_filter_comparison.cc: bloom filter probes and inserts.
void RegisterBloomFilterComparisons();
}  // namespace pqpage_bench

namespace {

constexpr int kValues = 65536;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "arrow_comparison_bench: %s\n", what);
    std::abort();
  }
}

// ------------------------------------------------------------------ data shapes
// Column shapes come from bench/bench_data.h, shared with the other benchmarks; only the levels
// (an optional column with ~10% nulls scattered at random) are made here.
std::vector<int16_t> ScatteredNullLevels() {
  std::mt19937 rng(7);
  std::vector<int16_t> v(kValues);
  for (auto& x : v) x = rng() % 10 != 0;
  return v;
}

std::vector<parquet::ByteArray> ArrowViews(const std::vector<std::string>& strings) {
  std::vector<parquet::ByteArray> views;
  for (const auto& s : strings) {
    views.emplace_back(static_cast<uint32_t>(s.size()), reinterpret_cast<const uint8_t*>(s.data()));
  }
  return views;
}

template <typename T>
bool SameValues(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}
bool SameStrings(const std::vector<parquet::ByteArray>& got, const std::vector<std::string>& want) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i].len != want[i].size() || std::memcmp(got[i].ptr, want[i].data(), got[i].len) != 0) {
      return false;
    }
  }
  return true;
}
bool SameStrings(const std::vector<pqpage::ByteArray>& got, const std::vector<std::string>& want) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i].AsStringView() != want[i]) return false;
  }
  return true;
}

void Finish(benchmark::State& state, size_t value_bytes) {
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * value_bytes);
}

// ------------------------------------------------------------------ decode, fixed width
// Decodes `bytes` (an `encoding` stream of `values`) with Arrow's decoder for DType.
template <typename DType, typename T>
void ArrowDecode(benchmark::State& state, parquet::Encoding::type encoding,
                 const std::vector<uint8_t>& bytes, const std::vector<T>& values) {
  auto decoder = parquet::MakeTypedDecoder<DType>(encoding);
  std::vector<T> out(values.size());
  decoder->SetData(kValues, bytes.data(), static_cast<int>(bytes.size()));
  Check(decoder->Decode(out.data(), kValues) == kValues && SameValues(out, values),
        "Arrow decoded other values");
  for (auto _ : state) {
    decoder->SetData(kValues, bytes.data(), static_cast<int>(bytes.size()));
    benchmark::DoNotOptimize(decoder->Decode(out.data(), kValues));
  }
  Finish(state, sizeof(T));
}

template <typename Decoder, typename T>
void PqpageDecode(benchmark::State& state, Decoder& decoder, const std::vector<uint8_t>& bytes,
                  const std::vector<T>& values) {
  std::vector<T> out(values.size());
  Check(decoder.Reset(bytes, kValues).ok() && decoder.Decode(absl::MakeSpan(out)).ok() &&
            SameValues(out, values),
        "pqpage decoded other values");
  for (auto _ : state) {
    (void)decoder.Reset(bytes, kValues);
    benchmark::DoNotOptimize(decoder.Decode(absl::MakeSpan(out)));
  }
  Finish(state, sizeof(T));
}

template <typename T, typename Encoder>
std::vector<uint8_t> EncodeWith(Encoder encoder, const std::vector<T>& values) {
  if (!encoder.Put(values).ok()) std::abort();  // the benchmark's own data always fits
  return encoder.Finish();
}

template <typename DType, typename T>
void RegisterFixedWidthDecode(
    const std::string& name, parquet::Encoding::type arrow_encoding, std::vector<T> values,
    std::vector<uint8_t> bytes,
    std::function<void(benchmark::State&, const std::vector<uint8_t>&, const std::vector<T>&)>
        ours) {
  benchmark::RegisterBenchmark(("decode/" + name + "/arrow").c_str(), [=](benchmark::State& state) {
    ArrowDecode<DType>(state, arrow_encoding, bytes, values);
  });
  benchmark::RegisterBenchmark(("decode/" + name + "/pqpage").c_str(),
                               [=](benchmark::State& state) { ours(state, bytes, values); });
}

// ------------------------------------------------------------------ encode, fixed width
template <typename DType, typename T>
void ArrowEncode(benchmark::State& state, parquet::Encoding::type encoding, bool dictionary,
                 const std::vector<T>& values) {
  auto encoder = parquet::MakeTypedEncoder<DType>(encoding, dictionary);
  for (auto _ : state) {
    encoder->Put(values.data(), kValues);
    auto buffer = encoder->FlushValues();
    benchmark::DoNotOptimize(buffer->data());
  }
  Finish(state, sizeof(T));
}

void RegisterAll() {
  using parquet::Encoding;
  namespace data = pqpage::bench;
  static const auto random32 = data::BoundedInts<int32_t>(kValues, 1000000);
  static const auto low_card = data::LowCardinalityIds<int32_t>(kValues, 1000);
  static const auto timestamps = data::SortedTimestamps(kValues);
  static const auto doubles = data::Doubles(kValues);
  static const auto floats = data::Floats(kValues);
  static const auto urls = data::UrlLikeStrings(kValues);
  static const auto shorts = data::ShortStrings(kValues);
  static const auto levels = ScatteredNullLevels();

  // PLAIN
  RegisterFixedWidthDecode<parquet::Int32Type, int32_t>(
      "PLAIN/INT32", Encoding::PLAIN, random32,
      EncodeWith(pqpage::PlainEncoder<int32_t>(), random32),
      [](benchmark::State& s, const auto& b, const auto& v) {
        pqpage::PlainDecoder<int32_t> d;
        PqpageDecode(s, d, b, v);
      });
  RegisterFixedWidthDecode<parquet::DoubleType, double>(
      "PLAIN/DOUBLE", Encoding::PLAIN, doubles, EncodeWith(pqpage::PlainEncoder<double>(), doubles),
      [](benchmark::State& s, const auto& b, const auto& v) {
        pqpage::PlainDecoder<double> d;
        PqpageDecode(s, d, b, v);
      });
  // DELTA_BINARY_PACKED
  RegisterFixedWidthDecode<parquet::Int32Type, int32_t>(
      "DELTA_BINARY_PACKED/INT32", Encoding::DELTA_BINARY_PACKED, random32,
      EncodeWith(pqpage::DeltaBinaryPackedEncoder<int32_t>(), random32),
      [](benchmark::State& s, const auto& b, const auto& v) {
        pqpage::DeltaBinaryPackedDecoder<int32_t> d;
        PqpageDecode(s, d, b, v);
      });
  RegisterFixedWidthDecode<parquet::Int64Type, int64_t>(
      "DELTA_BINARY_PACKED/INT64_TIMESTAMPS", Encoding::DELTA_BINARY_PACKED, timestamps,
      EncodeWith(pqpage::DeltaBinaryPackedEncoder<int64_t>(), timestamps),
      [](benchmark::State& s, const auto& b, const auto& v) {
        pqpage::DeltaBinaryPackedDecoder<int64_t> d;
        PqpageDecode(s, d, b, v);
      });
  // BYTE_STREAM_SPLIT
  RegisterFixedWidthDecode<parquet::FloatType, float>(
      "BYTE_STREAM_SPLIT/FLOAT", Encoding::BYTE_STREAM_SPLIT, floats,
      EncodeWith(pqpage::ByteStreamSplitEncoder<float>(), floats),
      [](benchmark::State& s, const auto& b, const auto& v) {
        pqpage::ByteStreamSplitDecoder<float> d;
        PqpageDecode(s, d, b, v);
      });
  RegisterFixedWidthDecode<parquet::DoubleType, double>(
      "BYTE_STREAM_SPLIT/DOUBLE", Encoding::BYTE_STREAM_SPLIT, doubles,
      EncodeWith(pqpage::ByteStreamSplitEncoder<double>(), doubles),
      [](benchmark::State& s, const auto& b, const auto& v) {
        pqpage::ByteStreamSplitDecoder<double> d;
        PqpageDecode(s, d, b, v);
      });

  // RLE_DICTIONARY, INT32: the dictionary page and indices come from pqpage's encoder.
  {
    auto encoder = std::make_shared<pqpage::DictionaryEncoder<int32_t>>();
    Check(encoder->Put(low_card).ok(), "dictionary put");
    const std::vector<uint8_t> indices = encoder->FinishDataPage();
    const std::vector<uint8_t> dictionary = encoder->DictionaryPage();
    const int entries = static_cast<int>(encoder->num_entries());
    benchmark::RegisterBenchmark("decode/RLE_DICTIONARY/INT32/arrow", [=](benchmark::State& state) {
      auto plain = parquet::MakeTypedDecoder<parquet::Int32Type>(Encoding::PLAIN);
      plain->SetData(entries, dictionary.data(), static_cast<int>(dictionary.size()));
      auto decoder = parquet::MakeDictDecoder<parquet::Int32Type>();
      decoder->SetDict(plain.get());
      std::vector<int32_t> out(kValues);
      decoder->SetData(kValues, indices.data(), static_cast<int>(indices.size()));
      Check(decoder->Decode(out.data(), kValues) == kValues && SameValues(out, low_card),
            "Arrow dictionary decode");
      for (auto _ : state) {
        decoder->SetData(kValues, indices.data(), static_cast<int>(indices.size()));
        benchmark::DoNotOptimize(decoder->Decode(out.data(), kValues));
      }
      Finish(state, sizeof(int32_t));
    });
    benchmark::RegisterBenchmark(
        "decode/RLE_DICTIONARY/INT32/pqpage", [=](benchmark::State& state) {
          pqpage::DictionaryDecoder<int32_t> decoder;
          Check(decoder.SetDictionary(dictionary, entries).ok(), "pqpage dictionary page");
          PqpageDecode(state, decoder, indices, low_card);
        });
    benchmark::RegisterBenchmark("encode/RLE_DICTIONARY/INT32/arrow", [](benchmark::State& state) {
      ArrowEncode<parquet::Int32Type>(state, Encoding::PLAIN, true, low_card);
    });
    benchmark::RegisterBenchmark("encode/RLE_DICTIONARY/INT32/pqpage", [](benchmark::State& state) {
      pqpage::DictionaryEncoder<int32_t> encoder;
      std::vector<uint8_t> out;
      for (auto _ : state) {
        out.clear();
        (void)encoder.Put(low_card);
        encoder.FinishInto(&out);
        benchmark::DoNotOptimize(out.data());
      }
      Finish(state, sizeof(int32_t));
    });
  }

  // Byte arrays: PLAIN, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY.
  struct StringCase {
    const char* name;
    parquet::Encoding::type encoding;
    const std::vector<std::string>* values;
  };
  for (const StringCase& c :
       {StringCase{"PLAIN/BYTE_ARRAY_SHORT", Encoding::PLAIN, &shorts},
        StringCase{"DELTA_LENGTH_BYTE_ARRAY/BYTE_ARRAY_SHORT", Encoding::DELTA_LENGTH_BYTE_ARRAY,
                   &shorts},
        StringCase{"DELTA_BYTE_ARRAY/BYTE_ARRAY_URLS", Encoding::DELTA_BYTE_ARRAY, &urls}}) {
    const std::vector<std::string>& values = *c.values;
    // The Arrow encoder's bytes: both sides decode them.
    auto arrow_encoder = parquet::MakeTypedEncoder<parquet::ByteArrayType>(c.encoding);
    const auto arrow_views = ArrowViews(values);
    arrow_encoder->Put(arrow_views.data(), kValues);
    auto buffer = arrow_encoder->FlushValues();
    const std::vector<uint8_t> bytes(buffer->data(), buffer->data() + buffer->size());
    const auto encoding = c.encoding;
    const std::string name = c.name;
    benchmark::RegisterBenchmark(
        ("decode/" + name + "/arrow").c_str(), [=, &values](benchmark::State& state) {
          auto decoder = parquet::MakeTypedDecoder<parquet::ByteArrayType>(encoding);
          std::vector<parquet::ByteArray> out(kValues);
          decoder->SetData(kValues, bytes.data(), static_cast<int>(bytes.size()));
          Check(decoder->Decode(out.data(), kValues) == kValues && SameStrings(out, values),
                "Arrow string decode");
          for (auto _ : state) {
            decoder->SetData(kValues, bytes.data(), static_cast<int>(bytes.size()));
            benchmark::DoNotOptimize(decoder->Decode(out.data(), kValues));
          }
          Finish(state, 0);
        });
    benchmark::RegisterBenchmark(
        ("decode/" + name + "/pqpage").c_str(), [=, &values](benchmark::State& state) {
          std::vector<pqpage::ByteArray> out(kValues);
          auto run = [&](auto& decoder) {
            Check(decoder.Reset(bytes, kValues).ok() && decoder.Decode(absl::MakeSpan(out)).ok() &&
                      SameStrings(out, values),
                  "pqpage string decode");
            for (auto _ : state) {
              (void)decoder.Reset(bytes, kValues);
              benchmark::DoNotOptimize(decoder.Decode(absl::MakeSpan(out)));
            }
          };
          if (encoding == Encoding::PLAIN) {
            pqpage::PlainDecoder<pqpage::ByteArray> decoder;
            run(decoder);
          } else if (encoding == Encoding::DELTA_LENGTH_BYTE_ARRAY) {
            pqpage::DeltaLengthByteArrayDecoder decoder;
            run(decoder);
          } else {
            pqpage::DeltaByteArrayDecoder decoder;
            run(decoder);
          }
          Finish(state, 0);
        });
    benchmark::RegisterBenchmark(
        ("encode/" + name + "/arrow").c_str(), [=](benchmark::State& state) {
          auto encoder = parquet::MakeTypedEncoder<parquet::ByteArrayType>(encoding);
          for (auto _ : state) {
            encoder->Put(arrow_views.data(), kValues);
            auto flushed = encoder->FlushValues();
            benchmark::DoNotOptimize(flushed->data());
          }
          Finish(state, 0);
        });
    benchmark::RegisterBenchmark(("encode/" + name + "/pqpage").c_str(),
                                 [=, &values](benchmark::State& state) {
                                   const auto views = pqpage::bench::MakeByteArrays(values);
                                   auto run = [&](auto& encoder) {
                                     for (auto _ : state) {
                                       (void)encoder.Put(views);
                                       auto page = encoder.Finish();
                                       benchmark::DoNotOptimize(page.data());
                                     }
                                   };
                                   if (encoding == Encoding::PLAIN) {
                                     pqpage::PlainEncoder<pqpage::ByteArray> encoder;
                                     run(encoder);
                                   } else if (encoding == Encoding::DELTA_LENGTH_BYTE_ARRAY) {
                                     pqpage::DeltaLengthByteArrayEncoder encoder;
                                     run(encoder);
                                   } else {
                                     pqpage::DeltaByteArrayEncoder encoder;
                                     run(encoder);
                                   }
                                   Finish(state, 0);
                                 });
  }

  // Fixed-width encoders.
  benchmark::RegisterBenchmark("encode/PLAIN/INT32/arrow", [](benchmark::State& state) {
    ArrowEncode<parquet::Int32Type>(state, Encoding::PLAIN, false, random32);
  });
  benchmark::RegisterBenchmark("encode/PLAIN/INT32/pqpage", [](benchmark::State& state) {
    pqpage::PlainEncoder<int32_t> encoder;
    for (auto _ : state) {
      benchmark::DoNotOptimize(encoder.Put(random32));
      benchmark::DoNotOptimize(encoder.Finish().data());
    }
    Finish(state, sizeof(int32_t));
  });
  benchmark::RegisterBenchmark(
      "encode/DELTA_BINARY_PACKED/INT32/arrow", [](benchmark::State& state) {
        ArrowEncode<parquet::Int32Type>(state, Encoding::DELTA_BINARY_PACKED, false, random32);
      });
  benchmark::RegisterBenchmark("encode/DELTA_BINARY_PACKED/INT32/pqpage",
                               [](benchmark::State& state) {
                                 pqpage::DeltaBinaryPackedEncoder<int32_t> encoder;
                                 for (auto _ : state) {
                                   benchmark::DoNotOptimize(encoder.Put(random32));
                                   benchmark::DoNotOptimize(encoder.Finish().data());
                                 }
                                 Finish(state, sizeof(int32_t));
                               });
  benchmark::RegisterBenchmark(
      "encode/DELTA_BINARY_PACKED/INT64_TIMESTAMPS/arrow", [](benchmark::State& state) {
        ArrowEncode<parquet::Int64Type>(state, Encoding::DELTA_BINARY_PACKED, false, timestamps);
      });
  benchmark::RegisterBenchmark("encode/DELTA_BINARY_PACKED/INT64_TIMESTAMPS/pqpage",
                               [](benchmark::State& state) {
                                 pqpage::DeltaBinaryPackedEncoder<int64_t> encoder;
                                 for (auto _ : state) {
                                   benchmark::DoNotOptimize(encoder.Put(timestamps));
                                   benchmark::DoNotOptimize(encoder.Finish().data());
                                 }
                                 Finish(state, sizeof(int64_t));
                               });
  benchmark::RegisterBenchmark(
      "encode/BYTE_STREAM_SPLIT/DOUBLE/arrow", [](benchmark::State& state) {
        ArrowEncode<parquet::DoubleType>(state, Encoding::BYTE_STREAM_SPLIT, false, doubles);
      });
  benchmark::RegisterBenchmark("encode/BYTE_STREAM_SPLIT/DOUBLE/pqpage",
                               [](benchmark::State& state) {
                                 pqpage::ByteStreamSplitEncoder<double> encoder;
                                 for (auto _ : state) {
                                   benchmark::DoNotOptimize(encoder.Put(doubles));
                                   benchmark::DoNotOptimize(encoder.Finish().data());
                                 }
                                 Finish(state, sizeof(double));
                               });

  // Levels (RLE, max level 1, scattered nulls), as a v1 page holds them: behind a length prefix.
  {
    pqpage::RleBitPackedHybridEncoder encoder(1);
    Check(encoder.Put(levels).ok(), "levels put");
    const std::vector<uint8_t> stream = encoder.Finish();
    std::vector<uint8_t> framed;
    pqpage::AppendLengthPrefixed(stream, &framed);
    benchmark::RegisterBenchmark("decode/RLE/LEVELS_MAX1/arrow", [=](benchmark::State& state) {
      parquet::LevelDecoder decoder;
      std::vector<int16_t> out(kValues);
      decoder.SetData(Encoding::RLE, 1, kValues, framed.data(),
                      static_cast<int32_t>(framed.size()));
      Check(decoder.Decode(kValues, out.data()) == kValues && SameValues(out, levels),
            "Arrow level decode");
      for (auto _ : state) {
        decoder.SetData(Encoding::RLE, 1, kValues, framed.data(),
                        static_cast<int32_t>(framed.size()));
        benchmark::DoNotOptimize(decoder.Decode(kValues, out.data()));
      }
      Finish(state, sizeof(int16_t));
    });
    benchmark::RegisterBenchmark("decode/RLE/LEVELS_MAX1/pqpage", [=](benchmark::State& state) {
      pqpage::RleBitPackedHybridDecoder decoder;
      std::vector<int16_t> out(kValues);
      Check(decoder.Reset(stream, 1, kValues).ok() &&
                decoder.DecodeLevels(absl::MakeSpan(out), 1).ok() && SameValues(out, levels),
            "pqpage level decode");
      for (auto _ : state) {
        (void)decoder.Reset(stream, 1, kValues);
        benchmark::DoNotOptimize(decoder.DecodeLevels(absl::MakeSpan(out), 1));
      }
      Finish(state, sizeof(int16_t));
    });
    benchmark::RegisterBenchmark("encode/RLE/LEVELS_MAX1/arrow", [](benchmark::State& state) {
      std::vector<uint8_t> buffer(parquet::LevelEncoder::MaxBufferSize(Encoding::RLE, 1, kValues));
      for (auto _ : state) {
        parquet::LevelEncoder encoder;
        encoder.Init(Encoding::RLE, 1, kValues, buffer.data(), static_cast<int>(buffer.size()));
        benchmark::DoNotOptimize(encoder.Encode(kValues, levels.data()));
      }
      Finish(state, sizeof(int16_t));
    });
    benchmark::RegisterBenchmark("encode/RLE/LEVELS_MAX1/pqpage", [](benchmark::State& state) {
      pqpage::RleBitPackedHybridEncoder encoder(1);
      std::vector<uint8_t> out;
      for (auto _ : state) {
        out.clear();
        (void)encoder.Put(levels);
        encoder.FinishInto(&out);
        benchmark::DoNotOptimize(out.data());
      }
      Finish(state, sizeof(int16_t));
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  RegisterAll();
  pqpage_bench::RegisterBloomFilterComparisons();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
