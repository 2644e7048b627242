#include "chaos/client_catalogue.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/client_list.h"
#include "rlock/error.h"

namespace rlock::chaos {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kManifest = "client.json";

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

}  // namespace

bool CatalogueEntry::installed() const {
  std::error_code ignored;
  return fs::exists(installed_by, ignored);
}

fs::path catalogue_dir() {
  if (const char* given = std::getenv("RLOCK_CLIENTS_DIR"); given != nullptr && *given != '\0') return given;
  std::error_code ignored;
  fs::path prefix = fs::read_symlink("/proc/self/exe", ignored).parent_path().parent_path();
  if (!ignored) {
    for (fs::path candidate : {prefix / "clients", prefix / "share" / "rlock" / "clients"}) {
      if (fs::is_directory(candidate, ignored)) return candidate;
    }
  }
  return fs::absolute("clients", ignored);
}

std::vector<CatalogueEntry> read_catalogue(const fs::path& dir) {
  std::vector<CatalogueEntry> entries;
  std::error_code missing;
  for (const fs::directory_entry& folder : fs::directory_iterator(dir, missing)) {
    fs::path manifest = folder.path() / kManifest;
    if (!fs::is_regular_file(manifest)) continue;
    try {
      std::ifstream in(manifest);
      json j = json::parse(in);
      for (const json& client : j.at("clients").get_ref<const json::array_t&>()) {
        entries.push_back(entry_from(client, j, fs::absolute(folder.path())));
      }
    } catch (const std::exception& e) {
      throw Error(fmt::format("{}: {}", manifest.string(), e.what()));
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const CatalogueEntry& a, const CatalogueEntry& b) { return a.spec.name < b.spec.name; });
  return entries;
}

const CatalogueEntry& shipped_client(const std::vector<CatalogueEntry>& catalogue, const std::string& name) {
  auto entry =
      std::find_if(catalogue.begin(), catalogue.end(), [&](const CatalogueEntry& e) { return e.spec.name == name; });
  if (entry == catalogue.end()) {
    std::string names;
    for (const CatalogueEntry& e : catalogue) names += (names.empty() ? "" : ", ") + e.spec.name;
    throw UsageError(fmt::format("--client '{}': no shipped client of that name (shipped: {}); or give NAME=COMMAND",
                                 name, names.empty() ? "none found in " + catalogue_dir().string() : names));
  }
  if (!entry->installed()) {
    throw UsageError(fmt::format("--client {}: not installed; install it with `{}`", name, entry->install_command));
  }
  return *entry;
}

}  // namespace rlock::chaos
