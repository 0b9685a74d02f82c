#!/usr/bin/env python3
# Writes a Knossos-style single-register EDN history from a simulated atomic register (linearizable by construction),
# for timing `isostress check` (README, "Single-register histories"). Usage: gen-register-history.py OPS PROCESSES SEED [INFO_RATE]
import random, sys
n = int(sys.argv[1]); procs = int(sys.argv[2]); seed = int(sys.argv[3]); crash = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
r = random.Random(seed); reg = None; slot = [None]*procs; pid = list(range(procs)); started = 0; idx = 0
def val(op, done):
    f = op['f']
    if f == 'read': return 'nil' if not done or op['seen'] is None else str(op['seen'])
    if f == 'write': return str(op['arg'])
    return '[%s %s]' % ('nil' if op['arg'] is None else op['arg'], op['arg2'])
out = sys.stdout
def emit(p, t, op, done):
    global idx
    out.write('{:index %d, :type :%s, :process %d, :f :%s, :value %s}\n' % (idx, t, p, op['f'], val(op, done))); idx += 1
while started < n or any(slot):
    p = r.randrange(procs); op = slot[p]
    if op is None:
        if started >= n: continue
        f = r.choice(['read', 'write', 'cas'])
        op = {'f': f, 'arg': r.randrange(5), 'arg2': r.randrange(5), 'applied': False, 'p': pid[p]}
        emit(pid[p], 'invoke', op, False); slot[p] = op; started += 1
    elif not op['applied'] and r.random() < 0.5:
        op['applied'] = True
        if op['f'] == 'read': op['seen'] = reg
        elif op['f'] == 'write': reg = op['arg']
        else:
            op['matched'] = reg == op['arg']
            if op['matched']: reg = op['arg2']
    elif r.random() < crash:
        emit(op['p'], 'info', op, False); slot[p] = None; pid[p] += procs
    elif op['applied']:
        emit(op['p'], 'fail' if op['f'] == 'cas' and not op['matched'] else 'ok', op, True); slot[p] = None
