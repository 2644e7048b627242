// The report's HTML5 page: its style sheet (screen and A4 print), the page around the runs'
// sections, and the small pieces the sections share. Text is escaped here; no script, no network:
// the only URL in a page is the SVG namespace of the timelines. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/wording.h"

namespace rlock::report {

// `wording` in `lang` with its {fields} filled, escaped for HTML.
std::string say(const lab::Wording& wording, lab::Lang lang, const nlohmann::json& fields = nlohmann::json::object());

// `text` escaped for HTML text and for a quoted attribute value (quotes included).
std::string html_escape(std::string_view text);

// `text` as a URL's fragment (after '#'): every byte but letters, digits, '-', '.', '_' and '~'
// percent-encoded; a browser decodes it before it looks for the element of that id.
std::string url_fragment(std::string_view text);

// A table of one header row and one row of values, both already HTML.
std::string figures_table(const std::vector<std::pair<std::string, std::string>>& figures);

// A list of (name, value) pairs, both already HTML, as <dl class="meta">.
std::string meta_list(const std::vector<std::pair<std::string, std::string>>& items);

// A JSON value as plain text: a string as itself, anything else as JSON.
std::string json_text(const nlohmann::json& value);

// The page: `title` (plain text) as its title and first heading, `sections` (HTML) under it. The
// timelines' SVG pattern ids, repeated in each drawing, are kept on the first drawing only: the
// others' fills name the same pattern.
std::string html_page(std::string_view title, lab::Lang lang, const std::vector<std::string>& sections);

}  // namespace rlock::report
