#!/usr/bin/env python3
# Sums up the runs of replica campaigns (docs/findings/postgres-replica-long-fork.md): runs, transactions, runs with
# a violation, time to the first violation, transactions until the stop, and the standbys' replay lag from each
# run's logs/replication.log. Usage: docs/findings/replica-runs.py store/known-pg-replica-long-fork [...]
import json, os, sys, re, statistics
for camp in sys.argv[1:]:
    runs = sorted(d for d in os.listdir(camp) if d[:1].isdigit())
    n = viol = txns = 0; ttf = []; lag = {}; tv = []
    for d in runs:
        p = os.path.join(camp, d)
        try: r = json.load(open(os.path.join(p, 'results.json')))
        except Exception: continue
        n += 1; txns += r['stats']['attempted']
        fv = (r.get('streaming') or {}).get('first_violation_ms')
        if r['check'].get('verdict') == 'invalid' or fv is not None:
            viol += 1
            if fv is not None: ttf.append(fv / 1000)
            tv.append(r['stats']['attempted'])
        log = os.path.join(p, 'logs', 'replication.log')
        if os.path.exists(log):
            for line in open(log):
                m = re.match(r'# (n\d+): (\d+) samples; replay lag ms p50 ([\d.]+) p99 ([\d.]+) max ([\d.]+); bytes behind p50 (\d+) p99 (\d+) max (\d+)', line)
                if m: lag.setdefault('p50ms', []).append(float(m.group(3))); lag.setdefault('p99ms', []).append(float(m.group(4))); lag.setdefault('maxms', []).append(float(m.group(5))); lag.setdefault('maxbytes', []).append(int(m.group(8)))
    s = f"{os.path.basename(camp)}: {n} runs, {txns:,} transactions, violation in {viol}"
    if ttf: s += f"; first violation min {min(ttf):.2f} s median {statistics.median(ttf):.2f} s max {max(ttf):.2f} s"
    if tv: s += f"; transactions until the stop in violating runs: min {min(tv):,} median {statistics.median(tv):,.0f} max {max(tv):,}"
    if lag: s += f"; replay lag per standby: p50 median {statistics.median(lag['p50ms']):.2f} ms, p99 median {statistics.median(lag['p99ms']):.2f} ms, max {max(lag['maxms']):.1f} ms, max bytes behind {max(lag['maxbytes']):,}"
    print(s)
