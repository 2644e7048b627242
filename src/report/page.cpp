#include "report/page.h"

#include <cctype>
#include <sstream>

#include <fmt/format.h>

#include "timeline/timeline_svg.h"
#include "timeline/xml.h"

namespace rlock::report {
namespace {

// The timelines' own <style> applies to the whole page: the page's classes must not reuse theirs
// (lane held stale paused grid axis leader neutral ok rejected failed label name title lost safe).
constexpr const char* kStyle = R"(
body{{font-family:{fonts};color:#222;line-height:1.4;max-width:1000px;margin:24px auto;padding:0 16px}}
h1{{font-size:24px}}h2{{font-size:20px;border-bottom:1px solid #bbb;margin-top:32px}}h3{{font-size:16px}}
table{{border-collapse:collapse;margin:8px 0}}th,td{{border:1px solid #bbb;padding:4px 8px;text-align:left}}
td.num{{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}}th{{white-space:nowrap}}
table.heat td{{text-align:center;min-width:84px;font-variant-numeric:tabular-nums;line-height:1.25}}
table.heat td a{{color:inherit;text-decoration:underline dotted;display:block}}
table.heat td.broken{{outline:3px solid #000;outline-offset:-4px}}
table.heat td.none{{color:#555;font-style:italic}}
p.scale span{{display:inline-block;padding:2px 8px;border:1px solid #bbb;margin-right:2px}}
dl.meta{{display:grid;grid-template-columns:max-content auto;gap:2px 12px}}dl.meta dt{{font-weight:bold}}
dl.meta dd{{margin:0}}code,pre{{font-family:'DejaVu Sans Mono',monospace}}
pre{{background:#f6f7f9;padding:8px;overflow-x:auto;font-size:13px}}
figure{{margin:12px 0}}svg{{max-width:100%;height:auto}}
.v-lost{{color:#c62828;font-weight:bold}}.v-safe{{color:#2e7d32;font-weight:bold}}
*{{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
@media print{{@page{{size:A4;margin:12mm}}body{{max-width:none;margin:0;padding:0;font-size:10pt}}
figure,table,pre{{break-inside:avoid}}h2,h3{{break-after:avoid}}pre{{white-space:pre-wrap}}
a{{color:inherit}}}}
)";

}  // namespace

std::string say(const lab::Wording& wording, lab::Lang lang, const nlohmann::json& fields) {
  return timeline::xml_escape(lab::fill_wording(wording, lang, fields));
}

std::string html_escape(std::string_view text) { return timeline::xml_escape(text); }

std::string url_fragment(std::string_view text) {
  std::string out;
  for (char c : text) {
    bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~';
    out += plain ? std::string(1, c) : fmt::format("%{:02X}", static_cast<unsigned char>(c));
  }
  return out;
}

std::string figures_table(const std::vector<std::pair<std::string, std::string>>& figures) {
  std::string head, values;
  for (const auto& [name, value] : figures) {
    head += fmt::format("<th scope=\"col\">{}</th>", name);
    values += fmt::format("<td class=\"num\">{}</td>", value);
  }
  return fmt::format("<table>\n<tr>{}</tr>\n<tr>{}</tr>\n</table>\n", head, values);
}

std::string meta_list(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string html = "<dl class=\"meta\">\n";
  for (const auto& [name, value] : items) html += fmt::format("<dt>{}</dt><dd>{}</dd>\n", name, value);
  return html + "</dl>\n";
}

std::string json_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string html_page(std::string_view title, lab::Lang lang, const std::vector<std::string>& sections) {
  std::string body;
  for (const std::string& section : sections) body += section;
  constexpr std::string_view kPatternId = "<pattern id=\"hatch\"";
  std::size_t first = body.find(kPatternId);
  for (std::size_t at = body.find(kPatternId, first == std::string::npos ? first : first + 1); at != std::string::npos;
       at = body.find(kPatternId, at)) {
    body.erase(at + 8, 11);  // ` id="hatch"`, after `<pattern`
  }
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n<h1>{}</h1>\n{}</body>\n</html>\n",
      lang == lab::Lang::ko ? "ko" : "en", html_escape(title),
      fmt::format(kStyle, fmt::arg("fonts", timeline::kSvgFonts)), html_escape(title), body);
}

}  // namespace rlock::report
