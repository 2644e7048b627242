#include "rlock/lua_script.h"

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock {

Reply LuaScript::run(RedisConnection& redis, const std::vector<std::string_view>& keys,
                     const std::vector<std::string_view>& args) {
  if (sha_.empty()) sha_ = redis.checked({"SCRIPT", "LOAD", body_}).text();
  Reply reply = call(redis, "EVALSHA", sha_, keys, args);
  if (reply.is_error() && reply.text().starts_with("NOSCRIPT")) reply = call(redis, "EVAL", body_, keys, args);
  if (reply.is_error()) {
    throw Error(fmt::format("Redis at {} failed a lock script: {}", redis.address().display(), reply.text()));
  }
  return reply;
}

Reply LuaScript::call(RedisConnection& redis, std::string_view verb, std::string_view script,
                      const std::vector<std::string_view>& keys, const std::vector<std::string_view>& args) {
  std::string key_count = std::to_string(keys.size());
  std::vector<std::string_view> command{verb, script, key_count};
  command.insert(command.end(), keys.begin(), keys.end());
  command.insert(command.end(), args.begin(), args.end());
  return redis.command(command);
}

}  // namespace rlock
