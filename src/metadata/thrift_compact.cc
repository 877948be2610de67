#include "metadata/thrift_compact.h"

#include <thrift/TConfiguration.h>
#include <thrift/Thrift.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "parquet_types.h"

namespace pqpage::internal {
namespace {

using apache::thrift::TConfiguration;
using apache::thrift::protocol::TCompactProtocolT;
using apache::thrift::transport::TMemoryBuffer;

// The message-size limit is what Thrift checks string and list lengths against before it
// allocates; the input's own size is the tightest honest bound. The configuration is the thread's
// own, set again for every call: a page header is read per page, and allocating a configuration
// and a buffer for each was a tenth of scanning a file of small pages.
const std::shared_ptr<TConfiguration>& ConfigurationFor(size_t bytes) {
  thread_local const std::shared_ptr<TConfiguration> configuration =
      std::make_shared<TConfiguration>();
  const int limit = static_cast<int>(std::min<size_t>(bytes, INT32_MAX - 1) + 1);
  configuration->setMaxMessageSize(limit);
  configuration->setMaxFrameSize(limit);
  return configuration;
}

}  // namespace

template <typename T>
absl::StatusOr<size_t> DeserializeCompact(absl::Span<const uint8_t> bytes, T* out,
                                          const ThriftLimits& limits) {
  // No structure fits in no bytes, and an empty span may have a null data(): Thrift's buffer
  // would do arithmetic on it before noticing (undefined behaviour), so refuse it here.
  if (bytes.empty()) {
    return absl::DataLossError("malformed Thrift metadata: no bytes where a structure should be");
  }
  try {
    // OBSERVE: the buffer only reads the caller's bytes, it never writes or frees them. It lives
    // on the stack; the protocol gets a shared_ptr that aliases it without owning it, so no
    // control block is allocated either.
    TMemoryBuffer buffer(const_cast<uint8_t*>(bytes.data()), static_cast<uint32_t>(bytes.size()),
                         TMemoryBuffer::OBSERVE, ConfigurationFor(bytes.size()));
    const std::shared_ptr<TMemoryBuffer> transport(std::shared_ptr<void>(), &buffer);
    TCompactProtocolT<TMemoryBuffer> protocol(transport, limits.max_string_bytes,
                                              limits.max_container_entries);
    out->read(&protocol);
    return bytes.size() - buffer.available_read();
  } catch (const std::exception& error) {
    return absl::DataLossError(absl::StrCat("malformed Thrift metadata: ", error.what()));
  }
}

template <typename T>
absl::Status SerializeCompact(const T& value, std::vector<uint8_t>* out) {
  try {
    auto transport = std::make_shared<TMemoryBuffer>();
    TCompactProtocolT<TMemoryBuffer> protocol(transport);
    value.write(&protocol);
    uint8_t* data = nullptr;
    uint32_t size = 0;
    transport->getBuffer(&data, &size);
    out->insert(out->end(), data, data + size);
    return absl::OkStatus();
  } catch (const std::exception& error) {
    return absl::InternalError(absl::StrCat("cannot serialise Thrift metadata: ", error.what()));
  }
}

// T is a type in template arguments and declarations: it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define PQPAGE_INSTANTIATE_THRIFT(T)                                                   \
  template absl::StatusOr<size_t> DeserializeCompact<T>(absl::Span<const uint8_t>, T*, \
                                                        const ThriftLimits&);          \
  template absl::Status SerializeCompact<T>(const T&, std::vector<uint8_t>*);
// NOLINTEND(bugprone-macro-parentheses)

PQPAGE_INSTANTIATE_THRIFT(format::PageHeader)
PQPAGE_INSTANTIATE_THRIFT(format::FileMetaData)
PQPAGE_INSTANTIATE_THRIFT(format::ColumnMetaData)
PQPAGE_INSTANTIATE_THRIFT(format::OffsetIndex)
PQPAGE_INSTANTIATE_THRIFT(format::ColumnIndex)
PQPAGE_INSTANTIATE_THRIFT(format::BloomFilterHeader)
PQPAGE_INSTANTIATE_THRIFT(format::FileCryptoMetaData)

#undef PQPAGE_INSTANTIATE_THRIFT

}  // namespace pqpage::internal
