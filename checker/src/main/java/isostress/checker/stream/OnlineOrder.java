package isostress.checker.stream;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A graph that only grows, kept in a topological order as edges arrive, so that the edge closing the first cycle is
 * refused the moment it comes: Pearce &amp; Kelly's dynamic topological sort ("A dynamic topological sort algorithm
 * for directed acyclic graphs", ACM JEA 11, 2006, §2). An edge that agrees with the order costs O(1); one that does
 * not reorders only the nodes between its ends (the "affected region"), which for a history's dependency graph,
 * whose edges mostly point from older to newer transactions, stays small.
 */
public final class OnlineOrder {
    private int n;
    private int[] ord = new int[1024];
    private int[][] out = new int[1024][], in = new int[1024][];
    private int[] outLen = new int[1024], inLen = new int[1024];
    private int nextOrd;
    private int[] mark = new int[1024];
    private int stamp;
    private long edges;

    /** A new node, last in the order. */
    public int node() {
        if (n == ord.length) {
            int m = n * 2;
            ord = Arrays.copyOf(ord, m);
            out = Arrays.copyOf(out, m);
            in = Arrays.copyOf(in, m);
            outLen = Arrays.copyOf(outLen, m);
            inLen = Arrays.copyOf(inLen, m);
            mark = Arrays.copyOf(mark, m);
        }
        ord[n] = nextOrd++;
        return n++;
    }

    public int nodes() {
        return n;
    }

    public long edges() {
        return edges;
    }

    /** Adds {@code x -> y}; false (and the edge left out) when it would close a cycle. Self-loops are ignored. */
    public boolean add(int x, int y) {
        if (x == y) return true;
        if (ord[x] > ord[y]) {
            int lb = ord[y], ub = ord[x];
            stamp++;
            List<Integer> forward = new ArrayList<>();
            if (!forward(y, ub, forward)) return false;
            List<Integer> backward = new ArrayList<>();
            backward(x, lb, backward);
            reorder(forward, backward);
        }
        push(x, y);
        return true;
    }

    /** Nodes reachable from {@code start} with order at most {@code ub}; false when {@code ub}'s node is among them. */
    private boolean forward(int start, int ub, List<Integer> found) {
        int[] stack = new int[16];
        int sp = 0;
        stack[sp++] = start;
        mark[start] = stamp;
        while (sp > 0) {
            int v = stack[--sp];
            found.add(v);
            for (int i = 0; i < outLen[v]; i++) {
                int w = out[v][i];
                if (ord[w] == ub) return false; // w is x: the new edge closes a cycle
                if (mark[w] == stamp || ord[w] > ub) continue;
                mark[w] = stamp;
                if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                stack[sp++] = w;
            }
        }
        return true;
    }

    /** Nodes reaching {@code start} with order at least {@code lb}. */
    private void backward(int start, int lb, List<Integer> found) {
        int[] stack = new int[16];
        int sp = 0;
        stack[sp++] = start;
        mark[start] = stamp;
        while (sp > 0) {
            int v = stack[--sp];
            found.add(v);
            for (int i = 0; i < inLen[v]; i++) {
                int w = in[v][i];
                if (mark[w] == stamp || ord[w] < lb) continue;
                mark[w] = stamp;
                if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                stack[sp++] = w;
            }
        }
    }

    /** Gives the backward set the lowest of both sets' positions, then the forward set, each in its old order. */
    private void reorder(List<Integer> forward, List<Integer> backward) {
        int[] f = forward.stream().mapToInt(Integer::intValue).toArray();
        int[] b = backward.stream().mapToInt(Integer::intValue).toArray();
        sortByOrd(f);
        sortByOrd(b);
        int[] slots = new int[f.length + b.length];
        int k = 0;
        for (int v : b) slots[k++] = ord[v];
        for (int v : f) slots[k++] = ord[v];
        Arrays.sort(slots);
        k = 0;
        for (int v : b) ord[v] = slots[k++];
        for (int v : f) ord[v] = slots[k++];
    }

    private void sortByOrd(int[] vs) {
        long[] keyed = new long[vs.length];
        for (int i = 0; i < vs.length; i++) keyed[i] = ((long) ord[vs[i]] << 32) | vs[i];
        Arrays.sort(keyed);
        for (int i = 0; i < vs.length; i++) vs[i] = (int) keyed[i];
    }

    private void push(int x, int y) {
        if (out[x] == null) out[x] = new int[2];
        if (outLen[x] == out[x].length) out[x] = Arrays.copyOf(out[x], outLen[x] * 2);
        out[x][outLen[x]++] = y;
        if (in[y] == null) in[y] = new int[2];
        if (inLen[y] == in[y].length) in[y] = Arrays.copyOf(in[y], inLen[y] * 2);
        in[y][inLen[y]++] = x;
        edges++;
    }
}
