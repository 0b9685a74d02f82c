package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.index.TxnReads;
import isostress.checker.graph.Csr;
import isostress.checker.graph.EdgeList;
import isostress.checker.graph.TarjanScc;
import isostress.checker.history.History;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Causal consistency by saturation (Biswas &amp; Enea §3, Causal axiom: T3 reads x from T1 and T2, a causal
 * predecessor of T3 in (so ∪ wr)+, writes x ⇒ T2 commits before T1), specialised to mini-transaction histories.
 *
 * <p>As in {@link SaturationChecker}, T2's version is an ancestor of T1's (implied), a descendant (a stale read
 * after a causal chain), or in another branch of a lost update (a co edge). Descendants: T3 -rw(x)-> C with C the
 * child of T1's version toward T2, and C reaches T3 through so ∪ wr. Such a cycle lies in one strongly connected
 * component of the dependency graph, so only rw edges inside cyclic components need a reachability search, a BFS
 * per rw target restricted to the component, bounded by a budget (over budget: unknown). Other branches: exist only
 * below lost updates; for the writers in those subtrees, the set of them in each transaction's causal past is
 * propagated as a bitset in topological order of so ∪ wr, also within a budget. Finally so ∪ wr ∪ co must be
 * acyclic.
 */
final class CausalChecker {
    static final String ALGORITHM = "saturation (Biswas & Enea §3, Causal axiom), SCC-restricted reachability";

    /** The outcome: violations found, or the reason it could not be decided. */
    record Outcome(int violations, String unknownReason) {
    }

    private CausalChecker() {
    }

    static Outcome check(MiniContext ctx) {
        long[] budget = {ctx.options().reachabilityBudget()};
        int found = staleAfterCausalChain(ctx, budget);
        if (found < 0) {
            return new Outcome(0, "the reachability search for causal stale reads exceeded its budget of "
                    + ctx.options().reachabilityBudget() + " edge visits");
        }
        EdgeList co = new EdgeList(8, false, true);
        if (ctx.g().hasSiblingEdges()) {
            String why = crossBranchEdges(ctx, co, budget);
            if (why != null) return new Outcome(found, why);
        }
        return new Outcome(found + SaturationChecker.acyclic(ctx, co, IsolationLevel.CAUSAL), null);
    }

    /** Returns the number of violations reported, or -1 when the budget ran out. */
    private static int staleAfterCausalChain(MiniContext ctx, long[] budget) {
        MiniGraph g = ctx.g();
        Csr full = g.full();
        TarjanScc scc = ctx.derived().fullScc();
        if (!scc.anyCycle()) return 0;
        int n = full.n;
        // rw edges inside cyclic components, grouped by target.
        int[] cnt = new int[n + 1];
        for (int u = 0; u < n; u++) {
            if (!scc.cyclic(scc.comp[u])) continue; // (the edges wanted stay inside one cyclic component)
            for (int p = full.off[u]; p < full.off[u + 1]; p++) {
                int v = full.tgt[p];
                if (g.kind(full.id(p)) == EdgeKind.RW && scc.comp[u] == scc.comp[v] && scc.cyclic(scc.comp[u])) {
                    cnt[v + 1]++;
                }
            }
        }
        for (int v = 0; v < n; v++) cnt[v + 1] += cnt[v];
        int[] rwFrom = new int[cnt[n]], rwEdge = new int[cnt[n]];
        int[] fill = Arrays.copyOf(cnt, n);
        for (int u = 0; u < n; u++) {
            if (!scc.cyclic(scc.comp[u])) continue;
            for (int p = full.off[u]; p < full.off[u + 1]; p++) {
                int v = full.tgt[p];
                if (g.kind(full.id(p)) == EdgeKind.RW && scc.comp[u] == scc.comp[v] && scc.cyclic(scc.comp[u])) {
                    rwFrom[fill[v]] = u;
                    rwEdge[fill[v]++] = full.id(p);
                }
            }
        }
        int[] stamp = new int[n], parentPos = new int[n], parentNode = new int[n], queue = new int[n];
        int epoch = 0, found = 0;
        for (int c = 0; c < n; c++) {
            if (cnt[c] == cnt[c + 1]) continue;
            epoch++;
            int comp = scc.comp[c];
            int head = 0, tail = 0;
            queue[tail++] = c;
            stamp[c] = epoch;
            parentNode[c] = -1;
            while (head < tail) {
                int u = queue[head++];
                for (int p = full.off[u]; p < full.off[u + 1]; p++) {
                    if (--budget[0] < 0) return -1;
                    int v = full.tgt[p];
                    EdgeKind k = g.kind(full.id(p));
                    if ((k != EdgeKind.SO && k != EdgeKind.WR) || scc.comp[v] != comp || stamp[v] == epoch) continue;
                    stamp[v] = epoch;
                    parentPos[v] = p;
                    parentNode[v] = u;
                    queue[tail++] = v;
                }
            }
            for (int i = cnt[c]; i < cnt[c + 1]; i++) {
                int r = rwFrom[i];
                if (stamp[r] != epoch || r == c) continue;
                found++;
                List<Step> steps = new ArrayList<>();
                steps.add(ctx.reporter().step(rwEdge[i]));
                List<Step> path = new ArrayList<>();
                for (int v = r; v != c; v = parentNode[v]) path.add(ctx.reporter().step(full.id(parentPos[v])));
                for (int j = path.size() - 1; j >= 0; j--) steps.add(path.get(j));
                ctx.anomalies().add(ctx.reporter().cycle(steps, IsolationLevel.CAUSAL));
            }
        }
        return found;
    }

    /**
     * Co edges from writers below a lost update that are causal predecessors of a reader of another branch.
     * Returns null, or why the check could not be completed.
     */
    private static String crossBranchEdges(MiniContext ctx, EdgeList co, long[] budget) {
        RegisterIndex m = ctx.m();
        History h = m.h;
        // Writers in the subtrees of the children of divergent versions get bits, grouped by key.
        int[] bitOf = new int[m.accCount];
        Arrays.fill(bitOf, -1);
        int[] keyLo = new int[m.keyCount], keyHi = new int[m.keyCount];
        List<Integer> byKey = new ArrayList<>();
        int[] order = keyOrderedWriters(m);
        // (the walk equals the index's Euler-tour answer when every version hangs in the forest, which local() checks)
        boolean[] below = ctx.derived().local() ? belowDivergence(m) : m.belowDivergence();
        int bits = 0;
        int prevKey = -1;
        for (int a : order) {
            if (!below[a] || !m.accWrites[a] || !m.included[m.accTxn[a]]) continue;
            int k = m.accKey[a];
            if (k != prevKey) {
                keyLo[k] = bits;
                prevKey = k;
            }
            bitOf[a] = bits++;
            keyHi[k] = bits;
            byKey.add(a);
        }
        if (bits == 0) return null;
        int words = (bits + 63) >>> 6;
        if ((long) m.n * words > 16_000_000L) {
            return "causal consistency with lost updates needs the causal past of " + bits + " writers for "
                    + m.n + " transactions, more than the bitset limit";
        }
        int[] topo = topologicalOrder(ctx);
        if (topo == null) return null; // so ∪ wr is cyclic: the acyclicity check reports it
        long[] past = new long[m.n * words];
        int[] writerAt = byKey.stream().mapToInt(Integer::intValue).toArray();
        Csr main = ctx.g().main();
        TxnReads rt = new TxnReads(m);
        for (int t3 : topo) {
            if (budget[0] < 0) return "the causal-past propagation exceeded its budget";
            budget[0] -= words;
            // Most transactions have no such writer in their causal past: nothing to look up, nothing to pass on.
            boolean empty = true;
            for (int w = 0; w < words && empty; w++) empty = past[t3 * words + w] == 0;
            if (m.included[t3] && !empty) {
                for (int i = 0, nr = rt.load(t3); i < nr; i++) {
                    int s = rt.src[i];
                    int x = rt.key[i];
                    int t1 = m.versionTxn(s);
                    for (int b = keyLo[x]; b < keyHi[x]; b++) {
                        if ((past[t3 * words + (b >>> 6)] & (1L << b)) == 0) continue;
                        int t2a = writerAt[b];
                        int t2 = m.accTxn[t2a];
                        if (t2 == t3 || t2 == t1 || m.descendantOrSelf(t2a, s) || m.descendantOrSelf(s, t2a)) continue;
                        if (t1 >= 0) co.addWitnessed(t2, t1, EdgeKind.CO.code(), x, s, t3);
                    }
                }
            }
            if (m.included[t3]) {
                for (int a = m.accStart[t3]; a < m.accStart[t3 + 1]; a++) {
                    if (bitOf[a] >= 0) {
                        past[t3 * words + (bitOf[a] >>> 6)] |= 1L << bitOf[a];
                        empty = false;
                    }
                }
            }
            if (empty) continue;
            for (int p = main.off[t3]; p < main.off[t3 + 1]; p++) {
                EdgeKind k = ctx.g().kind(main.id(p));
                if (k != EdgeKind.SO && k != EdgeKind.WR) continue;
                int v = main.tgt[p];
                for (int w = 0; w < words; w++) past[v * words + w] |= past[t3 * words + w];
            }
        }
        return null;
    }

    /**
     * For each access: true when it is a version strictly below a version with two or more children. A walk down the
     * subtrees of the lost updates' children only: linear in what lies below lost updates, not in the history.
     */
    private static boolean[] belowDivergence(RegisterIndex m) {
        boolean[] below = new boolean[m.accCount];
        int[] stack = new int[16];
        for (int v = 0; v < m.versionCount; v++) {
            if (m.childStart[v + 1] - m.childStart[v] < 2) continue;
            int sp = 0;
            for (int i = m.childStart[v]; i < m.childStart[v + 1]; i++) {
                if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                stack[sp++] = m.children[i];
            }
            while (sp > 0) {
                int c = stack[--sp];
                if (c >= m.accCount || below[c]) continue;
                below[c] = true;
                for (int i = m.childStart[c]; i < m.childStart[c + 1]; i++) {
                    if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                    stack[sp++] = m.children[i];
                }
            }
        }
        return below;
    }

    /** The accesses ordered by key, then by id (a counting sort: linear, and no boxing of millions of ids). */
    private static int[] keyOrderedWriters(RegisterIndex m) {
        int[] start = new int[m.keyCount + 1];
        for (int a = 0; a < m.accCount; a++) start[m.accKey[a] + 1]++;
        for (int k = 0; k < m.keyCount; k++) start[k + 1] += start[k];
        int[] out = new int[m.accCount];
        for (int a = 0; a < m.accCount; a++) out[start[m.accKey[a]]++] = a;
        return out;
    }

    /** Kahn's order of so ∪ wr, or null when it has a cycle. */
    private static int[] topologicalOrder(MiniContext ctx) {
        Csr main = ctx.g().main();
        int n = main.n;
        int[] indeg = new int[n];
        for (int p = 0; p < main.edgeCount(); p++) {
            EdgeKind k = ctx.g().kind(main.id(p));
            if (k == EdgeKind.SO || k == EdgeKind.WR) indeg[main.tgt[p]]++;
        }
        int[] order = new int[n];
        int head = 0, tail = 0;
        for (int u = 0; u < n; u++) if (indeg[u] == 0) order[tail++] = u;
        while (head < tail) {
            int u = order[head++];
            for (int p = main.off[u]; p < main.off[u + 1]; p++) {
                EdgeKind k = ctx.g().kind(main.id(p));
                if ((k == EdgeKind.SO || k == EdgeKind.WR) && --indeg[main.tgt[p]] == 0) order[tail++] = main.tgt[p];
            }
        }
        return tail == n ? order : null;
    }
}
