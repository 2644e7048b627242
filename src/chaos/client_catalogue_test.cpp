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

TEST(ReadCatalogue, EachManifestEntryIsAClientWithItsFolderInItsCommand) {
  host::TempDir dir("catalogue");
  write(dir.path() / "lib" / "client.json",
        R"({"library": "lib 1.0", "installed": "bin/x", "clients": [
             {"name": "lib3", "command": "{dir}/bin/x --three", "server": "redis@3", "safe": false, "models": "m3"},
             {"name": "libzk", "command": "{dir}/bin/x", "server": "zookeeper", "safe": true, "models": "mz"}]})");
  write(dir.path() / "notes" / "README", "no manifest here");
  std::vector<CatalogueEntry> catalogue = read_catalogue(dir.path());
  ASSERT_EQ(catalogue.size(), 2u);
  const CatalogueEntry& three = catalogue[0];
  EXPECT_EQ(three.spec.name, "lib3");
  EXPECT_EQ(three.spec.command, "'" + (dir.path() / "lib").string() + "'/bin/x --three");
  EXPECT_EQ(three.spec.servers, 3);
  EXPECT_EQ(three.spec.server, protocol::ServerKind::redis);
  EXPECT_FALSE(three.installed());
  EXPECT_EQ(three.install_command, "scripts/clients.sh install lib3");
  EXPECT_EQ(catalogue[1].spec.server, protocol::ServerKind::zookeeper);
  EXPECT_TRUE(catalogue[1].spec.expected_safe);
  write(dir.path() / "lib" / "bin" / "x", "");
  EXPECT_TRUE(read_catalogue(dir.path())[0].installed());
}

TEST(ReadCatalogue, ABrokenManifestIsOneErrorNamingIt) {
  host::TempDir dir("catalogue");
  write(dir.path() / "bad" / "client.json",
        R"({"library": "x", "installed": "y", "clients": [{"name": "b", "command": "c", "server": "mysql",
             "safe": false, "models": "m"}]})");
  try {
    read_catalogue(dir.path());
    FAIL() << "a server kind that is none was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad/client.json: server \"mysql\" is not redis"), std::string::npos)
        << e.what();
  }
}

TEST(ReadCatalogue, NoFolderIsNoClient) { EXPECT_TRUE(read_catalogue("/nonexistent/rlock-clients").empty()); }

}  // namespace
}  // namespace rlock::chaos
