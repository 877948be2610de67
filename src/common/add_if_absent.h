// Adding to a short list that keeps each value once, in the order first seen (a chunk's encodings,
// a column's encoding names): a linear search beats a set at these sizes and keeps the order.
#ifndef PQPAGE_COMMON_ADD_IF_ABSENT_H_
#define PQPAGE_COMMON_ADD_IF_ABSENT_H_

#include <algorithm>
#include <vector>

namespace pqpage::internal {

// Appends `value` to `*list` unless it holds one equal to it already.
template <typename T>
void AddIfAbsent(const T& value, std::vector<T>* list) {
  if (std::find(list->begin(), list->end(), value) == list->end()) list->push_back(value);
}

}  // namespace pqpage::internal

#endif  // PQPAGE_COMMON_ADD_IF_ABSENT_H_
