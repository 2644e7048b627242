"""An rlock protocol client (docs/clients.md) whose lock is kazoo's kazoo.recipe.lock.Lock on the
ZooKeeper of ZOOKEEPER_CONNECT (or --connect HOST:PORT).

One KazooClient whose ZooKeeper session lasts the TTL, so that a holder paused past it loses its
ephemeral lock node; each increment is what kazoo's docs show: client.Lock(path), acquire(timeout=
10 TTLs), the work, release(). With --fenced (kazoo-lock-fenced) the lock node's czxid, which grows
with every node ZooKeeper creates, is claimed at the read as a fencing token. The harness hands out
Redis URLs only, so ZooKeeper's address comes from the command line or the environment. Installed
into .venv from the pinned requirements.txt by scripts/clients.sh."""
import argparse
import os
import sys

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException
from kazoo.handlers.threading import KazooTimeoutError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from protocol import read_modify_write, receive, send, serve, step  # noqa: E402  (clients/protocol.py)


def fence_of(client, lock):
    """The lock node's czxid, while the node is still there (its session alive)."""
    stat = client.exists(f"{lock.path}/{lock.node}")
    return stat.czxid if stat else None


def increment(client, ttl_s, fenced, request):
    lock = client.Lock("/locks/" + request["key"])
    try:
        error = None if lock.acquire(timeout=10 * ttl_s) else "could not acquire the lock in 10 TTLs"
    except (KazooException, KazooTimeoutError) as e:
        error = f"acquire: {e!r}"
    if error is None:
        try:
            error = read_modify_write(request, fenced, fence_of(client, lock) if fenced else None)
        except (KazooException, KazooTimeoutError) as e:
            error = f"czxid: {e!r}"
        step(request["id"], "release")
        try:
            lock.release()
        except (KazooException, KazooTimeoutError) as e:
            error = error or f"release: {e!r}"
    send({"type": "done", "id": request["id"], **({"error": error} if error else {})})


def main():
    parser = argparse.ArgumentParser(description="rlock protocol client over kazoo's Lock")
    parser.add_argument("--connect", default=os.environ.get("ZOOKEEPER_CONNECT"), help="ZooKeeper's HOST:PORT")
    parser.add_argument("--fenced", action="store_true", help="the lock node's czxid as a fencing token")
    args = parser.parse_args()
    connect = args.connect
    if not connect:
        parser.error("no ZooKeeper: give --connect or ZOOKEEPER_CONNECT")
    init = receive("init")
    ttl_s = init["ttl_ms"] / 1000
    client = KazooClient(hosts=connect, timeout=ttl_s)
    try:
        client.start(timeout=10 * ttl_s)
    except KazooTimeoutError:
        raise SystemExit(f"kazoo-lock: ZooKeeper at {connect} does not answer")
    serve(lambda request: increment(client, ttl_s, args.fenced, request))
    client.stop()


if __name__ == "__main__":
    main()
