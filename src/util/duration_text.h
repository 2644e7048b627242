// Durations as a person reads them in a table: 41 us, 1.52 ms, 48.0 ms (three significant figures
// or so). Pure function; thread-safe.
#pragma once

#include <string>

namespace rlock::util {

std::string duration_text(double us);

}  // namespace rlock::util
