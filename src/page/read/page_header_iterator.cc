#include "pqpage/page_header_iterator.h"

#include <utility>

#include "page/read/page_walker.h"

namespace pqpage {

struct PageHeaderIterator::State {
  internal::PageWalker walker;
};

PageHeaderIterator::PageHeaderIterator(const ByteSource* source, ColumnChunkLocation location,
                                       std::string column_path, ReaderOptions options)
    : state_(std::make_unique<State>(State{internal::PageWalker(
          source, std::move(location), std::move(column_path), std::move(options))})) {}
PageHeaderIterator::~PageHeaderIterator() = default;
PageHeaderIterator::PageHeaderIterator(PageHeaderIterator&&) noexcept = default;
PageHeaderIterator& PageHeaderIterator::operator=(PageHeaderIterator&&) noexcept = default;

absl::StatusOr<bool> PageHeaderIterator::Next() { return state_->walker.Next(); }
void PageHeaderIterator::SkipPageBodies() { state_->walker.SkipPageBodies(); }
const PageInfo& PageHeaderIterator::page() const { return state_->walker.info(); }
int64_t PageHeaderIterator::page_index() const { return state_->walker.page_index(); }

}  // namespace pqpage
