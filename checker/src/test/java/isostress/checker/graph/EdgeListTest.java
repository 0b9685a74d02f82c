package isostress.checker.graph;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EdgeListTest {
    @Test
    void keepsEveryColumnOfEveryEdgeAcrossGrowth() {
        EdgeList l = new EdgeList(1, true, true);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            int e = i % 3 == 0 ? l.add(i, i + 1, (byte) (i % 5), 2 * i, 3 * i)
                    : i % 3 == 1 ? l.add(i, i + 1, (byte) (i % 5), 2 * i, 3 * i, (byte) 7)
                    : l.addWitnessed(i, i + 1, (byte) (i % 5), 2 * i, 3 * i, i / 2);
            assertEquals(i, e);
        }
        assertEquals(n, l.size);
        assertTrue(l.from.length >= n);
        for (int i = 0; i < n; i++) {
            assertEquals(i, l.from[i]);
            assertEquals(i + 1, l.to[i]);
            assertEquals(i % 5, l.kind[i]);
            assertEquals(2 * i, l.a[i]);
            assertEquals(3 * i, l.b[i]);
            assertEquals(i % 3 == 1 ? 7 : 0, l.tag[i]);
            assertEquals(i % 3 == 2 ? i / 2 : -1, l.witness[i]);
        }
    }

    @Test
    void allocatesOnlyTheColumnsAskedFor() {
        EdgeList l = new EdgeList(4, false, false);
        for (int i = 0; i < 100; i++) l.add(i, i, (byte) 0, 0, 0);
        assertNull(l.tag);
        assertNull(l.witness);
    }

    @Test
    void truncateForgetsTheTentativeEdgesAndReusesTheirSlots() {
        EdgeList l = new EdgeList(16, true, false);
        for (int i = 0; i < 10; i++) l.add(i, i + 1, (byte) 1, 0, 0);
        l.truncate(4);
        assertEquals(4, l.size);
        assertEquals(4, l.add(40, 41, (byte) 2, 5, 6, (byte) 3));
        assertEquals(40, l.from[4]);
        assertEquals(3, l.tag[4]);
        assertEquals(5, l.size);
    }
}
