"""Offline check of docs/scale/: the Kubernetes Indexed Job and the GitHub Actions matrix parse as
YAML and have the fields their engine needs; every rlock command in them and in the GNU parallel
script uses only subcommands and options that this rlock has (from its --help); the shard each
index runs is a K/N that rlock takes, every K from 1 to N once; the environment variables set for
rlock are ones it reads. Nothing is run on a cluster. Usage: check_scale.py DOCS_SCALE_DIR RLOCK."""
import re
import shlex
import subprocess
import sys

import yaml

scale, rlock = sys.argv[1], sys.argv[2]
failures = []


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)


def help_text(*sub):
    return subprocess.run([rlock, *sub, "--help"], capture_output=True, text=True, check=True).stdout


global_help = help_text()


def options(text):
    return set(re.findall(r"(--[a-z][a-z-]*)", text))


def rlock_commands(script):
    """Each rlock invocation in a shell script: its words, the engines' expressions made words."""
    script = re.sub(r"\$\{\{[^}]*\}\}", "X", script)  # ${{ matrix.shard }}
    script = re.sub(r"\$\(\([^)]*\)\)", "X", script)  # $((JOB_COMPLETION_INDEX + 1))
    script = script.replace("{}", "X")  # GNU parallel's argument
    commands = []
    for line in script.replace("\\\n", " ").splitlines():
        for part in re.split(r"[;&|{}]+|'", line):
            try:
                words = shlex.split(part, comments=True)
            except ValueError:
                continue
            for i, w in enumerate(words):
                if w in ("rlock", "build/rlock"):
                    commands.append(words[i + 1:])
    return commands


def check_rlock_commands(where, script):
    commands = rlock_commands(script)
    check(f"{where}: runs rlock", len(commands) > 0)
    for words in commands:
        sub = next(w for i, w in enumerate(words) if not w.startswith("-") and (i == 0 or words[i - 1] != "--dir"))
        known = options(global_help) | options(help_text(sub))
        used = {w.split("=")[0] for w in words if w.startswith("--")}
        check(f"{where}: rlock {sub} takes {' '.join(sorted(used)) or 'no option'}", used <= known)


def check_shards(where, ks, n):
    check(f"{where}: every shard from 1/{n} to {n}/{n} once", sorted(ks) == list(range(1, n + 1)))


# The Kubernetes Indexed Job.
with open(f"{scale}/k8s-indexed-job.yaml") as f:
    job = yaml.safe_load(f)
spec = job["spec"]
check("k8s: a batch/v1 Job", job["apiVersion"] == "batch/v1" and job["kind"] == "Job")
check("k8s: completionMode Indexed", spec["completionMode"] == "Indexed")
pod = spec["template"]["spec"]
check("k8s: restartPolicy Never (a retried shard would be a second copy)", pod["restartPolicy"] == "Never")
container = pod["containers"][0]
script = "\n".join(container["command"][2:] + container.get("args", []))
shard = re.search(r'--shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/(\d+)"', script)
check("k8s: --shard is JOB_COMPLETION_INDEX + 1 of N", shard is not None)
if shard:
    n = int(shard.group(1))
    check("k8s: completions is the N of --shard", spec["completions"] == n)
    check_shards("k8s", [index + 1 for index in range(spec["completions"])], n)
check("k8s: the pod starts its servers", "scripts/services.sh up" in script)
for env in container["env"]:
    if env["name"].startswith("RLOCK_") and env["name"] != "RLOCK_STATE_DIR":
        check(f"k8s: rlock reads {env['name']}", env["name"] in global_help)
mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
volumes = {v["name"] for v in pod["volumes"]}
check("k8s: the runs' volume is mounted", set(mounts) <= volumes)
lab = next(e["value"] for e in container["env"] if e["name"] == "RLOCK_DIR")
check("k8s: RLOCK_DIR is on the runs' volume", any(lab.startswith(p) for p in mounts.values()))
check_rlock_commands("k8s", script)

# The GitHub Actions matrix.
with open(f"{scale}/github-matrix.yaml") as f:
    workflow = yaml.safe_load(f)
jobs = workflow["jobs"]
matrix = jobs["shard"]["strategy"]["matrix"]["shard"]
runs = "\n".join(step.get("run", "") for job in jobs.values() for step in job["steps"])
shard = re.search(r"--shard \$\{\{ matrix\.shard \}\}/(\d+)", runs)
check("github: --shard is the matrix's shard of N", shard is not None)
if shard:
    check_shards("github", matrix, int(shard.group(1)))
check("github: the merge waits for the shards", jobs["merge"]["needs"] == "shard")
check("github: the merge job runs rlock merge", "rlock --dir merged merge" in runs)
check_rlock_commands("github", runs)

# GNU parallel over SSH.
with open(f"{scale}/parallel-ssh.sh") as f:
    parallel = f.read()
seq = re.search(r"seq 1 (\d+) \| parallel", parallel)
shard = re.search(r"--shard \{\}/(\d+)", parallel)
check("parallel: --shard is the argument of seq 1 N", seq is not None and shard is not None)
if seq and shard:
    check_shards("parallel", range(1, int(seq.group(1)) + 1), int(shard.group(1)))
check("parallel: one shard a machine at a time", "--jobs 1" in parallel)
check_rlock_commands("parallel", parallel)
check("parallel: bash parses it", subprocess.run(["bash", "-n", f"{scale}/parallel-ssh.sh"]).returncode == 0)

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
