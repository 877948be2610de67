// Moved to the public pqpage/status_macros.h; this forwarding header goes once every include
// names the new place.
#ifndef PQPAGE_COMMON_STATUS_MACROS_H_
#define PQPAGE_COMMON_STATUS_MACROS_H_

#include "pqpage/status_macros.h"

#endif  // PQPAGE_COMMON_STATUS_MACROS_H_
