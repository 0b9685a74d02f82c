#!/usr/bin/env python3
# The Patroni failover table (docs/findings/patroni-failover.md): for each Patroni setting and each role fault, N runs
# of a list-append campaign under that one fault, and what they cost: failovers, acknowledged writes lost, time to a
# new primary, time the clients could not commit, anomalies other than lost writes.
#
#   docs/findings/patroni-failover-table.py --jar harness/target/isostress.jar --out DIR --runs 10 --seconds 60
#   docs/findings/patroni-failover-table.py --out DIR --runs 10 --table-only
#   ... --table-only --record docs/findings/patroni-failover-runs.jsonl   # the table of the findings page, again
#   ... --patroni-program /path/to/patroni-3.0.3/patroni.py --out DIR2   # another Patroni than Debian's 3.0.2
#
# Resumable and round-robin: run 1 of every cell, then run 2 of every cell, ...; each finished run is one line of
# DIR/runs.jsonl, and a restart skips the (setting, fault, run) already there, so it can be killed at any time. A run
# that failed (no verdict: exit 2 or 3, no results.json, killed after the time limit) is recorded as such and tried
# once more at the end of its round (or, after a restart, in its place); two failures leave it failed, shown in the
# table. Each run's bulky files are deleted once read; results.json is kept, and the logs and anomalies of a run
# with lost writes or an error.
# Python 3 standard library only. Needs what the campaigns need: apt-get install -y patroni etcd-server postgresql-15.
import argparse, gzip, json, os, re, shutil, signal, statistics, subprocess, sys, time

SETTINGS = {
    # name: (database.patroni, database.settings, what the table calls it)
    'async': ({}, {}, "async (Patroni's default)"),
    'sync': ({'synchronous_mode': True}, {}, '`synchronous_mode: true`'),
    'sync-strict': ({'synchronous_mode': True, 'synchronous_mode_strict': True}, {},
                    '`synchronous_mode` + `synchronous_mode_strict`'),
    'sync-remote-apply': ({'synchronous_mode': True}, {'synchronous_commit': 'remote_apply'},
                          '`synchronous_mode` + `synchronous_commit: remote_apply`'),
}
FAULTS = ['crash-primary', 'kill-primary-postgres', 'kill-primary-patroni', 'partition-primary', 'pause-primary',
          'switchover']
INTERVAL_S, DURATION_S = 5, 15  # each fault outlasts the leader key's ttl (10 s)
LIMIT_S = 900                   # a run that takes longer is stopped and counted as failed


def campaign(name, store, setting, fault, seconds, seed, program=None):
    patroni, settings, _ = SETTINGS[setting]
    flow = lambda d: '{' + ', '.join(f'{k}: {json.dumps(v)}' for k, v in d.items()) + '}'
    return f"""# Written by docs/findings/patroni-failover-table.py: setting {setting}, fault {fault}.
name: {name}
store: {store}
database:
  type: postgresql
  provision: patroni
  nodes: 3
  isolation: serializable
{'  patroni-program: ' + json.dumps(program) + chr(10) if program else ''}{'  patroni: ' + flow(patroni) + chr(10) if patroni else ''}{'  settings: ' + flow(settings) + chr(10) if settings else ''}workload: {{type: list-append, sessions: 8, transactions: 1000000, keys: 20, seed: {seed}, duration: {seconds}s}}
nemesis: {{faults: [{fault}], interval: {INTERVAL_S}s, duration: {DURATION_S}s, seed: {seed}}}
check:
  levels: [serializable, strict-serializable]
"""


def cut_short(kind, start_s, held_s, seconds):
    """True when the run's end healed the fault before its duration was up (a switchover does not last). Its record's
    span includes the healing (a crashed member's restart), so the span alone cannot tell: it began too late."""
    if kind == 'switchover':
        return False
    return held_s is None or held_s < DURATION_S or start_s + DURATION_S > seconds


def leader_changes(history):
    """How often the history's leader events name a member other than the last one named ("none" is no leader)."""
    changes, last = 0, None
    with open(history, encoding='utf-8') as f:
        for line in f:
            if '"nemesis"' not in line or '"leader"' not in line:
                continue
            e = json.loads(line)
            if e.get('f') != 'leader':
                continue
            node = (e.get('value') or {}).get('node')
            if node and node != 'none':
                if last is not None and node != last:
                    changes += 1
                last = node
    return changes


def run_one(args, setting, fault, run, attempt):
    si, fi = list(SETTINGS).index(setting), FAULTS.index(fault)
    seed = run * 100 + si * 10 + fi
    key = f'{setting}-{fault}-{run}' + (f'-retry{attempt}' if attempt > 1 else '')
    store = os.path.abspath(os.path.join(args.out, 'runs', key))
    if os.path.exists(store):
        shutil.rmtree(store)  # a run cut off by a kill of this script: start it again from nothing
    os.makedirs(store)
    yaml = os.path.join(store, 'campaign.yaml')
    with open(yaml, 'w') as f:
        f.write(campaign('patroni-table', store, setting, fault, args.seconds, seed, args.patroni_program))
    out = os.path.join(store, 'output.txt')
    t0 = time.time()
    load_start = os.getloadavg()[0]  # other work on the machine slows commits and failovers: say how much there was
    with open(out, 'w') as o:
        p = subprocess.Popen(['java', '-jar', args.jar, 'run', yaml], stdout=o, stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            code = p.wait(timeout=LIMIT_S)
        except KeyboardInterrupt:
            os.killpg(p.pid, signal.SIGINT)  # its cluster is stopped as on Ctrl-C
            p.wait(timeout=180)
            raise
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGINT)  # as Ctrl-C: the harness heals the faults and stops the cluster
            try:
                p.wait(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)  # its watchdog then removes the cluster
                p.wait()
            code = 'timeout'
    rec = {'setting': setting, 'fault': fault, 'run': run, 'attempt': attempt, 'seed': seed,
           'seconds': args.seconds, 'exit': code,
           'wall_s': round(time.time() - t0, 1), 'dir': store,
           'load_start': round(load_start, 2), 'load_end': round(os.getloadavg()[0], 2)}
    runs = [os.path.join(store, 'patroni-table', d) for d in sorted(os.listdir(os.path.join(store, 'patroni-table')))
            if d[:1].isdigit()] if os.path.isdir(os.path.join(store, 'patroni-table')) else []
    rdir = runs[-1] if runs else None
    res = os.path.join(rdir, 'results.json') if rdir else None
    if not res or not os.path.exists(res):
        rec.update(status='failed', error=tail(out))
        return rec
    r = json.load(open(res))
    check = r.get('check') or {}
    fr = check.get('final_reads') or {}
    faults = []
    for f in r.get('faults') or []:
        held = (f['end'] - f['start']) / 1e9 if f.get('end', -1) >= 0 else None
        faults.append({'kind': f['kind'], 'node': f['node'], 'start_s': round(f['start'] / 1e9, 3),
                       'held_s': None if held is None else round(held, 3),
                       'cut_short': cut_short(f['kind'], f['start'] / 1e9, held, args.seconds),
                       'leader_before': f.get('leaderBefore'), 'leader_after': f.get('leaderAfter'),
                       'new_primary_ms': f.get('newPrimaryMillis'), 'no_commit_ms': f.get('noCommitMillis'),
                       'error': f.get('error')})
    hist = os.path.join(rdir, 'history.jsonl')
    rec.update(
        status='failed' if code in (2, 3, 130, 'timeout') else 'done',
        error=r.get('error'),
        verdict=check.get('verdict'),
        committed_per_s=(r.get('stats') or {}).get('throughput_committed_per_s'),
        committed=(r.get('stats') or {}).get('committed'),
        faults=faults,
        failovers=sum(1 for f in faults if f['leader_before'] and f['leader_after']
                      and f['leader_after'] not in ('none', f['leader_before'])),
        leader_changes=leader_changes(hist) if os.path.exists(hist) else None,
        writes_judged=fr.get('writes_judged'),
        lost_writes=fr.get('lost_write'),
        anomalies={k: v for k, v in (check.get('anomaly_counts') or {}).items() if k != 'lost-write'})
    if rec['status'] == 'failed' and not rec['error']:
        rec['error'] = tail(out)
    # Any run that is not valid keeps its evidence: an anomaly other than a lost write is as much to explain.
    prune(rdir, keep=bool(rec['lost_writes']) or bool(rec.get('anomalies')) or rec['status'] == 'failed'
          or bool(rec['error']))
    return rec


def tail(path, n=5):
    try:
        return ' | '.join(l.strip() for l in open(path, errors='replace').read().strip().splitlines()[-n:])
    except OSError:
        return None


def prune(rdir, keep):
    """Deletes a run's bulky files: results.json stays; logs and anomalies too when {keep}, the history gzipped."""
    for name in os.listdir(rdir):
        p = os.path.join(rdir, name)
        if name == 'results.json' or (keep and name in ('logs', 'anomalies', 'campaign.yaml')):
            continue
        if keep and name == 'history.jsonl':
            with open(p, 'rb') as i, gzip.open(p + '.gz', 'wb') as o:
                shutil.copyfileobj(i, o)
        if os.path.isdir(p):
            shutil.rmtree(p)
        else:
            os.remove(p)


def load(path):
    recs = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line:
                try:
                    recs.append(json.loads(line))
                except json.JSONDecodeError:
                    pass  # a line cut off by a kill mid-write
    return recs


def run_all(args, settings, faults):
    path = args.record
    recs = load(path)
    done = {(r['setting'], r['fault'], r['run']) for r in recs if r['status'] == 'done'}
    tries = {}
    for r in recs:
        k = (r['setting'], r['fault'], r['run'])
        tries[k] = tries.get(k, 0) + 1

    def attempt(k):
        rec = run_one(args, *k, tries.get(k, 0) + 1)
        tries[k] = tries.get(k, 0) + 1
        with open(path, 'a') as f:
            f.write(json.dumps(rec) + '\n')
        print(time.strftime('%H:%M:%S'), summary(rec), flush=True)
        return rec['status'] == 'done'

    for run in range(1, args.runs + 1):
        retry = []
        for s in settings:
            for f in faults:
                k = (s, f, run)
                if k in done or tries.get(k, 0) >= 2:
                    continue
                if not attempt(k) and tries[k] < 2:
                    retry.append(k)
        for k in retry:  # once more, later: after the rest of the round
            attempt(k)


def summary(r):
    s = f"{r['setting']} {r['fault']} run {r['run']} (attempt {r['attempt']}): {r['status']}, exit {r['exit']}"
    if r['status'] == 'done' or r.get('faults'):
        s += (f", {r.get('committed_per_s')} commits/s, {r.get('failovers')} failovers of {len(r.get('faults') or [])}"
              f" faults, lost {r.get('lost_writes')} of {r.get('writes_judged')}, anomalies {r.get('anomalies')}, "
              f"new primary ms {[f['new_primary_ms'] for f in r['faults']]}, "
              f"no commit ms {[f['no_commit_ms'] for f in r['faults']]}")
    if r.get('error'):
        s += f"; error: {r['error']}"
    return s


def quant(xs):
    if not xs:
        return '–'
    return f'{statistics.median(xs) / 1000:.1f} / {max(xs) / 1000:.1f}'


def table(record, runs, settings, faults):
    recs = load(record)
    lines = ['| setting | fault | runs | failovers (of faults) | acknowledged writes lost (runs with a loss) '
             '| new primary p50 / max (s) | no commit p50 / max (s) | commits/s (median) | other anomalies |',
             '|---|---|---|---|---|---|---|---|---|']
    notes = []
    for s in settings:
        for f in faults:
            done = {}
            for r in recs:
                if r['setting'] == s and r['fault'] == f and r['status'] == 'done':
                    done.setdefault(r['run'], r)  # the first finished attempt of each run
            cell = list(done.values())
            failed_for_good = {r['run'] for r in recs if r['setting'] == s and r['fault'] == f} - set(done)
            n = len(cell)
            count = f'{n}' if n >= runs else f'{n} of {runs}'
            if failed_for_good:
                count += f' ({len(failed_for_good)} failed)'
            held = [x for r in cell for x in r['faults']
                    if not cut_short(x['kind'], x['start_s'], x['held_s'], r.get('seconds', 60))]
            full = [x for x in held if not x['error']]
            failed = [x for x in held if x['error']]
            fo = sum(1 for x in full if x['leader_after'] not in (None, 'none', x['leader_before']))
            lost = sum(r.get('lost_writes') or 0 for r in cell)
            lost_runs = sum(1 for r in cell if r.get('lost_writes'))
            newp = [x['new_primary_ms'] for x in full if x.get('new_primary_ms') is not None and x['new_primary_ms'] >= 0]
            noc = [x['no_commit_ms'] for x in full if x.get('no_commit_ms') is not None and x['no_commit_ms'] >= 0]
            cps = [r['committed_per_s'] for r in cell if r.get('committed_per_s') is not None]
            anomalies = {}
            for r in cell:
                for k, v in (r.get('anomalies') or {}).items():
                    a = anomalies.setdefault(k, [0, 0])
                    a[0] += v
                    a[1] += 1
            mark = '–'
            if anomalies:
                notes.append(f'{s} / {f}: ' + ', '.join(f'{k} ×{v[0]:,} in {v[1]} of {n} runs'
                                                        for k, v in sorted(anomalies.items())))
                mark = f'[{len(notes)}]'
            fcol = f'{fo} of {len(full)}'
            if failed:
                # a fault the manager refused or that failed (its error in results.json), not in the other columns
                errors = sorted({re.sub(r' on [0-9.]+:[0-9]+', '', x['error']) for x in failed})
                notes.append(f'{s} / {f}: {len(failed)} faults failed, e.g. "{errors[0]}"'
                             + (f' ({len(errors)} different errors)' if len(errors) > 1 else ''))
                fcol += f' ({len(failed)} failed [{len(notes)}])'
            lines.append(f'| {SETTINGS[s][2]} | `{f}` | {count} | {fcol} | '
                         f'{lost:,} ({lost_runs} of {n}) | {quant(newp)} | {quant(noc)} | '
                         f'{statistics.median(cps):,.0f} | {mark} |' if cps else
                         f'| {SETTINGS[s][2]} | `{f}` | {count} | – | – | – | – | – | – |')
    text = '\n'.join(lines) + '\n'
    if notes:
        text += '\nNotes: other anomalies (name ×count over the runs, in how many runs), and faults that failed:\n\n' + ''.join(
            f'{i}. {n}\n' for i, n in enumerate(notes, 1))
    loads = [r['load_start'] for r in recs if r['status'] == 'done' and r.get('load_start') is not None]
    unknown = sum(1 for r in recs if r['status'] == 'done' and r.get('load_start') is None)
    if loads:
        busy = sum(1 for x in loads if x > 3)
        text += (f'\nThe machine\'s load average (1 min) as each run began: median {statistics.median(loads):.1f}, '
                 f'{min(loads):.1f}-{max(loads):.1f}; {busy} of {len(loads)} runs began above 3 (other work running: '
                 f'fewer commits/s and longer stretches without a commit)'
                 + (f'; not recorded for {unknown} earlier runs' if unknown else '') + '.\n')
    total = sum(1 for r in recs if r['status'] == 'done')
    return text, total


def stopped(signum, frame):
    """SIGTERM: say so in the output (a restart resumes), and let the run under way go as Ctrl-C would."""
    print(time.strftime('%H:%M:%S'), f'stopped by signal {signum}; the run under way is not recorded', flush=True)
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGTERM, stopped)  # SIGHUP stays as nohup leaves it
    ap = argparse.ArgumentParser(description='The Patroni failover table: settings × role faults, resumable.')
    ap.add_argument('--jar', help='isostress.jar (harness/target/isostress.jar after a build)')
    ap.add_argument('--out', required=True, help='where the campaigns, runs and runs.jsonl go')
    ap.add_argument('--record', help='the runs\' record, one line per finished run, which a restart resumes from and '
                                     'the table is rendered from (default OUT/runs.jsonl); the table in '
                                     'docs/findings/patroni-failover.md is docs/findings/patroni-failover-runs.jsonl')
    ap.add_argument('--runs', type=int, default=10, help='runs per cell (default 10)')
    ap.add_argument('--seconds', type=int, default=60, help="each run's duration (default 60)")
    ap.add_argument('--settings', nargs='+', default=list(SETTINGS), choices=list(SETTINGS))
    ap.add_argument('--faults', nargs='+', default=FAULTS, choices=FAULTS)
    ap.add_argument('--patroni-program', help="the Patroni the members run (database.patroni-program), e.g. "
                                              "patroni.py of a release's source tree; default Debian's")
    ap.add_argument('--table-only', action='store_true', help='render the table from runs.jsonl, run nothing')
    ap.add_argument('--doc', help='also put the table into this markdown file, between its lines '
                                  '"<!-- table -->" and "<!-- /table -->" (docs/findings/patroni-failover.md)')
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not args.record:
        args.record = os.path.join(args.out, 'runs.jsonl')
    if not args.table_only:
        if not args.jar or not os.path.exists(args.jar):
            ap.error(f'--jar: no such file: {args.jar}')
        args.jar = os.path.abspath(args.jar)
        run_all(args, args.settings, args.faults)
    text, total = table(args.record, args.runs, args.settings, args.faults)
    cells = len(args.settings) * len(args.faults)
    head = f'{total} runs done of {cells * args.runs} ({cells} cells × {args.runs})'
    if total < cells * args.runs:
        head = f'**Partial**: {head}; cells with fewer runs say how many.'
    else:
        head += '.'
    print(head + '\n')
    print(text)
    if args.doc:
        doc = open(args.doc, encoding='utf-8').read()
        a, b = doc.find('<!-- table -->\n'), doc.find('<!-- /table -->')
        if a < 0 or b < a:
            sys.exit(f'--doc: {args.doc} has no "<!-- table -->" line followed by a "<!-- /table -->" line')
        a += len('<!-- table -->\n')
        with open(args.doc, 'w', encoding='utf-8') as f:
            f.write(doc[:a] + '\n' + head + '\n\n' + text + '\n' + doc[b:])


if __name__ == '__main__':
    main()
