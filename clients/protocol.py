"""The line protocol of rlock's lock clients (docs/clients.md), as the Python adapters speak it:
one JSON object a line on stdin and stdout. Adapters import it from the folder above theirs."""
import json
import sys


class TrialOver(Exception):
    """The harness closed stdin: the trial ended."""


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def receive(expected):
    """The next message, which must be of type `expected`; exits with a line on stderr otherwise."""
    line = sys.stdin.readline()
    if not line:
        raise TrialOver()
    message = json.loads(line)
    if message.get("type") != expected:
        raise SystemExit(f"{sys.argv[0]}: expected {expected}, got {line.strip()}")
    return message
