package isostress.checker.stream;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static isostress.checker.stream.SessionNeighbours.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each session's nearest neighbours by invocation, whatever order its transactions come in. */
class SessionNeighboursTest {
    @Test
    void inOrderArrivalsNeighbourTheLastOne() {
        SessionNeighbours s = new SessionNeighbours();
        s.insert(1, 10, 0);
        assertNeighbours(s, NONE, NONE);
        s.insert(2, 11, 1);
        assertNeighbours(s, NONE, NONE);
        s.insert(1, 12, 2);
        assertNeighbours(s, 0, NONE);
        s.insert(2, 15, 3);
        assertNeighbours(s, 1, NONE);
    }

    @Test
    void aLateArrivalGoesBetweenItsNeighbours() {
        SessionNeighbours s = new SessionNeighbours();
        s.insert(1, 10, 0);
        s.insert(1, 30, 1);
        s.insert(1, 20, 2); // admitted after the one invoked after it (it waited for a writer)
        assertNeighbours(s, 0, 1);
        s.insert(1, 5, 3);
        assertNeighbours(s, NONE, 0);
        s.insert(1, 40, 4);
        assertNeighbours(s, 1, NONE);
        s.insert(1, 25, 5);
        assertNeighbours(s, 2, 1);
    }

    @Test
    void aSecondTransactionAtTheSameInvocationIsBothNeighboursAndReplacesIt() {
        SessionNeighbours s = new SessionNeighbours();
        s.insert(1, 10, 0);
        s.insert(1, 20, 1);
        s.insert(1, 10, 2);
        assertNeighbours(s, 0, 0);
        s.insert(1, 15, 3);
        assertNeighbours(s, 2, 1);
    }

    @Test
    void agreesWithASortedMapInAnyOrder() {
        Random rnd = new Random(3);
        for (int round = 0; round < 200; round++) {
            SessionNeighbours s = new SessionNeighbours();
            Map<Long, TreeMap<Long, Integer>> sessions = new TreeMap<>();
            List<long[]> txns = new ArrayList<>(); // process, invocation
            int n = 1 + rnd.nextInt(100);
            for (int i = 0; i < n; i++) txns.add(new long[] {rnd.nextInt(4), 1_000L * i + rnd.nextInt(1_000)});
            if (round % 2 == 0) Collections.shuffle(txns, rnd);
            else for (int i = 0; i + 1 < n; i += 2) if (rnd.nextInt(4) == 0) Collections.swap(txns, i, i + 1);
            for (int v = 0; v < n; v++) {
                long p = txns.get(v)[0], inv = txns.get(v)[1];
                TreeMap<Long, Integer> m = sessions.computeIfAbsent(p, x -> new TreeMap<>());
                Map.Entry<Long, Integer> before = m.floorEntry(inv), after = m.ceilingEntry(inv);
                m.put(inv, v);
                s.insert(p, inv, v);
                assertNeighbours(s, before == null ? NONE : before.getValue(), after == null ? NONE : after.getValue());
            }
        }
    }

    private static void assertNeighbours(SessionNeighbours s, int before, int after) {
        assertEquals(before, s.before(), "before");
        assertEquals(after, s.after(), "after");
    }
}
