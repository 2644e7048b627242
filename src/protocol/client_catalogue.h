// The shipped adapters (clients/NAME/), each folder's manifest `client.json` read into catalogue
// entries, so that `--client NAME` runs a shipped adapter by its name alone (docs/clients.md). A
// manifest names its folder's install step and the file that exists once it is installed, and one
// entry per catalogue name (variants have names of their own): its command, with `{dir}` standing
// for the folder's absolute path and `{build}` for the folder its built things are in, its server
// kind (redis, redis@3, etcd, zookeeper), what it models and whether it is expected safe;
// optionally the name of its fenced variant ("fenced") and the step its library counts the TTL in
// ("ttl_step_ms": 1000 for a library of whole seconds).
//
// A manifest may name its library's version ("version") and other versions of it ("versions"), each
// built in the folder's versions/V/ ({build} there). `--client NAME@V` takes NAME at version V, a
// row of its own named NAME@V; a version always has a dot in it, so `NAME@3=COMMAND` is no version.
//
// A manifest's command runs through /bin/sh, so the catalogue is read only where the user or the
// install put it (catalogue_dir), and only from folders no other user can write; an entry is run
// only when its version's folder and each file its command names are trusted so too. A manifest that
// cannot be read is skipped and named; a name two manifests define is refused when it is asked for.
// Plain values and functions; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/client_spec.h"

namespace rlock::protocol {

struct CatalogueEntry {
  protocol::ClientSpec spec;           // the command with {dir} and {build} replaced, the manifest's safety
  std::string models;                  // one line: the library and how the adapter uses it
  std::string version;                 // the library and version it pins
  std::string version_number;          // that version's number (3.5.21); empty when the manifest gives none
  std::filesystem::path installed_by;  // exists once installed
  std::string install_command;         // scripts/clients.sh install NAME
  std::filesystem::path manifest;      // the client.json that defines it
  // Every version the manifest names, its default's among them, each an entry named NAME@V whose
  // install command is `scripts/clients.sh install NAME@V`; sorted by number; empty for those.
  std::vector<CatalogueEntry> versions;
  std::string fenced;  // the catalogue name of its fenced variant; empty: none
  // What its command runs as the user: its build folder (versions/V/, or the adapter's folder) and
  // every absolute path its command names ({dir}/client.py, {build}/bin/NAME, /usr/bin/python3).
  std::vector<std::filesystem::path> runs;

  bool installed() const;
  // Why its command cannot be trusted to run as this user (util::untrusted of something it runs:
  // another user owns it, or its group or others can write it); empty when it can.
  std::string untrusted() const;
};

struct Catalogue {
  std::filesystem::path dir;
  std::vector<CatalogueEntry> entries;  // sorted by name; a name defined twice is here twice
  std::vector<std::string> skipped;     // one line a manifest not read: its path and why, printable

  // "NAME is defined twice: A and B" for the first name two manifests define; empty when none is.
  std::string first_duplicate() const;
};

// $RLOCK_CLIENTS_DIR when it is set. Else, for a binary run from the bin/ of the prefix it was built
// for (CMAKE_INSTALL_PREFIX, or the Debian package's /usr), that prefix's share/rlock/clients; for
// any other, the clients/ of the checkout it was built from.
std::filesystem::path catalogue_dir();

// The entries of one manifest's text, `folder` standing for {dir}. Throws Error (or
// nlohmann::json::exception) saying what is wrong, without the manifest's name.
std::vector<CatalogueEntry> read_manifest(std::string_view text, const std::filesystem::path& folder);

// Every manifest's entries under `dir`; none when `dir` does not exist. Throws UsageError, in one
// line, when `dir` is one that another user (not root) owns or that its group or others can write;
// a folder or manifest of it so made is skipped, like one that does not parse.
Catalogue read_catalogue(const std::filesystem::path& dir);

// read_catalogue(catalogue_dir()), each manifest skipped named in one line on stderr.
Catalogue shipped_catalogue();

// The entry named `name`, or for NAME@V the entry NAME's version V. Throws UsageError, in one line,
// when none is shipped (listing those that are), when two manifests define it (naming both), when
// it has no version V (listing those it has), when it is not installed (naming its install command)
// or when something its command runs is not to be trusted (CatalogueEntry::untrusted).
const CatalogueEntry& shipped_client(const Catalogue& catalogue, const std::string& name);

}  // namespace rlock::protocol
