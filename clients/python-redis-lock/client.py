"""An rlock protocol client (docs/clients.md) whose lock is python-redis-lock's redis_lock.Lock.

The lock is what its README shows for long work: `Lock(server, key, expire=TTL, auto_renewal=True)`,
whose thread extends the lock every two thirds of `expire`; acquired with a timeout of 10 TTLs and
released at the end; no fencing token. The library counts `expire` in whole seconds: run it with
`--ttl 1000` or more. A release that finds the lock gone (NotAcquired) is the increment's error.
Installed into .venv from the pinned requirements.txt by scripts/clients.sh."""
import os
import sys

import redis
import redis_lock
from redis.exceptions import RedisError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from protocol import increment_under_lock, receive, serve  # noqa: E402  (clients/protocol.py)


def increment(server, expire_s, request):
    lock = redis_lock.Lock(server, request["key"], expire=expire_s, auto_renewal=True)

    def acquire():
        try:
            return None if lock.acquire(timeout=10 * expire_s) else "could not acquire the lock in 10 TTLs"
        except RedisError as e:
            return f"acquire: {e}"

    def release():
        try:
            lock.release()
        except redis_lock.NotAcquired:
            return "release: the lock was no longer ours (NotAcquired)"
        except RedisError as e:
            return f"release: {e}"
        return None

    increment_under_lock(request, acquire, release)


def main():
    init = receive("init")
    expire_s = max(1, round(init["ttl_ms"] / 1000))
    server = redis.Redis.from_url(init["redis"][0], socket_timeout=2, socket_connect_timeout=2)
    serve(lambda request: increment(server, expire_s, request))


if __name__ == "__main__":
    main()
