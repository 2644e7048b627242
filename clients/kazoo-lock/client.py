"""An rlock protocol client (docs/clients.md) whose lock is kazoo's kazoo.recipe.lock.Lock on the
ZooKeeper of ZOOKEEPER_CONNECT (or --connect HOST:PORT).

One KazooClient whose ZooKeeper session lasts the TTL, so that a holder paused past it loses its
ephemeral lock node; each increment is what kazoo's docs show: client.Lock(path), acquire(timeout=
10 TTLs), the work, release(). No fencing token. The harness hands out Redis URLs only, so
ZooKeeper's address comes from the command line or the environment. Installed into .venv from the
pinned requirements.txt by scripts/clients.sh."""
import argparse
import os
import sys

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException
from kazoo.handlers.threading import KazooTimeoutError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from protocol import TrialOver, increment_under_lock, receive, send  # noqa: E402  (clients/protocol.py)


def increment(client, ttl_s, request):
    lock = client.Lock("/locks/" + request["key"])

    def acquire():
        try:
            return None if lock.acquire(timeout=10 * ttl_s) else "could not acquire the lock in 10 TTLs"
        except (KazooException, KazooTimeoutError) as e:
            return f"acquire: {e!r}"

    def release():
        try:
            lock.release()
        except (KazooException, KazooTimeoutError) as e:
            return f"release: {e!r}"
        return None

    increment_under_lock(request, acquire, release)


def main():
    parser = argparse.ArgumentParser(description="rlock protocol client over kazoo's Lock")
    parser.add_argument("--connect", default=os.environ.get("ZOOKEEPER_CONNECT"), help="ZooKeeper's HOST:PORT")
    connect = parser.parse_args().connect
    if not connect:
        parser.error("no ZooKeeper: give --connect or ZOOKEEPER_CONNECT")
    init = receive("init")
    ttl_s = init["ttl_ms"] / 1000
    client = KazooClient(hosts=connect, timeout=ttl_s)
    try:
        client.start(timeout=10 * ttl_s)
    except KazooTimeoutError:
        raise SystemExit(f"kazoo-lock: ZooKeeper at {connect} does not answer")
    send({"type": "init_ok"})
    try:
        while True:
            increment(client, ttl_s, receive("increment"))
    except TrialOver:
        pass
    client.stop()


if __name__ == "__main__":
    main()
