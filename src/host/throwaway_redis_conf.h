// The settings every throwaway Redis of rlock's starts with: scripts/throwaway-redis.conf, which the
// lab's scripts read too, built into the binary (throwaway_redis_conf.cpp.in) so that it runs from
// any directory. Immutable; thread-safe.
#pragma once

#include <string_view>

namespace rlock {

// The file's text, as redis.conf lines.
extern const std::string_view kThrowawayRedisConf;

}  // namespace rlock
