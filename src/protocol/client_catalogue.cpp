#include "protocol/client_catalogue.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "protocol/client_spec.h"
#include "protocol/messages.h"
#include "results/file_format.h"
#include "rlock/error.h"
#include "util/printable.h"
#include "util/shipped_data.h"

namespace rlock::protocol {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kManifest = "client.json";
constexpr std::uintmax_t kMostManifestBytes = 1 << 20;

std::string quoted_for_shell(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// `text` with each `placeholder` in it replaced by `value`.
std::string replaced(std::string text, const std::string& placeholder, const std::string& value) {
  for (std::size_t at = text.find(placeholder); at != std::string::npos;
       at = text.find(placeholder, at + value.size())) {
    text.replace(at, placeholder.size(), value);
  }
  return text;
}

std::string text_of(const json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_string() || j.at(key).get_ref<const std::string&>().empty())
    throw Error(fmt::format("\"{}\" is missing or not a string", key));
  return j.at(key).get<std::string>();
}

// One version of a manifest's library: its number (empty when the manifest gives none), its
// library line, and the folders of its sources ({dir}) and of what its build makes ({build}).
struct Build {
  std::string number;
  std::string library;
  fs::path dir;
  fs::path folder;
};

CatalogueEntry entry_from(const json& j, const json& manifest, const Build& build) {
  CatalogueEntry e;
  e.spec.name = text_of(j, "name");
  if (!is_client_name(e.spec.name)) throw Error(fmt::format("\"{}\" is no client name", e.spec.name));
  std::string command = text_of(j, "command");
  if (manifest.contains("versions") && command.find("{build}") == std::string::npos) {
    throw Error(
        fmt::format("the command of {} does not name {{build}}, so each version would run the default's", e.spec.name));
  }
  e.spec.command = replaced(replaced(command, "{dir}", quoted_for_shell(build.dir.string())), "{build}",
                            quoted_for_shell(build.folder.string()));
  e.runs.push_back(build.folder);
  std::istringstream words(replaced(replaced(command, "{dir}", build.dir.string()), "{build}", build.folder.string()));
  for (std::string word; words >> word;) {
    if (word.starts_with('/')) e.runs.emplace_back(word);
  }
  std::string server = text_of(j, "server");
  if (server == "redis@3") {
    e.spec.servers = 3;
    server = "redis";
  }
  auto kind = protocol::server_kind_from(server);
  if (!kind) throw Error(fmt::format("server \"{}\" is not redis, redis@3, etcd, zookeeper or hazelcast", server));
  e.spec.server = *kind;
  if (!j.contains("safe") || !j.at("safe").is_boolean()) throw Error("\"safe\" is missing or not true or false");
  e.spec.expected_safe = j.at("safe").get<bool>();
  e.models = text_of(j, "models");
  e.version = build.library;
  e.version_number = build.number;
  fs::path installed =
      replaced(replaced(text_of(manifest, "installed"), "{dir}", build.dir.string()), "{build}", build.folder.string());
  e.installed_by = installed.is_absolute() ? installed : build.folder / installed;
  e.install_command = "scripts/clients.sh install " + e.spec.name;
  if (j.contains("fenced")) {
    e.fenced = text_of(j, "fenced");
    if (!is_client_name(e.fenced)) throw Error(fmt::format("\"fenced\": \"{}\" is no client name", e.fenced));
  }
  if (j.contains("ttl_step_ms")) {
    const json& step = j.at("ttl_step_ms");
    if (!step.is_number_unsigned() || step.get<std::uint64_t>() < 1 || step.get<std::uint64_t>() > 60'000)
      throw Error("\"ttl_step_ms\" is not a whole number of milliseconds from 1 to 60000");
    e.spec.ttl_step_ms = static_cast<long>(step.get<std::uint64_t>());
  }
  for (const json* level : {&manifest, &j}) {  // the manifest's steps, or its entry's own
    if (!level->contains("steps")) continue;
    const json& steps = level->at("steps");
    if (!steps.is_array()) throw Error("\"steps\" is not a list of step names");
    e.spec.steps.clear();
    for (const json& step : steps) {
      bool known = step.is_string() &&
                   std::find(std::begin(kSteps), std::end(kSteps), step.get<std::string>()) != std::end(kSteps);
      if (!known) throw Error(fmt::format("\"steps\" names {}, not acquire, acquired, release or extend", step.dump()));
      e.spec.steps.push_back(step.get<std::string>());
    }
  }
  for (const json* level : {&manifest, &j}) {  // the manifest's topologies, or its entry's own
    if (!level->contains("topologies")) continue;
    const json& topologies = level->at("topologies");
    if (!topologies.is_array()) throw Error("\"topologies\" is not a list of topologies");
    e.spec.cluster = false;
    for (const json& t : topologies) {
      if (!t.is_string() || (t != "single" && t != "cluster"))
        throw Error(fmt::format("\"topologies\" names {}, not single or cluster", t.dump()));
      if (t == "cluster") e.spec.cluster = true;
    }
  }
  if (j.contains("clock_skew")) {
    if (!j.at("clock_skew").is_boolean()) throw Error("\"clock_skew\" is not true or false");
    e.spec.skewable_clock = j.at("clock_skew").get<bool>();
  }
  return e;
}

// Whether version number `a` comes before `b`: their dot-separated parts compared as numbers where
// both are digits, as text where not (3.4.3 < 3.5.21 < 3.10.0).
bool earlier(const std::string& a, const std::string& b) {
  auto parts = [](const std::string& number) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at <= number.size();) {
      std::size_t dot = std::min(number.find('.', at), number.size());
      out.push_back(number.substr(at, dot - at));
      at = dot + 1;
    }
    return out;
  };
  auto before = [](const std::string& x, const std::string& y) {
    auto digits = [](const std::string& t) {
      return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
    };
    if (digits(x) && digits(y) && x.size() != y.size()) return x.size() < y.size();
    return x < y;
  };
  std::vector<std::string> x = parts(a), y = parts(b);
  return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(), before);
}

// The manifest's versions: its default ("version") and the others ("versions"), each a Build.
std::vector<Build> builds_of(const json& manifest, const fs::path& dir) {
  std::vector<Build> builds;
  std::string library = text_of(manifest, "library");
  if (!manifest.contains("version")) {
    if (manifest.contains("versions")) throw Error("\"versions\" without \"version\", the default's number");
    return {Build{"", library, dir, dir}};
  }
  builds.push_back(Build{text_of(manifest, "version"), library, dir, dir});
  if (!is_version_number(builds[0].number))
    throw Error(fmt::format("\"version\" {} is no version (letters, digits, ., _ or -, with a dot)", builds[0].number));
  if (!manifest.contains("versions")) return builds;
  if (!manifest.at("versions").is_object()) throw Error("\"versions\" is not an object of versions");
  for (const auto& [number, version] : manifest.at("versions").items()) {
    if (!is_version_number(number))
      throw Error(fmt::format("\"versions\" names {}, no version (letters, digits, ., _ or -, with a dot)", number));
    if (number == builds[0].number) throw Error(fmt::format("\"versions\" names the default's {}", number));
    if (!version.is_object()) throw Error(fmt::format("\"versions\": {} is not an object", number));
    builds.push_back(Build{number, text_of(version, "library"), dir, dir / "versions" / number});
  }
  return builds;
}

// The entries of the manifest in `folder`; throws saying why they cannot be taken.
std::vector<CatalogueEntry> entries_in(const fs::path& folder, const fs::path& manifest) {
  if (std::string why = util::untrusted(folder); !why.empty()) throw Error("its folder " + why);
  if (std::string why = util::untrusted(manifest); !why.empty()) throw Error("it " + why);
  if (fs::file_size(manifest) > kMostManifestBytes) throw Error(fmt::format("over {} bytes", kMostManifestBytes));
  std::ifstream in(manifest, std::ios::binary);
  std::string text(std::istreambuf_iterator<char>(in), {});
  if (!in) throw Error("it cannot be read");
  std::vector<CatalogueEntry> entries = read_manifest(text, fs::absolute(folder));
  for (CatalogueEntry& e : entries) e.manifest = manifest;
  return entries;
}

}  // namespace

bool CatalogueEntry::installed() const {
  std::error_code ignored;
  return fs::exists(installed_by, ignored);
}

std::string CatalogueEntry::untrusted() const {
  for (const fs::path& path : runs) {
    std::error_code missing;
    if (!fs::exists(path, missing)) continue;  // a word of the command that names no file
    if (std::string why = util::untrusted(path); !why.empty()) return fmt::format("{} {}", path.string(), why);
  }
  return "";
}

std::string Catalogue::first_duplicate() const {
  for (std::size_t i = 1; i < entries.size(); ++i) {
    if (entries[i].spec.name == entries[i - 1].spec.name) {
      return fmt::format("{} is defined twice: {} and {}", entries[i].spec.name, entries[i - 1].manifest.string(),
                         entries[i].manifest.string());
    }
  }
  return "";
}

fs::path catalogue_dir() { return util::shipped_data_dir("RLOCK_CLIENTS_DIR", "clients"); }

std::vector<CatalogueEntry> read_manifest(std::string_view text, const fs::path& folder) {
  json j = results::parse_json(text);
  std::vector<Build> builds = builds_of(j, folder);
  std::vector<CatalogueEntry> entries;
  for (const json& client : j.at("clients").get_ref<const json::array_t&>()) {
    CatalogueEntry entry = entry_from(client, j, builds[0]);
    if (!entry.version_number.empty()) {
      for (const Build& build : builds) {
        CatalogueEntry version = entry_from(client, j, build);
        version.spec.name += "@" + build.number;
        version.install_command += "@" + build.number;
        if (!version.fenced.empty()) version.fenced += "@" + build.number;  // its variant at the same version
        entry.versions.push_back(version);
      }
      std::sort(entry.versions.begin(), entry.versions.end(), [](const CatalogueEntry& a, const CatalogueEntry& b) {
        return earlier(a.version_number, b.version_number);
      });
    }
    entries.push_back(entry);
  }
  return entries;
}

Catalogue read_catalogue(const fs::path& dir) {
  Catalogue catalogue{dir, {}, {}};
  std::error_code missing;
  if (!fs::is_directory(dir, missing)) return catalogue;
  if (std::string why = util::untrusted(dir); !why.empty()) {
    throw UsageError(
        fmt::format("the client catalogue {} {}: its commands would run as you; {}, or set "
                    "RLOCK_CLIENTS_DIR to a folder of your own",
                    dir.string(), why, util::trust_fix(dir)));
  }
  for (const fs::directory_entry& folder : fs::directory_iterator(dir, missing)) {
    fs::path manifest = folder.path() / kManifest;
    std::error_code absent;
    if (!fs::is_regular_file(manifest, absent)) continue;
    try {
      std::vector<CatalogueEntry> entries = entries_in(folder.path(), manifest);
      catalogue.entries.insert(catalogue.entries.end(), entries.begin(), entries.end());
    } catch (const std::exception& e) {
      catalogue.skipped.push_back(util::printable(fmt::format("{}: {}; skipped", manifest.string(), e.what())));
    }
  }
  std::sort(catalogue.entries.begin(), catalogue.entries.end(), [](const CatalogueEntry& a, const CatalogueEntry& b) {
    return std::tie(a.spec.name, a.manifest) < std::tie(b.spec.name, b.manifest);
  });
  return catalogue;
}

Catalogue shipped_catalogue() {
  Catalogue catalogue = read_catalogue(catalogue_dir());
  for (const std::string& line : catalogue.skipped) fmt::print(stderr, "rlock: warning: {}\n", line);
  return catalogue;
}

const CatalogueEntry& shipped_client(const Catalogue& catalogue, const std::string& name) {
  std::size_t at = name.find('@');
  std::string base = name.substr(0, at);
  auto named = [&](const CatalogueEntry& e) { return e.spec.name == base; };
  auto entry = std::find_if(catalogue.entries.begin(), catalogue.entries.end(), named);
  if (entry == catalogue.entries.end()) {
    std::string names;
    for (std::size_t i = 0; i < catalogue.entries.size(); ++i) {
      const std::string& shipped = catalogue.entries[i].spec.name;
      if (i == 0 || shipped != catalogue.entries[i - 1].spec.name) names += (names.empty() ? "" : ", ") + shipped;
    }
    throw UsageError(fmt::format("--client '{}': no shipped client of that name (shipped: {}); or give NAME=COMMAND",
                                 name, names.empty() ? "none found in " + catalogue.dir.string() : names));
  }
  if (auto second = std::find_if(std::next(entry), catalogue.entries.end(), named); second != catalogue.entries.end()) {
    throw UsageError(fmt::format("--client {}: two manifests define it, {} and {}: remove one, or give NAME=COMMAND",
                                 name, entry->manifest.string(), second->manifest.string()));
  }
  const CatalogueEntry* found = &*entry;
  if (at != std::string::npos) {
    std::string number = name.substr(at + 1), numbers;
    auto version = std::find_if(entry->versions.begin(), entry->versions.end(),
                                [&](const CatalogueEntry& v) { return v.version_number == number; });
    if (version == entry->versions.end()) {
      for (const CatalogueEntry& v : entry->versions) numbers += (numbers.empty() ? "" : ", ") + v.version_number;
      throw UsageError(
          fmt::format("--client {}: {} has no version '{}' ({})", name, base, number,
                      numbers.empty() ? "it names none: give --client " + base : "its versions: " + numbers));
    }
    found = &*version;
  }
  if (!found->installed()) {
    throw UsageError(fmt::format("--client {}: not installed; install it with `{}`", name, found->install_command));
  }
  if (std::string why = found->untrusted(); !why.empty()) {
    throw UsageError(fmt::format("--client {}: {}: its command would run as you; refused", name, why));
  }
  return *found;
}

}  // namespace rlock::protocol
