package isostress.checker.index;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** WriteIndex finds every write whatever the order the writes come in, including quicksort's bad orders. */
class WriteIndexTest {
    private static void assertFindsAll(long[] values) {
        int n = values.length;
        int[] key = new int[n], code = new int[n];
        for (int i = 0; i < n; i++) code[i] = i;
        WriteIndex w = new WriteIndex(1, n, key, values.clone(), code);
        for (int i = 0; i < n; i++) assertEquals(i, w.get(0, values[i]), "value " + values[i]);
        assertEquals(WriteIndex.MISSING, w.get(0, -5));
        assertNull(w.duplicate());
    }

    @Test
    void rotatedRunOfOneLongTransaction() {
        // One transaction overwriting a key: its final write comes first, then the intermediate ones in order.
        int n = 200_000;
        long[] v = new long[n];
        v[0] = n;
        for (int i = 1; i < n; i++) v[i] = i;
        assertFindsAll(v);
    }

    @Test
    void sortedReversedAndRandomOrders() {
        int n = 50_000;
        long[] up = new long[n], down = new long[n], organ = new long[n], random = new long[n];
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < n; i++) {
            up[i] = i;
            down[i] = n - i;
            organ[i] = i < n / 2 ? 2L * i : 2L * (n - i) + 1;
            random[i] = r.nextLong();
        }
        assertFindsAll(up);
        assertFindsAll(down);
        assertFindsAll(organ);
        assertFindsAll(random);
    }
}
