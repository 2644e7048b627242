// The shipped adapters (clients/NAME/), each folder's manifest `client.json` read into catalogue
// entries, so that `--client NAME` runs a shipped adapter by its name alone (docs/clients.md). A
// manifest names its folder's install step and the file that exists once it is installed, and one
// entry per catalogue name (variants have names of their own): its command, with `{dir}` standing
// for the folder's absolute path, its server kind (redis, redis@3, etcd, zookeeper), what it
// models and whether it is expected safe. Reading throws Error naming the manifest at fault.
// Plain values and functions; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "protocol/client_spec.h"

namespace rlock::chaos {

struct CatalogueEntry {
  protocol::ClientSpec spec;           // the command with {dir} replaced, the manifest's safety
  std::string models;                  // one line: the library and how the adapter uses it
  std::string version;                 // the library and version it pins
  std::filesystem::path installed_by;  // exists once installed
  std::string install_command;         // scripts/clients.sh install NAME

  bool installed() const;
};

// $RLOCK_CLIENTS_DIR, else the clients/ folder beside the folder of the rlock binary (build/rlock
// finds the checkout's clients/), else share/rlock/clients beside it (an installed bin/rlock), else
// ./clients.
std::filesystem::path catalogue_dir();

// Every manifest's entries under `dir`, sorted by name; none when `dir` does not exist.
std::vector<CatalogueEntry> read_catalogue(const std::filesystem::path& dir);

// The entry named `name`. Throws UsageError, in one line, when none is shipped (listing those
// that are) or when it is not installed (naming its install command).
const CatalogueEntry& shipped_client(const std::vector<CatalogueEntry>& catalogue, const std::string& name);

}  // namespace rlock::chaos
