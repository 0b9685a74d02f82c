#!/usr/bin/env python3
# The server's own evidence for each anomaly of a PostgreSQL run (docs/findings/postgres-16.15-serializable-g2-item.md):
# for every transaction of the counterexample, its history line, its commit-log line (witness.jsonl: commit LSN and
# xid) and, when the run had log_statement: all and log_line_prefix: '%m:%p:%c:%v:%x:', every server-log line of the
# transaction (found by its statements and parameters, then by pid and virtual xid); with isostress.log_snapshots:
# on, also whether each writer of the cycle is visible in each transaction's snapshot. Reads have no value in the
# server log: the values are the history's. Usage: docs/findings/pg-cycle-evidence.py RUN_DIR [ANOMALY_NUMBER ...]
import collections, json, re, sys

run = sys.argv[1]
want = {int(x) for x in sys.argv[2:]}
anomalies = json.load(open(f"{run}/results.json"))["check"]["anomalies"]
hist = open(f"{run}/history.jsonl").read().split("\n")
wit = open(f"{run}/witness.jsonl").read().split("\n")
prefix = re.compile(r"^(\S+ \S+ UTC):(\d+):([^:]*):([^:]*):(\d+):([A-Z]+):  (.*)$")
txns = collections.OrderedDict()  # (pid, vxid) -> [(line, time, xid, severity, text)]
for n, line in enumerate(open(f"{run}/logs/postgresql.log", errors="replace"), 1):
    m = prefix.match(line.rstrip("\n"))
    if m and m.group(4) and not m.group(4).endswith("/0"):
        t, pid, _session, vxid, xid, sev, text = m.groups()
        txns.setdefault((pid, vxid), []).append((n, t, xid, sev, text))


def ops(entries):
    """The transaction's reads and writes as the history writes them (reads without a value)."""
    out = []
    for j, (_n, _t, _x, sev, text) in enumerate(entries):
        if sev != "LOG" or not text.startswith("execute"):
            continue
        stmt = text.split(": ", 1)[1]
        nxt = entries[j + 1] if j + 1 < len(entries) else None
        p = dict(re.findall(r"\$(\d+) = '([^']*)'", nxt[4])) if nxt and nxt[3] == "DETAIL" else {}
        if stmt.startswith("SELECT v FROM isostress_kv"):
            out.append(("r", int(p["1"])))
        elif stmt.startswith("UPDATE isostress_kv"):
            out.append(("w", int(p["2"]), int(p["1"])))
    return tuple(out)


index = collections.defaultdict(list)
for key, entries in txns.items():
    index[ops(entries)].append(key)

for a_no, a in enumerate(anomalies, 1):
    if want and a_no not in want:
        continue
    print(f"=== anomaly {a_no}: {a['name']}\n{a['explanation']}")
    xids = {c["txn"]: int(c["txid"]) for c in a.get("commit_log", [])}
    for c in a.get("commit_log", []):
        print(f"  T{c['txn']} in the commit log, line {c['line']}: {wit[c['line'] - 1]}")
    for t in a["txns"]:
        h = json.loads(hist[t["line"] - 1])
        sig = tuple(("r", o[1]) if o[0] == "r" else ("w", o[1], o[2]) for o in h["value"])
        found = index.get(sig, [])
        print(f"--- T{t['id']} (process {h['process']}, history line {t['line']}): {hist[t['line'] - 1]}")
        print(f"  server-log transactions with exactly these statements: {len(found)}")
        for pid, vxid in found[:4]:
            entries = txns[(pid, vxid)]
            print(f"  pid {pid}, virtual xid {vxid}, log lines {entries[0][0]}..{entries[-1][0]}")
            for (n, tm, xid, sev, text) in entries:
                print(f"    {n}: {tm} [{pid}] {vxid} xid {xid} {sev}: {text[:200]}")
            snap = [e for e in entries if e[3] == "LOG" and e[4].startswith("isostress snapshot ")]
            if snap:
                xmin, xmax, xip = snap[0][4].split()[2].split(":")
                inprog = {int(x) for x in xip.split(",") if x}
                seen = {f"T{w} (xid {x})": "visible" if x < int(xmax) and x not in inprog else "not visible"
                        for w, x in xids.items() if w != t["id"]}
                print(f"  snapshot {snap[0][4].split()[2]}: {seen}")
