package isostress.checker.stream;

import isostress.checker.history.Txn;

/**
 * What every {@link Screen} keeps the same way: the serialization graph of the prefix in a dynamic topological order,
 * session order joined as transactions come in, and the flag and the cycle it reports. The screens differ only in how
 * they derive the other edges from the reads.
 */
abstract class ScreenGraph {
    final OnlineOrder g = new OnlineOrder();
    private final SessionNeighbours sessions = new SessionNeighbours();
    private final boolean cyclesCount;
    private String flag;
    private boolean cycle;

    /** @param cyclesCount whether a cycle is worth a whole check (serializability is asked for), or only anomalies */
    ScreenGraph(boolean cyclesCount) {
        this.cyclesCount = cyclesCount;
    }

    /** Why the prefix deserves a whole check now, or null. Cleared by {@link #reset}. */
    public String flag() {
        return flag;
    }

    /** Clears the flag; a cycle found stays found (the graph keeps out its closing edge). */
    public void reset() {
        flag = null;
    }

    /** True once the graph had a cycle. */
    public boolean cycle() {
        return cycle;
    }

    /** Joins node {@code v}, which stands for {@code t}, to its session's nearest neighbours already in. */
    void session(Txn t, int v) {
        sessions.insert(t.process(), t.id(), v); // a history numbers its transactions by invocation
        if (sessions.before() != SessionNeighbours.NONE) edge(sessions.before(), v, "so");
        if (sessions.after() != SessionNeighbours.NONE) edge(v, sessions.after(), "so");
    }

    void edge(int x, int y, String kind) {
        if (!g.add(x, y)) {
            cycle = true;
            if (cyclesCount) raise("a dependency cycle closed by a " + kind + " edge");
        }
    }

    /** A cycle the screen saw without drawing its edges (a lost update: each overwrote what the other read). */
    void cycleWithoutEdges() {
        cycle = true;
    }

    void raise(String why) {
        if (flag == null) flag = why;
    }
}
