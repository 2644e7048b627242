#include "chaos/client_catalogue.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/client_list.h"
#include "rlock/error.h"
#include "util/data_dir.h"
#include "util/printable.h"

namespace rlock::chaos {
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

std::string with_dir(std::string command, const fs::path& dir) {
  const std::string placeholder = "{dir}", quoted = quoted_for_shell(dir.string());
  for (std::size_t at = command.find(placeholder); at != std::string::npos;
       at = command.find(placeholder, at + quoted.size())) {
    command.replace(at, placeholder.size(), quoted);
  }
  return command;
}

std::string text_of(const json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_string() || j.at(key).get_ref<const std::string&>().empty())
    throw Error(fmt::format("\"{}\" is missing or not a string", key));
  return j.at(key).get<std::string>();
}

CatalogueEntry entry_from(const json& j, const json& folder, const fs::path& dir) {
  CatalogueEntry e;
  e.spec.name = text_of(j, "name");
  if (!is_client_name(e.spec.name)) throw Error(fmt::format("\"{}\" is no client name", e.spec.name));
  e.spec.command = with_dir(text_of(j, "command"), dir);
  std::string server = text_of(j, "server");
  if (server == "redis@3") {
    e.spec.servers = 3;
    server = "redis";
  }
  auto kind = protocol::server_kind_from(server);
  if (!kind) throw Error(fmt::format("server \"{}\" is not redis, redis@3, etcd or zookeeper", server));
  e.spec.server = *kind;
  if (!j.contains("safe") || !j.at("safe").is_boolean()) throw Error("\"safe\" is missing or not true or false");
  e.spec.expected_safe = j.at("safe").get<bool>();
  e.models = text_of(j, "models");
  e.version = text_of(folder, "library");
  fs::path installed = text_of(folder, "installed");
  e.installed_by = installed.is_absolute() ? installed : dir / installed;
  e.install_command = "scripts/clients.sh install " + e.spec.name;
  return e;
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

std::string Catalogue::first_duplicate() const {
  for (std::size_t i = 1; i < entries.size(); ++i) {
    if (entries[i].spec.name == entries[i - 1].spec.name) {
      return fmt::format("{} is defined twice: {} and {}", entries[i].spec.name, entries[i - 1].manifest.string(),
                         entries[i].manifest.string());
    }
  }
  return "";
}

fs::path catalogue_dir() { return util::data_dir("RLOCK_CLIENTS_DIR", "clients"); }

std::vector<CatalogueEntry> read_manifest(std::string_view text, const fs::path& folder) {
  json j = json::parse(text);
  std::vector<CatalogueEntry> entries;
  for (const json& client : j.at("clients").get_ref<const json::array_t&>()) {
    entries.push_back(entry_from(client, j, folder));
  }
  return entries;
}

Catalogue read_catalogue(const fs::path& dir) {
  Catalogue catalogue{dir, {}, {}};
  std::error_code missing;
  if (!fs::is_directory(dir, missing)) return catalogue;
  if (std::string why = util::untrusted(dir); !why.empty()) {
    throw UsageError(
        fmt::format("the client catalogue {} {}: its commands would run as you; chmod go-w it, or set "
                    "RLOCK_CLIENTS_DIR to a folder of your own",
                    dir.string(), why));
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
  auto named = [&](const CatalogueEntry& e) { return e.spec.name == name; };
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
  if (!entry->installed()) {
    throw UsageError(fmt::format("--client {}: not installed; install it with `{}`", name, entry->install_command));
  }
  return *entry;
}

}  // namespace rlock::chaos
