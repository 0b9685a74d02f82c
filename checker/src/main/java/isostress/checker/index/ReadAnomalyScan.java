package isostress.checker.index;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;

/**
 * Non-cycle anomalies of a register history, checked first for every committed transaction (MTC §IV-B footnote;
 * Table I rows a-g): reads of values nobody wrote, of aborted or intermediate writes, of the transaction's own future
 * write, reads after an own write that return something else, and repeated reads that disagree.
 */
final class ReadAnomalyScan {
    private final RegisterIndex m;
    private final History h;
    private final AnomalyLog anomalies;

    private ReadAnomalyScan(RegisterIndex m) {
        this.m = m;
        this.h = m.h;
        this.anomalies = m.anomalies;
    }

    /** Reports the anomalies of {@code m}'s included transactions to its log. */
    static void scan(RegisterIndex m) {
        new ReadAnomalyScan(m).run();
    }

    private void run() {
        int n = m.n;
        for (int t = 0; t < n; t++) {
            if (!m.included[t]) continue;
            boolean info = h.outcome(t) == Outcome.INFO;
            for (int a = m.accStart[t]; a < m.accStart[t + 1]; a++) scanAccess(t, a, info);
        }
    }

    private void scanAccess(int t, int a, boolean info) {
        long key = m.keyOf[m.accKey[a]];
        boolean wrote = false;
        long last = 0;
        boolean firstExternal = true;
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (h.opKey(o) != key) continue;
            byte kind = h.opKind(o);
            if (kind == History.READ || (kind == History.CAS && !wrote)) {
                boolean nul = h.opValueNull(o);
                if (nul && info && kind == History.READ) continue; // not known
                long v = h.opValue(o);
                if (wrote && kind == History.READ) {
                    if (!nul && v == last) continue;
                    if (!nul && ownEarlierWrite(t, key, v, o)) anomalies.notMyLastWrite(t, o, last);
                    else anomalies.notMyOwnWrite(t, o, last);
                    continue;
                }
                if (!firstExternal) {
                    // A repeated read must itself be a possible read, and then agree with the first one.
                    if (m.readSource(t, o) == RegisterIndex.NONE) {
                        classifyExternalRead(t, o, key, nul, v, nul ? WriteIndex.MISSING
                                : m.writes.get(m.accKey[a], v));
                        continue;
                    }
                    boolean same = nul ? m.accReadState[a] == RegisterIndex.READ_NULL
                            : m.accReadState[a] == RegisterIndex.READ_VALUE && m.accRead[a] == v;
                    if (!same) anomalies.nonRepeatableRead(t, m.accReadOp[a], o);
                    continue;
                }
                firstExternal = false;
                if (m.accSource[a] == RegisterIndex.NONE) classifyExternalRead(t, o, key, nul, v, m.accReadCode[a]);
            }
            if (kind == History.WRITE || kind == History.CAS) {
                wrote = true;
                last = kind == History.WRITE ? h.opValue(o) : h.casNew(o);
            }
        }
    }

    private void classifyExternalRead(int t, int o, long key, boolean nul, long v, int code) {
        if (nul ? h.initial().isInitialNull(key) : h.initial().isInitial(key, v)) return;
        if (nul) {
            anomalies.thinAir(t, o);
            return;
        }
        int w = RegisterIndex.decode(code);
        if (w == RegisterIndex.NONE) {
            anomalies.thinAir(t, o);
            return;
        }
        int wt = w >= 0 ? m.accTxn[w] : -w - 2;
        if (wt == t) anomalies.futureRead(t, o);
        else if (h.outcome(wt) == Outcome.FAIL) anomalies.abortedRead(t, o, wt);
        else if (w < 0) anomalies.intermediateRead(t, o, wt);
    }

    private boolean ownEarlierWrite(int t, long key, long v, int before) {
        for (int o = h.firstOp(t); o < before; o++) {
            if (h.opKey(o) != key) continue;
            if (h.opKind(o) == History.WRITE && h.opValue(o) == v) return true;
            if (h.opKind(o) == History.CAS && h.casNew(o) == v) return true;
        }
        return false;
    }
}
