package isostress.checker.general;

/**
 * A cycle {@link PolygraphSolver} found, as copies of its edges (the solver's tentative edges are discarded
 * afterwards), with, for each edge, the open pair and side it came from when the SAT phase chose it (else -1).
 */
record PolygraphCycle(int[] from, int[] to, byte[] kind, int[] v1, int[] v2, byte[] origin, int[] edgeId) {
    int size() {
        return from.length;
    }

    /** Copies of edges {@code edgeIds} of {@code g}, for cycles and paths that outlive the tentative edges. */
    static PolygraphCycle of(Polygraph g, int[] edgeIds) {
        int k = edgeIds.length;
        int[] f = new int[k], t = new int[k], a = new int[k], b = new int[k], id = new int[k];
        byte[] kd = new byte[k], or = new byte[k];
        for (int i = 0; i < k; i++) {
            int e = edgeIds[i];
            f[i] = g.edges.from[e];
            t[i] = g.edges.to[e];
            a[i] = g.edges.a[e];
            b[i] = g.edges.b[e];
            kd[i] = g.edges.kind[e];
            or[i] = g.edges.tag[e];
            id[i] = g.edges.tag[e] == Polygraph.CHOSEN ? -1 : e;
        }
        return new PolygraphCycle(f, t, kd, a, b, or, id);
    }
}
