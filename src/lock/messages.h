// The words of a run: each event as the article's log line, in English or in Korean.
//
// format_line gives the article's layout, ' 2.04s  B  lock acquired (TTL 2000ms)'. Pure functions;
// thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "event.h"

namespace rlock {

enum class Lang { en, ko };

// Throws rlock::UsageError for anything but "en" and "ko".
Lang parse_lang(std::string_view name);

std::string render_message(const Event& event, Lang lang);
std::string format_line(const Event& event, Lang lang);

}  // namespace rlock
