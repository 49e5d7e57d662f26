#!/usr/bin/env python3
"""timeline_check.py TRACE RANKS [device]: exits 0 when TRACE is a merged ordo timeline of RANKS
ranks that Perfetto reads as meant: every slice with ts and dur, a named process per rank and a
named track for every slice, flow arrows paired s/f with both ends inside slices, and on every rank
gradient collectives with their key and bytes and an arrow into one. With `device` (a run on a
device path), the gradient collectives must be on the device world's communicators and the MPI
world's agreements on tracks named "comm 'host.<name>'"."""
import json
import sys


def main():
    path, ranks = sys.argv[1], int(sys.argv[2])
    device = len(sys.argv) > 3 and sys.argv[3] == "device"
    with open(path, encoding="utf-8") as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    processes = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    named = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    slices, flows, problems = {}, {}, []
    gradient_calls = {r: 0 for r in range(ranks)}
    host_calls = {r: 0 for r in range(ranks)}
    track_names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
                   if e["ph"] == "M" and e["name"] == "thread_name"}
    for e in events:
        if e["ph"] == "X":
            if not isinstance(e.get("ts"), (int, float)) or not isinstance(e.get("dur"), (int, float)):
                problems.append(f"X without ts/dur: {e}")
                continue
            track = (e["pid"], e["tid"])
            if track not in named:
                problems.append(f"unnamed track {track}")
            slices.setdefault(track, []).append((e["ts"], e["ts"] + e["dur"]))
            args = e.get("args", {})
            on_host = track_names.get(track, "").startswith("comm 'host.")
            # The timeline's own start barrier is always there; an agreement is what counts.
            if e.get("cat") == "collective" and on_host and not e["name"].startswith("barrier"):
                host_calls[e["pid"]] += 1
            if e.get("cat") == "collective" and args.get("key", -1) >= 0 and args.get("bytes", 0) > 0:
                if device and on_host:
                    problems.append(f"a gradient collective on the MPI world: {e}")
                gradient_calls[e["pid"]] += 1
        elif e["ph"] in ("s", "f"):
            flows.setdefault(e["id"], []).append(e)
    if processes != set(range(ranks)):
        problems.append(f"processes {sorted(processes)}, expected ranks 0..{ranks - 1}")
    arrows = {r: 0 for r in range(ranks)}
    for fid, ends in flows.items():
        if [x["ph"] for x in ends] != ["s", "f"]:
            problems.append(f"flow {fid}: {[x['ph'] for x in ends]}")
            continue
        for x in ends:
            spans = slices.get((x["pid"], x["tid"]), [])
            if not any(a <= x["ts"] <= b for a, b in spans):
                problems.append(f"flow {fid} end outside any slice: {x}")
        arrows[ends[0]["pid"]] += 1
    for r in range(ranks):
        if gradient_calls[r] == 0:
            problems.append(f"rank {r}: no collective with a key and bytes")
        if arrows[r] == 0:
            problems.append(f"rank {r}: no flow arrow")
        if device and host_calls[r] == 0:
            problems.append(f"rank {r}: no agreement on the MPI world's 'host.' communicators")
        if not device and host_calls[r] != 0:
            problems.append(f"rank {r}: 'host.' communicators on the host path")
    if trace.get("otherData", {}).get("missing") != []:
        problems.append(f"missing ranks: {trace.get('otherData')}")
    for p in problems[:20]:
        print("timeline_check:", p)
    if problems:
        return 1
    print(f"timeline_check: {len(events)} events, {sum(gradient_calls.values())} gradient calls, "
          f"{len(flows)} arrows on {ranks} ranks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
