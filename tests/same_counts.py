#!/usr/bin/env python3
"""same_counts.py WHOLE.json MERGED.json: exits 0 when the merged shards of a campaign gave the
counts of the campaign run whole, cell by cell, as chaos's and merge's --json write them; prints
the cells that differ otherwise. The outcome's counts of every cell and its kept trials; under none
also the fault's and the increments' counts. Under kill, whether the nemesis struck before the
target was done (struck, and the unknown increments it leaves) hangs on timing, as does every
trial's time."""
import json, sys
whole, merged = (json.load(open(p))["cells"] for p in sys.argv[1:])
outcome = ["trials", "not_run", "client_error", "anomalies", "lost_updates", "lost_amount", "overlaps", "created",
           "unwritten", "kept_trials"]
timed = ["struck", "failed", "dropped_amount", "unknown", "stuck"]
def cell(c):
    counts = outcome + (timed if c["fault"] == "none" else [])
    return (c["strategy"], c["fault"], c.get("replica"), {k: c.get(k) for k in counts})
if [cell(c) for c in whole] != [cell(c) for c in merged]:
    for a, b in zip(whole, merged):
        if cell(a) != cell(b): print("whole ", cell(a), "\nmerged", cell(b))
    sys.exit(1)
