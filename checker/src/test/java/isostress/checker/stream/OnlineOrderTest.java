package isostress.checker.stream;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dynamic topological order against a plain reachability search on random graphs. */
class OnlineOrderTest {
    @Test
    void refusesExactlyTheEdgesThatCloseACycle() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int round = 0; round < 300; round++) {
            int n = 2 + rnd.nextInt(40);
            OnlineOrder g = new OnlineOrder();
            List<List<Integer>> adj = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                assertEquals(i, g.node());
                adj.add(new ArrayList<>());
            }
            int tries = n * (1 + rnd.nextInt(4));
            for (int e = 0; e < tries; e++) {
                int x = rnd.nextInt(n), y = rnd.nextInt(n);
                boolean closes = x != y && reaches(adj, y, x);
                assertEquals(!closes, g.add(x, y), "round " + round + ", edge " + x + " -> " + y);
                if (!closes && x != y) adj.get(x).add(y);
            }
        }
    }

    @Test
    void manyEdgesSpanSeveralChunksOfThePool() {
        OnlineOrder g = new OnlineOrder();
        int n = 1_000;
        for (int i = 0; i < n; i++) g.node();
        // About 200,000 edges, each from a lower node to one of the next 200: node 0 reaches every other.
        for (int i = 1; i < n; i++) for (int j = Math.max(0, i - 200); j < i; j++) assertTrue(g.add(j, i));
        assertTrue(g.edges() > 1 << 16, g.edges() + " edges");
        assertFalse(g.add(n - 1, 0), "the search from node 0 walks edges in several chunks of the pool to the last");
        assertFalse(g.add(500, 0));
        assertTrue(g.add(0, n - 1), "an edge that agrees with the order");
        int m = g.node();
        assertTrue(g.add(m, 5), "a new node before node 5: all those after 5 move after it");
        assertFalse(g.add(n - 1, m), "which the order now has");
    }

    private static boolean reaches(List<List<Integer>> adj, int from, int to) {
        boolean[] seen = new boolean[adj.size()];
        List<Integer> stack = new ArrayList<>(List.of(from));
        seen[from] = true;
        while (!stack.isEmpty()) {
            int v = stack.remove(stack.size() - 1);
            if (v == to) return true;
            for (int w : adj.get(v)) {
                if (!seen[w]) {
                    seen[w] = true;
                    stack.add(w);
                }
            }
        }
        return false;
    }
}
