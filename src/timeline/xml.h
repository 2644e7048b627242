// Text made safe to stand in XML (an SVG's text and attribute values).
// Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace rlock::timeline {

// `text` with & < > " ' escaped as entities, and the control characters XML 1.0 forbids (all
// below 0x20 but tab, newline and carriage return) replaced with '?'.
std::string xml_escape(std::string_view text);

}  // namespace rlock::timeline
