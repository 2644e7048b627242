#!/usr/bin/python3
"""An rlock protocol client (docs/clients.md) whose lock is redis-py's redis.lock.Lock.

The lock is what a Python service would write: `Redis.lock(key, timeout=TTL)`, acquired with a
blocking timeout, released at the end; no fencing token. A release that finds the lock taken by
another (redis-py's LockNotOwnedError) is reported as the increment's error. Debian's python3-redis
provides redis-py; /usr/bin/python3 is Debian's interpreter, which has it."""
import os
import sys

import redis
from redis.exceptions import LockNotOwnedError, RedisError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from protocol import increment_under_lock, receive, serve  # noqa: E402  (clients/protocol.py)


def increment(server, ttl_s, request):
    # Polls every 10 ms (redis-py's default is 100 ms, long beside a 200 ms TTL), for up to 10 TTLs.
    lock = server.lock(request["key"], timeout=ttl_s, sleep=0.01, blocking_timeout=10 * ttl_s)

    def acquire():
        try:
            return None if lock.acquire() else "could not acquire the lock in 10 TTLs"
        except RedisError as e:
            return f"acquire: {e}"

    def release():
        try:
            lock.release()
        except LockNotOwnedError:
            return "release: the lock was no longer ours (LockNotOwnedError)"
        except RedisError as e:
            return f"release: {e}"
        return None

    increment_under_lock(request, acquire, release)


def main():
    init = receive("init")
    ttl_s = init["ttl_ms"] / 1000
    server = redis.Redis.from_url(init["redis"][0], socket_timeout=2, socket_connect_timeout=2)
    serve(lambda request: increment(server, ttl_s, request))


if __name__ == "__main__":
    main()
