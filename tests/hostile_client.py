#!/usr/bin/python3
"""A protocol client that misbehaves one way (tests/hostile_clients_test.sh), chosen by its argument.
It holds redis-py's Lock around each increment, so that nothing but its misbehaviour shows.

plain         adds its increment, as redis-py's Lock with a TTL and nothing else would
late-exit     the same, but when its read's answer came later than the TTL, it writes, then exits
              without answering `done` (as a Go adapter's log.Fatal on a failed unlock does)
refuse        takes and releases its lock, then answers `done` with an error, every increment
no-write      reads, then answers `done` without writing
double-write  reads and writes its increment twice, both writes correct for their reads
long-line     answers an increment with 100 MB and no newline, then waits
flood         answers an increment with valid reads of it, without end
stderr-flood  writes 300 MB to stderr, then exits before init_ok
escape        writes escape codes and NULs to stderr and stdout
fenced-once   claims a fencing token for its first increment, as a fenced lock does, and writes
              every later one plain (a lock object that loses its fence once used): safe while a
              process locks once, losing from its second lock on
retry-release releases by deleting its key, and when the delete's reply is lost, deletes it again
              once the next holder has it: a retry that deletes the next holder's lock
setsid        leaves `setsid sleep 301.5` behind, then behaves
env           prints its environment to stderr, then exits before init_ok
"""
import json
import os
import subprocess
import sys
import time

import redis

mode = sys.argv[1]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def receive():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


def add_once(increment):
    send({"type": "read", "id": increment["id"]})
    balance = receive()["balance"]
    send({"type": "write", "id": increment["id"], "balance": balance + increment["amount"]})
    receive()


init = receive()
server = redis.Redis.from_url(init["redis"][0])
ttl_s = init["ttl_ms"] / 1000
if mode == "stderr-flood":
    chunk = b"e" * (1 << 20)
    for _ in range(300):
        sys.stderr.buffer.write(chunk)
    sys.stderr.buffer.write(b"\nthe end of a flood\n")
    sys.exit(3)
if mode == "escape":
    sys.stderr.buffer.write(b"\x1b[31mred\x1b[0m\x00nul\xff\n")
    sys.stderr.flush()
    sys.stdout.buffer.write(b"\x1b]0;title\x07\x00\n")
    sys.stdout.flush()
    time.sleep(30)
if mode == "setsid":
    subprocess.Popen(["setsid", "sleep", "301.5"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
if mode == "env":
    for name, value in sorted(os.environ.items()):
        sys.stderr.write(f"env {name}={value}\n")
    sys.exit(3)
send({"type": "init_ok"})
locked_before = False
while True:
    increment = receive()
    lock = server.lock(increment["key"], timeout=ttl_s, sleep=0.01, blocking_timeout=10 * ttl_s)
    lock.acquire()
    acquired = time.monotonic()
    if mode == "long-line":
        sys.stdout.write("x" * (100 << 20))
        sys.stdout.flush()
        time.sleep(60)
    elif mode == "flood":
        while True:
            send({"type": "read", "id": increment["id"]})
    elif mode == "no-write":
        send({"type": "read", "id": increment["id"]})
        receive()
    elif mode == "double-write":
        add_once(increment)
        add_once(increment)
    elif mode == "refuse":
        lock.release()
        send({"type": "done", "id": increment["id"], "error": "refused, every time"})
        continue
    elif mode == "fenced-once" and not locked_before:
        locked_before = True
        token = server.incr(increment["key"] + ":fence")
        send({"type": "read", "id": increment["id"], "token": token, "claim": True})
        read = receive()
        applied = False
        if read.get("claimed"):
            send({"type": "write", "id": increment["id"], "balance": read["balance"] + increment["amount"],
                  "token": token})
            applied = receive().get("applied")
        if not applied:
            try:
                lock.release()
            except redis.exceptions.LockError:
                pass
            send({"type": "done", "id": increment["id"], "error": "refused by the fence"})
            continue
    elif mode == "late-exit":
        send({"type": "read", "id": increment["id"]})
        balance = receive()["balance"]
        late = time.monotonic() - acquired > ttl_s
        send({"type": "write", "id": increment["id"], "balance": balance + increment["amount"]})
        receive()
        if late:
            sys.exit(1)
    else:
        add_once(increment)
    if mode == "retry-release":
        send({"type": "step", "id": increment["id"], "step": "release"})
        receive()
        try:
            server.delete(increment["key"])
        except redis.exceptions.ConnectionError:
            # Back on a new connection once the next holder has the lock, as a retry that came late.
            deadline = time.monotonic() + 10 * ttl_s
            while not server.exists(increment["key"]) and time.monotonic() < deadline:
                time.sleep(0.001)
            server.delete(increment["key"])
        send({"type": "done", "id": increment["id"]})
        continue
    try:
        lock.release()
    except redis.exceptions.LockError:
        pass
    send({"type": "done", "id": increment["id"]})
