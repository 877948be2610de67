// A std::vector whose resize() leaves new elements of trivial types uninitialised. A buffer that is
// grown to the most a call could write and then cut to what it wrote (levels decoded in batches)
// would otherwise be zeroed on every call, only to be written over.
#ifndef PQPAGE_COMMON_UNINITIALIZED_VECTOR_H_
#define PQPAGE_COMMON_UNINITIALIZED_VECTOR_H_

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace pqpage::internal {

// std::allocator, but value-less construction is default-initialisation (nothing, for trivial
// types) instead of value-initialisation (zero).
template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };

  DefaultInitAllocator() noexcept = default;
  template <typename U>
  explicit DefaultInitAllocator(const DefaultInitAllocator<U>& /*other*/) noexcept {}

  template <typename U>
  void construct(U* at) {
    ::new (static_cast<void*>(at)) U;
  }
  template <typename U, typename... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};

// Elements added by resize(n) hold indeterminate values until written: write before reading.
template <typename T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_UNINITIALIZED_VECTOR_H_
