// The protocol clients of the command line (`--client NAME=COMMAND`, `NAME@3=COMMAND`), parsed into
// ClientSpec (chaos.h) for chaos and bench alike. Pure functions; thread-safe.
#pragma once

#include <string>

#include "chaos/chaos.h"

namespace rlock {

// Parses NAME=COMMAND or NAME@3=COMMAND. Throws UsageError for anything else.
ClientSpec parse_client_spec(const std::string& text);

}  // namespace rlock
