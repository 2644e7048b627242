#include "protocol/client_environment.h"

#include <gtest/gtest.h>

namespace rlock::protocol {
namespace {

TEST(ClientEnvironment, ServersAndTheirPasswordsStayWithRlock) {
  std::vector<std::string> passed = client_environment(
      {"PATH=/usr/bin", "DATABASE_URL=postgresql://u:secret@h/bank", "REDIS_URL=redis://:secret@h:6379/0", "HOME=/root",
       "PGPASSWORD=secret", "AWS_SECRET_ACCESS_KEY=x", "LC_ALL=C.UTF-8", "NODE_PATH=/opt/node"});
  EXPECT_EQ(passed, (std::vector<std::string>{"PATH=/usr/bin", "HOME=/root", "LC_ALL=C.UTF-8", "NODE_PATH=/opt/node"}));
}

TEST(ClientEnvironment, WhatTheAdaptersNeedIsPassed) {
  for (const char* name : {"PATH", "HOME", "LANG", "LC_CTYPE", "TMPDIR", "PYTHONPATH", "NODE_PATH", "ETCD_ENDPOINT",
                           "ZOOKEEPER_CONNECT", "HAZELCAST_MEMBERS", "PG_ENDPOINT", "PGPASSFILE"}) {
    EXPECT_TRUE(passed_to_clients(name)) << name;
  }
  for (const char* name : {"DATABASE_URL", "REDIS_URL", "PGPASSWORD", "LD_PRELOAD", "PATHX", "XLC_ALL"}) {
    EXPECT_FALSE(passed_to_clients(name)) << name;
  }
}

TEST(ClientEnvironment, AnEntryWithoutAValueIsDropped) { EXPECT_TRUE(client_environment({"PATH"}).empty()); }

TEST(ClientEnvironment, AnOverrideTakesTheEntrysPlace) {
  EXPECT_EQ(with_overrides({"PATH=/usr/bin", "ETCD_ENDPOINT=127.0.0.1:2379", "ETCD_ENDPOINT_X=1"},
                           {"ETCD_ENDPOINT=127.0.0.1:40000", "ZOOKEEPER_CONNECT=127.0.0.1:40001"}),
            (std::vector<std::string>{"PATH=/usr/bin", "ETCD_ENDPOINT_X=1", "ETCD_ENDPOINT=127.0.0.1:40000",
                                      "ZOOKEEPER_CONNECT=127.0.0.1:40001"}));
}

}  // namespace
}  // namespace rlock::protocol
