// Where rlock finds the data it ships beside the binary (the client catalogue, the scenarios), and
// whether a folder of it can be trusted with commands that run as this user. Functions on the file
// system; thread-safe.
#pragma once

#include <filesystem>
#include <string>

namespace rlock::util {

// $`variable` when it is set and not empty. Else, for a binary run from the bin/ of the prefix it
// was built for (CMAKE_INSTALL_PREFIX, or the Debian package's /usr), that prefix's
// share/rlock/`folder`; for any other, the `folder` of the checkout it was built from.
std::filesystem::path shipped_data_dir(const char* variable, const char* folder);

// Why `path` cannot be trusted with commands that run as this user: another user (not root) owns
// it, or its group or others can write it. Empty when it can.
std::string untrusted(const std::filesystem::path& path);
// What makes `path` trusted, as a user would do it: "chown it to yourself" for another user's,
// "chmod go-w it" for one its group or others can write.
std::string trust_fix(const std::filesystem::path& path);

}  // namespace rlock::util
