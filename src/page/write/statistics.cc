#include "page/write/statistics.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pqpage/value_type.h"

namespace pqpage::internal {
namespace {

template <typename T>
std::string EncodeOne(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

// Whether a sorts before b in `order`.
template <typename T>
bool Less(SortOrder order, const T& a, const T& b) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return order == SortOrder::kSignedDecimal
               ? CompareSignedBigEndian(a.AsStringView(), b.AsStringView()) < 0
               : CompareUnsignedBytes(a.AsStringView(), b.AsStringView()) < 0;
  } else if constexpr (std::is_integral_v<T>) {
    if (order == SortOrder::kUnsigned) {
      return static_cast<std::make_unsigned_t<T>>(a) < static_cast<std::make_unsigned_t<T>>(b);
    }
    return a < b;
  } else {
    return a < b;
  }
}

// The first 8 bytes of `value` as a big-endian number, zero-padded past its end. In the unsigned
// byte order, values whose numbers differ sort as their numbers do (the first differing byte
// decides, and a value that ends before it is the smaller); equal numbers leave it to the bytes
// after them. Most values of a page fall strictly between its bounds on their first bytes alone.
uint64_t PrefixKey(const ByteArray& value) {
  uint64_t key = 0;
  if (value.size >= 8) {
    std::memcpy(&key, value.data, 8);
    return __builtin_bswap64(key);
  }
  for (uint32_t i = 0; i < value.size; ++i) {
    key |= static_cast<uint64_t>(value.data[i]) << (56 - 8 * i);
  }
  return key;
}

}  // namespace

template <typename T>
void StatisticsAccumulator::Update(absl::Span<const T> values) {
  if (!ValueTypeMatches<T>(type_) || values.empty() || order_ == SortOrder::kNone) return;
  if constexpr (std::is_same_v<T, Int96>) {
    return;  // INT96 has no defined sort order
  } else if constexpr (std::is_same_v<T, ByteArray>) {
    ByteArray lo = values[0];
    ByteArray hi = values[0];
    if (order_ == SortOrder::kSignedDecimal) {
      for (const ByteArray& v : values.subspan(1)) {
        if (Less(order_, v, lo)) lo = v;
        if (Less(order_, hi, v)) hi = v;
      }
    } else {
      uint64_t lo_key = PrefixKey(lo);
      uint64_t hi_key = lo_key;
      for (const ByteArray& v : values.subspan(1)) {
        const uint64_t key = PrefixKey(v);
        if (key <= lo_key && (key < lo_key || Less(order_, v, lo))) {
          lo = v;
          lo_key = key;
        }
        if (key >= hi_key && (key > hi_key || Less(order_, hi, v))) {
          hi = v;
          hi_key = key;
        }
      }
    }
    MergeBounds(std::string(lo.AsStringView()), std::string(hi.AsStringView()));
  } else if constexpr (std::is_same_v<T, bool>) {
    bool any_false = false;
    bool any_true = false;
    for (bool v : values) (v ? any_true : any_false) = true;
    const uint8_t lo = any_false ? 0 : 1;
    const uint8_t hi = any_true ? 1 : 0;
    MergeBounds(EncodeOne(lo), EncodeOne(hi));
  } else if constexpr (std::is_floating_point_v<T>) {
    bool found = false;
    T lo = 0;
    T hi = 0;
    for (T v : values) {
      if (std::isnan(v)) continue;
      if (!found) {
        lo = hi = v;
        found = true;
        continue;
      }
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (!found) return;
    // -0.0 == +0.0 numerically, so which zero the loop kept is arbitrary: fix the signs so that
    // [min, max] covers both zeros for readers that compare bit patterns.
    if (lo == 0) lo = -T{0};
    if (hi == 0) hi = T{0};
    MergeBounds(EncodeOne(lo), EncodeOne(hi));
  } else {
    T lo = values[0];
    T hi = values[0];
    for (T v : values.subspan(1)) {
      if (Less(order_, v, lo)) lo = v;
      if (Less(order_, hi, v)) hi = v;
    }
    MergeBounds(EncodeOne(lo), EncodeOne(hi));
  }
}

void StatisticsAccumulator::MergeBounds(const std::string& min, const std::string& max) {
  if (!min_ || CompareEncodedValues(type_, order_, min, *min_) < 0) min_ = min;
  if (!max_ || CompareEncodedValues(type_, order_, max, *max_) > 0) max_ = max;
}

void StatisticsAccumulator::Merge(const StatisticsAccumulator& other) {
  null_count_ += other.null_count_;
  if (other.min_ && other.max_) MergeBounds(*other.min_, *other.max_);
}

void StatisticsAccumulator::Reset() {
  min_.reset();
  max_.reset();
  null_count_ = 0;
}

Statistics StatisticsAccumulator::ToStatistics() const {
  Statistics out;
  out.null_count = null_count_;
  if (min_ && max_) {
    out.min_value = *min_;
    out.max_value = *max_;
    // The deprecated fields were compared signed by old readers: only an order that agrees.
    const bool signed_legacy_order =
        order_ == SortOrder::kPhysical && type_ != PhysicalType::kByteArray &&
        type_ != PhysicalType::kFixedLenByteArray && type_ != PhysicalType::kInt96;
    if (signed_legacy_order) {
      out.legacy_min = *min_;
      out.legacy_max = *max_;
    }
  }
  return out;
}

template void StatisticsAccumulator::Update<bool>(absl::Span<const bool>);
template void StatisticsAccumulator::Update<int32_t>(absl::Span<const int32_t>);
template void StatisticsAccumulator::Update<int64_t>(absl::Span<const int64_t>);
template void StatisticsAccumulator::Update<Int96>(absl::Span<const Int96>);
template void StatisticsAccumulator::Update<float>(absl::Span<const float>);
template void StatisticsAccumulator::Update<double>(absl::Span<const double>);
template void StatisticsAccumulator::Update<ByteArray>(absl::Span<const ByteArray>);

}  // namespace pqpage::internal
