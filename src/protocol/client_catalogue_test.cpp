#include "protocol/client_catalogue.h"

#include <gtest/gtest.h>

#include <fstream>

#include "host/temp_dir.h"
#include "rlock/error.h"

namespace rlock::protocol {
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
             {"name": "libzk", "command": "{dir}/bin/x", "server": "zookeeper", "safe": true, "models": "mz"},
             {"name": "libhz", "command": "{dir}/bin/x", "server": "hazelcast", "safe": false, "models": "mh"}]})");
  write(dir.path() / "notes" / "README", "no manifest here");
  Catalogue catalogue = read_catalogue(dir.path());
  EXPECT_TRUE(catalogue.skipped.empty());
  ASSERT_EQ(catalogue.entries.size(), 3u);
  const CatalogueEntry& three = catalogue.entries[0];
  EXPECT_EQ(three.spec.name, "lib3");
  EXPECT_EQ(three.spec.command, "'" + (dir.path() / "lib").string() + "'/bin/x --three");
  EXPECT_EQ(three.spec.servers, 3);
  EXPECT_EQ(three.spec.server, protocol::ServerKind::redis);
  EXPECT_EQ(three.manifest, dir.path() / "lib" / "client.json");
  EXPECT_FALSE(three.installed());
  EXPECT_EQ(three.install_command, "scripts/clients.sh install lib3");
  EXPECT_EQ(catalogue.entries[1].spec.server, protocol::ServerKind::hazelcast);  // by name: libhz, then libzk
  EXPECT_EQ(catalogue.entries[2].spec.server, protocol::ServerKind::zookeeper);
  EXPECT_TRUE(catalogue.entries[2].spec.expected_safe);
  write(dir.path() / "lib" / "bin" / "x", "");
  EXPECT_TRUE(read_catalogue(dir.path()).entries[0].installed());
}

TEST(ReadManifest, AnEntryNamesItsFencedVariantAndTheStepItsLibraryCountsTheTtlIn) {
  std::vector<CatalogueEntry> entries = read_manifest(
      R"({"library": "lib 1.0", "installed": "x", "clients": [
           {"name": "lib", "command": "c", "server": "etcd", "safe": false, "models": "m", "fenced": "lib-fenced",
            "ttl_step_ms": 1000},
           {"name": "lib-fenced", "command": "c --fenced", "server": "etcd", "safe": true, "models": "m"}]})",
      "/clients/lib");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].fenced, "lib-fenced");
  EXPECT_EQ(entries[0].spec.ttl_step_ms, 1000);
  EXPECT_EQ(entries[1].fenced, "");
  EXPECT_EQ(entries[1].spec.ttl_step_ms, 1) << "a library that says nothing counts milliseconds";
  std::vector<CatalogueEntry> versioned = read_manifest(
      R"({"library": "lib 2.0", "version": "2.0", "versions": {"1.0": {"library": "lib 1.0"}}, "installed": "x",
          "clients": [{"name": "lib", "command": "{build}/c", "server": "redis", "safe": false, "models": "m",
                       "fenced": "lib-fenced"}]})",
      "/clients/lib");
  ASSERT_EQ(versioned.at(0).versions.size(), 2u);
  EXPECT_EQ(versioned[0].versions[0].spec.name, "lib@1.0");
  EXPECT_EQ(versioned[0].versions[0].fenced, "lib-fenced@1.0") << "a version's fenced variant is of that version";
  EXPECT_EQ(versioned[0].fenced, "lib-fenced");
  auto with = [](const std::string& fields) {
    return read_manifest(R"({"library": "l", "installed": "x", "clients": [{"name": "n", "command": "c",
                             "server": "redis", "safe": false, "models": "m", )" +
                             fields + "}]}",
                         "/clients/lib");
  };
  for (const char* bad :
       {R"("ttl_step_ms": 0)", R"("ttl_step_ms": -1000)", R"("ttl_step_ms": 1.5)", R"("ttl_step_ms": 60001)",
        R"("ttl_step_ms": 18446744073709551615)", R"("ttl_step_ms": "1000")", R"("fenced": "a b")", R"("fenced": "")",
        R"("fenced": 3)", R"("topologies": "cluster")", R"("topologies": ["ring"])", R"("topologies": [1])"}) {
    EXPECT_THROW(with(bad), Error) << bad;
  }
  EXPECT_FALSE(with(R"("clock_skew": false)").at(0).spec.cluster) << "one server by default";
  EXPECT_TRUE(with(R"("topologies": ["single", "cluster"])").at(0).spec.cluster);
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

// A manifest of `lib` (and its fenced variant) at 1.10.0, with versions 1.9.2 and 1.2.0 built in
// versions/V/.
std::string versioned_manifest() {
  return R"j({"library": "lib 1.10.0 (Go)", "version": "1.10.0", "installed": "{build}/bin/lib",
             "versions": {"1.9.2": {"library": "lib 1.9.2 (Go)"}, "1.2.0": {"library": "lib 1.2.0 (Go)"}},
             "clients": [
               {"name": "lib", "command": "{build}/bin/lib {dir}/x", "server": "etcd", "safe": false, "models": "m"},
               {"name": "lib-fenced", "command": "{build}/bin/lib --fenced", "server": "etcd", "safe": true,
                "models": "mf"}]})j";
}

// The UsageError's text of shipped_client(catalogue, name), or "" when it gives an entry.
std::string refusal(const Catalogue& catalogue, const std::string& name) {
  try {
    shipped_client(catalogue, name);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ShippedClient, NameAtVersionIsThatVersionsBuildNamedWithItsVersion) {
  host::TempDir dir("catalogue");
  write(dir.path() / "lib" / "client.json", versioned_manifest());
  write(dir.path() / "lib" / "versions" / "1.9.2" / "bin" / "lib", "");
  Catalogue catalogue = read_catalogue(dir.path());
  ASSERT_TRUE(catalogue.skipped.empty()) << catalogue.skipped[0];
  std::string folder = (dir.path() / "lib").string();
  const CatalogueEntry& old = shipped_client(catalogue, "lib@1.9.2");
  EXPECT_EQ(old.spec.name, "lib@1.9.2");
  EXPECT_EQ(old.spec.command, "'" + folder + "/versions/1.9.2'/bin/lib '" + folder + "'/x");
  EXPECT_EQ(old.spec.server, protocol::ServerKind::etcd);
  EXPECT_EQ(old.version, "lib 1.9.2 (Go)");
  EXPECT_EQ(old.installed_by, dir.path() / "lib" / "versions" / "1.9.2" / "bin" / "lib");
  const CatalogueEntry& fenced = shipped_client(catalogue, "lib-fenced@1.9.2");
  EXPECT_EQ(fenced.spec.command, "'" + folder + "/versions/1.9.2'/bin/lib --fenced");
  EXPECT_TRUE(fenced.spec.expected_safe);
  EXPECT_EQ(refusal(catalogue, "lib"), "--client lib: not installed; install it with `scripts/clients.sh install lib`");
  write(dir.path() / "lib" / "bin" / "lib", "");
  EXPECT_EQ(shipped_client(catalogue, "lib").spec.command, "'" + folder + "'/bin/lib '" + folder + "'/x");
  EXPECT_EQ(shipped_client(catalogue, "lib@1.10.0").spec.name, "lib@1.10.0") << "the default by its number";
  EXPECT_EQ(shipped_client(catalogue, "lib@1.10.0").version, "lib 1.10.0 (Go)");
}

TEST(ShippedClient, AnUnknownOrUninstalledVersionIsRefusedInOneLine) {
  host::TempDir dir("catalogue");
  write(dir.path() / "lib" / "client.json", versioned_manifest());
  write(dir.path() / "plain" / "client.json", manifest_of("plain"));
  Catalogue catalogue = read_catalogue(dir.path());
  EXPECT_EQ(refusal(catalogue, "lib@9.9"),
            "--client lib@9.9: lib has no version '9.9' (its versions: 1.2.0, 1.9.2, 1.10.0)");
  EXPECT_EQ(refusal(catalogue, "lib@3"), "--client lib@3: lib has no version '3' (its versions: 1.2.0, 1.9.2, 1.10.0)");
  EXPECT_EQ(refusal(catalogue, "plain@1.0"),
            "--client plain@1.0: plain has no version '1.0' (it names none: give --client plain)");
  EXPECT_EQ(refusal(catalogue, "lib-fenced@1.2.0"),
            "--client lib-fenced@1.2.0: not installed; install it with `scripts/clients.sh install lib-fenced@1.2.0`");
  EXPECT_EQ(
      refusal(catalogue, "nope@1.2.0"),
      "--client 'nope@1.2.0': no shipped client of that name (shipped: lib, lib-fenced, plain); or give NAME=COMMAND");
}

TEST(ReadCatalogue, AnEntryListsEveryVersionByNumberTheDefaultAmongThem) {
  host::TempDir dir("catalogue");
  write(dir.path() / "lib" / "client.json", versioned_manifest());
  Catalogue catalogue = read_catalogue(dir.path());
  ASSERT_EQ(catalogue.entries.size(), 2u);
  const CatalogueEntry& lib = catalogue.entries[0];
  EXPECT_EQ(lib.version_number, "1.10.0");
  std::vector<std::string> names;
  for (const CatalogueEntry& v : lib.versions) names.push_back(v.spec.name + " " + v.install_command);
  EXPECT_EQ(names, (std::vector<std::string>{"lib@1.2.0 scripts/clients.sh install lib@1.2.0",
                                             "lib@1.9.2 scripts/clients.sh install lib@1.9.2",
                                             "lib@1.10.0 scripts/clients.sh install lib@1.10.0"}));
}

TEST(ReadCatalogue, AManifestWhoseVersionsCannotBeToldApartIsSkipped) {
  const std::string clients = R"("clients": [{"name": "x", "command": "{build}/x", "server": "redis", "safe": false,
                                  "models": "m"}])";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"library": "l", "installed": "x", "versions": {"1.0": {"library": "l 1.0"}}, )", "without \"version\""},
      {R"({"library": "l", "installed": "x", "version": "2", )", "\"version\" 2 is no version"},
      {R"({"library": "l", "installed": "x", "version": "2.0", "versions": {"../1.0": {"library": "l"}}, )",
       "\"versions\" names ../1.0, no version"},
      {R"({"library": "l", "installed": "x", "version": "2.0", "versions": {"2.0": {"library": "l"}}, )",
       "names the default's 2.0"},
      {R"({"library": "l", "installed": "x", "version": "2.0", "versions": {"1.0": {}}, )", "\"library\" is missing"},
  };
  for (const auto& [head, why] : cases) {
    host::TempDir dir("catalogue");
    write(dir.path() / "lib" / "client.json", head + clients + "}");
    Catalogue catalogue = read_catalogue(dir.path());
    EXPECT_TRUE(catalogue.entries.empty()) << head;
    ASSERT_EQ(catalogue.skipped.size(), 1u) << head;
    EXPECT_NE(catalogue.skipped[0].find(why), std::string::npos) << catalogue.skipped[0];
  }
  host::TempDir dir("catalogue");
  write(dir.path() / "lib" / "client.json",
        R"({"library": "l", "installed": "x", "version": "2.0", "versions": {"1.0": {"library": "l 1.0"}},
            "clients": [{"name": "x", "command": "{dir}/bin/x", "server": "redis", "safe": false, "models": "m"}]})");
  ASSERT_EQ(read_catalogue(dir.path()).skipped.size(), 1u);
  EXPECT_NE(read_catalogue(dir.path()).skipped[0].find("does not name {build}"), std::string::npos);
}

TEST(ReadCatalogue, NoFolderIsNoClient) { EXPECT_TRUE(read_catalogue("/nonexistent/rlock-clients").entries.empty()); }

}  // namespace
}  // namespace rlock::protocol
