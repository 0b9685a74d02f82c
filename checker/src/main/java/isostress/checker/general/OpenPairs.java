package isostress.checker.general;

import java.util.Arrays;

/**
 * The pairs of writers of a key that reachability leaves unordered (PolySI §4.3's constraints), coalesced per pair
 * of nodes: pair c is nodes (cu[c], cv[c]) with a linked list of per-key writer pairs from chead[c], entry j being
 * writers ex[j] (at cu) and ey[j] (at cv). {@link PolygraphSolver} prunes them and hands the rest to the SAT search.
 */
final class OpenPairs {
    private final Polygraph g;
    private final boolean si;
    private final long maxConstraints;
    int cons;
    int[] cu = new int[64], cv = new int[64], chead = new int[64];
    private int entries;
    int[] ex = new int[64], ey = new int[64], enext = new int[64];
    /**
     * Per position in {@link Polygraph#gw}, the first position at or after it whose writer was read (gw.length when
     * none): under SER a pair of writes nobody read is never a constraint, so an unread writer's partners are found
     * among the read ones without visiting the others, which keeps blind writes on a few keys linear.
     */
    private int[] nextRead;

    OpenPairs(Polygraph g, boolean si, long maxConstraints) {
        this.g = g;
        this.si = si;
        this.maxConstraints = maxConstraints;
    }

    /**
     * Lists the pairs of writers of a key that neither reaches, coalesced per pair of nodes across keys (the
     * implementation of PolySI, Huang et al., VLDB 2023, does the same: A before B on x and B before A on y would be
     * a ww cycle, so one choice decides every key the two write); false when over the limit.
     */
    boolean enumerate(Reachability reach) {
        isostress.checker.history.LongPairIntMap pairOf = new isostress.checker.history.LongPairIntMap(1024);
        for (int k = 0; k < g.keys; k++) {
            int g0 = g.gStart[k], g1 = g.gStart[k + 1];
            if (g1 - g0 < 2 || g.ordered[k]) continue;
            for (int x = g.wStart[k]; x < g.wStart[k + 1]; x++) {
                int u = g.wNode[x];
                int su = g.session[u];
                boolean xRead = g.rStart[x] < g.rStart[x + 1];
                for (int grp = g0; grp < g1; grp++) {
                    if (g.gSession[grp] == su) continue;
                    int p = reach.front(u, g.gSession[grp]);
                    int hi = p == Reachability.INF ? g.gFrom[grp + 1] : g.firstAtOrAfter(grp, p);
                    // Writers of the group that reach u form a prefix (earlier ones reach what later ones do).
                    int lo = g.gFrom[grp], h = hi;
                    while (lo < h) {
                        int mid = (lo + h) >>> 1;
                        if (reach.reaches(g.wNode[g.gw[mid]], u)) lo = mid + 1; else h = mid;
                    }
                    boolean all = si || xRead;
                    for (int i = all ? lo : nextRead(lo); i < hi; i = all ? i + 1 : nextRead(i + 1)) {
                        int y = g.gw[i];
                        if (x >= y) continue;
                        // SER: two writes nobody read may go in either order. Their ww edge adds nothing else, so
                        // orienting them along any topological order of the final graph keeps it acyclic.
                        if (!si && !xRead && g.rStart[y] == g.rStart[y + 1]) continue;
                        if (!pair(pairOf, x, y)) return false;
                    }
                }
            }
        }
        return true;
    }

    /** See {@link #nextRead}; built on first use. */
    private int nextRead(int i) {
        if (nextRead == null) {
            int len = g.gw.length;
            nextRead = new int[len + 1];
            nextRead[len] = len;
            for (int j = len - 1; j >= 0; j--) {
                int w = g.gw[j];
                nextRead[j] = g.rStart[w] < g.rStart[w + 1] ? j : nextRead[j + 1];
            }
        }
        return nextRead[i];
    }

    /** Every pair of writers of each key (but, under SER, pairs of writes nobody read), coalesced per node pair. */
    boolean enumerateAll() {
        isostress.checker.history.LongPairIntMap pairOf = new isostress.checker.history.LongPairIntMap(1024);
        for (int k = 0; k < g.keys; k++) {
            if (g.ordered[k]) continue;
            for (int x = g.wStart[k]; x < g.wStart[k + 1]; x++) {
                for (int y = x + 1; y < g.wStart[k + 1]; y++) {
                    if (!si && g.rStart[x] == g.rStart[x + 1] && g.rStart[y] == g.rStart[y + 1]) continue;
                    if (!pair(pairOf, x, y)) return false;
                }
            }
        }
        return true;
    }

    /** Adds writers x and y to the open pair of their nodes (created on first use); false when over the limit. */
    private boolean pair(isostress.checker.history.LongPairIntMap pairOf, int x, int y) {
        int u = g.wNode[x], v = g.wNode[y];
        int c = pairOf.get(Math.min(u, v), Math.max(u, v));
        if (c == isostress.checker.history.LongPairIntMap.MISSING) {
            if (cons >= maxConstraints) return false;
            c = cons;
            pairOf.put(Math.min(u, v), Math.max(u, v), c);
            addConstraint(u, v);
        }
        if (cu[c] == u) addEntry(c, x, y); else addEntry(c, y, x);
        return true;
    }

    private void addConstraint(int u, int v) {
        if (cons == cu.length) {
            cu = Arrays.copyOf(cu, cons * 2);
            cv = Arrays.copyOf(cv, cons * 2);
            chead = Arrays.copyOf(chead, cons * 2);
        }
        cu[cons] = u;
        cv[cons] = v;
        chead[cons++] = -1;
    }

    private void addEntry(int c, int x, int y) {
        if (entries == ex.length) {
            ex = Arrays.copyOf(ex, entries * 2);
            ey = Arrays.copyOf(ey, entries * 2);
            enext = Arrays.copyOf(enext, entries * 2);
        }
        ex[entries] = x;
        ey[entries] = y;
        enext[entries] = chead[c];
        chead[c] = entries++;
    }

    /** Writer of entry j on the side that goes first ({@code uFirst}: the one at cu), and the other. */
    int first(int j, boolean uFirst) {
        return uFirst ? ex[j] : ey[j];
    }

    int second(int j, boolean uFirst) {
        return uFirst ? ey[j] : ex[j];
    }
}
