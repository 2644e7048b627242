// A Lua script run on Redis by its SHA.
//
// The first run loads the script (SCRIPT LOAD) and remembers the SHA; later runs send only EVALSHA.
// A NOSCRIPT answer (a restarted Redis has an empty script cache) makes it send the body with EVAL,
// which caches it again. Not thread-safe: one instance per connection's thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rlock/redis_connection.h"

namespace rlock {

class LuaScript {
 public:
  explicit LuaScript(std::string_view body) : body_(body) {}

  // Throws Error for an error reply other than NOSCRIPT, OutcomeUnknown as RedisConnection does.
  Reply run(RedisConnection& redis, const std::vector<std::string_view>& keys,
            const std::vector<std::string_view>& args);

  const std::string& body() const { return body_; }

 private:
  Reply call(RedisConnection& redis, std::string_view verb, std::string_view script,
             const std::vector<std::string_view>& keys, const std::vector<std::string_view>& args);
  std::string body_;
  std::string sha_;
};

}  // namespace rlock
