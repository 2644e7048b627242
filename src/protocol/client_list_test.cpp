#include "protocol/client_list.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "rlock/error.h"

namespace rlock::protocol {
namespace {

// The UsageError's text of parse_client_list(texts, catalogue), or "" when it accepts them.
std::string refusal(const std::vector<std::string>& texts, const Catalogue& catalogue = {}) {
  try {
    parse_client_list(texts, catalogue);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ParseClientSpec, NameEqualsCommandIsOneServer) {
  protocol::ClientSpec c = parse_client_spec("redis-py=python3 client.py --flag=1");
  EXPECT_EQ(c.name, "redis-py");
  EXPECT_EQ(c.command, "python3 client.py --flag=1");  // only the first '=' splits
  EXPECT_EQ(c.servers, 1);
  EXPECT_FALSE(c.expected_safe);
}

TEST(ParseClientSpec, NameAtThreeIsThreeServers) {
  protocol::ClientSpec c = parse_client_spec("node_redlock@3=node client.js");
  EXPECT_EQ(c.name, "node_redlock");
  EXPECT_EQ(c.servers, 3);
}

TEST(ParseClientSpec, NameAtKindSaysWhereItsLockLives) {
  protocol::ClientSpec etcd = parse_client_spec("mine@etcd=python3 mine.py");
  EXPECT_EQ(etcd.name, "mine");
  EXPECT_EQ(etcd.server, protocol::ServerKind::etcd);
  EXPECT_EQ(etcd.servers, 1);
  EXPECT_EQ(parse_client_spec("mine@zookeeper=x").server, protocol::ServerKind::zookeeper);
  protocol::ClientSpec three = parse_client_spec("mine@redis3=x");
  EXPECT_EQ(three.server, protocol::ServerKind::redis);
  EXPECT_EQ(three.servers, 3);
  EXPECT_EQ(parse_client_spec("mine@redis=x").servers, 1);
}

TEST(ParseClientSpec, TheLongestNameIs32Characters) {
  EXPECT_EQ(parse_client_spec(std::string(32, 'a') + "=x").name, std::string(32, 'a'));
}

TEST(ParseClientSpec, BadFormsAreRefusedInOneLine) {
  EXPECT_THROW(parse_client_spec("redis-py"), UsageError);
  const char* kinds =
      "after @ comes where its lock lives: redis, redis3 (or 3: three Redis servers), etcd, zookeeper, hazelcast or "
      "postgres";
  EXPECT_EQ(refusal({"py@2=x"}), fmt::format("--client 'py@2': {}", kinds));
  EXPECT_EQ(refusal({"py@=x"}), fmt::format("--client 'py@': {}", kinds));
  EXPECT_EQ(refusal({"py@3.4.3=x"}), fmt::format("--client 'py@3.4.3': {}", kinds));
  EXPECT_EQ(refusal({"=x"}), "--client '=x': NAME must be 1 to 32 letters, digits, _ or -");
  EXPECT_EQ(refusal({"@3=x"}), "--client '@3=x': NAME must be 1 to 32 letters, digits, _ or -");
  EXPECT_EQ(refusal({"a/b=x"}), "--client 'a/b=x': NAME must be 1 to 32 letters, digits, _ or -");
  EXPECT_NE(refusal({std::string(33, 'a') + "=x"}), "");
  EXPECT_EQ(refusal({"py="}), "--client 'py=': the command is empty");
  EXPECT_EQ(refusal({"py= \t"}), "--client 'py= \t': the command is empty");
}

TEST(ClientRowName, IsAClientNameOrOneWithAVersion) {
  for (const char* name : {"redsync", "etcd-mutex@3.4.3", "redsync@v4.18.1", "a@1.2.3-rc.1"}) {
    EXPECT_TRUE(is_client_row_name(name)) << name;
  }
  for (const char* name : {"", "@3.4", "x@3", "x@", "x@3.4/..", "x@1.2@1.3", "a/b@1.2"}) {
    EXPECT_FALSE(is_client_row_name(name)) << name;
  }
}

TEST(ParseClientList, ClientsKeepTheirOrder) {
  std::vector<protocol::ClientSpec> clients = parse_client_list({"b=run b", "a@3=run a"});
  ASSERT_EQ(clients.size(), 2u);
  EXPECT_EQ(clients[0].name, "b");
  EXPECT_EQ(clients[1].name, "a");
  EXPECT_EQ(clients[1].servers, 3);
  EXPECT_TRUE(parse_client_list({}).empty());
}

TEST(ParseClientList, ANameGivenTwiceIsRefused) {
  EXPECT_EQ(refusal({"py=one", "py=two"}), "--client py: the name is given twice");
  EXPECT_EQ(refusal({"py=one", "py@3=two"}), "--client py: the name is given twice");
}

TEST(ParseClientList, AStrategysNameIsRefused) {
  EXPECT_EQ(refusal({"ttl=python3 x.py"}), "--client ttl: the name is a strategy's");
  EXPECT_EQ(refusal({"fenced-claim@3=x"}), "--client fenced-claim: the name is a strategy's");
}

CatalogueEntry shipped(const std::string& name, bool installed, const std::string& folder = "lib") {
  CatalogueEntry e;
  e.manifest = "/clients/" + folder + "/client.json";
  e.spec = protocol::ClientSpec{name, "true", 3, true, protocol::ServerKind::redis};
  e.installed_by = installed ? "/" : "/nonexistent/rlock-client";
  e.install_command = "scripts/clients.sh install " + name;
  return e;
}

TEST(ParseClientList, ABareNameIsTheShippedClientsEntry) {
  std::vector<protocol::ClientSpec> clients =
      parse_client_list({"redsync3"}, {"/clients", {shipped("redsync3", true)}, {}});
  ASSERT_EQ(clients.size(), 1u);
  EXPECT_EQ(clients[0].command, "true");
  EXPECT_EQ(clients[0].servers, 3);
  EXPECT_TRUE(clients[0].expected_safe);
}

TEST(ParseClientList, ABareNameNotShippedListsTheShippedOnes) {
  EXPECT_EQ(refusal({"nope"}, {"/clients", {shipped("a", true), shipped("b", false)}, {}}),
            "--client 'nope': no shipped client of that name (shipped: a, b); or give NAME=COMMAND");
}

TEST(ParseClientList, AShippedClientNotInstalledNamesItsInstallCommand) {
  EXPECT_EQ(refusal({"b"}, {"/clients", {shipped("b", false)}, {}}),
            "--client b: not installed; install it with `scripts/clients.sh install b`");
}

TEST(ParseClientList, ANameWithAVersionIsThatVersionsRowBesideTheDefault) {
  CatalogueEntry lib = shipped("lib", true);
  lib.version_number = "2.0";
  lib.versions = {shipped("lib@1.0", true), shipped("lib@2.0", true)};
  lib.versions[0].version_number = "1.0";
  lib.versions[1].version_number = "2.0";
  std::vector<protocol::ClientSpec> clients = parse_client_list({"lib", "lib@1.0", "lib@2.0"}, {"/clients", {lib}, {}});
  ASSERT_EQ(clients.size(), 3u);
  EXPECT_EQ(clients[1].name, "lib@1.0");
  EXPECT_EQ(clients[2].name, "lib@2.0");
  EXPECT_EQ(refusal({"lib@1.0", "lib@1.0"}, {"/clients", {lib}, {}}), "--client lib@1.0: the name is given twice");
}

TEST(ParseClientList, ANameTwoManifestsDefineIsRefusedNamingBoth) {
  Catalogue catalogue{"/clients", {shipped("a", true), shipped("b", true, "one"), shipped("b", true, "two")}, {}};
  EXPECT_EQ(refusal({"b"}, catalogue),
            "--client b: two manifests define it, /clients/one/client.json and /clients/two/client.json: remove one, "
            "or give NAME=COMMAND");
  EXPECT_EQ(refusal({"a"}, catalogue), "");
  EXPECT_EQ(refusal({"nope"}, catalogue),
            "--client 'nope': no shipped client of that name (shipped: a, b); or give NAME=COMMAND");
  EXPECT_EQ(catalogue.first_duplicate(), "b is defined twice: /clients/one/client.json and /clients/two/client.json");
}

}  // namespace
}  // namespace rlock::protocol
