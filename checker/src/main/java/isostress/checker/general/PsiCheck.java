package isostress.checker.general;

import isostress.checker.graph.Acyclicity;
import isostress.checker.graph.Csr;
import isostress.checker.graph.EdgeList;
import isostress.checker.graph.CycleSearch;
import isostress.checker.graph.PsiReachability;
import isostress.checker.graph.TarjanScc;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.CycleShape;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Premise;
import isostress.checker.model.Step;
import isostress.checker.model.Verdict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Parallel snapshot isolation of a general history (rw-register, list-append) without lost updates (the caller
 * decides those: they break NOCONFLICT). With the version order known, a history is PSI iff
 * ((SO ∪ WR ∪ WW)+ ; RW?) is irreflexive (Cerone &amp; Gotsman, J.ACM 2018, §4), decided by {@link PsiReachability}
 * on the graph of {@link KnownVersionOrder}. Where the data leaves a key's order open, only edges every PSI
 * execution has are used (an rw edge from the readers of the known prefix's last version to a later segment stands
 * for rw ; ww*, still one rw edge), so a cycle found refutes PSI for every order. A complete order without a cycle
 * proves PSI: completion order is tried first (one search decides a valid history), then the order of the
 * dependencies, then every order when there are few; when none decides, the answer comes
 * from the lattice (causal consistency violated refutes PSI, snapshot isolation valid implies it), else unknown.
 */
final class PsiCheck {
    static final String ALGORITHM = "no cycle with at most one rw edge, ((so ∪ wr ∪ ww)+ ; rw?) irreflexive "
            + "(Cerone & Gotsman, J.ACM 2018, §4), by per-session reachability vectors";
    private static final IsolationLevel PSI = IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION;
    private static final int MAX_PREMISES = 6;
    /** Orders of the open keys' writes tried one by one before the lattice decides or the answer is unknown. */
    static final int ORDERS_TRIED = 720;
    /** An edge the data shows; one of an order forced among PSI executions; an rw edge standing for rw ; ww*. */
    private static final byte BY_DATA = 0, BY_ARGUMENT = 1, OPEN = 2;

    private final Observations o;
    private final KnownVersionOrder order;
    /**
     * The dependency graph: labels a and b are the two versions that justify an edge; the tag is what it rests on:
     * {@link #BY_DATA}, {@link #BY_ARGUMENT} or {@link #OPEN}.
     */
    private EdgeList graph = new EdgeList(64, true, false);
    private int[] readerStart, readers;
    /** While true, {@link #add} only counts (into {@link #counted}). */
    private boolean counting;
    private long counted;
    /** The dependency graph of the last search. */
    private Csr dep;

    private PsiCheck(Observations o) {
        this.o = o;
        this.order = KnownVersionOrder.of(o);
    }

    /**
     * @param eval the verdict of another level (the lattice's fallback when some version order is open)
     */
    static LevelResult check(Observations o, Consumer<Anomaly> report, CheckOptions options,
                             Function<IsolationLevel, LevelResult> eval) {
        return new PsiCheck(o).run(report, options, eval);
    }

    private LevelResult run(Consumer<Anomaly> report, CheckOptions options, Function<IsolationLevel, LevelResult> eval) {
        Sessions ss = Sessions.of(o);
        int open = 0, first = -1;
        boolean incomplete = false;
        for (int k = 0; k < o.keys; k++) {
            if (order.ordered(k)) continue;
            incomplete |= order.incomplete[k];
            if (open++ == 0) first = k;
        }
        // Valid histories first, the common case: one search of a complete order without a cycle proves PSI. The
        // order of completion stands in for the commit order, which the version order of every snapshot-isolated
        // or serializable execution follows (a real store commits before it answers); an order that fails proves
        // nothing, and the search for a refutation below runs as before.
        if (open > 0 && !incomplete && search(order.following(o.h::completeIndex), ss, 0, a -> { }) == 0) {
            return new LevelResult(PSI, Verdict.VALID, "no dependency cycle with at most one rw edge in the version "
                    + "order of completion for the " + open + " key(s) whose order the reads leave open", ALGORITHM);
        }
        int found = search(order, ss, options.anomaliesPerType(), report);
        if (found < 0) {
            report.accept(anomaly(dependencyCycle(dep, options.cycleSearchBudget())));
            return new LevelResult(PSI, Verdict.INVALID, "1 dependency cycle without rw edges", ALGORITHM);
        }
        if (found > 0) {
            return new LevelResult(PSI, Verdict.INVALID, found + " " + (found == 1 ? "rw edge closes" : "rw edges "
                    + "close") + " a dependency cycle with no other rw edge", ALGORITHM);
        }
        if (open == 0) return new LevelResult(PSI, Verdict.VALID, "no dependency cycle with at most one rw edge",
                ALGORITHM);
        // A witness: the open segments in the order of the dependencies found so far. Without a cycle in it, PSI
        // holds (an order exists); with one, nothing follows (another order might do).
        if (!incomplete) {
            int[] rank = rank(dep);
            if (search(order.following(t -> rank[t]), ss, 0, a -> { }) == 0) {
                return new LevelResult(PSI, Verdict.VALID, "no dependency cycle with at most one rw edge in the "
                        + "version order that follows the dependencies for the " + open + " key(s) whose order the "
                        + "reads leave open", ALGORITHM);
            }
        }
        LevelResult byCases = incomplete ? null : everyOrder(ss, report, options.cycleSearchBudget());
        if (byCases != null) return byCases;
        LevelResult cc = eval.apply(IsolationLevel.CAUSAL);
        if (cc.verdict() == Verdict.INVALID) {
            return new LevelResult(PSI, Verdict.INVALID, "implied: the history violates causal", cc.algorithm());
        }
        LevelResult si = eval.apply(IsolationLevel.SNAPSHOT_ISOLATION);
        if (si.verdict() == Verdict.VALID) {
            return new LevelResult(PSI, Verdict.VALID, "implied: the history is snapshot-isolation (valid)",
                    si.algorithm());
        }
        return new LevelResult(PSI, Verdict.UNKNOWN, "PSI is decided here only with a known version order, and the "
                + "history leaves the order of " + open + " key(s) open (first: key " + o.keyOf[first] + ", writes no "
                + "read placed); no cycle with at most one rw edge was found in the orders it does fix, nor an order "
                + "without one, and snapshot isolation, which would imply PSI, is " + si.verdict().jsonName(),
                ALGORITHM);
    }

    /**
     * Every order of the open keys' segments, when there are at most {@value #ORDERS_TRIED}: valid when one has no
     * cycle with at most one rw edge; invalid, with the cycle of each order (as premises, PolySI-style case split),
     * when every one has. Null beyond the limit.
     */
    private LevelResult everyOrder(Sessions ss, Consumer<Anomaly> report, long cycleBudget) {
        List<Integer> keys = new ArrayList<>();
        List<int[][]> perms = new ArrayList<>();
        long orders = 1;
        for (int k = 0; k < o.keys; k++) {
            int m = order.segments.get(k).size();
            if (m < 2) continue;
            for (int i = 2; i <= m && orders <= ORDERS_TRIED; i++) orders *= i;
            if (orders > ORDERS_TRIED) return null;
            keys.add(k);
            perms.add(Permutations.all(m));
        }
        int[] at = new int[keys.size()];
        Anomaly first = null;
        String firstOrder = null;
        List<Premise> cases = new ArrayList<>();
        do {
            List<int[]> choice = new ArrayList<>(java.util.Collections.nCopies(o.keys, (int[]) null));
            for (int i = 0; i < keys.size(); i++) choice.set(keys.get(i), perms.get(i)[at[i]]);
            KnownVersionOrder ord = order.arranged(choice);
            Anomaly[] cycle = new Anomaly[1];
            int found = search(ord, ss, 1, a -> cycle[0] = a);
            if (found == 0) {
                return new LevelResult(PSI, Verdict.VALID, "no dependency cycle with at most one rw edge when "
                        + describe(ord, keys) + " (the reads leave that order open)", ALGORITHM);
            }
            if (found < 0) cycle[0] = anomaly(dependencyCycle(dep, cycleBudget));
            if (first == null) {
                first = cycle[0];
                firstOrder = describe(ord, keys);
            } else if (cases.size() < MAX_PREMISES - 1) {
                cases.add(new Premise("if " + describe(ord, keys), cycle[0].steps()));
            }
        } while (Permutations.next(at, perms));
        List<Premise> premises = new ArrayList<>();
        premises.add(new Premise("the cycle above assumes " + firstOrder + "; each of the other " + (orders - 1)
                + " order(s) of the writes no read places closes such a cycle too", List.of()));
        premises.addAll(cases);
        if (orders - 1 > cases.size()) {
            premises.add(new Premise("and " + (orders - 1 - cases.size()) + " more order(s), each closing such a "
                    + "cycle", List.of()));
        }
        Set<Integer> ids = new LinkedHashSet<>();
        for (Txn t : first.txns()) ids.add(t.id());
        for (Premise p : premises) for (Step s : p.steps()) {
            ids.add(s.from());
            ids.add(s.to());
        }
        List<Txn> txns = new ArrayList<>();
        for (int t : ids) txns.add(o.h.txn(t));
        report.accept(new Anomaly(first.type(), first.variant(), null, PSI, txns, first.steps(), null, null,
                premises));
        return new LevelResult(PSI, Verdict.INVALID, "each of the " + orders + " orders of the writes no read places "
                + "closes a dependency cycle with at most one rw edge", ALGORITHM);
    }

    /** "key 3 in the order T4's 1, T5's 2" for each of {@code keys}. */
    private String describe(KnownVersionOrder ord, List<Integer> keys) {
        List<String> out = new ArrayList<>();
        for (int k : keys) {
            StringBuilder sb = new StringBuilder("key ").append(o.keyOf[k]).append(" in the order ");
            int[] seg = ord.segments.get(k).get(0);
            for (int i = 0; i < seg.length; i++) {
                if (i > 0) sb.append(", ");
                sb.append('T').append(o.verTxn[seg[i]]).append("'s ").append(o.value(seg[i]));
            }
            out.add(sb.toString());
        }
        return String.join(" and ", out);
    }

    /** Each node's place in a topological order of the acyclic graph {@code g}. */
    private static int[] rank(Csr g) {
        int[] topo = Acyclicity.topologicalOrder(g);
        int[] rank = new int[g.n];
        for (int i = 0; i < topo.length; i++) rank[topo[i]] = i;
        return rank;
    }

    /** Builds the graph of {@code ord} and checks it; the count of {@link PsiReachability#check}. */
    private int search(KnownVersionOrder ord, Sessions ss, int witnesses, Consumer<Anomaly> report) {
        dep = null; // the previous search's graph is garbage now
        build(ord, ss);
        int edges = graph.size;
        int[] from = graph.from, to = graph.to;
        byte[] kind = graph.kind;
        int rn = 0;
        for (int e = 0; e < edges; e++) if (kind[e] == EdgeKind.RW.code()) rn++;
        int[] rf = new int[rn], rt = new int[rn], ri = new int[rn];
        rn = 0;
        for (int e = 0; e < edges; e++) {
            if (kind[e] != EdgeKind.RW.code()) continue;
            rf[rn] = from[e];
            rt[rn] = to[e];
            ri[rn++] = e;
        }
        byte rw = EdgeKind.RW.code();
        Csr g = Csr.build(o.n, from, to, edges, e -> kind[e] != rw);
        dep = g;
        return PsiReachability.check(g, ss.count, ss.session, ss.pos, rf, rt, rn, witnesses, (i, path) -> {
            if (path == null) return;
            int[] cycle = new int[path.length + 1];
            cycle[0] = ri[i];
            for (int j = 0; j < path.length; j++) cycle[j + 1] = g.eid[path[j]];
            report.accept(anomaly(cycle));
        });
    }

    // ---- the graph ----

    /**
     * Builds the graph of {@code order}: counts its edges first, so that the edge arrays are allocated once (grown by
     * doubling they would hold up to twice the gigabyte ten million transactions need).
     */
    private void build(KnownVersionOrder order, Sessions ss) {
        if (readerStart == null) readers();
        counting = true;
        counted = 0;
        edges(order, ss);
        counting = false;
        if (counted > graph.from.length) graph = new EdgeList(counted, true, false);
        graph.truncate(0);
        edges(order, ss);
    }

    /** The readers of each version (transactions), flat by version: the same for every order searched. */
    private void readers() {
        int[] count = new int[o.versions + 1];
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t]) continue;
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) if (o.accRead[a] >= 0) count[o.accRead[a] + 1]++;
        }
        for (int v = 0; v < o.versions; v++) count[v + 1] += count[v];
        readerStart = count;
        readers = new int[count[o.versions]];
        int[] fill = Arrays.copyOf(count, o.versions);
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t]) continue;
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) if (o.accRead[a] >= 0) readers[fill[o.accRead[a]]++] = t;
        }
    }

    /** Adds the edges of {@code order}'s graph (or, {@link #counting}, counts them). */
    private void edges(KnownVersionOrder order, Sessions ss) {
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t]) continue;
            int prev = ss.previous(t);
            if (prev >= 0) add(prev, t, EdgeKind.SO, -1, -1, BY_DATA);
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                int v = o.accRead[a];
                if (v < 0) continue;
                int w = o.verTxn[v];
                if (w >= 0 && w != t && o.included[w]) add(w, t, EdgeKind.WR, v, -1, BY_DATA);
            }
        }
        boolean registers = !o.lists;
        for (int k = 0; k < o.keys; k++) {
            int[] p = order.prefix[k];
            List<int[]> segs = order.segments.get(k);
            // Register orders beyond single read-modify-write chains rest on an argument (KnownVersionOrder).
            byte links = registers && !segs.isEmpty() ? BY_ARGUMENT : BY_DATA;
            for (int i = 1; i < p.length; i++) successor(p[i - 1], p[i], links, links);
            for (int[] seg : segs) {
                byte ww = registers && p.length > 1 ? BY_ARGUMENT : BY_DATA;
                // With several segments, rw to each stands for rw ; ww* (still one rw edge).
                successor(p[p.length - 1], seg[0], ww, segs.size() > 1 ? OPEN : ww);
                byte inner = segs.size() > 1 || p.length > 1 ? BY_ARGUMENT : BY_DATA;
                for (int i = 1; i < seg.length; i++) successor(seg[i - 1], seg[i], inner, inner);
            }
        }
    }

    /** ww prev's writer -> v's writer, rw each reader of prev -> v's writer. */
    private void successor(int prev, int v, byte ww, byte rw) {
        int w = o.verTxn[v];
        int pw = o.verTxn[prev];
        if (pw >= 0 && pw != w) add(pw, w, EdgeKind.WW, prev, v, ww);
        for (int i = readerStart[prev]; i < readerStart[prev + 1]; i++) {
            if (readers[i] != w) add(readers[i], w, EdgeKind.RW, prev, v, rw);
        }
    }

    private void add(int f, int t, EdgeKind k, int a, int b, byte why) {
        if (counting) {
            counted++;
            return;
        }
        graph.add(f, t, k.code(), a, b, why);
    }

    // ---- counterexamples ----

    /** Edge ids of a cycle of the dependency graph (which has one). */
    private static int[] dependencyCycle(Csr dep, long budget) {
        TarjanScc scc = TarjanScc.of(dep);
        int c = 0;
        while (!scc.cyclic(c)) c++;
        int[] starts = new int[32];
        int len = 0;
        for (int u = 0; u < dep.n && len < starts.length; u++) if (scc.comp[u] == c) starts[len++] = u;
        int[] positions = new CycleSearch(dep, scc.comp).shortest(Arrays.copyOf(starts, len), budget);
        int[] ids = new int[positions.length];
        for (int i = 0; i < positions.length; i++) ids[i] = dep.eid[positions[i]];
        return ids;
    }

    private Anomaly anomaly(int[] cycle) {
        List<Step> steps = new ArrayList<>(cycle.length);
        List<EdgeKind> kinds = new ArrayList<>(cycle.length);
        List<Premise> premises = new ArrayList<>();
        for (int e : cycle) {
            Step s = step(e);
            steps.add(s);
            kinds.add(s.kind());
            if (graph.tag[e] != BY_DATA && premises.size() < MAX_PREMISES) premises.add(premise(e));
        }
        CycleShape shape = CycleShape.of(kinds);
        Set<Integer> ids = new LinkedHashSet<>();
        for (Step s : steps) {
            ids.add(s.from());
            ids.add(s.to());
        }
        List<Txn> txns = new ArrayList<>(ids.size());
        for (int t : ids) txns.add(o.h.txn(t));
        return new Anomaly(shape.type(), shape.variant(), null, PSI, txns, steps, null, null, premises);
    }

    private Step step(int e) {
        EdgeKind k = EdgeKind.of(graph.kind[e]);
        if (k == EdgeKind.SO) return Step.of(graph.from[e], graph.to[e], k);
        int a = graph.a[e];
        long key = o.keyOf[o.verKey[a]];
        Long next = graph.b[e] < 0 ? null : o.value(graph.b[e]);
        String order = o.log == null || graph.b[e] < 0 || graph.tag[e] == OPEN ? null
                : o.log.between(o.verKey[a], a, graph.b[e]);
        return new Step(graph.from[e], graph.to[e], k, key, o.value(a), next, o.isInitial(a), -1, order);
    }

    private Premise premise(int e) {
        int prev = graph.a[e], v = graph.b[e];
        long key = o.keyOf[o.verKey[v]];
        String prevName = o.isInitial(prev) ? "the initial value" : "T" + o.verTxn[prev] + "'s " + o.value(prev);
        String write = "T" + o.verTxn[v] + "'s write of key " + key + " (" + o.value(v) + ")";
        if (graph.tag[e] == OPEN) {
            return new Premise(write + " is one of the writes no read places, which all come after " + prevName
                    + " in an order the history leaves open; whatever it is, T" + graph.from[e] + "'s read of " + prevName
                    + " is overwritten before " + write + ": rw, then ww", List.of());
        }
        return new Premise(write + " follows " + prevName + ": in any other order some write falls between a read "
                + "and that reader's own overwrite of the value read, a cycle with one rw edge", List.of());
    }
}
