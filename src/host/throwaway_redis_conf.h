// The settings every throwaway Redis of rlock's starts with: scripts/throwaway-redis.conf, which the
// lab's scripts read too, built into the binary (throwaway_redis_conf.cpp.in) so that it runs from
// any directory. Its first line is the marker of a server rlock or its scripts started: the host's
// faults strike no Redis whose config file lacks it (redis_server.h). Immutable; thread-safe.
#pragma once

#include <string_view>

namespace rlock::host {

// The file's text, as redis.conf lines.
extern const std::string_view kThrowawayRedisConf;

// The marker line, a comment (CONFIG REWRITE keeps comments, so a server Sentinel reconfigured keeps it).
inline constexpr std::string_view kThrowawayRedisMarker = "# rlock: a throwaway server";

}  // namespace rlock::host
