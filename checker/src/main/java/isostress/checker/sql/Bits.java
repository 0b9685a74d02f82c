package isostress.checker.sql;

/**
 * Dense relations over transaction ids as {@code long[]} rows, like Porcupine's {@code bitset.go}: the pco fixpoint
 * and the prefix search only need set, test, OR and intersection tests, and the histories have tens to a few
 * thousand transactions.
 */
final class Bits {
    private Bits() {}

    static long[][] matrix(int n) {
        return new long[n][(n + 63) >>> 6];
    }

    static long[] row(int n) {
        return new long[(n + 63) >>> 6];
    }

    static boolean get(long[] s, int i) {
        return (s[i >>> 6] & (1L << i)) != 0;
    }

    static void set(long[] s, int i) {
        s[i >>> 6] |= 1L << i;
    }

    static void clear(long[] s, int i) {
        s[i >>> 6] &= ~(1L << i);
    }

    static boolean intersects(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) if ((a[i] & b[i]) != 0) return true;
        return false;
    }

    /** a ⊆ b. */
    static boolean subset(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) if ((a[i] & ~b[i]) != 0) return false;
        return true;
    }

    static long[][] copy(long[][] m) {
        long[][] c = new long[m.length][];
        for (int i = 0; i < m.length; i++) c[i] = m[i].clone();
        return c;
    }

    /** Warshall's transitive closure, a word at a time: O(n³/64). */
    static void close(long[][] m) {
        int n = m.length;
        for (int k = 0; k < n; k++) {
            long[] mk = m[k];
            int w = k >>> 6;
            long bit = 1L << k;
            for (int i = 0; i < n; i++) {
                if ((m[i][w] & bit) != 0) {
                    long[] mi = m[i];
                    for (int j = 0; j < mi.length; j++) mi[j] |= mk[j];
                }
            }
        }
    }

    static boolean cyclic(long[][] closed) {
        for (int i = 0; i < closed.length; i++) if (get(closed[i], i)) return true;
        return false;
    }
}
