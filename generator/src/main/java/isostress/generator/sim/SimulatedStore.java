package isostress.generator.sim;

import isostress.generator.sim.GeneralSimulation.Level;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static isostress.generator.sim.PendingTxn.READ;
import static isostress.generator.sim.PendingTxn.WRITE;

/**
 * The store side of a {@link GeneralSimulation}: the committed versions of every key in commit order, the commit
 * records, and for each execution the visible set its level allows (the rules are in {@link GeneralSimulation}'s
 * comment, after Biswas &amp; Enea, OOPSLA 2019, §2.2). It performs a transaction's reads against that set and commits
 * it unless the level forbids it. It draws from the simulation's random source, in the simulation's order, so a run
 * stays deterministic from its seed.
 */
final class SimulatedStore {
    /** Causal: how many commits of each other session a transaction may miss. */
    private static final int CAUSAL_LAG = 4;
    /** Probability that a read-only serializable transaction reads a stale prefix. */
    private static final double SER_STALE = 0.5;

    private final SplittableRandom rnd;
    private final int n;
    private final boolean lists;
    private final Level level;
    private final int lag;

    // Committed versions per key, in commit order: the committing record and the value (register: a transaction's
    // last write of the key; list: one entry per appended element).
    private final int[] vCount;
    private final int[][] vRec;
    private final long[][] vVal;

    // Commit records, in commit order (every committed transaction, read-only ones too).
    private int recCount;
    private int[] recSession = new int[64], recPos = new int[64];
    private int[][] recClock; // causal: the record's closure, as per-session prefix lengths
    private final int[][] sessRec;
    private final int[] sessRecCount;
    /** Serializable: the smallest commit-order prefix the session's next transaction may read. */
    private final int[] floor;

    // Per-execution visibility state.
    private int visSession;
    private int visSnap; // prefix levels: records < visSnap visible
    private int visCut; // RA / RC: records < visCut visible
    private double visQ; // RA / RC: probability of seeing a later commit
    private final Map<Integer, Boolean> raMemo = new HashMap<>();
    private final Map<Integer, Boolean> rcIncluded = new HashMap<>();
    private int[] visClock;
    private final int[] perm;

    SimulatedStore(GeneralSimulation.Config c, SplittableRandom rnd) {
        this.rnd = rnd;
        this.n = c.sessions();
        this.lists = c.workload() == GeneralSimulation.Workload.LIST_APPEND;
        this.level = c.level();
        this.lag = 4 * n;
        int keys = c.keys().keys();
        vCount = new int[keys];
        vRec = new int[keys][];
        vVal = new long[keys][];
        sessRec = new int[n][];
        sessRecCount = new int[n];
        for (int s = 0; s < n; s++) sessRec[s] = new int[8];
        floor = new int[n];
        if (level == Level.CAUSAL) {
            recClock = new int[64][];
            visClock = new int[n];
        }
        perm = new int[n];
    }

    /** How many transactions have committed: the snapshot a transaction invoked now takes (SI and PREFIX). */
    int commitCount() {
        return recCount;
    }

    /**
     * Chooses the visible set, performs the reads of session {@code s}'s transaction and, when {@code commit},
     * commits it unless the level forbids it. Returns false when the transaction must abort.
     */
    boolean execute(int s, PendingTxn p, boolean commit) {
        chooseVisibility(s, p);
        for (int i = 0; i < p.size; i++) {
            if (p.kind[i] != READ) continue;
            if (lists) listRead(p, i); else registerRead(p, i);
        }
        if (!commit) return false;
        if (level == Level.SNAPSHOT_ISOLATION) {
            for (int i = 0; i < p.size; i++) {
                if (p.kind[i] == WRITE && committedAfter((int) p.key[i], p.snap)) return false;
            }
        } else if (level == Level.PREFIX && lists) {
            for (int i = 0; i < p.size; i++) {
                if (p.kind[i] == READ && p.ownWriteBefore(i) >= 0 && committedAfter((int) p.key[i], p.snap)) {
                    return false;
                }
            }
        }
        commit(s, p);
        return true;
    }

    private boolean committedAfter(int k, int snap) {
        return vCount[k] > 0 && vRec[k][vCount[k] - 1] >= snap;
    }

    private void chooseVisibility(int s, PendingTxn p) {
        visSession = s;
        switch (level) {
            case STRICT_SERIALIZABLE:
                visSnap = recCount;
                break;
            case SERIALIZABLE:
                if (p.readOnly && rnd.nextDouble() < SER_STALE) {
                    int lo = Math.max(floor[s], recCount - lag);
                    visSnap = lo + rnd.nextInt(recCount - lo + 1);
                } else {
                    visSnap = recCount;
                }
                break;
            case SNAPSHOT_ISOLATION:
            case PREFIX:
                visSnap = p.snap;
                break;
            case CAUSAL:
                chooseCausal(s);
                break;
            case READ_ATOMIC:
                raMemo.clear();
                visCut = recCount - rnd.nextInt(Math.min(lag, recCount) + 1);
                visQ = rnd.nextDouble();
                break;
            default: // READ_COMMITTED
                rcIncluded.clear();
                visCut = 0;
                visQ = rnd.nextDouble();
        }
    }

    /** A random causally closed set: own closure merged with the closures of random other commits. */
    private void chooseCausal(int s) {
        int own = sessRecCount[s];
        if (own > 0) {
            System.arraycopy(recClock[sessRec[s][own - 1]], 0, visClock, 0, n);
        } else {
            Arrays.fill(visClock, 0);
        }
        for (int i = 0; i < n; i++) perm[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < n; i++) {
            int o = perm[i];
            if (o == s) continue;
            int count = sessRecCount[o];
            int lo = Math.max(visClock[o], count - CAUSAL_LAG);
            if (count == lo) continue; // nothing more to see (lo <= count always)
            int k = lo + Math.min( // biased towards staleness: min of two draws
                    rnd.nextInt(count - lo + 1), rnd.nextInt(count - lo + 1));
            if (k > visClock[o]) {
                int[] cl = recClock[sessRec[o][k - 1]];
                for (int j = 0; j < n; j++) if (cl[j] > visClock[j]) visClock[j] = cl[j];
            }
        }
    }

    /** Whether commit record {@code rec} is visible to the current read (RC draws may extend the set). */
    private boolean visible(int rec) {
        switch (level) {
            case CAUSAL:
                return visClock[recSession[rec]] > recPos[rec];
            case READ_ATOMIC: {
                if (rec < visCut || recSession[rec] == visSession) return true;
                Boolean m = raMemo.get(rec);
                if (m == null) {
                    m = rnd.nextDouble() < visQ;
                    raMemo.put(rec, m);
                }
                return m;
            }
            case READ_COMMITTED: {
                if (rec < visCut || recSession[rec] == visSession || rcIncluded.containsKey(rec)) return true;
                if (rnd.nextDouble() < visQ) {
                    rcIncluded.put(rec, Boolean.TRUE);
                    return true;
                }
                return false;
            }
            default:
                return rec < visSnap;
        }
    }

    private void registerRead(PendingTxn p, int i) {
        int own = p.ownWriteBefore(i);
        if (own >= 0) {
            p.value[i] = p.value[own];
            p.nul[i] = false;
            return;
        }
        if (level == Level.READ_COMMITTED) {
            // A new, larger visible set for each read.
            int cut = recCount - rnd.nextInt(Math.min(lag, recCount) + 1);
            if (cut > visCut) visCut = cut;
        }
        int k = (int) p.key[i];
        for (int j = vCount[k] - 1; j >= 0; j--) {
            if (visible(vRec[k][j])) {
                p.value[i] = vVal[k][j];
                p.nul[i] = false;
                return;
            }
        }
        p.nul[i] = true; // the initial (absent) value
    }

    private void listRead(PendingTxn p, int i) {
        int k = (int) p.key[i];
        // Prefix visibility: the visible appends are a prefix of the key's append order.
        int visibleCount = 0;
        for (int j = vCount[k] - 1; j >= 0; j--) {
            if (visible(vRec[k][j])) {
                visibleCount = j + 1;
                break;
            }
        }
        int ownCount = 0;
        for (int j = 0; j < i; j++) if (p.kind[j] == WRITE && p.key[j] == k) ownCount++;
        long[] l = p.list[i];
        if (l == null || l.length < visibleCount + ownCount) {
            l = new long[Math.max(4, visibleCount + ownCount)];
            p.list[i] = l;
        }
        if (visibleCount > 0) System.arraycopy(vVal[k], 0, l, 0, visibleCount);
        int m = visibleCount;
        for (int j = 0; j < i; j++) if (p.kind[j] == WRITE && p.key[j] == k) l[m++] = p.value[j];
        p.listLen[i] = m;
        p.nul[i] = false;
    }

    /** Told each commit's writes, in commit order (null: nobody listens). */
    GeneralSimulation.CommitLog commitLog;

    private void commit(int s, PendingTxn p) {
        int rec = recCount++;
        if (commitLog != null) {
            long[] keys = new long[p.size], values = new long[p.size];
            int w = 0;
            for (int i = 0; i < p.size; i++) {
                if (p.kind[i] != WRITE) continue;
                keys[w] = p.key[i];
                values[w++] = p.value[i];
            }
            commitLog.committed(rec, keys, values, w);
        }
        if (rec == recSession.length) {
            recSession = Arrays.copyOf(recSession, rec * 2);
            recPos = Arrays.copyOf(recPos, rec * 2);
            if (recClock != null) recClock = Arrays.copyOf(recClock, rec * 2);
        }
        int pos = sessRecCount[s]++;
        if (pos == sessRec[s].length) sessRec[s] = Arrays.copyOf(sessRec[s], pos * 2);
        sessRec[s][pos] = rec;
        recSession[rec] = s;
        recPos[rec] = pos;
        if (recClock != null) {
            int[] cl = visClock.clone();
            cl[s] = pos + 1;
            recClock[rec] = cl;
        }
        for (int i = 0; i < p.size; i++) {
            if (p.kind[i] != WRITE) continue;
            if (!lists && p.writtenAgainAfter(i)) continue; // only the last write of a key is installed
            addVersion((int) p.key[i], rec, p.value[i]);
        }
        floor[s] = p.readOnly ? Math.max(floor[s], visSnap) : recCount;
    }

    private void addVersion(int k, int rec, long value) {
        int m = vCount[k];
        if (vRec[k] == null) {
            vRec[k] = new int[4];
            vVal[k] = new long[4];
        } else if (m == vRec[k].length) {
            vRec[k] = Arrays.copyOf(vRec[k], m * 2);
            vVal[k] = Arrays.copyOf(vVal[k], m * 2);
        }
        vRec[k][m] = rec;
        vVal[k][m] = value;
        vCount[k] = m + 1;
    }
}
