// Bytes from a program rlock does not trust (a client's stderr, a line it wrote) made safe to show
// on a terminal or in a one-line message: every control byte (C0, DEL, and the C1 controls as
// UTF-8 encodes them), and every byte that is not part of valid UTF-8, becomes \xNN; valid UTF-8
// text is kept as it is, backslashes too, so that escaping twice changes nothing.
//
// A pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace rlock::util {

std::string printable(std::string_view bytes);

}  // namespace rlock::util
