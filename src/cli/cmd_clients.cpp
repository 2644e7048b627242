// rlock clients: the shipped adapters of clients/ (protocol/client_catalogue.h), one line each: its
// catalogue name, the kind of server its lock lives on, whether it is expected safe, whether it is
// installed (and the command that installs it where it is not), the library it pins and what it
// models; below an entry whose manifest names other versions, a line of them all, each marked when it is the
// default or not installed. Prints to stdout, each manifest skipped named on stderr; exit 0, or 2 when no catalogue is
// found (saying where it looked), when two manifests define one name or when the catalogue's folder
// is not the user's (client_catalogue.h).
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.h"
#include "protocol/client_catalogue.h"
#include "rlock/error.h"

namespace rlock::cli {
namespace {

// "  versions: 3.4.3, 3.5.21 (default), 3.6.4 (not installed)"; empty for an entry of one version.
std::string versions_line(const protocol::CatalogueEntry& e) {
  std::string line;
  if (e.versions.size() < 2) return line;
  for (const protocol::CatalogueEntry& v : e.versions) {
    line += fmt::format("{}{}{}", line.empty() ? "  versions: " : ", ", v.version_number,
                        v.version_number == e.version_number ? " (default)"
                        : v.installed()                      ? ""
                                                             : " (not installed)");
  }
  return line;
}

std::string server_of(const protocol::ClientSpec& spec) {
  return std::string(protocol::to_string(spec.server)) + (spec.servers == 3 ? "@3" : "");
}

// Where the catalogue was looked for and why there, for the error when none is found.
std::string where_looked(const std::filesystem::path& dir) {
  const char* given = std::getenv("RLOCK_CLIENTS_DIR");
  if (given != nullptr && *given != '\0') return fmt::format("{}, which RLOCK_CLIENTS_DIR names", dir.string());
  return fmt::format(
      "{}, where this rlock looks unless RLOCK_CLIENTS_DIR names a folder (its install's "
      "share/rlock/clients, or the clients/ of the checkout it was built from)",
      dir.string());
}

void list_clients() {
  protocol::Catalogue catalogue = protocol::shipped_catalogue();
  if (catalogue.entries.empty()) {
    throw UsageError(
        fmt::format("no client catalogue in {}: set RLOCK_CLIENTS_DIR to a folder of clients, each "
                    "NAME/client.json (a checkout's clients/)",
                    where_looked(catalogue.dir)));
  }
  if (std::string twice = catalogue.first_duplicate(); !twice.empty()) {
    throw UsageError(fmt::format("the client catalogue {}: {}; remove one", catalogue.dir.string(), twice));
  }
  std::vector<std::string> installed;
  size_t name_width = 4, installed_width = 9;
  for (const protocol::CatalogueEntry& e : catalogue.entries) {
    installed.push_back(e.installed() ? "yes" : "no: " + e.install_command);
    name_width = std::max(name_width, e.spec.name.size());
    installed_width = std::max(installed_width, installed.back().size());
  }
  fmt::print("shipped lock clients ({}): run one with `rlock chaos --client NAME`\n", catalogue.dir.string());
  fmt::print("{:<{}} {:<10} {:<5} {:<{}} {}\n", "name", name_width, "server", "safe", "installed", installed_width,
             "library: what it models");
  for (size_t i = 0; i < catalogue.entries.size(); ++i) {
    const protocol::CatalogueEntry& e = catalogue.entries[i];
    fmt::print("{:<{}} {:<10} {:<5} {:<{}} {}: {}\n", e.spec.name, name_width, server_of(e.spec),
               e.spec.expected_safe ? "yes" : "no", installed[i], installed_width, e.version, e.models);
    if (std::string versions = versions_line(e); !versions.empty()) fmt::print("{}\n", versions);
  }
  fmt::print("install them all: scripts/clients.sh install\n");
  fmt::print(
      "a version: rlock chaos --client NAME@V; install it with scripts/clients.sh install NAME@V, "
      "or every version with scripts/clients.sh install --versions\n");
}

}  // namespace

void register_clients(CLI::App& app, const GlobalOptions&) {
  CLI::App* cmd = app.add_subcommand("clients", "the shipped lock clients (clients/), installed or not");
  cmd->callback(list_clients);
}

}  // namespace rlock::cli
