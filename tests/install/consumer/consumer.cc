// Uses the installed library through its public headers only.
#include <string_view>

#include "pqpage/types.h"

int main() { return pqpage::EncodingName(pqpage::Encoding::kDeltaByteArray) == "DELTA_BYTE_ARRAY" ? 0 : 1; }
