#!/usr/bin/env python3
"""The docs against the tree and the binary: every relative link and anchor of README.md and
docs/**/*.md leads somewhere, and every figure the guides and the README state that the binary
knows (strategy and fault counts, the default campaign, the ports, the client's limits) is the
binary's. Prints one line a finding and exits 1 when there is one.
Usage: docs_check.py ROOT RLOCK_BINARY"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(sys.argv[1]).resolve()
RLOCK = sys.argv[2]
findings = []


def prose(text):
    """The text outside fenced code blocks, with inline code kept (figures hide in it too)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else line)
    return "\n".join(out)


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[`*_]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, seen = set(), {}
    for line in prose(path.read_text()).split("\n"):
        m = re.match(r"#{1,6} (.*)", line)
        if not m:
            continue
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        found.add(s if n == 0 else f"{s}-{n}")
    for m in re.finditer(r'<a (?:id|name)="([^"]+)"', path.read_text()):
        found.add(m.group(1))
    return found


pages = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
anchor_cache = {}
for page in pages:
    text = prose(page.read_text())
    text = re.sub(r"`[^`\n]*`", "", text)
    for lineno, line in enumerate(text.split("\n"), 1):
        for m in re.finditer(r"\]\(([^)\s]+)(?: \"[^\"]*\")?\)", line):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            path, _, fragment = target.partition("#")
            where = f"{page.relative_to(ROOT)}:{lineno}"
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                findings.append(f"{where}: broken link {target}: no {path}")
                continue
            if fragment and dest.suffix == ".md":
                if dest not in anchor_cache:
                    anchor_cache[dest] = anchors(dest)
                if fragment not in anchor_cache[dest]:
                    findings.append(f"{where}: broken anchor {target}: {dest.relative_to(ROOT)} has no heading #{fragment}")


def run(*args):
    return subprocess.run([RLOCK, *args], check=True, capture_output=True, text=True).stdout


chaos_help = run("chaos", "--help")
facts = dict(line.split(" ", 1) for line in run("facts").splitlines())


def default_of(option):
    return re.search(rf"{option} [^\n]*?=(\d+)", chaos_help).group(1)


def listed(option):
    return len(re.search(rf"{option} TEXT \.\.\. +comma-separated[^:]*: (\S+)", chaos_help).group(1).split(","))


truth = {
    "strategies": listed("--strategies"),
    "faults": listed("--faults"),
    "trials a cell": int(default_of("--trials")),
    "TTL": int(default_of("--ttl")),
    "jobs": int(default_of("--jobs")),
    "failover port": int(default_of("--failover-port")),
    "redlock port": int(default_of("--redlock-port")),
    "default trials": int(facts["default_trials"]),
    "Redis port": int(facts["redis_port"]),
    "PostgreSQL port": int(facts["postgres_port"]),
    "etcd port": int(facts["etcd_port"]),
    "ZooKeeper port": int(facts["zookeeper_port"]),
    "client start limit": int(facts["client_start_limit_s"]),
    "client line limit": int(facts["client_line_limit_kib"]),
    "messages an increment": int(facts["client_messages_an_increment"]),
}
WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                    "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}


def number(text):
    text = text.lower().replace(",", "")
    return WORDS[text] if text in WORDS else int(text) if text.isdigit() else None


N = r"(\d[\d,]*|[a-z]+)"
AND = r"(?: x| ×| by|,| and)"
# How the guides and the README state each figure the binary knows.
PATTERNS = [
    (rf"\b{N} strategies{AND} {N} faults(?!,? \d)", ["strategies", "faults"]),
    (rf"\b{N} strategies{AND} {N} faults,? {N} trials a cell", ["strategies", "faults", "trials a cell"]),
    (rf"\b{N} strategies{AND} {N} faults,? {N} trials\b(?! a cell)", ["strategies", "faults", "default trials"]),
    (rf"\bdefault campaign runs [^.]*?\b{N} trials a cell, TTL {N} ms, {N} jobs", ["trials a cell", "TTL", "jobs"]),
    (rf"\bdefault campaign has {N} trials", ["default trials"]),
    (rf"\bdefault (?:campaign|run)(?: of \S+)? \(?{N} trials\b(?! a cell)", ["default trials"]),
    (rf"\bRedis on {N}\b", ["Redis port"]),
    (rf"\bPostgreSQL on {N}\b", ["PostgreSQL port"]),
    (rf"\betcd on {N}\b", ["etcd port"]),
    (rf"\bZooKeeper on {N}\b", ["ZooKeeper port"]),
    (rf"ports from {N} \(`--failover-port`", ["failover port"]),
    (rf"ports from {N} \(`--redlock-port`", ["redlock port"]),
    (rf"answering `init` takes at most {N} s", ["client start limit"]),
    (rf"\bstart(?:-up)? limit (?:of |is )?{N} s\b", ["client start limit"]),
    (rf"line longer than {N} KiB", ["client line limit"]),
    (rf"more than {N} messages within one increment", ["messages an increment"]),
]
guides = [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "cli.md")
for page in guides:
    text = prose(page.read_text())
    name = page.relative_to(ROOT)
    for lineno, line in enumerate(page.read_text().split("\n"), 1):  # code comments included
        if re.search(r"\bexports?\b.*ETCD_ENDPOINT", line) and "ZOOKEEPER_CONNECT" not in line:
            findings.append(f"{name}:{lineno}: names the servers' exports without ZOOKEEPER_CONNECT")
    for para in re.split(r"\n\s*\n", text):
        flat = " ".join(para.split())
        for pattern, keys in PATTERNS:
            for m in re.finditer(pattern, flat, re.I):
                for group, key in enumerate(keys, 1):
                    got = number(m.group(group))
                    if got is not None and got != truth[key]:
                        findings.append(f"{name}: says {m.group(0)!r}; the binary's {key}: {truth[key]}")
        if "RLOCK_ETCD_PORT" in flat and "RLOCK_ZOOKEEPER_PORT" not in flat:
            findings.append(f"{name}: names the servers' variables without RLOCK_ZOOKEEPER_PORT: {flat[:80]}...")
        if re.search(r"\bthe issue\b", flat, re.I):
            findings.append(f"{name}: speaks of 'the issue': {flat[:80]}...")

for f in findings:
    print(f)
print(f"docs_check: {len(pages)} pages, {len(findings)} findings")
sys.exit(1 if findings else 0)
