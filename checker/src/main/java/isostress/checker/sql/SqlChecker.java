package isostress.checker.sql;

import isostress.checker.model.Argument;
import isostress.checker.model.IsolationLevel;
import isostress.checker.sql.ExtensionSearch.Conflict;
import isostress.checker.model.Verdict;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CHECKCONSISTENCY for SQL client histories with mixed levels: Bouajjani, Enea, Román-Calvo, "On the Complexity of
 * Checking Mixed Isolation Levels for SQL Transactions", CAV 2025, §4, Alg. 3 (Thm. 5: exact for any mix of SER,
 * SI, PC, RA and RC).
 *
 * <p>Steps: [1] {@link SqlIndex} drops aborted transactions, keeps {@code info} ones someone read, and checks local
 * reads, aborted and intermediate reads; [2] so ∪ wr must be acyclic; [3] pco := the {@link SqlSaturation} fixpoint,
 * acyclic; [4] conflicts E_h: a read r and key x it did not return, where some writer of x not pco-after r's
 * transaction wrote a value matching WHERE(r) — r must have seen a non-matching version (if none is left: the read
 * missed a row); [5] the versions are chosen by {@link ExtensionSearch} (backtracking over Alg. 3's conflict-free
 * extensions, recomputing the pco fixpoint per choice as the authors' artifact does), each leaf running
 * {@link SqlPrefixSearch} (Alg. 4). A read with no wr edge and no matching candidate needs no choice (§4).
 *
 * <p>Departures from the paper, all exact (the differential test checks them against the brute force):
 * SER readers' conflicts are decided inside the prefix search, where the commit order fixes the version they saw;
 * RC readers' conflicts first get a greedy fast path there (a found order is a witness, nothing else is trusted),
 * then a relaxation without them (no order even so: invalid), then the exact search that chooses them too. When
 * every reader is RC or RA (at most {@link RcSat#MAX_NODES} nodes), {@link RcSat} decides Alg. 3 as one SAT problem
 * instead (the extension search thrashed there: 100-200 conflicts, pco cycles found only deep in the tree).
 *
 * <p>{@code info} transactions nobody read are first dropped (they may have aborted). Unlike a key-value history this
 * is not always exact: an unobserved write can explain a row a query did not return. So when the answer would be
 * invalid in a way that depends on which versions unreturned rows were, every subset of the unobserved writing
 * {@code info} transactions is tried too
 * (at most 2^10; beyond that the answer is unknown).
 */
final class SqlChecker {
    static final Set<IsolationLevel> SUPPORTED = EnumSet.of(IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
            IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE);
    private static final int MAX_OPTIONAL_INFO = 10;
    /** States the RC fast path may spend before the exact search takes over. */
    private static final long FAST_STATES = 200_000;
    private static final String MISSED = "predicate read missed a row";
    private static final String NO_ORDER = "no consistent commit order";
    /** Tests only: false sends RC conflicts through the extension search even where {@link RcSat} applies. */
    static volatile boolean useRcSat = true;

    private SqlChecker() {}

    /** Search limits, shared by all extensions of one check. */
    static final class Budget {
        final long max;
        final long deadline;
        long used;
        String exhausted;

        Budget(long max, long deadline) {
            this.max = max;
            this.deadline = deadline;
        }

        /** Counts one state; false (with the reason) once the states, the time or the thread's patience run out. */
        boolean spend() {
            if (exhausted != null) return false;
            used++;
            if (used > max) exhausted = "search budget of " + max + " states exhausted";
            else if ((used & 1023) == 0) timeUp();
            return exhausted == null;
        }

        boolean timeUp() {
            if (exhausted == null && System.nanoTime() > deadline) exhausted = "timeout";
            if (exhausted == null && Thread.interrupted()) {
                Thread.currentThread().interrupt();
                exhausted = "interrupted";
            }
            return exhausted != null;
        }
    }

    /** {@code onWitness}: an invalid answer that depends on which versions unreturned rows were (so more writers may help). */
    private record Decision(Verdict verdict, String reason, SqlViolation violation, boolean onWitness) {
        Decision(Verdict verdict, String reason, SqlViolation violation) {
            this(verdict, reason, violation, verdict == Verdict.INVALID);
        }
    }

        /**
     * Checks {@code h}. Throws IllegalArgumentException when a level (own or overridden) is not RC, RA, PC, SI or SER.
     * Exponential in the number of conflicts in the worst case (the problem is NP-complete, Thm. 3); bounded by
     * {@code o.maxStates()} and {@code o.timeout()}.
     */
    static SqlResult check(SqlHistory h, SqlCheckOptions o) {
        IsolationLevel ov = o.levelOverride();
        if (ov != null && !SUPPORTED.contains(ov)) {
            throw new IllegalArgumentException("the SQL checker supports read-committed, read-atomic, prefix, "
                    + "snapshot-isolation and serializable, not " + ov);
        }
        for (SqlTxn t : h.txns()) {
            if (ov == null && !SUPPORTED.contains(t.level())) {
                throw new IllegalArgumentException("transaction " + t.id() + " has level " + t.level()
                        + ", which the SQL checker does not support");
            }
        }
        long t0 = System.nanoTime();
        Budget b = new Budget(o.maxStates(), t0 + o.timeout().toNanos());
        Map<String, Object> stats = new LinkedHashMap<>();
        SqlIndex base = new SqlIndex(h, Set.of(), ov);
        stats.put("txns", base.n - 1);
        stats.put("conflicts", 0);
        stats.put("extensions", 0L);
        stats.put("extensions_tried", 0L);
        if (!base.violations.isEmpty()) {
            return finish(Verdict.INVALID, base.violations.get(0).message(), base.violations, stats, b, t0);
        }
        Decision d = decide(base, b, stats);
        if (d.verdict() == Verdict.INVALID && d.onWitness()) {
            List<Long> opt = SqlIndex.unobservedInfoWriters(h, base);
            if (opt.size() > MAX_OPTIONAL_INFO) {
                return finish(Verdict.UNKNOWN, "invalid if the " + opt.size() + " unread info transactions aborted; "
                        + "too many to try which of them committed", List.of(d.violation()), stats, b, t0);
            }
            Decision unknown = null;
            for (int mask = 1; mask < (1 << opt.size()); mask++) {
                Set<Long> extra = new HashSet<>();
                for (int i = 0; i < opt.size(); i++) if ((mask & (1 << i)) != 0) extra.add(opt.get(i));
                SqlIndex ix = new SqlIndex(h, extra, ov);
                if (!ix.violations.isEmpty()) continue;
                Decision di = decide(ix, b, new LinkedHashMap<>());
                if (di.verdict() == Verdict.VALID) {
                    return finish(Verdict.VALID, di.reason() + ", if info transactions " + extra + " committed",
                            List.of(), stats, b, t0);
                }
                if (di.verdict() == Verdict.UNKNOWN) {
                    unknown = di;
                    break;
                }
            }
            if (unknown != null) return finish(Verdict.UNKNOWN, unknown.reason(), List.of(), stats, b, t0);
        }
        return finish(d.verdict(), d.reason(), d.violation() == null ? List.of() : List.of(d.violation()), stats, b, t0);
    }

    private static SqlResult finish(Verdict v, String reason, List<SqlViolation> vs, Map<String, Object> stats,
                                    Budget b, long t0) {
        stats.put("states", b.used);
        stats.put("ms", (System.nanoTime() - t0) / 1_000_000);
        return new SqlResult(v, reason, List.copyOf(vs), stats);
    }

    private static Decision decide(SqlIndex ix, Budget b, Map<String, Object> stats) {
        if (Bits.cyclic(SqlSaturation.soWr(ix))) {
            return invalidCycle(ix, false, SqlSaturation.run(ix, true), false);
        }
        SqlSaturation.Pco p = SqlSaturation.run(ix, false);
        if (p.cyclic()) return invalidCycle(ix, true, SqlSaturation.run(ix, true), false);
        List<Conflict> conflicts = new ArrayList<>();
        for (SqlIndex.Read r : ix.reads) {
            for (int j = 0; j < r.keys.length; j++) {
                if (r.wr[j] >= 0 || r.local[j]) continue;
                List<Integer> zeros = new ArrayList<>(), ones = new ArrayList<>();
                for (int t : ix.writersOf[r.keys[j]]) {
                    if (t == r.node || Bits.get(p.closed()[r.node], t)) continue;
                    (r.where().test(ix.finalWrite(t, r.keys[j]).value()) ? ones : zeros).add(t);
                }
                if (ones.isEmpty()) continue;
                Conflict c = new Conflict(r, j, zeros.stream().mapToInt(Integer::intValue).toArray(),
                        ones.stream().mapToInt(Integer::intValue).toArray());
                if (zeros.isEmpty()) return new Decision(Verdict.INVALID, MISSED, missed(ix, c));
                conflicts.add(c);
            }
        }
        long total = 1;
        for (Conflict c : conflicts) total = total > Long.MAX_VALUE / c.zeros().length ? Long.MAX_VALUE : total * c.zeros().length;
        stats.put("conflicts", conflicts.size());
        stats.put("extensions", total);
        if (total == 1 && !conflicts.isEmpty()) {
            // One choice only: if it closes a cycle, that cycle is the clearest counterexample.
            for (Conflict c : conflicts) c.read().wr[c.j()] = c.zeros()[0];
            SqlSaturation.Pco pe = SqlSaturation.run(ix, true);
            for (Conflict c : conflicts) c.read().wr[c.j()] = -1;
            if (pe.cyclic()) return invalidCycle(ix, true, pe, true);
        }
        List<Conflict> chosen = new ArrayList<>(), ser = new ArrayList<>(), rc = new ArrayList<>();
        for (Conflict c : conflicts) {
            IsolationLevel lv = ix.level[c.read().node];
            (lv == IsolationLevel.SERIALIZABLE ? ser : lv == IsolationLevel.READ_COMMITTED ? rc : chosen).add(c);
        }
        if (useRcSat && !conflicts.isEmpty() && ser.isEmpty() && RcSat.applies(ix)) {
            // Only RC and RA readers (saturable levels): Alg. 3 as one SAT problem (see RcSat), no enumeration.
            RcSat.Outcome so = RcSat.solve(ix, p.closed(), conflicts, b.deadline);
            stats.put("rc_sat", so.toString().toLowerCase(java.util.Locale.ROOT));
            if (so == RcSat.Outcome.SAT) {
                return new Decision(Verdict.VALID, "a commit order satisfies every reader's level (" + conflicts.size()
                        + " conflicts, versions and order chosen by a SAT solver)", null);
            }
            if (so == RcSat.Outcome.UNSAT) return new Decision(Verdict.INVALID, NO_ORDER, noOrder(ix, conflicts, total));
            b.timeUp();
            return new Decision(Verdict.UNKNOWN, b.exhausted != null ? b.exhausted : "timeout (in the SAT solver)", null);
        }
        if (!rc.isEmpty()) {
            // Fast path: RC conflicts resolved greedily in the prefix search. Its FOUND is a witness; anything else
            // falls through to the exact search, which chooses the RC versions too.
            long remaining = Math.max(0, b.deadline - System.nanoTime());
            Budget fast = new Budget(Math.min(FAST_STATES, b.max - b.used), System.nanoTime() + remaining / 4);
            ExtensionSearch quick = new ExtensionSearch(ix, chosen, ser, rc, fast);
            ExtensionSearch.Outcome o = quick.run(p.closed());
            b.used += fast.used;
            stats.put("fast_path_states", fast.used);
            if (o == ExtensionSearch.Outcome.FOUND) {
                return new Decision(Verdict.VALID, "a commit order satisfies every reader's level (" + conflicts.size()
                        + " conflicts; RC ones resolved on the commit order)", null);
            }
            if (b.timeUp()) return new Decision(Verdict.UNKNOWN, b.exhausted, null);
            // Necessary condition: without the RC conflicts (fewer wr edges, fewer axiom instances) the search is a
            // relaxation, so if it finds nothing, nothing with them exists either. Cheap refutations of invalid ones.
            ExtensionSearch relaxed = new ExtensionSearch(ix, chosen, ser, b);
            ExtensionSearch.Outcome ro = relaxed.run(p.closed());
            stats.put("relaxed_nodes", relaxed.nodes);
            if (ro == ExtensionSearch.Outcome.BUDGET) {
                return new Decision(Verdict.UNKNOWN, b.exhausted + " (in the search without RC conflicts)", null);
            }
            if (ro == ExtensionSearch.Outcome.NONE) {
                return new Decision(Verdict.INVALID, NO_ORDER, noOrder(ix, conflicts, total));
            }
            chosen.addAll(rc);
        }
        ExtensionSearch search = new ExtensionSearch(ix, chosen, ser, b);
        ExtensionSearch.Outcome out = search.run(p.closed());
        stats.put("extensions_tried", (Long) stats.getOrDefault("extensions_tried", 0L) + search.leaves);
        stats.put("extension_nodes", (Long) stats.getOrDefault("extension_nodes", 0L) + search.nodes);
        stats.put("extension_depth", search.maxDepth);
        stats.put("extension_restarts", search.restarts);
        if (out == ExtensionSearch.Outcome.FOUND) {
            return new Decision(Verdict.VALID, "a commit order satisfies every reader's level"
                    + (conflicts.isEmpty() ? "" : " (" + conflicts.size() + " conflicts, " + search.leaves
                    + " conflict-free extensions searched)"), null);
        }
        if (out == ExtensionSearch.Outcome.BUDGET) {
            return new Decision(Verdict.UNKNOWN, b.exhausted + " after " + search.leaves + " conflict-free extensions ("
                    + search.nodes + " partial ones) of at most " + total, null);
        }
        return new Decision(Verdict.INVALID, NO_ORDER, noOrder(ix, conflicts, total));
    }

    private static Decision invalidCycle(SqlIndex ix, boolean saturated, SqlSaturation.Pco p, boolean onWitness) {
        List<Integer> c = SqlSaturation.cycle(ix.n, p.why());
        List<Argument.Edge> edges = new ArrayList<>();
        Set<Integer> nodes = new LinkedHashSet<>(c), readers = new LinkedHashSet<>();
        for (int i = 0; i < c.size(); i++) {
            int a = c.get(i), bb = c.get((i + 1) % c.size());
            Argument.Reason why = p.why().get(SqlSaturation.edge(ix.n, a, bb));
            edges.add(new Argument.Edge(ix.id(a), ix.id(bb), why));
            if (why instanceof Argument.Visible v) readers.add(ix.node(v.read().txn()));
        }
        nodes.addAll(readers); // the readers whose axioms forced an edge: their statements are the evidence
        SqlViolation v = violation(ix, new Argument.CommitOrderCycle(saturated), edges, nodes, null, null, null);
        return new Decision(Verdict.INVALID, v.kind() + ": " + v.message(), v, onWitness);
    }

    private static SqlViolation violation(SqlIndex ix, Argument.Finding f, List<Argument.Edge> edges,
                                          Set<Integer> nodes, String pred, String key, String writer) {
        List<Argument.SqlTxnFacts> let = new ArrayList<>();
        for (int v : nodes) if (v != 0) let.add(SqlIndex.facts(ix.txn[v]));
        return new SqlViolation(new Argument(let, f, edges, pred, key, writer));
    }

    /** The conflict's read as a counterexample names it, with the versions that would match it. */
    private static Argument.Read read(SqlIndex ix, Conflict c) {
        return ix.read(c.read().node, c.read().op);
    }

    private static List<Argument.Version> versions(SqlIndex ix, int[] writers, int key) {
        List<Argument.Version> out = new ArrayList<>(writers.length);
        for (int t : writers) out.add(ix.version(t, key));
        return out;
    }

    private static SqlViolation missed(SqlIndex ix, Conflict c) {
        SqlIndex.Read r = c.read();
        int key = r.keys[c.j()];
        String row = ix.keyNames.get(key);
        Set<Integer> nodes = new LinkedHashSet<>();
        nodes.add(r.node);
        for (int t : c.ones()) nodes.add(t);
        Argument.Finding f = new Argument.MissedRow(read(ix, c), row, versions(ix, c.ones(), key));
        return violation(ix, f, List.of(), nodes, r.where().sql(), row,
                c.ones()[0] == 0 ? SqlHistory.INIT : ix.finalWrite(c.ones()[0], key).writeId());
    }

    private static SqlViolation noOrder(SqlIndex ix, List<Conflict> conflicts, long total) {
        List<Argument.Conflict> found = new ArrayList<>();
        Set<Integer> nodes = new LinkedHashSet<>();
        for (Conflict c : conflicts) {
            int key = c.read().keys[c.j()];
            nodes.add(c.read().node);
            for (int t : c.ones()) nodes.add(t);
            for (int t : c.zeros()) nodes.add(t);
            found.add(new Argument.Conflict(read(ix, c), ix.keyNames.get(key), versions(ix, c.ones(), key),
                    versions(ix, c.zeros(), key)));
        }
        if (conflicts.isEmpty()) for (int v = 1; v < ix.n && nodes.size() < 12; v++) nodes.add(v);
        Conflict c0 = conflicts.isEmpty() ? null : conflicts.get(0);
        return violation(ix, new Argument.NoCommitOrder(found, total), List.of(), nodes,
                c0 == null ? null : c0.read().where().sql(),
                c0 == null ? null : ix.keyNames.get(c0.read().keys[c0.j()]), null);
    }
}
