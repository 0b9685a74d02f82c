package isostress.checker.graph;

import java.util.Arrays;

/**
 * A growable list of labelled edges {@code from[i] -> to[i]}, {@code i < size}, in parallel primitive columns: the
 * checkers' dependency graphs (the polygraph, the saturated commit order, PSI's dependency graph) hold millions of
 * them, so no object per edge. Each edge has a kind ({@link isostress.checker.model.EdgeKind#code()}) and two int
 * labels {@code a} and {@code b} that justify it (the version read and the version that overwrote it, or a key and
 * a version); optionally a byte {@code tag} (where the edge comes from) and an int {@code witness} (the transaction
 * whose reads force it), each column allocated only when asked for.
 *
 * <p>Callers read the columns directly ({@code edges.from[e]}); a column array is replaced when the list grows, so
 * read it through the list after adding edges. Growth is by half (not doubling): the largest polygraphs are several
 * gigabytes, and a doubling could ask for as much again.
 */
public final class EdgeList {
    private static final int MAX = Integer.MAX_VALUE - 16;
    /** The edges in use: edges {@code 0 .. size-1}. */
    public int size;
    public int[] from, to, a, b;
    public byte[] kind;
    /** Per edge, a byte the caller defines (its origin, its basis); null unless asked for. */
    public byte[] tag;
    /** Per edge, a transaction (or -1); null unless asked for. */
    public int[] witness;

    /**
     * @param capacity  the edges expected (more grow the columns)
     * @param tags      whether the edges carry a {@link #tag}
     * @param witnesses whether the edges carry a {@link #witness}
     */
    public EdgeList(long capacity, boolean tags, boolean witnesses) {
        int cap = (int) Math.max(16, Math.min(capacity, MAX));
        from = new int[cap];
        to = new int[cap];
        a = new int[cap];
        b = new int[cap];
        kind = new byte[cap];
        if (tags) tag = new byte[cap];
        if (witnesses) witness = new int[cap];
    }

    /** Adds an edge (its tag 0 and witness -1 when the list has those columns); returns its index. */
    public int add(int f, int t, byte k, int la, int lb) {
        int e = next();
        from[e] = f;
        to[e] = t;
        kind[e] = k;
        a[e] = la;
        b[e] = lb;
        if (witness != null) witness[e] = -1;
        if (tag != null) tag[e] = 0;
        return e;
    }

    /** Adds an edge with its tag (the list has tags); returns its index. */
    public int add(int f, int t, byte k, int la, int lb, byte tg) {
        int e = add(f, t, k, la, lb);
        tag[e] = tg;
        return e;
    }

    /** Adds an edge with its witness (the list has witnesses); returns its index. */
    public int addWitnessed(int f, int t, byte k, int la, int lb, int w) {
        int e = add(f, t, k, la, lb);
        witness[e] = w;
        return e;
    }

    /** Forgets the edges after the first {@code count} (a search's tentative ones). */
    public void truncate(int count) {
        size = count;
    }

    /** The index the next edge gets, growing the columns when full. */
    private int next() {
        if (size == from.length) {
            if (size >= MAX) throw new IllegalStateException("more than " + MAX + " edges");
            grow((int) Math.min(MAX, size + Math.max(16, size >> 1)));
        }
        return size++;
    }

    private void grow(int cap) {
        from = Arrays.copyOf(from, cap);
        to = Arrays.copyOf(to, cap);
        a = Arrays.copyOf(a, cap);
        b = Arrays.copyOf(b, cap);
        kind = Arrays.copyOf(kind, cap);
        if (tag != null) tag = Arrays.copyOf(tag, cap);
        if (witness != null) witness = Arrays.copyOf(witness, cap);
    }
}
