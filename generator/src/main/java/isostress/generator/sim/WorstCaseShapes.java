package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;

import java.util.Locale;

/**
 * Valid histories of the shapes that fuzzing found to make a checker superlinear, for
 * {@code bench shapes}: each is a serial execution (every transaction completes before the next starts), so every
 * level holds, and its size grows with one parameter {@code n}.
 */
public enum WorstCaseShapes {
    /**
     * {@code n} transactions from 8 sessions, each a single blind write of a fresh value to one of only 3 keys, then
     * one transaction per key reading its last value (general rw-register checker: the writes' version order is
     * open, so every unread pair of writes is a candidate).
     */
    BLIND_WRITES("blind-writes") {
        @Override
        void build(History.Builder b, int n) {
            long[] current = new long[3];
            for (int i = 0; i < n; i++) {
                int k = i % 3;
                b.beginTxn(i % 8, Outcome.OK, 2L * i, 2L * i + 1, -1, -1, 0);
                b.write(k, current[k] = i + 1);
                b.endTxn();
            }
            for (int k = 0; k < 3; k++) {
                long i = n + k;
                b.beginTxn(8 + k, Outcome.OK, 2 * i, 2 * i + 1, -1, -1, 0);
                b.read(k, current[k]);
                b.endTxn();
            }
        }
    },
    /**
     * One transaction that reads key 0 and writes it {@code n} times, reading its own write after each (a
     * mini-transaction), then a transaction that reads the last value.
     */
    LONG_TXN("long-txn") {
        @Override
        void build(History.Builder b, int n) {
            longTxn(b, n, true);
        }
    },
    /** As {@link #LONG_TXN} without the first read: blind writes, so the general checker. */
    LONG_TXN_BLIND("long-txn-blind") {
        @Override
        void build(History.Builder b, int n) {
            longTxn(b, n, false);
        }
    };

    private final String cliName;

    WorstCaseShapes(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** The shape named {@code s}, or null. */
    public static WorstCaseShapes byName(String s) {
        for (WorstCaseShapes w : values()) if (w.cliName.equals(s.trim().toLowerCase(Locale.ROOT))) return w;
        return null;
    }

    /** The history of size {@code n}: keys start at 0. */
    public History history(int n) {
        History.Builder b = History.builder().source(cliName + "-" + n).initial(InitialState.allKeys(0L)).realTime(true);
        build(b, n);
        return b.build();
    }

    abstract void build(History.Builder b, int n);

    private static void longTxn(History.Builder b, int n, boolean firstRead) {
        b.beginTxn(0, Outcome.OK, 0, 1, -1, -1, 0);
        if (firstRead) b.read(0, 0L);
        for (int v = 1; v <= n; v++) {
            b.write(0, v);
            b.read(0, (long) v);
        }
        b.endTxn();
        b.beginTxn(1, Outcome.OK, 2, 3, -1, -1, 0);
        b.read(0, (long) n);
        b.endTxn();
    }
}
