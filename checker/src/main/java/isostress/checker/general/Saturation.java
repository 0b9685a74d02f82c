package isostress.checker.general;

import isostress.checker.graph.Csr;
import isostress.checker.graph.EdgeList;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CycleShape;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Step;
import isostress.checker.history.Txn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Read committed, read atomic and causal consistency of a general history by saturation (Biswas &amp; Enea, OOPSLA
 * 2019, §3, Alg. 1): every instance of the level's axiom "T3 reads x from T1, T2 ≠ T1 writes x, φ(T2, T3) ⇒ T2
 * commits before T1" adds a forced commit-order (co) edge T2 → T1; the level holds iff so ∪ wr ∪ co is acyclic.
 * φ depends only on so and wr, so one pass suffices. wr holds every external read, not only the first of each key.
 * Where the data shows the version order (list-append), its ww edges are part of the commit order too (a list read
 * returns the visible appends in commit order: Cerone et al. 2015's arbitration).
 *
 * <ul>
 *   <li>RC: φ = T2 wrote the value an earlier read of T3 returned. O(reads² per transaction).</li>
 *   <li>RA: φ = T2 is a wr predecessor of T3, or precedes T3 in its session; of the session's writers of x only the
 *       last before T3 matters (the earlier ones precede it in so, so in co).</li>
 *   <li>CC: φ = T2 is a causal predecessor of T3, (so ∪ wr)+. Causal pasts are kept as one vector per transaction
 *       (the last position of each session in it); per session only the last writer of x in T3's past matters.
 *       O(reads x sessions x log).</li>
 * </ul>
 * When T1 is the initial state, T2 cannot commit before it: the cycle is T2 ⇝ T3 -rw(x)-> T2 (T3 read the initial
 * x although it observed T2's write of x).
 */
final class Saturation {
    static final String ALGORITHM_RC = "saturation (Biswas & Enea §3, Read Committed axiom)";
    static final String ALGORITHM_RA = "saturation (Biswas & Enea §3, Read Atomic axiom)";
    static final String ALGORITHM_CC = "saturation (Biswas & Enea §3, Causal axiom), causal pasts as session vectors";

    private final Observations o;
    private final IsolationLevel level;
    private final Sessions ss;
    private final Consumer<Anomaly> report;
    private final int maxReported;
    // Graph: so, wr (every external read), ww (known order), co.
    // Labels: a = the dense key, b = the version; witness = the reader whose axiom forced a co edge.
    private final EdgeList graph = new EdgeList(64, false, true);
    private int violations;

    private Saturation(Observations o, IsolationLevel level, Consumer<Anomaly> report, int maxReported) {
        this.o = o;
        this.level = level;
        this.ss = Sessions.of(o);
        this.report = report;
        this.maxReported = maxReported;
    }

    /** Checks {@code level} (RC, RA or CC); reports anomalies; returns the number of violations. */
    static int check(Observations o, IsolationLevel level, Consumer<Anomaly> report, int maxReported) {
        Saturation s = new Saturation(o, level, report, maxReported);
        return s.run();
    }

    private int run() {
        baseEdges();
        int[][] causal = null;
        if (level == IsolationLevel.CAUSAL) {
            causal = causalPasts();
            if (causal == null) return violations + cycles(); // so ∪ wr is cyclic: every level fails
        }
        WriterIndex writers = new WriterIndex(o, ss);
        for (int t3 = 0; t3 < o.n; t3++) {
            if (!o.included[t3]) continue;
            int r0 = o.readStart[t3], r1 = o.readStart[t3 + 1];
            for (int i = r0; i < r1; i++) {
                int x = o.readKey[i], v = o.readVer[i];
                int t1 = o.verTxn[v];
                switch (level) {
                    case READ_COMMITTED:
                        for (int j = r0; j < i; j++) {
                            for (int q = 0, c = o.observedCount(j); q < c; q++) {
                                axiom(o.observedWriter(j, q), t1, t3, x, v, j);
                            }
                        }
                        break;
                    case READ_ATOMIC: {
                        for (int j = r0; j < r1; j++) {
                            for (int q = 0, c = o.observedCount(j); q < c; q++) {
                                int t2 = o.observedWriter(j, q);
                                if (t2 != t3) axiom(t2, t1, t3, x, v, j);
                            }
                        }
                        int prev = writers.lastBefore(x, ss.session[t3], ss.pos[t3] - 1);
                        if (prev >= 0) axiom(prev, t1, t3, x, v, -1);
                        break;
                    }
                    default: { // CAUSAL
                        int[] past = causal[t3];
                        for (int s = 0; s < ss.count; s++) {
                            int p = past[s];
                            if (s == ss.session[t3]) p = Math.min(p, ss.pos[t3] - 1);
                            if (p < 0) continue;
                            int t2 = writers.lastBefore(x, s, p);
                            if (t2 < 0 || t2 == t1) continue;
                            // Already before T1 in (so ∪ wr)+: implied, no edge needed.
                            if (t1 >= 0 && causal[t1][s] >= ss.pos[t2]) continue;
                            axiom(t2, t1, t3, x, v, -2);
                        }
                        break;
                    }
                }
            }
        }
        return violations + cycles();
    }

    /**
     * Axiom instance: T3 read version v of x (writer t1, -1 initial), T2 writes x and φ(T2, T3) holds; {@code why}
     * is the read of T3 through which T2 is observed (RC, RA), -1 for session order, -2 for the causal past.
     */
    private void axiom(int t2, int t1, int t3, int x, int v, int why) {
        if (t2 == t1 || o.written(t2, x) < 0) return;
        if (t1 >= 0) {
            addEdge(t2, t1, EdgeKind.CO, x, v, t3);
            return;
        }
        // T1 is the initial state: nothing commits before it.
        violations++;
        if (violations > maxReported) return;
        List<Step> steps = new ArrayList<>(observation(t2, t3, why));
        long key = o.keyOf[x];
        steps.add(new Step(t3, t2, EdgeKind.RW, key, o.value(v), o.value(o.written(t2, x)), true, -1));
        report.accept(anomaly(steps, true));
    }

    /** How T3 observed T2: the read, session order, or a causal chain. */
    private List<Step> observation(int t2, int t3, int why) {
        if (why >= 0) {
            int k = o.readKey[why];
            int ver = o.lists ? o.written(t2, k) : o.readVer[why]; // a list read shows each writer's own element
            return List.of(new Step(t2, t3, EdgeKind.WR, o.keyOf[k], o.value(ver), null, false, -1));
        }
        if (why == -1) return List.of(Step.of(t2, t3, EdgeKind.SO));
        int[] path = Paths.shortestPath(Csr.build(o.n, graph.from, graph.to, null, baseEdgeCount), new int[] {t2},
                new int[] {t3}, -1);
        List<Step> out = new ArrayList<>();
        if (path != null) for (int e : path) out.add(step(e));
        return out;
    }

    private int baseEdgeCount;

    private void baseEdges() {
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t]) continue;
            int prev = ss.previous(t);
            if (prev >= 0) addEdge(prev, t, EdgeKind.SO, -1, -1, -1);
            for (int i = o.readStart[t]; i < o.readStart[t + 1]; i++) {
                int w = o.verTxn[o.readVer[i]];
                if (w >= 0 && w != t) addEdge(w, t, EdgeKind.WR, o.readKey[i], o.readVer[i], -1);
            }
        }
        baseEdgeCount = graph.size;
        if (o.chainStart == null) return;
        // Known version order: ww along each chain (a list's reads, or the commit log's, which for registers starts the
        // saturation from the database's ww edges: every commit order must extend them), and to the appends no read
        // observed.
        boolean[] inChain = new boolean[o.versions];
        int[] last = new int[o.keys];
        Arrays.fill(last, -1);
        for (int k = 0; k < o.keys; k++) {
            int prev = -1;
            for (int i = o.chainStart[k]; i < o.chainStart[k + 1]; i++) {
                int v = o.chain[i];
                inChain[v] = true;
                int t = o.verTxn[v];
                if (!o.included[t]) continue;
                if (prev >= 0) addEdge(o.verTxn[prev], t, EdgeKind.WW, k, prev, -1);
                prev = v;
            }
            last[k] = prev;
        }
        for (int v = 0; v < o.versions - o.keys; v++) {
            int t = o.verTxn[v];
            if (inChain[v] || !o.included[t] || o.written(t, o.verKey[v]) != v) continue;
            int l = last[o.verKey[v]];
            if (l >= 0) addEdge(o.verTxn[l], t, EdgeKind.WW, o.verKey[v], l, -1);
        }
    }

    /**
     * Causal past of each committed transaction as a vector: per session, the last position in it (-1: none). The
     * past joins each session predecessor's and each observed writer's, with them; computed in a topological order
     * of so ∪ wr ∪ ww (ww orders a list's writers before those who read past them); null when that graph is cyclic.
     */
    private int[][] causalPasts() {
        Csr csr = Csr.build(o.n, graph.from, graph.to, null, graph.size);
        int[] order = Reachability.topological(csr);
        if (order == null) return null;
        int S = ss.count;
        int[][] past = new int[o.n][];
        for (int v : order) {
            if (!o.included[v]) continue;
            int[] p = new int[S];
            Arrays.fill(p, -1);
            int prev = ss.previous(v);
            if (prev >= 0) join(p, past[prev], prev);
            for (int i = o.readStart[v]; i < o.readStart[v + 1]; i++) {
                for (int q = 0, c = o.observedCount(i); q < c; q++) {
                    int w = o.observedWriter(i, q);
                    if (w != v) join(p, past[w], w);
                }
            }
            past[v] = p;
        }
        return past;
    }

    /** p := p ⊔ (past of u, and u itself). */
    private void join(int[] p, int[] pu, int u) {
        for (int s = 0; s < p.length; s++) if (pu[s] > p[s]) p[s] = pu[s];
        if (ss.pos[u] > p[ss.session[u]]) p[ss.session[u]] = ss.pos[u];
    }

    /** Reports the cycles of so ∪ wr ∪ ww ∪ co; returns how many (one per cyclic component). */
    private int cycles() {
        Csr csr = Csr.build(o.n, graph.from, graph.to, null, graph.size);
        if (Reachability.topological(csr) != null) return 0;
        int found = 0;
        // One cycle per cyclic component, shortest first found by BFS.
        isostress.checker.graph.TarjanScc scc = isostress.checker.graph.TarjanScc.of(csr);
        isostress.checker.graph.CycleSearch search = new isostress.checker.graph.CycleSearch(csr, scc.comp);
        boolean[] done = new boolean[scc.count];
        for (int v = 0; v < o.n; v++) {
            int c = scc.comp[v];
            if (done[c] || !scc.cyclic(c)) continue;
            done[c] = true;
            found++;
            if (found > maxReported) continue;
            int[] pos = search.shortest(new int[] {v}, 1_000_000);
            if (pos == null) continue;
            List<Step> steps = new ArrayList<>();
            for (int p : pos) steps.add(step(csr.eid[p]));
            report.accept(anomaly(steps, false));
        }
        return found;
    }

    private Step step(int e) {
        EdgeKind k = EdgeKind.of(graph.kind[e]);
        int[] from = graph.from, to = graph.to;
        if (k == EdgeKind.SO) return Step.of(from[e], to[e], k);
        long key = o.keyOf[graph.a[e]];
        int v = graph.b[e];
        switch (k) {
            case WR:
                return new Step(from[e], to[e], k, key, o.value(v), null, o.isInitial(v), -1);
            case WW: { // a known ww edge: from the commit log when the key's order is the log's
                int next = o.written(to[e], graph.a[e]);
                return new Step(from[e], to[e], k, key, o.value(v), o.value(next), false, -1,
                        o.log == null ? null : o.log.between(graph.a[e], v, next));
            }
            default: // CO: T3 (witness) observed from[e] yet read version v from to[e]
                return new Step(from[e], to[e], k, key, o.value(v), null, o.isInitial(v), graph.witness[e]);
        }
    }

    private Anomaly anomaly(List<Step> steps, boolean staleInitial) {
        boolean co = staleInitial;
        for (Step s : steps) co |= s.kind() == EdgeKind.CO;
        List<EdgeKind> kinds = new ArrayList<>();
        for (Step s : steps) kinds.add(s.kind());
        CycleShape shape = CycleShape.of(kinds);
        Set<Integer> ids = new LinkedHashSet<>();
        for (Step s : steps) {
            ids.add(s.from());
            ids.add(s.to());
        }
        for (Step s : steps) if (s.witness() >= 0) ids.add(s.witness());
        List<Txn> txns = new ArrayList<>();
        for (int t : ids) txns.add(o.h.txn(t));
        if (!co) {
            IsolationLevel lv = shape.type().level();
            return new Anomaly(shape.type(), shape.variant(), null, level.implies(lv) ? lv : level, txns, steps,
                    null, null);
        }
        boolean so = steps.stream().anyMatch(s -> s.kind() == EdgeKind.SO);
        MtcAnomaly alias = level == IsolationLevel.READ_COMMITTED ? MtcAnomaly.NON_MONOTONIC_READ
                : level == IsolationLevel.READ_ATOMIC
                ? (so ? MtcAnomaly.SESSION_GUARANTEE_VIOLATION : MtcAnomaly.FRACTURED_READ)
                : MtcAnomaly.CAUSALITY_VIOLATION;
        return new Anomaly(AnomalyType.G_SINGLE, so ? CycleVariant.PROCESS : CycleVariant.NONE, alias, level, txns,
                steps, null, null);
    }

    private void addEdge(int f, int t, EdgeKind k, int key, int ver, int witness) {
        graph.addWitnessed(f, t, k.code(), key, ver, witness);
    }

    /** Per key and session, the committed writers in session order, for "the last writer of x at or before p". */
    static final class WriterIndex {
        private final Sessions ss;
        private final isostress.checker.history.LongPairIntMap groupOf;
        private int[] start = new int[16];
        private int[] members;

        WriterIndex(Observations o, Sessions ss) {
            this.ss = ss;
            // Count writers per (key, session), then lay them out in session order.
            groupOf = new isostress.checker.history.LongPairIntMap(1024);
            int groups = 0;
            int[] size = new int[16];
            int total = 0;
            for (int t = 0; t < o.n; t++) {
                if (!o.included[t]) continue;
                for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                    if (o.accWrite[a] < 0) continue;
                    int gId = groupOf.get(o.accKey[a], ss.session[t]);
                    if (gId == isostress.checker.history.LongPairIntMap.MISSING) {
                        gId = groups++;
                        groupOf.put(o.accKey[a], ss.session[t], gId);
                        if (gId == size.length) size = Arrays.copyOf(size, gId * 2);
                    }
                    size[gId]++;
                    total++;
                }
            }
            start = new int[groups + 1];
            for (int gI = 0; gI < groups; gI++) start[gI + 1] = start[gI] + size[gI];
            members = new int[total];
            int[] fill = Arrays.copyOf(start, groups);
            for (int t = 0; t < o.n; t++) { // ids grow with session position
                if (!o.included[t]) continue;
                for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                    if (o.accWrite[a] < 0) continue;
                    int gId = groupOf.get(o.accKey[a], ss.session[t]);
                    members[fill[gId]++] = t;
                }
            }
        }

        /** The last committed writer of key x in session s at position <= p, or -1. */
        int lastBefore(int x, int s, int p) {
            if (s < 0 || p < 0) return -1;
            int gId = groupOf.get(x, s);
            if (gId == isostress.checker.history.LongPairIntMap.MISSING) return -1;
            int lo = start[gId], hi = start[gId + 1];
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ss.pos[members[mid]] <= p) lo = mid + 1; else hi = mid;
            }
            return lo == start[gId] ? -1 : members[lo - 1];
        }
    }
}
