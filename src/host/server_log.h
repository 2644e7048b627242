// The log a server of rlock's own writes (a local Redis, a cluster's member), read for the one
// line that says why it did not start. A function on a file; thread-safe.
#pragma once

#include <filesystem>
#include <string>

namespace rlock::host {

// The last line of `log` that is not empty; "no log" when there is none (or no file).
std::string last_log_line(const std::filesystem::path& log);

}  // namespace rlock::host
