// Where a command keeps a run of its own (a chaos campaign, a bench run): a directory named by the
// UTC time it started, never one that exists already. Pure functions of the clock and the file
// system; thread-safe, but two processes choosing at once may choose the same name.
#pragma once

#include <filesystem>
#include <string>

namespace rlock::util {

// The time now in UTC, formatted by strftime's `format`.
std::string utc_now(const char* format);

// `base` when nothing is there yet, else base-2, base-3...: a path to create, not created.
std::filesystem::path unused_path(const std::filesystem::path& base);

}  // namespace rlock::util
