// The words of a run: each event as the article's log line, in English or in Korean.
//
// format_line gives the article's layout, ' 2.04s  B  lock acquired (TTL 2000ms)'. Other texts
// (the verdict, the timeline's labels) keep their words in Wording tables of their own and fill
// them with fill_wording. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "lab/event.h"

namespace rlock::lab {

enum class Lang { en, ko };

// Throws rlock::UsageError for anything but "en" and "ko".
Lang parse_lang(std::string_view name);

// A text's words in both languages; {name} stands for the field `name`.
struct Wording {
  std::string_view key;
  std::string_view en;
  std::string_view ko;
};

// The wording in `lang`, each {name} replaced with fields[name] ("?" when the field is missing).
std::string fill_wording(const Wording& wording, Lang lang, const nlohmann::json& fields);

std::string render_message(const Event& event, Lang lang);
std::string format_line(const Event& event, Lang lang);

}  // namespace rlock::lab
