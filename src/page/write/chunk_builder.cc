// The page builder's engine for one column chunk of value type T. Levels and values go into the
// page being filled: levels as they are (the page encodes them when it is finished), values
// straight into the page's value encoder. A page is finished at a row start (repetition level 0)
// once it is full (with content-defined chunking: where the chunker says), so pages never split a
// row, even when a batch ends inside one. The dictionary-full fallback is the one place where
// values already encoded must move: when the dictionary fills up inside a row, that row's indices
// are cut off the page and its values go, with the rest of the chunk, to the fallback encoding.
#include "page/write/chunk_builder.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/checked_math.h"
#include "page/choice/encoding_choice.h"
#include "page/choice/encoding_measure.h"
#include "page/choice/value_sample.h"
#include "page/write/chunk_assembler.h"
#include "page/write/chunk_verifier.h"
#include "page/write/content_defined_chunker.h"
#include "page/write/input_dictionary_map.h"
#include "page/write/page_index_builder.h"
#include "page/write/page_value_encoder.h"
#include "page/write/statistics.h"
#include "page/write/writer_checks.h"
#include "pqpage/dictionary.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage::internal {
namespace {

struct NoDictionary {};

template <typename T>
class ChunkBuilder final : public TypedChunkBuilder<T> {
 public:
  static constexpr bool kHasDictionary = !std::is_same_v<T, bool>;
  using Dictionary = std::conditional_t<kHasDictionary, DictionaryEncoder<T>, NoDictionary>;

  ChunkBuilder(const ColumnDescriptor& column, const WriterOptions& options)
      : column_(column),
        options_(options),
        plan_(internal::PlanEncodings(options, column)),
        rep_width_(internal::BitWidthOf(static_cast<uint64_t>(column.max_repetition_level))),
        def_width_(internal::BitWidthOf(static_cast<uint64_t>(column.max_definition_level))),
        assembler_(column, options),
        page_stats_(column),
        chunk_stats_(column),
        count_bytes_(column.type == PhysicalType::kByteArray),
        page_index_(column, options.page_index_truncate_length) {}

  absl::Status Init() {
    if (options_.content_defined_chunking.enabled) {
      PQPAGE_ASSIGN_OR_RETURN(
          const ChunkingPlan plan,
          PlanChunking(options_.content_defined_chunking, options_.data_page_size));
      chunker_ = std::make_unique<ContentDefinedChunker>(column_, plan);
    }
    if (plan_.measure) {
      sampling_ = true;
      return absl::OkStatus();
    }
    if constexpr (kHasDictionary) {
      if (plan_.use_dictionary) {
        dictionary_ = MakeDictionary();
        dictionary_active_ = true;
        return absl::OkStatus();
      }
    }
    return StartFallback();
  }

  absl::StatusOr<int64_t> Check(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                                absl::Span<const T> values) const override {
    return CheckBatch<T>(column_, def, rep, values, !started_);
  }

  // `levels` as returned by Check for this batch.
  absl::Status Write(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                     absl::Span<const T> values, int64_t levels) override {
    if (levels == 0) return absl::OkStatus();
    started_ = true;
    if (options_.verify_pages) {
      if (verifier_ == nullptr) verifier_ = std::make_unique<ChunkVerifier<T>>(column_);
      verifier_->Record(def, rep, values);
    }
    return Append(def, rep, values, levels);
  }

  absl::StatusOr<int64_t> CheckIndexed(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                                       absl::Span<const uint32_t> indices,
                                       absl::Span<const T> entries) const override {
    PQPAGE_ASSIGN_OR_RETURN(
        const int64_t levels,
        CheckLevels(column_, def, rep, static_cast<int64_t>(indices.size()), !started_));
    PQPAGE_RETURN_IF_ERROR(CheckIndices(column_, indices, entries.size()));
    // Every entry, once per entries span rather than once per batch.
    if (entries.data() != checked_entries_.data() || entries.size() != checked_entries_.size()) {
      PQPAGE_RETURN_IF_ERROR(CheckValues(column_, entries));
      checked_entries_ = entries;
    }
    return levels;
  }

  absl::Status WriteIndexed(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                            absl::Span<const uint32_t> indices, absl::Span<const T> entries,
                            int64_t levels) override {
    if (levels == 0) return absl::OkStatus();
    const IndexedValues<T> values{indices, entries};
    if constexpr (kHasDictionary) {
      if (!options_.verify_pages) {
        started_ = true;
        input_map_.Use(entries);
        return Append(def, rep, values, levels);
      }
    }
    // The verifier records values; BOOLEAN has no dictionary to map onto.
    return Write(def, rep, Resolve(values), levels);
  }

  int64_t EstimatedChunkSize() const override {
    int64_t size = assembler_.data_pages_bytes();
    if (page_levels_ > 0) size += EstimatedPageSize();
    if constexpr (kHasDictionary) {
      if (dictionary_ != nullptr) size += dictionary_->dictionary_bytes();
    }
    return size;
  }

  absl::StatusOr<ColumnChunkData> Finish(int64_t file_offset, bool in_pieces) override {
    if (sampling_ && page_levels_ > 0) PQPAGE_RETURN_IF_ERROR(Decide(/*chunk_ends=*/true));
    if (page_levels_ > 0) PQPAGE_RETURN_IF_ERROR(FinishPage());
    std::vector<uint8_t> dictionary_body;
    int64_t dictionary_entries = 0;
    bool has_dictionary_page = false;
    if constexpr (kHasDictionary) {
      // A dictionary that filled up before any page used it is not written.
      if (dictionary_used_) {
        dictionary_body = dictionary_->DictionaryPage();
        dictionary_entries = dictionary_->num_entries();
        has_dictionary_page = true;
      }
    }
    std::optional<Statistics> statistics;
    if (options_.write_statistics) statistics = chunk_stats_.ToStatistics();
    const bool verify = options_.verify_pages && verifier_ != nullptr;  // reads one buffer
    PQPAGE_ASSIGN_OR_RETURN(
        ColumnChunkData chunk,
        assembler_.Finish(file_offset, has_dictionary_page ? &dictionary_body : nullptr,
                          dictionary_entries, std::move(statistics), in_pieces && !verify));
    PQPAGE_RETURN_IF_ERROR(page_index_.Finish(&chunk));
    if (verify) {
      PQPAGE_RETURN_IF_ERROR(verifier_->Verify(chunk));
    }
    return chunk;
  }

 private:
  // Adds a checked batch (or the held-back sample) to the pages. `Values` is a span of T or
  // IndexedValues<T>.
  template <typename Values>
  absl::Status Append(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                      const Values& values, int64_t levels) {
    const bool has_def = column_.max_definition_level > 0;
    const bool has_rep = column_.max_repetition_level > 0;
    const int16_t max_def = column_.max_definition_level;
    int64_t i = 0;
    size_t v = 0;
    BatchCuts cuts;  // content-defined chunking's
    while (i < levels) {
      const bool row_start = !has_rep || rep[i] == 0;
      // A loop: the end of kAuto's sample writes the sample, which may leave a full page.
      while (row_start && PageFull()) PQPAGE_RETURN_IF_ERROR(FinishPage());
      int64_t end = levels;
      if (chunker_ != nullptr && !sampling_) {
        cuts.FeedOnce(*chunker_, has_def ? def.subspan(i) : def, has_rep ? rep.subspan(i) : rep,
                      values.subspan(v, values.size() - v), i, levels);
        if (cuts.StartsAt(i) && page_levels_ > 0) PQPAGE_RETURN_IF_ERROR(FinishPage());
        end = cuts.End(levels);
      }
      // Take rows up to the point where the page might be full, so that the check above runs
      // again at that row start; the bound overestimates, so the page rarely overshoots.
      const int64_t budget = PageTarget() - EstimatedPageSize();
      const int64_t rows_left = options_.data_page_row_limit - page_rows_;
      int64_t j = i;
      size_t w = v;
      int64_t rows = 0;
      int64_t bound = 0;
      while (j < end) {
        if (!has_rep || rep[j] == 0) {
          if (j > i && (rows >= rows_left || bound >= budget)) break;
          ++rows;
        }
        bound += (has_def ? 1 : 0) + (has_rep ? 1 : 0);
        if (!has_def || def[j] == max_def) bound += ValueBound(values[w++]);
        ++j;
      }
      PQPAGE_RETURN_IF_ERROR(AddToPage(has_def ? def.subspan(i, j - i) : def,
                                       has_rep ? rep.subspan(i, j - i) : rep,
                                       values.subspan(v, w - v), j - i, rows));
      i = j;
      v = w;
    }
    return absl::OkStatus();
  }

  // The page size at which the page being filled is finished; while sampling, the sample's size.
  // Content-defined chunking finishes pages itself (its maximum bounds them).
  int64_t PageTarget() const {
    if (sampling_) return std::min(options_.data_page_size, options_.auto_sample_bytes);
    return chunker_ != nullptr ? std::numeric_limits<int64_t>::max() : options_.data_page_size;
  }

  bool PageFull() const {
    return page_rows_ > 0 &&
           (page_rows_ >= options_.data_page_row_limit || EstimatedPageSize() >= PageTarget());
  }

  int64_t EstimatedPageSize() const {
    // Levels counted as if bit-packed, without encoding them: RLE runs only make them smaller,
    // and run headers add a byte or two.
    const int64_t level_bytes =
        static_cast<int64_t>(internal::BitPackedBytes(page_levels_, rep_width_) +
                             internal::BitPackedBytes(page_levels_, def_width_));
    if (sampling_) return level_bytes + sample_.plain_bytes();
    if constexpr (kHasDictionary) {
      if (dictionary_active_) {
        return level_bytes + static_cast<int64_t>(dictionary_->EstimatedSize());
      }
    }
    return level_bytes + static_cast<int64_t>(fallback_->EstimatedSize());
  }

  std::unique_ptr<Dictionary> MakeDictionary() const {
    if constexpr (kHasDictionary) {
      DictionaryOptions dictionary_options;
      dictionary_options.max_entries = options_.max_dictionary_entries;
      dictionary_options.max_dictionary_bytes = options_.dictionary_page_size_limit;
      if constexpr (std::is_same_v<T, ByteArray>) {
        return std::make_unique<Dictionary>(CodecTypeLength(column_), dictionary_options);
      } else {
        return std::make_unique<Dictionary>(dictionary_options);
      }
    } else {
      return nullptr;
    }
  }

  PageSetup Setup() const {
    return PageSetup{options_.compression, options_.compression_level, options_.data_page_version};
  }

  // Starts pages without a dictionary in the encoding of `candidates` (the smallest on the next
  // page when there are several).
  absl::Status StartFallback(const std::vector<Encoding>& candidates) {
    dictionary_active_ = false;
    PQPAGE_ASSIGN_OR_RETURN(fallback_, internal::MakeTrialPageValueEncoder<T>(
                                           candidates, column_, Setup(), options_.auto_tie_margin));
    return absl::OkStatus();
  }
  absl::Status StartFallback() { return StartFallback(plan_.fallback); }

  // The end of kAuto's sample: measures every candidate on the held-back values, commits to the
  // winner and writes the sample with it. A sample without values (all nulls) has nothing to
  // measure: the chunk starts as other writers do, with the dictionary (PLAIN for BOOLEAN).
  absl::Status Decide(bool chunk_ends) {
    sampling_ = false;
    std::vector<int16_t> def;
    std::vector<int16_t> rep;
    def.swap(page_def_);
    rep.swap(page_rep_);
    const int64_t levels = page_levels_;
    ValueSample<T> sample = std::move(sample_);
    sample_.Clear();
    ResetPage();
    const absl::Span<const T> values = sample.values();
    const bool may_use_dictionary = std::find(plan_.measured.begin(), plan_.measured.end(),
                                              Encoding::kRleDictionary) != plan_.measured.end();
    Encoding chosen = may_use_dictionary ? Encoding::kRleDictionary : plan_.measured[0];
    std::unique_ptr<Dictionary> dictionary = MakeDictionary();
    DictionaryEncoder<T>* measured_dictionary = nullptr;
    if constexpr (kHasDictionary) measured_dictionary = dictionary.get();
    if (!values.empty()) {
      PQPAGE_ASSIGN_OR_RETURN(const std::vector<CandidateSize> sizes,
                              MeasureEncodings<T>(values, plan_.measured, column_, Setup(),
                                                  chunk_ends, measured_dictionary));
      chosen = ChooseEncoding(sizes, column_.type, options_.auto_tie_margin);
    }
    if constexpr (kHasDictionary) {
      if (chosen == Encoding::kRleDictionary) {
        dictionary_ = std::move(dictionary);
        dictionary_active_ = true;
      }
    }
    if (!dictionary_active_) {
      PQPAGE_RETURN_IF_ERROR(StartFallback({chosen}));
      watching_ = true;
    }
    return Append(def, rep, absl::MakeConstSpan(values), levels);
  }

  // After a page of the chosen non-dictionary encoding: a page that stores clearly more per level
  // than the first full page did means the data changed; the next page is measured again with
  // every candidate (the current one first, so that it stays on a tie), once per chunk.
  absl::Status Watch(int64_t stored_bytes, int64_t levels, Encoding current) {
    const double rate = static_cast<double>(stored_bytes) / static_cast<double>(levels);
    if (first_page_rate_ == 0) {
      first_page_rate_ = rate;
      return absl::OkStatus();
    }
    if (rate <= kRemeasureRatio * first_page_rate_) return absl::OkStatus();
    watching_ = false;
    std::vector<Encoding> candidates = {current};
    for (Encoding encoding : plan_.fallback) {
      if (encoding != current) candidates.push_back(encoding);
    }
    return StartFallback(candidates);
  }

  void AppendLevels(absl::Span<const int16_t> def, absl::Span<const int16_t> rep, int64_t count,
                    int64_t rows) {
    if (column_.max_definition_level > 0) page_def_.insert(page_def_.end(), def.begin(), def.end());
    if (column_.max_repetition_level > 0) page_rep_.insert(page_rep_.end(), rep.begin(), rep.end());
    page_levels_ += count;
    page_rows_ += rows;
  }

  absl::Status PutFallback(absl::Span<const T> values) {
    PQPAGE_RETURN_IF_ERROR(fallback_->Put(values));
    page_stats_.Update(values);
    page_values_ += static_cast<int64_t>(values.size());
    if (count_bytes_) page_value_bytes_ += ValueBytes(values);
    return absl::OkStatus();
  }

  absl::Status AddToPage(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                         absl::Span<const T> values, int64_t count, int64_t rows) {
    AppendLevels(def, rep, count, rows);
    if (sampling_) {
      sample_.Append(values);
      page_values_ += static_cast<int64_t>(values.size());
      return absl::OkStatus();
    }
    if constexpr (kHasDictionary) {
      if (dictionary_active_) {
        const auto before = static_cast<size_t>(dictionary_->buffered_values());
        PQPAGE_ASSIGN_OR_RETURN(const size_t taken, dictionary_->PutUntilFull(values));
        if (taken < values.size()) return FallBack(values, taken);
        if constexpr (std::is_same_v<T, ByteArray>) {
          // Byte arrays compare slowly: the bounds look at each entry once per page, as for
          // indexed input, rather than at every value.
          new_in_page_.clear();
          input_map_.AddNewToPage(dictionary_->page_indices().subspan(before),
                                  dictionary_->entries(), &new_in_page_);
          page_stats_.Update(absl::MakeConstSpan(new_in_page_));
        } else {
          page_stats_.Update(values);
        }
        page_values_ += static_cast<int64_t>(values.size());
        if (count_bytes_) page_value_bytes_ += ValueBytes(values);
        return absl::OkStatus();
      }
    }
    return PutFallback(values);
  }

  // Indexed values go into the page by index while the chunk's dictionary takes them; otherwise
  // (sampling, after the fallback) as the values they stand for.
  absl::Status AddToPage(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                         const IndexedValues<T>& values, int64_t count, int64_t rows) {
    if constexpr (kHasDictionary) {
      if (dictionary_active_ && !sampling_) {
        AppendLevels(def, rep, count, rows);
        PQPAGE_ASSIGN_OR_RETURN(const size_t mapped,
                                input_map_.Map(values.indices, *dictionary_, &own_indices_));
        const absl::Span<const uint32_t> own = absl::MakeConstSpan(own_indices_).first(mapped);
        PQPAGE_RETURN_IF_ERROR(dictionary_->PutIndices(own));
        if (mapped < values.size()) return FallBack(Resolve(values), mapped);
        new_in_page_.clear();
        input_map_.AddNewToPage(own, dictionary_->entries(), &new_in_page_);
        page_stats_.Update(absl::MakeConstSpan(new_in_page_));
        page_values_ += static_cast<int64_t>(values.size());
        if constexpr (std::is_same_v<T, ByteArray>) {
          if (count_bytes_) {
            for (const uint32_t index : own)
              page_value_bytes_ += dictionary_->entries()[index].size;
          }
        }
        return absl::OkStatus();
      }
    }
    return AddToPage(def, rep, Resolve(values), count, rows);
  }

  // The values `values` stand for, valid until the next call.
  absl::Span<const T> Resolve(const IndexedValues<T>& values) {
    if (resolved_capacity_ < values.size()) {
      resolved_ = std::make_unique<T[]>(values.size());  // not std::vector: bool needs a span
      resolved_capacity_ = values.size();
    }
    for (size_t i = 0; i < values.size(); ++i) resolved_[i] = values[i];
    return absl::MakeConstSpan(resolved_.get(), values.size());
  }

  // The dictionary took only `taken` of `values` (the last values added to the page). Finishes
  // the page with the rows it holds entirely, and starts a fallback page with the row the
  // dictionary filled up in (whose first values may have been added by earlier calls) and the
  // rest of `values`.
  absl::Status FallBack(absl::Span<const T> values, size_t taken) {
    if constexpr (kHasDictionary) {
      const int64_t first_left_out = page_values_ + static_cast<int64_t>(taken);
      // Find the row start at or before the level of value `first_left_out`.
      const bool has_def = column_.max_definition_level > 0;
      const bool has_rep = column_.max_repetition_level > 0;
      int64_t row_level = 0;
      int64_t row_value = 0;
      int64_t value_index = 0;
      for (int64_t level = 0; level < page_levels_; ++level) {
        if (!has_rep || page_rep_[level] == 0) {
          row_level = level;
          row_value = value_index;
        }
        if (!has_def || page_def_[level] == column_.max_definition_level) {
          if (value_index == first_left_out) break;
          ++value_index;
        }
      }
      std::vector<uint8_t> section = dictionary_->FinishDataPage();
      std::vector<T> moved;  // values of the cut row the dictionary had taken
      if (row_value < first_left_out) {
        // Cut the page's indices at row_value: decode them and encode the kept ones again. The
        // page's statistics are rebuilt from the kept values, as the cut ones leave the page.
        const int width = section[0];
        RleBitPackedHybridDecoder decoder;
        std::vector<uint32_t> indices(static_cast<size_t>(first_left_out));
        PQPAGE_RETURN_IF_ERROR(
            decoder.Reset(absl::MakeConstSpan(section).subspan(1), width, first_left_out));
        PQPAGE_RETURN_IF_ERROR(decoder.Decode(absl::MakeSpan(indices)));
        absl::Span<const T> entries = dictionary_->entries();
        std::vector<T> kept;
        kept.reserve(static_cast<size_t>(row_value));
        for (int64_t k = 0; k < row_value; ++k) kept.push_back(entries[indices[k]]);
        for (int64_t k = row_value; k < first_left_out; ++k) moved.push_back(entries[indices[k]]);
        page_stats_.Reset();
        page_stats_.Update(absl::MakeConstSpan(kept));
        if (count_bytes_) page_value_bytes_ = ValueBytes(absl::MakeConstSpan(kept));
        section.assign(1, static_cast<uint8_t>(width));
        RleBitPackedHybridEncoder encoder(width);
        PQPAGE_RETURN_IF_ERROR(
            encoder.Put(absl::MakeConstSpan(indices).first(static_cast<size_t>(row_value))));
        encoder.FinishInto(&section);
      } else {
        page_stats_.Update(values.first(taken));
        if (count_bytes_) page_value_bytes_ += ValueBytes(values.first(taken));
      }

      // Split the levels at the cut row.
      std::vector<int16_t> moved_def;
      std::vector<int16_t> moved_rep;
      if (has_def) {
        moved_def.assign(page_def_.begin() + row_level, page_def_.end());
        page_def_.resize(static_cast<size_t>(row_level));
      }
      if (has_rep) {
        moved_rep.assign(page_rep_.begin() + row_level, page_rep_.end());
        page_rep_.resize(static_cast<size_t>(row_level));
      }
      const int64_t moved_levels = page_levels_ - row_level;
      int64_t moved_rows = 0;
      if (has_rep) {
        for (int16_t r : moved_rep) moved_rows += r == 0;
      } else {
        moved_rows = moved_levels;
      }
      page_levels_ = row_level;
      page_values_ = row_value;
      page_rows_ -= moved_rows;
      if (page_levels_ > 0) {
        PQPAGE_RETURN_IF_ERROR(EmitPage(section, Encoding::kRleDictionary));
      } else {
        ResetPage();
      }
      PQPAGE_RETURN_IF_ERROR(StartFallback());
      AppendLevels(moved_def, moved_rep, moved_levels, moved_rows);
      PQPAGE_RETURN_IF_ERROR(PutFallback(absl::MakeConstSpan(moved)));
      return PutFallback(values.subspan(taken));
    } else {
      return absl::InternalError("dictionary fallback without a dictionary");
    }
  }

  absl::Status FinishPage() {
    if (sampling_) return Decide(/*chunk_ends=*/false);
    section_.clear();
    if constexpr (kHasDictionary) {
      if (dictionary_active_) {
        dictionary_->FinishInto(&section_);
        return EmitPage(section_, Encoding::kRleDictionary);
      }
    }
    PQPAGE_RETURN_IF_ERROR(fallback_->FinishInto(&section_));
    return EmitPage(section_, fallback_->encoding());
  }

  // Takes the page's values section (leaving `section` empty, with the storage of the page before
  // it) and hands the page to the assembler.
  absl::Status EmitPage(std::vector<uint8_t>& section, Encoding encoding) {
    EncodedDataPage& page = page_;
    PQPAGE_RETURN_IF_ERROR(page.EncodeLevels(column_, page_rep_, page_def_));
    page.values.swap(section);
    section.clear();
    page.encoding = encoding;
    page.num_levels = page_levels_;
    page.num_nulls = page_levels_ - page_values_;
    page.num_rows = page_rows_;
    page_stats_.AddNulls(page.num_nulls);
    page.statistics.reset();
    if (options_.write_statistics) page.statistics = page_stats_.ToStatistics();
    chunk_stats_.Merge(page_stats_);
    page_index_.AddPage(page_def_, page_rep_, page_levels_, page_values_,
                        page.statistics ? *page.statistics : page_stats_.ToStatistics(),
                        page_value_bytes_);
    if (encoding == Encoding::kRleDictionary) dictionary_used_ = true;
    const int64_t levels = page_levels_;
    ResetPage();
    const int64_t before = assembler_.data_pages_bytes();
    PQPAGE_RETURN_IF_ERROR(assembler_.AddDataPage(page));
    if (!watching_ || encoding == Encoding::kRleDictionary) return absl::OkStatus();
    return Watch(assembler_.data_pages_bytes() - before, levels, encoding);
  }

  void ResetPage() {
    page_def_.clear();
    page_rep_.clear();
    page_levels_ = 0;
    page_values_ = 0;
    page_rows_ = 0;
    page_value_bytes_ = 0;
    page_stats_.Reset();
    if constexpr (kHasDictionary) input_map_.StartPage();
  }

  ColumnDescriptor column_;
  // A page's parts, kept from page to page with their storage: the values section an encoder
  // finishes into (which then swaps with the encoder's own buffer), and the page handed to the
  // assembler. So no page is encoded into fresh memory.
  std::vector<uint8_t> section_;
  EncodedDataPage page_;
  WriterOptions options_;
  EncodingPlan plan_;
  int rep_width_;
  int def_width_;
  ChunkAssembler assembler_;

  std::unique_ptr<Dictionary> dictionary_;
  bool dictionary_active_ = false;  // the page being filled is dictionary-encoded
  bool dictionary_used_ = false;    // some finished page is
  std::unique_ptr<PageValueEncoder<T>> fallback_;

  // WriteIndexed: the input's entries checked last, their map onto dictionary_, and scratch.
  mutable absl::Span<const T> checked_entries_;
  std::conditional_t<kHasDictionary, InputDictionaryMap<T>, NoDictionary> input_map_;
  std::vector<uint32_t> own_indices_;
  std::conditional_t<kHasDictionary, std::vector<T>, NoDictionary> new_in_page_;
  std::unique_ptr<T[]> resolved_;
  size_t resolved_capacity_ = 0;

  // kAuto: the held-back start of the chunk, and the watch over the chosen encoding's pages.
  static constexpr double kRemeasureRatio = 1.25;
  bool sampling_ = false;
  ValueSample<T> sample_;
  bool watching_ = false;
  double first_page_rate_ = 0;  // stored bytes per level

  // The page being filled.
  std::vector<int16_t> page_def_;
  std::vector<int16_t> page_rep_;
  int64_t page_levels_ = 0;
  int64_t page_values_ = 0;
  int64_t page_rows_ = 0;  // row starts in the page
  StatisticsAccumulator page_stats_;
  StatisticsAccumulator chunk_stats_;
  // BYTE_ARRAY: the page's value bytes, for the page index and SizeStatistics.
  bool count_bytes_ = false;
  int64_t page_value_bytes_ = 0;
  PageIndexBuilder page_index_;

  bool started_ = false;
  std::unique_ptr<ChunkVerifier<T>> verifier_;
  std::unique_ptr<ContentDefinedChunker> chunker_;  // with content-defined chunking only
};

template <typename T>
absl::StatusOr<std::unique_ptr<ChunkBuilderBase>> MakeTypedBuilder(const ColumnDescriptor& column,
                                                                   const WriterOptions& options) {
  auto builder = std::make_unique<ChunkBuilder<T>>(column, options);
  PQPAGE_RETURN_IF_ERROR(builder->Init());
  return std::unique_ptr<ChunkBuilderBase>(std::move(builder));
}

}  // namespace

absl::StatusOr<std::unique_ptr<ChunkBuilderBase>> MakeChunkBuilder(const ColumnDescriptor& column,
                                                                   const WriterOptions& options) {
  return VisitValueType(column.type, [&](auto tag) {
    return MakeTypedBuilder<typename decltype(tag)::Type>(column, options);
  });
}

}  // namespace pqpage::internal
