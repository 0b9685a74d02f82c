package isostress.checker.history;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link LongColumn} and the compact History columns it backs: values read back as written, whatever their width. */
class LongColumnTest {

    @Test
    void defaultThenNarrowThenWide() {
        LongColumn c = new LongColumn(-1, 4);
        for (int i = 0; i < 3; i++) c.set(i, -1);
        c.set(3, 7); // first non-default: narrow, earlier entries keep the default
        c.resize(10);
        c.set(4, Integer.MIN_VALUE);
        c.set(5, Long.MAX_VALUE); // widens
        c.set(6, 5);
        c.resize(7);
        long[] want = {-1, -1, -1, 7, Integer.MIN_VALUE, Long.MAX_VALUE, 5};
        for (int i = 0; i < want.length; i++) assertEquals(want[i], c.get(i), "entry " + i);
        assertEquals(7, c.capacity());
    }

    @Test
    void wideDefaultStartsWide() {
        LongColumn c = new LongColumn(1L << 40, 2);
        c.set(0, 1L << 40);
        c.set(1, 3);
        assertEquals(1L << 40, c.get(0));
        assertEquals(3, c.get(1));
    }

    @Test
    void historyKeepsLongValuesTimesAndNodes() {
        History.Builder b = History.builder();
        int n = 1000;
        for (int t = 0; t < n; t++) {
            long time = t < 500 ? -1 : 1_700_000_000_000_000_000L + t;
            b.beginTxn(t % 7, Outcome.OK, 2L * t, 2L * t + 1, time, time == -1 ? -1 : time + 1, t + 1);
            b.read(t, t == 900 ? Long.MIN_VALUE : t);
            b.write(t == 800 ? 1L << 50 : t, t + 1);
            if (t == 950) b.cas(3, null, 1L << 45);
            b.endTxn();
            if (t == 600) b.node(t, "n1");
        }
        History h = b.build();
        assertEquals(n, h.size());
        for (int t = 0; t < n; t++) {
            long time = t < 500 ? -1 : 1_700_000_000_000_000_000L + t;
            assertEquals(t % 7, h.process(t));
            assertEquals(2L * t, h.invokeIndex(t));
            assertEquals(2L * t + 1, h.completeIndex(t));
            assertEquals(time, h.invokeTime(t));
            assertEquals(time == -1 ? -1 : time + 1, h.completeTime(t));
            assertEquals(t == 600 ? "n1" : null, h.node(t));
            int o = h.firstOp(t);
            assertEquals(t, h.opKey(o));
            assertEquals(t == 900 ? Long.MIN_VALUE : t, h.opValue(o));
            assertEquals(t == 800 ? 1L << 50 : t, h.opKey(o + 1));
            if (t == 950) assertEquals(1L << 45, h.casNew(o + 2));
        }
        assertEquals(null, h.isolation(3));
    }
}
