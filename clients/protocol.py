"""The line protocol of rlock's lock clients (docs/clients.md), as the Python adapters speak it:
one JSON object a line on stdin and stdout, and an increment under a lock that gives no fencing
token. Adapters import it from the folder above theirs."""
import json
import sys


class TrialOver(Exception):
    """The harness closed stdin: the trial ended."""


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


# The steps the harness asked to be announced (init's "steps"); a harness that names none asks for
# the release alone, as protocol 1 first had it.
_announced = {"release"}


def receive(expected):
    """The next message, which must be of type `expected`; exits with a line on stderr otherwise."""
    global _announced
    line = sys.stdin.readline()
    if not line:
        raise TrialOver()
    message = json.loads(line)
    if message.get("type") != expected:
        raise SystemExit(f"{sys.argv[0]}: expected {expected}, got {line.strip()}")
    if expected == "init" and "steps" in message:
        _announced = set(message["steps"])
    return message


def step(request_id, name):
    """Tells the harness the library is about to take the step `name` ("acquire", "acquired",
    "release", "extend") of the increment `request_id`, and waits until the harness lets it
    (step_ok): a fault may wait for it. Nothing when the harness did not ask for that step."""
    if name not in _announced:
        return
    send({"type": "step", "id": request_id, "step": name})
    receive("step_ok")


def serve(increment):
    """Answers init_ok, then runs increment(request) for each increment until the harness closes
    stdin, announcing the step "acquire" before each."""
    send({"type": "init_ok"})
    try:
        while True:
            request = receive("increment")
            step(request["id"], "acquire")
            increment(request)
    except TrialOver:
        pass


def increment_under_lock(request, acquire, release):
    """One increment: acquire() takes the lock and returns None, or the error that refused it; then
    the read and the write through the harness; release() returns None, or the error it met, once
    its step is announced. The increment's done carries the first error."""
    error = acquire()
    if error is None:
        step(request["id"], "acquired")
        send({"type": "read", "id": request["id"]})
        balance = receive("read_ok")["balance"]
        send({"type": "write", "id": request["id"], "balance": balance + request["amount"]})
        receive("write_ok")
        step(request["id"], "release")
        error = release()
    send({"type": "done", "id": request["id"], **({"error": error} if error else {})})


def read_modify_write(request, fenced, token):
    """Reads and writes the account through the harness; the error when a fenced step was refused."""
    ident, amount = request["id"], request["amount"]
    step(ident, "acquired")
    if not fenced:
        send({"type": "read", "id": ident})
        send({"type": "write", "id": ident, "balance": receive("read_ok")["balance"] + amount})
        receive("write_ok")
        return None
    if token is None:
        return "the lock was lost before its token could be read"
    send({"type": "read", "id": ident, "token": token, "claim": True})
    read = receive("read_ok")
    if not read.get("claimed"):
        return f"the claim of token {token} was refused: a newer holder claimed the account"
    send({"type": "write", "id": ident, "balance": read["balance"] + amount, "token": token})
    if not receive("write_ok")["applied"]:
        return f"the write with token {token} was refused"
    return None
