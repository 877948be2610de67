// LZO1X chunks through Debian's liblzo2, for ORC's LZO compression (each chunk one LZO1X block,
// as ORC's Java writer makes them with aircompressor). Decompression is lzo1x_decompress_safe
// only, which checks every read and write; its output room is held to what the input can
// produce, so a small hostile chunk claims no large buffer.
#include <lzo/lzo1x.h>

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "common/large_buffer.h"
#include "compression/chunk_codecs.h"

namespace pqpage::internal {
namespace {

// lzo_init checks the library matches its headers; once per process.
bool LzoReady() {
  static const bool ready = lzo_init() == LZO_E_OK;
  return ready;
}

// An LZO1X byte makes at most 255 bytes of output (a run of zero length bytes each adds 255 to a
// match), plus a few for the instruction a stream starts with.
constexpr size_t kLzoMaxExpansion = 256;
constexpr size_t kLzoSlack = 1024;

}  // namespace

absl::StatusOr<size_t> Lzo1xInflateChunk(absl::Span<const uint8_t> input, size_t max_size,
                                         size_t offset, std::vector<uint8_t>* out) {
  if (!LzoReady()) return absl::InternalError("LZO: the library failed to initialise");
  const size_t possible = input.size() > (SIZE_MAX - kLzoSlack) / kLzoMaxExpansion
                              ? SIZE_MAX
                              : input.size() * kLzoMaxExpansion + kLzoSlack;
  const size_t room = std::min(max_size, possible);
  if (out->size() - offset < room) {
    ReserveKeeping(out, offset + room);
    out->resize(offset + room);
  }
  lzo_uint written = room;
  const int result = lzo1x_decompress_safe(input.data(), input.size(), out->data() + offset,
                                           &written, /*wrkmem=*/nullptr);
  if (result == LZO_E_OUTPUT_OVERRUN && room == max_size) {
    return absl::DataLossError(
        absl::StrCat("LZO: chunk inflates to more than its limit of ", max_size, " bytes"));
  }
  if (result != LZO_E_OK) {
    return absl::DataLossError(absl::StrCat("LZO: corrupt block (liblzo2 error ", result, ")"));
  }
  return static_cast<size_t>(written);
}

absl::StatusOr<absl::Span<const uint8_t>> Lzo1xCompress(absl::Span<const uint8_t> input,
                                                        std::vector<uint8_t>* out) {
  if (!LzoReady()) return absl::InternalError("LZO: the library failed to initialise");
  // liblzo2's documented worst case for incompressible input.
  const size_t bound = input.size() + input.size() / 16 + 64 + 3;
  const absl::Span<uint8_t> target = GrowDiscarding(out, bound);
  const std::unique_ptr<uint8_t[]> work(new uint8_t[LZO1X_1_MEM_COMPRESS]);
  lzo_uint written = bound;
  if (lzo1x_1_compress(input.data(), input.size(), target.data(), &written, work.get()) !=
      LZO_E_OK) {
    return absl::InternalError("LZO: compression failed");
  }
  return absl::MakeConstSpan(target.first(written));
}

}  // namespace pqpage::internal
