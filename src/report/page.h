// The report's HTML5 page: its style sheet (screen and A4 print), the page around the runs'
// sections, and the small pieces the sections share. Text is escaped here; no script, no network:
// the only URL in a page is the SVG namespace of the timelines. Pure functions; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lab/messages.h"
#include "rlock/error.h"

namespace rlock {

// `wording` in `lang` with its {fields} filled, escaped for HTML.
std::string say(const Wording& wording, Lang lang, const nlohmann::json& fields = nlohmann::json::object());

// `text` escaped for HTML text and attribute values.
std::string html_escape(std::string_view text);

// A table of one header row and one row of values, both already HTML.
std::string figures_table(const std::vector<std::pair<std::string, std::string>>& figures);

// A list of (name, value) pairs, both already HTML, as <dl class="meta">.
std::string meta_list(const std::vector<std::pair<std::string, std::string>>& items);

// A JSON value as plain text: a string as itself, anything else as JSON.
std::string json_text(const nlohmann::json& value);

// The page: `title` (plain text) as its title and first heading, `sections` (HTML) under it. The
// timelines' SVG pattern ids, repeated in each drawing, are kept on the first drawing only: the
// others' fills name the same pattern.
std::string html_page(std::string_view title, Lang lang, const std::vector<std::string>& sections);

// The JSON that a run stored in `path`. Throws rlock::Error when it cannot be read or parsed, or
// when its "format" field is newer than this rlock reads (kRunFormat; no field: format 1).
inline constexpr int kRunFormat = 1;
nlohmann::json read_run_json(const std::filesystem::path& path);

// parse(the JSON in `path`), for a run of `what` ("a chaos run's table"). Throws rlock::Error as
// read_run_json does, and when parse meets a missing or mistyped field.
template <typename Parse>
auto parse_run_json(const std::filesystem::path& path, std::string_view what, Parse&& parse) {
  nlohmann::json json = read_run_json(path);
  try {
    return parse(json);
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{} is not {}: {}", path.string(), what, e.what()));
  }
}

}  // namespace rlock
