"""An rlock protocol client (docs/clients.md) whose lock is pottery's Redlock.

Declared with three servers (catalogue name pottery-redlock, server redis@3), it is Redlock's
quorum: `Redlock(key=KEY, masters={three clients}, auto_release_time=TTL)`, acquired with a timeout
of 10 TTLs (pottery retries after a random delay of up to 0.2 s), released at the end; no renewal
and no fencing token. A release that finds the lock gone (ReleaseUnlockedLock) is the increment's
error. Installed into .venv from the pinned requirements.txt by scripts/clients.sh."""
import os
import sys

import redis
from pottery import PotteryError, Redlock
from pottery.exceptions import ReleaseUnlockedLock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from protocol import increment_under_lock, receive, serve  # noqa: E402  (clients/protocol.py)


def increment(masters, ttl_s, request):
    lock = Redlock(key=request["key"], masters=masters, auto_release_time=ttl_s)

    def acquire():
        try:
            return None if lock.acquire(timeout=10 * ttl_s) else "could not acquire the lock in 10 TTLs"
        except PotteryError as e:
            return f"acquire: {e!r}"

    def release():
        try:
            lock.release()
        except ReleaseUnlockedLock:
            return "release: the lock was no longer ours (ReleaseUnlockedLock)"
        except PotteryError as e:
            return f"release: {e!r}"
        return None

    increment_under_lock(request, acquire, release)


def main():
    init = receive("init")
    ttl_s = init["ttl_ms"] / 1000
    masters = {redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2) for url in init["redis"]}
    serve(lambda request: increment(masters, ttl_s, request))


if __name__ == "__main__":
    main()
