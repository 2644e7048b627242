#include "protocol/client_spec.h"

#include <gtest/gtest.h>

namespace rlock::protocol {
namespace {

TEST(BlankCommandSecrets, BlanksEveryUsualFormOfPassword) {
  const std::pair<const char*, const char*> cases[] = {
      {"python3 c.py --password hunter2 -a s3cret redis://u:pw@h/",
       "python3 c.py --password *** -a *** redis://u:***@h/"},
      {"redis-cli --pass 'a b c' -p 6379 ping", "redis-cli --pass *** -p 6379 ping"},
      {"redis-cli --pass=s3cret ping", "redis-cli --pass=*** ping"},
      {"redis-cli --pass=\"a b\" ping", "redis-cli --pass=*** ping"},
      {"node c.js --password=hunter2", "node c.js --password=***"},
      {"psql 'host=h password=pw dbname=bank'", "psql 'host=h password=*** dbname=bank'"},
      {"x=sh -c 'redis-cli -a s3cret ping'", "x=sh -c 'redis-cli -a *** ping'"},
      {"go run .\t-a\ts3cret", "go run .\t-a\t***"},
      {"client --pass", "client --pass"},
      {"python3 client.py --passes 3 -ab", "python3 client.py --passes 3 -ab"},
      {"'/opt/clients/redis py'/client.py", "'/opt/clients/redis py'/client.py"},
      {"env REDISCLI_AUTH=s3cret redis-cli ping", "env REDISCLI_AUTH=*** redis-cli ping"},
      {"PGPASSWORD='a b' psql -h h", "PGPASSWORD=*** psql -h h"},
      {"env PG_PASSWORD=pw MY_API_TOKEN=t c", "env PG_PASSWORD=*** MY_API_TOKEN=*** c"},
      {"c --auth s3cret --requirepass=x --masterauth y", "c --auth *** --requirepass=*** --masterauth ***"},
      {"c --auth=s3cret", "c --auth=***"},
      {"c KEY=value a=b", "c KEY=value a=b"},
  };
  for (const auto& [command, blanked] : cases) EXPECT_EQ(blank_command_secrets(command), blanked) << command;
}

TEST(BlankCommandSecrets, BlankingTwiceChangesNothing) {
  for (const char* command : {"c --password hunter2 -a 'x y' redis://:pw@h/0", "c --pass=\"a b\" password=x"}) {
    std::string once = blank_command_secrets(command);
    EXPECT_EQ(blank_command_secrets(once), once) << command;
  }
}

}  // namespace
}  // namespace rlock::protocol
