#include "chaos/client_catalogue.h"

#include <gtest/gtest.h>

#include <fstream>

#include "host/temp_dir.h"
#include "rlock/error.h"

namespace rlock::chaos {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A manifest of one Redis client named `name`.
std::string manifest_of(const std::string& name) {
  return R"({"library": "lib 1.0", "installed": "x", "clients": [{"name": ")" + name +
         R"(", "command": "{dir}/x", "server": "redis", "safe": false, "models": "m"}]})";
}

TEST(ReadCatalogue, EachManifestEntryIsAClientWithItsFolderInItsCommand) {
  host::TempDir dir("catalogue");
  write(dir.path() / "lib" / "client.json",
        R"({"library": "lib 1.0", "installed": "bin/x", "clients": [
             {"name": "lib3", "command": "{dir}/bin/x --three", "server": "redis@3", "safe": false, "models": "m3"},
             {"name": "libzk", "command": "{dir}/bin/x", "server": "zookeeper", "safe": true, "models": "mz"}]})");
  write(dir.path() / "notes" / "README", "no manifest here");
  Catalogue catalogue = read_catalogue(dir.path());
  EXPECT_TRUE(catalogue.skipped.empty());
  ASSERT_EQ(catalogue.entries.size(), 2u);
  const CatalogueEntry& three = catalogue.entries[0];
  EXPECT_EQ(three.spec.name, "lib3");
  EXPECT_EQ(three.spec.command, "'" + (dir.path() / "lib").string() + "'/bin/x --three");
  EXPECT_EQ(three.spec.servers, 3);
  EXPECT_EQ(three.spec.server, protocol::ServerKind::redis);
  EXPECT_EQ(three.manifest, dir.path() / "lib" / "client.json");
  EXPECT_FALSE(three.installed());
  EXPECT_EQ(three.install_command, "scripts/clients.sh install lib3");
  EXPECT_EQ(catalogue.entries[1].spec.server, protocol::ServerKind::zookeeper);
  EXPECT_TRUE(catalogue.entries[1].spec.expected_safe);
  write(dir.path() / "lib" / "bin" / "x", "");
  EXPECT_TRUE(read_catalogue(dir.path()).entries[0].installed());
}

TEST(ReadCatalogue, ABrokenManifestIsNamedAndSkippedAndTheOthersRead) {
  host::TempDir dir("catalogue");
  write(dir.path() / "bad" / "client.json",
        R"({"library": "x", "installed": "y", "clients": [{"name": "b", "command": "c", "server": "mysql",
             "safe": false, "models": "m"}]})");
  write(dir.path() / "cut" / "client.json", "{\"library\": \"\x1b[2J");
  write(dir.path() / "good" / "client.json", manifest_of("good"));
  Catalogue catalogue = read_catalogue(dir.path());
  ASSERT_EQ(catalogue.entries.size(), 1u);
  EXPECT_EQ(catalogue.entries[0].spec.name, "good");
  ASSERT_EQ(catalogue.skipped.size(), 2u);
  std::string skipped = catalogue.skipped[0] + "\n" + catalogue.skipped[1];
  EXPECT_NE(skipped.find("bad/client.json: server \"mysql\" is not redis"), std::string::npos) << skipped;
  EXPECT_NE(skipped.find("cut/client.json: "), std::string::npos) << skipped;
  EXPECT_EQ(skipped.find('\x1b'), std::string::npos) << "a manifest's bytes are made printable";
}

TEST(ReadCatalogue, ANameTwoManifestsDefineIsFoundTwice) {
  host::TempDir dir("catalogue");
  write(dir.path() / "one" / "client.json", manifest_of("same"));
  write(dir.path() / "two" / "client.json", manifest_of("same"));
  Catalogue catalogue = read_catalogue(dir.path());
  ASSERT_EQ(catalogue.entries.size(), 2u);
  EXPECT_EQ(catalogue.first_duplicate(), "same is defined twice: " + (dir.path() / "one" / "client.json").string() +
                                             " and " + (dir.path() / "two" / "client.json").string());
  EXPECT_THROW(shipped_client(catalogue, "same"), UsageError);
}

TEST(ReadCatalogue, AFolderItsGroupOrOthersCanWriteIsRefused) {
  for (fs::perms writable : {fs::perms::others_write, fs::perms::group_write}) {
    host::TempDir dir("catalogue");
    write(dir.path() / "lib" / "client.json", manifest_of("lib"));
    fs::permissions(dir.path(), writable, fs::perm_options::add);
    try {
      read_catalogue(dir.path());
      FAIL() << "a catalogue others can write was read";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(dir.path().string() + " can be written by"), std::string::npos) << e.what();
    }
  }
}

TEST(ReadCatalogue, AnAdapterFolderOthersCanWriteIsSkipped) {
  host::TempDir dir("catalogue");
  write(dir.path() / "open" / "client.json", manifest_of("open"));
  write(dir.path() / "good" / "client.json", manifest_of("good"));
  fs::permissions(dir.path() / "open", fs::perms::others_write, fs::perm_options::add);
  Catalogue catalogue = read_catalogue(dir.path());
  ASSERT_EQ(catalogue.entries.size(), 1u);
  EXPECT_EQ(catalogue.entries[0].spec.name, "good");
  ASSERT_EQ(catalogue.skipped.size(), 1u);
  EXPECT_NE(catalogue.skipped[0].find("open/client.json: its folder can be written by every user"), std::string::npos)
      << catalogue.skipped[0];
}

TEST(ReadCatalogue, NoFolderIsNoClient) { EXPECT_TRUE(read_catalogue("/nonexistent/rlock-clients").entries.empty()); }

}  // namespace
}  // namespace rlock::chaos
