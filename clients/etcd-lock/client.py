#!/usr/bin/python3
"""An rlock protocol client (docs/clients.md) whose lock is etcd's, through python-etcd3's Lock.

The lock is python-etcd3's: a key under /locks/ put with a lease only where it does not exist, the
others waiting on a watch of that key. The lease lasts the TTL rounded up to whole seconds (etcd
grants no shorter one), and a thread of the client keeps it alive every third of it, as a service
would; a paused process pauses that thread too. With --fenced, the lock key's create revision, which
etcd raises with every acquisition, is the fencing token: the read claims it and the write applies
only while it is still the account's. The harness hands out Redis URLs only, so etcd's endpoint is
given on the command line (or by ETCD_ENDPOINT, which scripts/services.sh exports):
`client.py [--endpoint HOST:PORT] [--fenced]`. Debian's python3-etcd3 (0.12) provides the library."""
import argparse
import math
import os
import sys
import threading
import time

import etcd3
from etcd3.exceptions import WatchTimedOut

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from protocol import read_modify_write, receive, send, serve, step  # noqa: E402  (clients/protocol.py)


def acquire(client, lock, timeout):
    """Lock.acquire(timeout) as python-etcd3 0.12 means it. Its own waits between attempts through a
    tenacity callback of the old two-argument form, which Debian's tenacity 8 calls with one: every
    contended acquire raises TypeError (kragniz/python-etcd3#2149). So each attempt is the library's
    acquire(timeout=0), which never waits, and the wait between is the library's: a watch of the
    key for the time left, from the revision after the holder's put. Without that revision a release
    between the refused attempt and the watch's start was never seen: the waiter slept out its
    10 TTLs, and the trial counted it stuck."""
    deadline = time.monotonic() + timeout
    while not lock.acquire(timeout=0):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        value, meta = client.get(lock.key)
        if value is None:
            continue  # released since the attempt: try again at once
        try:
            client.watch_once(lock.key, left, start_revision=meta.mod_revision + 1)
        except WatchTimedOut:
            pass
    return True


class KeepAlive:
    """Refreshes the lock's lease every `interval` seconds until stopped or the lease is gone."""

    def __init__(self, lock, interval):
        self.lock, self.interval, self.stopped = lock, interval, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopped.wait(self.interval):
            try:
                expired = self.lock.refresh()[0].TTL <= 0
            except Exception as e:  # etcd does not answer: the lease may run out
                print(f"etcd-lock: keep-alive failed: {e}", file=sys.stderr, flush=True)
                continue
            if expired:
                print("etcd-lock: the lease expired: the lock is lost", file=sys.stderr, flush=True)
                return

    def stop(self):
        self.stopped.set()
        self.thread.join()


def fence_of(client, lock):
    """The lock key's create revision, while the key is still ours."""
    value, meta = client.get(lock.key)
    return meta.create_revision if value == lock.uuid else None


def increment(client, ttl_s, fenced, request):
    ident = request["id"]
    lock = client.lock(request["key"], ttl=ttl_s)
    try:
        if not acquire(client, lock, 10 * ttl_s):
            send({"type": "done", "id": ident, "error": "could not acquire the lock in 10 TTLs"})
            return
    except etcd3.exceptions.Etcd3Exception as e:
        send({"type": "done", "id": ident, "error": f"acquire: {e!r}"})
        return
    keep_alive = KeepAlive(lock, ttl_s / 3)
    try:
        error = read_modify_write(request, fenced, fence_of(client, lock) if fenced else None)
    except etcd3.exceptions.Etcd3Exception as e:
        error = f"revision: {e!r}"
    finally:
        keep_alive.stop()
    step(ident, "release")
    try:
        if not lock.release():
            error = error or "release: the lock was no longer ours"
    except etcd3.exceptions.Etcd3Exception as e:
        error = error or f"release: {e!r}"
    send({"type": "done", "id": ident, **({"error": error} if error else {})})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endpoint", default=os.environ.get("ETCD_ENDPOINT"), help="etcd's HOST:PORT")
    parser.add_argument("--fenced", action="store_true", help="the lock key's revision as a fencing token")
    args = parser.parse_args()
    if not args.endpoint:
        parser.error("no --endpoint and no ETCD_ENDPOINT (scripts/services.sh up exports it)")
    host, _, port = args.endpoint.rpartition(":")
    init = receive("init")
    ttl_s = max(1, math.ceil(init["ttl_ms"] / 1000))
    if ttl_s * 1000 != init["ttl_ms"]:
        print(f"etcd-lock: a lease of {ttl_s} s for a TTL of {init['ttl_ms']} ms", file=sys.stderr, flush=True)
    client = etcd3.client(host=host.strip("[]"), port=int(port), timeout=2)
    serve(lambda request: increment(client, ttl_s, args.fenced, request))


if __name__ == "__main__":
    main()
